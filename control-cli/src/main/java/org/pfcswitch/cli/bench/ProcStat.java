package org.pfcswitch.cli.bench;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What {@code /proc} says about the machine's load and about other processes' threads, cheaply:
 * the load average, the CPU time the hypervisor stole, the CPU time of a process's threads by
 * name, and which processes of a name are running. Everything reads as "unknown" (NaN, -1, empty)
 * where {@code /proc} is not there.
 */
public final class ProcStat {

    private ProcStat() {}

    /** {@code /proc/loadavg}: the 1, 5 and 15 minute load averages, NaN if unreadable. */
    public static double[] loadAverage() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return new double[] {Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2])};
        } catch (IOException | RuntimeException e) {
            return new double[] {Double.NaN, Double.NaN, Double.NaN};
        }
    }

    /** The machine's CPU time so far, all CPUs summed, from the first line of {@code /proc/stat} (in ticks). */
    public record CpuTimes(long total, long steal, long idle) {
        /** Per cent of the CPU time between {@code before} and this that the hypervisor stole. */
        public double stealPercentSince(CpuTimes before) {
            long t = total - before.total;
            return t > 0 && before.total >= 0 ? 100.0 * (steal - before.steal) / t : Double.NaN;
        }

        /** Per cent of the CPU time between {@code before} and this that was busy (not idle or iowait). */
        public double busyPercentSince(CpuTimes before) {
            long t = total - before.total;
            return t > 0 && before.total >= 0 ? 100.0 * (t - (idle - before.idle)) / t : Double.NaN;
        }
    }

    public static CpuTimes cpuTimes() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/stat"))) {
                if (line.startsWith("cpu ")) {
                    String[] f = line.substring(4).trim().split("\\s+");
                    long total = 0;
                    for (int i = 0; i < Math.min(f.length, 8); i++) {     // user .. steal; guest is inside user
                        total += Long.parseLong(f[i]);
                    }
                    long idle = Long.parseLong(f[3]) + Long.parseLong(f[4]);
                    return new CpuTimes(total, f.length > 7 ? Long.parseLong(f[7]) : 0, idle);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return new CpuTimes(-1, 0, 0);
    }

    private static long ticksPerSecond = -1;

    /** The kernel's clock ticks per second ({@code getconf CLK_TCK}; 100 on Linux). */
    public static synchronized long ticksPerSecond() {
        if (ticksPerSecond < 0) {
            ticksPerSecond = 100;
            try {
                Process p = new ProcessBuilder("getconf", "CLK_TCK").redirectErrorStream(true).start();
                String out = new String(p.getInputStream().readAllBytes()).trim();
                if (p.waitFor() == 0) {
                    ticksPerSecond = Long.parseLong(out);
                }
            } catch (IOException | RuntimeException e) {
                // keep 100
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        return ticksPerSecond;
    }

    /**
     * User plus system CPU ticks of the threads of {@code pid} whose name starts with one of
     * {@code namePrefixes}; -1 if the process is gone or unreadable.
     */
    public static long threadTicks(long pid, String... namePrefixes) {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : tasks) {
                String stat;
                try {
                    stat = Files.readString(task.resolve("stat"));
                } catch (IOException e) {
                    continue;                                   // the thread ended meanwhile
                }
                int open = stat.indexOf('(');
                int close = stat.lastIndexOf(')');
                String name = stat.substring(open + 1, close);
                if (Arrays.stream(namePrefixes).noneMatch(name::startsWith)) {
                    continue;
                }
                String[] f = stat.substring(close + 2).split(" "); // f[0] is field 3 (state)
                sum += Long.parseLong(f[11]) + Long.parseLong(f[12]);
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return sum;
    }

    /** Ids of the running processes whose name ({@code /proc/PID/comm}, 15 characters at most) starts with {@code prefix}. */
    public static List<Long> pidsNamed(String prefix) {
        List<Long> pids = new ArrayList<>();
        try (DirectoryStream<Path> procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try {
                    if (Files.readString(proc.resolve("comm")).trim().startsWith(prefix)) {
                        pids.add(Long.parseLong(proc.getFileName().toString()));
                    }
                } catch (IOException | NumberFormatException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            // no /proc
        }
        return pids;
    }

    /** Whether this process runs as root (the effective uid in {@code /proc/self/status}). */
    public static boolean isRoot() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("Uid:")) {
                    return line.substring(4).trim().split("\\s+")[1].equals("0");
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux
        }
        return "root".equals(System.getProperty("user.name"));
    }
}

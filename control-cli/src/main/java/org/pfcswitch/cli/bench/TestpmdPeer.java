package org.pfcswitch.cli.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * {@code dpdk-testpmd --forward-mode=mac} as the I/O-limit reference of {@code bench fwd}: one
 * process per round on two vdevs of the kind the bench uses, {@code N} forwarding lcores on the
 * workers' CPUs (one stream per port, so with 2 cores each core serves one port), burst 32. Its
 * rate is the mean of its per-second Rx-pps, both ports summed, after the settle periods.
 */
public final class TestpmdPeer {

    /** One round: forwarded Mpps, and the share of its cores' time its forwarding lcores got (NaN if unknown). */
    public record Round(double mpps, double cpuShare) {}

    /** The names DPDK gives its worker lcore threads (22.11: rte-worker-N; later: lcore-worker-N). */
    private static final String[] WORKER_THREADS = {"rte-worker", "lcore-worker"};

    private final String binary;
    private final List<String> memoryArgs;
    private final boolean nullDevices;
    private final BooleanSupplier stop;

    /**
     * @param memoryArgs  the EAL memory arguments (the same as the bench's own)
     * @param nullDevices net_null vdevs (rx allocates, tx frees) instead of looped-back net_ring ones
     * @param stop        true once the run is interrupted: the round ends early and returns NaN
     */
    public TestpmdPeer(String binary, List<String> memoryArgs, boolean nullDevices, BooleanSupplier stop) {
        this.binary = binary;
        this.memoryArgs = List.copyOf(memoryArgs);
        this.nullDevices = nullDevices;
        this.stop = stop;
    }

    /**
     * One testpmd run: {@code settleSeconds} unmeasured stats periods, then {@code seconds} measured.
     *
     * @param mainCpu    testpmd's main lcore (prints the stats; mostly asleep)
     * @param workerCpus one forwarding lcore on each
     */
    public Round round(int frameBytes, int mainCpu, int[] workerCpus, int settleSeconds, int seconds) throws Exception {
        StringBuilder lcores = new StringBuilder("0@" + mainCpu);
        for (int i = 0; i < workerCpus.length; i++) {
            lcores.append(',').append(i + 1).append('@').append(workerCpus[i]);
        }
        List<String> cmd = new ArrayList<>(List.of(binary, "--lcores=" + lcores));
        cmd.addAll(memoryArgs);
        cmd.addAll(List.of("--no-pci", "--no-telemetry", "--log-level=*:warning"));
        if (nullDevices) {
            cmd.addAll(List.of("--vdev=net_null0,size=" + frameBytes, "--vdev=net_null1,size=" + frameBytes,
                    "--", "--forward-mode=mac", "--burst=32"));
        } else {
            cmd.addAll(List.of("--vdev=net_ring0", "--vdev=net_ring1",
                    "--", "--forward-mode=mac", "--tx-first", "--burst=32", "--txpkts=" + frameBytes));
        }
        cmd.addAll(List.of("--stats-period=1", "--total-num-mbufs=8192", "--nb-cores=" + workerCpus.length));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start " + binary + " (apt-get install dpdk-dev): " + e.getMessage());
        }
        List<Long> perPort = new ArrayList<>();
        StringBuilder output = new StringBuilder();
        long deadline = System.nanoTime() + (seconds + settleSeconds + 20) * 1_000_000_000L;
        int settled = 2 * settleSeconds;
        int wanted = 2 * (seconds + settleSeconds);
        long ticks0 = -1;
        long ticks1 = -1;
        long t0 = 0;
        long t1 = 0;
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                output.append(line).append('\n');
                String t = line.trim();
                if (t.startsWith("Rx-pps:")) {
                    perPort.add(Long.parseLong(t.substring(7).trim().split("\\s+")[0]));
                    if (perPort.size() == settled) {
                        ticks0 = ProcStat.threadTicks(p.pid(), WORKER_THREADS);
                        t0 = System.nanoTime();
                    }
                    if (perPort.size() >= wanted) {
                        ticks1 = ProcStat.threadTicks(p.pid(), WORKER_THREADS);
                        t1 = System.nanoTime();
                        break;
                    }
                }
                if (System.nanoTime() > deadline || stop.getAsBoolean()) {
                    break;
                }
            }
        } finally {
            p.destroy();                                   // SIGTERM: testpmd stops its ports and exits
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
        if (perPort.size() < wanted) {
            if (stop.getAsBoolean()) {
                return new Round(Double.NaN, Double.NaN);
            }
            throw new IllegalStateException("testpmd printed " + perPort.size() + " Rx-pps samples, expected " + wanted
                    + "; its output:\n" + output);
        }
        double sum = 0;
        int n = 0;
        for (int i = settled; i + 1 < wanted; i += 2) {        // skip the settle periods; sum ports 0 and 1
            sum += perPort.get(i) + perPort.get(i + 1);
            n++;
        }
        double share = ticks0 >= 0 && ticks1 >= 0 && t1 > t0
                ? (ticks1 - ticks0) / (double) ProcStat.ticksPerSecond() / ((t1 - t0) / 1e9) / workerCpus.length
                : Double.NaN;
        return new Round(sum / n / 1e6, share);
    }
}

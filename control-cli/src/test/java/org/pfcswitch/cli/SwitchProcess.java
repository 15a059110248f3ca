package org.pfcswitch.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code pfcswitch} in a child JVM, for commands that start DPDK (EAL starts once per process, and
 * signals and exit codes are part of what is tested). Uses this JVM's class path and the launcher's flags.
 */
final class SwitchProcess implements AutoCloseable {

    private final Process process;
    private final List<String> out = new ArrayList<>();
    private final List<String> err = new ArrayList<>();
    private final Thread outReader;
    private final Thread errReader;

    private SwitchProcess(Process process) {
        this.process = process;
        this.outReader = collect(process.getInputStream(), out);
        this.errReader = collect(process.getErrorStream(), err);
    }

    static SwitchProcess start(List<String> jvmOptions, String... args) throws IOException {
        return new SwitchProcess(new ProcessBuilder(command(jvmOptions, args)).start());
    }

    /**
     * As a script's background job starts it: with SIGINT ignored ({@code trap '' INT}, inherited
     * through exec), whatever the disposition of the JVM running the tests.
     */
    static SwitchProcess startWithSigintIgnored(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of("/bin/sh", "-c", "trap '' INT; exec \"$@\"", "sh"));
        command.addAll(command(List.of(), args));
        return new SwitchProcess(new ProcessBuilder(command).start());
    }

    private static List<String> command(List<String> jvmOptions, String... args) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-XX:+UseParallelGC", "-Xmx512m"));
        command.addAll(jvmOptions);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), PfcSwitch.class.getName()));
        command.addAll(List.of(args));
        return command;
    }

    static SwitchProcess start(String... args) throws IOException {
        return start(List.of(), args);
    }

    private static Thread collect(InputStream stream, List<String> into) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (into) {
                        into.add(line);
                        into.notifyAll();
                    }
                }
            } catch (IOException e) {
                // the process is gone
            } finally {
                synchronized (into) {
                    into.notifyAll();      // the stream ended: a waiting awaitLine sees the process gone now
                }
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Waits for a stdout line containing {@code text}; fails with everything printed so far. */
    String awaitLine(String text, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (out) {
            while (true) {
                for (String line : out) {
                    if (line.contains(text)) {
                        return line;
                    }
                }
                long left = deadline - System.nanoTime();
                if (left <= 0 || (!process.isAlive() && !outReader.isAlive())) {
                    throw new AssertionError("no line with '" + text + "' within " + timeout + "\nstdout:\n"
                            + String.join("\n", out) + "\nstderr:\n" + stderr());
                }
                // woken by each line and by the end of the stream; the process may exit a moment after that
                out.wait(Math.max(1, Math.min(200, TimeUnit.NANOSECONDS.toMillis(left))));
            }
        }
    }

    /** The switch's process id (the JVM's own: it is started without a shell). */
    long pid() {
        return process.pid();
    }

    /** Sends {@code SIGINT} or {@code SIGTERM} and waits for the exit code. */
    int signalAndWait(String signal, Duration timeout) throws Exception {
        new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start().waitFor();
        return waitFor(timeout);
    }

    int waitFor(Duration timeout) throws InterruptedException {
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            process.destroyForcibly();
            throw new AssertionError("pfcswitch did not exit within " + timeout + "\nstdout:\n" + stdout() + "\nstderr:\n" + stderr());
        }
        outReader.join(5000);
        errReader.join(5000);
        return process.exitValue();
    }

    String stdout() {
        synchronized (out) {
            return String.join("\n", out);
        }
    }

    /** Everything the process wrote to stderr so far. */
    String stderr() {
        synchronized (err) {
            return String.join("\n", err);
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}

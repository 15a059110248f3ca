package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * A change that meets a stalled worker on a live two-worker switch (worker 0 owns port a, worker 1
 * port b; both idle, so each worker sleeps between passes with {@code poll.idleSleep}). Worker 1's
 * thread, and only it, is frozen by the kernel (a cgroup-v1 freezer group of this test's own
 * holding that one thread id) while it sleeps: the OS does not run it when its sleep ends, as a
 * descheduled worker on a crowded CPU, but for as long as the test likes. {@code set scheme} must
 * then answer 503 naming worker 1 once its wait is over, and the change must never apply: not while
 * the worker is frozen, and not once it runs again (a change is applied exactly when the client is
 * told so).
 *
 * <p>Why frozen while asleep: a Java thread frozen while it runs Java code also stops every other
 * thread of its JVM at the next safepoint (a GC, a thread dump), which waits for it to reach a
 * safepoint poll; a thread blocked in the kernel counts as at one. So the test freezes the worker
 * until the kernel shows it in its sleep's futex wait, and retries otherwise.
 */
class LiveStalledWorkerTest {

    private static final Path FREEZER = Path.of("/sys/fs/cgroup/freezer");
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void aChangeThatTimesOutOnAFrozenWorkerIsRefusedNamingItAndNeverApplied() throws Exception {
        NetnsLab.requireRootAndTools();
        assertTrue(Files.isDirectory(FREEZER), "this test needs the cgroup-v1 freezer at " + FREEZER);
        HttpClient http = HttpClient.newHttpClient();
        try (FloodedSwitch sw = FloodedSwitch.start(dir, """
                eal: {hugepages: off}
                workers: 2
                ports:
                  - {name: a, device: net_ring0, speed: 1G}
                  - {name: b, device: net_ring1, speed: 1G}
                mmu: {totalBytes: 1MiB, scheme: dt}
                poll: {idleSleep: 1ms}
                """, dir.resolve("control.token"))) {
            String startLog = sw.process.stdout();
            assertTrue(startLog.contains("worker 0: owns a") && startLog.contains("worker 1: owns b"), startLog);
            assertEquals("dt", scheme(http, sw), "as configured");
            long worker1 = workerThreads(sw.process.pid(), 2).get(1);

            HttpResponse<String> refused;
            try (FrozenThread frozen = FrozenThread.freezeAsleep(sw.process.pid(), worker1)) {
                refused = setScheme(http, sw, "dsh");
                assertTrue(frozen.isFrozen(), "worker 1 stayed frozen while the change waited");
            }
            assertEquals(503, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("worker(s) [1] did not stop for the change")
                    && refused.body().contains("no worker changed, the switch runs dt as before"), refused.body());

            // Worker 1 runs again: the change it never took must not apply late.
            Thread.sleep(1_000);
            assertEquals("dt", scheme(http, sw), "a change refused is never applied later");
            assertTrue(sw.process.stdout().lines().noneMatch(l -> l.contains("control: scheme") && l.contains("dsh")),
                    sw.process.stdout());
            HttpResponse<String> again = setScheme(http, sw, "dsh");
            assertEquals(200, again.statusCode(), "both workers take a change once they run: " + again.body());
            assertEquals("dsh", scheme(http, sw));
        }
    }

    /**
     * A worker the OS does not run when its idle sleep ends is stalled like one taken off its CPU
     * mid-pass (its rings fill meanwhile): the shutdown log's longest stall covers a 1.5 s freeze
     * that began in the sleep (only the sleep asked for is not a stall).
     */
    @Test
    void aWorkerHeldPastItsIdleSleepCountsAsStalled() throws Exception {
        NetnsLab.requireRootAndTools();
        assertTrue(Files.isDirectory(FREEZER), "this test needs the cgroup-v1 freezer at " + FREEZER);
        String log;
        try (FloodedSwitch sw = FloodedSwitch.start(dir, """
                eal: {hugepages: off}
                ports:
                  - {name: a, device: net_ring0, speed: 1G}
                mmu: {totalBytes: 1MiB, scheme: dt}
                poll: {idleSleep: 1ms}
                """, dir.resolve("control.token"))) {
            long worker = workerThreads(sw.process.pid(), 1).getFirst();
            try (FrozenThread frozen = FrozenThread.freezeAsleep(sw.process.pid(), worker)) {
                Thread.sleep(1_500);
            }
            Thread.sleep(200);
            sw.close();
            log = sw.process.stdout();
        }
        Matcher longest = Pattern.compile("poll-loop stalls .*longest (\\d+) us").matcher(log);
        assertTrue(longest.find(), log);
        assertTrue(Long.parseLong(longest.group(1)) >= 1_400_000, "the freeze counts as one stall: " + longest.group());
    }

    private static HttpResponse<String> setScheme(HttpClient http, FloodedSwitch sw, String scheme) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(sw.api + "/api/v1/scheme")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + sw.token())
                .POST(HttpRequest.BodyPublishers.ofString("{\"scheme\":\"" + scheme + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String scheme(HttpClient http, FloodedSwitch sw) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(sw.api + "/api/v1/show/scheme"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body()).get("scheme").asText();
    }

    /**
     * The kernel thread ids of the switch's workers in the order they started: the kernel keeps 15
     * characters of a thread's name, so {@code pfcswitch-core-0} and {@code -1} both read
     * {@code pfcswitch-core-}; worker 0 is started first.
     */
    private static List<Long> workerThreads(long pid, int workers) throws Exception {
        record Task(long tid, long startedTicks) {}
        List<Task> found = new ArrayList<>();
        try (var tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path task : (Iterable<Path>) tasks::iterator) {
                String name = Files.readString(task.resolve("comm")).strip();
                if (workers == 1 ? name.equals("pfcswitch-core") : name.equals("pfcswitch-core-")) {
                    String stat = Files.readString(task.resolve("stat"));
                    String[] afterName = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    found.add(new Task(Long.parseLong(task.getFileName().toString()), Long.parseLong(afterName[19])));
                }
            }
        }
        assertEquals(workers, found.size(), "worker threads in " + pid);
        return found.stream().sorted(Comparator.comparingLong(Task::startedTicks).thenComparingLong(Task::tid))
                .map(Task::tid).toList();
    }

    /** One thread in a freezer group of its own, frozen until {@link #close} thaws it and removes the group. */
    private static final class FrozenThread implements AutoCloseable {
        /** futex(2)'s number, as /proc/PID/task/TID/syscall gives it: x86-64's, else arm64's. */
        private static final String FUTEX = System.getProperty("os.arch").equals("aarch64") ? "98" : "202";
        private final Path group;
        private final long tid;

        private FrozenThread(Path group, long tid) {
            this.group = group;
            this.tid = tid;
        }

        /** Freezes thread {@code tid} of process {@code pid} at a moment it sleeps in a futex wait (up to 50 tries). */
        static FrozenThread freezeAsleep(long pid, long tid) throws Exception {
            Path group = Files.createDirectory(FREEZER.resolve("pfcswitch-test-" + ProcessHandle.current().pid() + "-" + tid));
            FrozenThread t = new FrozenThread(group, tid);
            try {
                Files.writeString(group.resolve("tasks"), Long.toString(tid));
                Path syscall = Path.of("/proc", Long.toString(pid), "task", Long.toString(tid), "syscall");
                for (int attempt = 0; attempt < 50; attempt++) {
                    Files.writeString(group.resolve("freezer.state"), "FROZEN");
                    long deadline = System.nanoTime() + 5_000_000_000L;
                    while (!t.isFrozen() && System.nanoTime() < deadline) {
                        Thread.sleep(10);
                    }
                    assertTrue(t.isFrozen(), "the freezer froze thread " + tid);
                    if (Files.readString(syscall).startsWith(FUTEX + " ")) {
                        return t;
                    }
                    Files.writeString(group.resolve("freezer.state"), "THAWED");
                    Thread.sleep(20);
                }
                throw new AssertionError("thread " + tid + " was never frozen in its sleep in 50 tries");
            } catch (Exception | AssertionError e) {
                t.close();
                throw e;
            }
        }

        boolean isFrozen() throws Exception {
            return Files.readString(group.resolve("freezer.state")).strip().equals("FROZEN");
        }

        @Override
        public void close() throws Exception {
            Files.writeString(group.resolve("freezer.state"), "THAWED");
            try {
                Files.writeString(FREEZER.resolve("tasks"), Long.toString(tid));     // back to the root group
            } catch (java.io.IOException e) {
                // the thread has ended: nothing to move back
            }
            Files.delete(group);
        }
    }
}

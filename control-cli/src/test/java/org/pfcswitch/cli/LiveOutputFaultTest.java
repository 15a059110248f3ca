package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A file the switch writes meets a full disk: a real one, a 256 KiB tmpfs mounted here (and
 * unmounted after), never the machine's disk. {@code run --record} logs the failed write when it
 * happens, counts it in {@code /metrics}, keeps forwarding, keeps a prefix that {@code sim --replay}
 * takes with a warning, and exits 4; so does a {@code --drop-log} that cannot be written.
 */
class LiveOutputFaultTest {

    @TempDir
    Path dir;

    @Test
    void aRecordingThatFillsTheDiskStopsAtOnceAndKeepsAReplayablePrefix() throws Exception {
        Path disk = mountSmallTmpfs("rec");
        try {
            Path cfg = dir.resolve("flood.yaml");
            Files.writeString(cfg, "eal: {memoryMb: 256, hugepages: off}\n" + ControlApiTest.FLOOD_SWITCH);
            Path rec = disk.resolve("flood.arr");
            int port = ControlApiTest.freePort();
            HttpClient http = HttpClient.newHttpClient();
            String log;
            String err;
            int exit;
            try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--record", rec.toString(),
                    "--control-port", Integer.toString(port), "--token-file", dir.resolve("token").toString())) {
                // --record-max's default, 10 million 80-byte records, cannot fit 256 KiB: said at start, then run anyway.
                sw.awaitLine("warning: --record-max 10000000 arrivals take up to 800.0 MB, more than the 0.3 MB free on the"
                        + " file system of " + rec + ": the recording stops when it is full", Duration.ofSeconds(60));
                sw.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(60));
                // The flood fills 256 KiB in milliseconds: the line comes while the switch runs, not at its end.
                sw.awaitLine("recording to " + rec + " stopped: a write failed", Duration.ofSeconds(30));
                String metrics = get(http, port, "/metrics");
                assertEquals(1.0, metric(metrics, "pfcswitch_record_write_failures_total"), metrics);
                long rx1 = rxFrames(http, port);
                Thread.sleep(500);
                long rx2 = rxFrames(http, port);
                assertTrue(rx2 > rx1, "the switch forwards on after the recording stopped: rx " + rx1 + " then " + rx2);
                assertTrue(metric(get(http, port, "/metrics"), "pfcswitch_record_arrivals_lost_total") > 0,
                        "arrivals after the stop are counted as not recorded");
                exit = sw.signalAndWait("TERM", Duration.ofSeconds(30));
                log = sw.stdout();
                err = sw.stderr();
            }
            assertEquals(4, exit, "a recording that stopped on a failed write makes the exit status nonzero\n" + log + err);
            assertTrue(err.contains("pfcswitch run: error: the recording " + rec + " stopped early on a failed write"), err);
            Matcher kept = Pattern.compile("stopped: a write failed \\(([^)]*)\\); kept the first (\\d+) arrivals").matcher(log);
            assertTrue(kept.find(), log);
            assertTrue(kept.group(1).contains("No space left on device"), "names the error: " + kept.group(1));
            long records = Long.parseLong(kept.group(2));
            assertTrue(records > 1000, "most of 256 KiB holds whole 80-byte records: " + records);
            assertEquals(24 + 2 * 8 + 16 + records * 80, Files.size(rec), "cut back to whole records");
            assertTrue(log.matches("(?s).*recorded " + records + " arrivals to \\S+, \\d+ dropped \\(ring full\\), \\d+ beyond"
                    + " --record-max, [1-9]\\d* after the recording stopped on a failed write.*"), log);
            assertTrue(log.contains("(all returned)"), log);

            Cli sim = Cli.run("sim", "--replay", rec.toString(), "--scheme", "dt");
            assertEquals(0, sim.exitCode(), sim.err());
            assertTrue(sim.outLines()[0].startsWith("replay flood.arr: " + records + " arrivals"), sim.out());
            assertTrue(sim.out().contains("warning: the recording is truncated"), sim.out());
        } finally {
            unmount(disk);
        }
    }

    @Test
    void aDropLogThatCannotBeWrittenIsSaidAndMakesTheExitStatusNonzero() throws Exception {
        Path disk = mountSmallTmpfs("drops");
        try {
            fill(disk.resolve("filler"));
            Path cfg = dir.resolve("flood.yaml");
            Files.writeString(cfg, "eal: {memoryMb: 256, hugepages: off}\n" + ControlApiTest.FLOOD_SWITCH);
            Path drops = disk.resolve("drops.csv");
            String log;
            String err;
            int exit;
            try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control", "--drop-log",
                    drops.toString())) {
                sw.awaitLine("forwarding; stop with", Duration.ofSeconds(60));
                Thread.sleep(300);
                exit = sw.signalAndWait("TERM", Duration.ofSeconds(30));
                log = sw.stdout();
                err = sw.stderr();
            }
            assertEquals(4, exit, log + err);
            assertTrue(log.contains("drop log: cannot write " + drops + ": No space left on device; not even its header was"
                    + " written"), log);
            assertTrue(err.contains("pfcswitch run: error: the drop log " + drops + " could not be written whole"), err);
            assertTrue(!Files.exists(drops) || Files.size(drops) == 0, "no line cut in half is left");
            assertTrue(log.contains("(all returned)"), log);
        } finally {
            unmount(disk);
        }
    }

    private Path mountSmallTmpfs(String name) throws Exception {
        NetnsLab.requireRootAndTools();
        Path mount = Files.createDirectories(dir.resolve(name));
        run("mount", "-t", "tmpfs", "-o", "size=256k", "pfcswitch-test", mount.toString());
        return mount;
    }

    private static void unmount(Path mount) throws Exception {
        run("umount", mount.toString());
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }

    /** Writes {@code file} until the file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[4096];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException full) {
            assertTrue(full.getMessage().contains("No space left on device"), full.getMessage());
        }
    }

    private static long rxFrames(HttpClient http, int port) throws Exception {
        long n = 0;
        for (var p : new ObjectMapper().readTree(get(http, port, "/api/v1/show/ports")).get("ports")) {
            n += p.get("rx_frames").asLong();
        }
        return n;
    }

    private static double metric(String metrics, String name) {
        Matcher m = Pattern.compile("(?m)^" + name + " (\\S+)$").matcher(metrics);
        assertTrue(m.find(), name + " missing in /metrics");
        return Double.parseDouble(m.group(1));
    }

    private static String get(HttpClient http, int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}

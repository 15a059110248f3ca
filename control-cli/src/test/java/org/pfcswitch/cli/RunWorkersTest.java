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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * {@code run} with two workers on real DPDK: ControlApiTest's flooded switch, its net_null port
 * (worker 1) sending everything to its ring port (worker 0), so every frame crosses between the
 * workers and the congested egress is on the other worker than its sender. The control API shows
 * the switch as one (counters of both workers, each port's state from its owner), a trace reads as
 * one switch's, a live change of scheme reaches both workers and PFC goes on under it, and every mbuf
 * comes back, those in the rings between the workers included.
 */
class RunWorkersTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @Test
    void twoWorkersForwardAcrossEachOtherAndShowAsOneSwitch() throws Exception {
        NetnsLab.requireRootAndTools();
        Path cfg = dir.resolve("switch.yaml");
        Files.writeString(cfg, "eal: {hugepages: off}\nworkers: 2\n" + ControlApiTest.FLOOD_SWITCH);
        int port = ControlApiTest.freePort();
        String api = "http://127.0.0.1:" + port;
        Path token = dir.resolve("control.token");
        HttpClient http = HttpClient.newHttpClient();
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", token.toString())) {
            sw.awaitLine("control API on " + api, Duration.ofSeconds(60));
            String startLog = sw.stdout();
            assertTrue(startLog.contains("worker 0: owns loop") && startLog.contains("worker 1: owns sink"), startLog);
            assertTrue(startLog.matches("(?s).*workers: 2 share one buffer.* \\d+ B of the shared pool reserved.*"), startLog);

            long deadline = System.nanoTime() + 10_000_000_000L;
            JsonNode pfc = show(http, api, "pfc");
            while (pfc.get("ports").get(1).get("pause_sent").get(3).asLong() == 0 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                pfc = show(http, api, "pfc");
            }
            assertTrue(pfc.get("ports").get(1).get("pause_sent").get(3).asLong() > 0,
                    "worker 1 pauses sink when loop's queue on worker 0 fills: " + pfc);
            JsonNode ports = show(http, api, "ports").get("ports");
            long rxSink = ports.get(1).get("rx_frames").asLong();
            long txLoop = ports.get(0).get("tx_frames").asLong();
            assertTrue(rxSink > 1000 && txLoop > 1000, "frames from worker 1's port left by worker 0's: " + ports);
            String metrics = http.send(HttpRequest.newBuilder(URI.create(api + "/metrics")).GET().build(),
                    HttpResponse.BodyHandlers.ofString()).body();
            assertTrue(metrics.matches("(?s).*pfcswitch_rx_frames_total\\{[^}]*port=\"sink\"[^}]*priority=\"3\"[^}]*} [1-9].*"),
                    "/metrics counts what worker 1 received");
            assertTrue(metrics.matches("(?s).*pfcswitch_tx_frames_total\\{[^}]*port=\"loop\"[^}]*priority=\"3\"[^}]*} [1-9].*"),
                    "/metrics counts what worker 0 sent");

            traceReadsAsOneSwitch(api);

            String t = Files.readString(token).strip();
            HttpResponse<String> changed = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/scheme"))
                    .header("Authorization", "Bearer " + t)
                    .POST(HttpRequest.BodyPublishers.ofString("{\"scheme\":\"dsh\"}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, changed.statusCode(), changed.body());
            assertEquals("dsh", show(http, api, "scheme").get("scheme").asText(), "both workers run the new scheme");
            long pausesBefore = show(http, api, "pfc").get("ports").get(1).get("pause_sent").get(3).asLong();
            deadline = System.nanoTime() + 10_000_000_000L;
            while (show(http, api, "pfc").get("ports").get(1).get("pause_sent").get(3).asLong() == pausesBefore
                    && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertTrue(show(http, api, "pfc").get("ports").get(1).get("pause_sent").get(3).asLong() > pausesBefore,
                    "under the new scheme worker 1 still pauses sink for worker 0's queue");

            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            String log = sw.stdout();
            assertTrue(log.contains("(all returned)"), log);
            assertTrue(log.matches("(?s).*counters sink: rx [1-9].*"), log);
            assertTrue(log.matches("(?s).*counters loop: rx \\d+.*, tx [1-9].*"), log);
        }
    }

    /**
     * {@code trace} of the two workers: each samples its own port (loop on worker 0, sink on worker 1)
     * and the file has both ports' queues in every sample, the pauses worker 1 sent, loop's egress
     * queue holding what worker 1 admitted, and per sample a buffer row that is the sum of the queue
     * rows' ingress bytes and of their egress bytes (all traffic is priority 3, the traced lossless
     * one); {@code plot} draws it.
     */
    private void traceReadsAsOneSwitch(String api) throws Exception {
        Path trace = dir.resolve("two-workers.csv");
        Cli t = Cli.run("trace", "--duration", "1s", "--every", "50us", "--out", trace.toString(), "--api", api);
        assertEquals(0, t.exitCode(), t.err());
        org.pfcswitch.core.trace.TraceReader.Trace read = org.pfcswitch.core.trace.TraceReader.read(trace);
        assertTrue(read.header().portNames().equals(java.util.List.of("loop", "sink")), read.header().toString());
        assertTrue(read.complete() && read.dropped() == 0, t.out());
        assertEquals(java.util.List.of(new org.pfcswitch.core.trace.TraceReader.Queue(0, 3),
                new org.pfcswitch.core.trace.TraceReader.Queue(1, 3)), read.queues(), "both workers' ports");
        assertTrue(read.pfcCount(org.pfcswitch.core.trace.TraceRecorder.PFC_TX, org.pfcswitch.core.trace.TraceRecorder.XOFF, 1) > 0,
                "worker 1 paused sink");
        int samples = 0;
        int fullBuffer = 0;
        long crossing = 0;
        long ingress = 0;
        long egress = 0;
        int queueRows = 0;
        for (int i = 0; i < read.size(); i++) {
            int kind = read.kind(i);
            if (kind == org.pfcswitch.core.trace.TraceRecorder.QUEUE) {
                ingress += read.ingressBytes(i);
                egress += read.egressBytes(i);
                queueRows++;
                if (read.port(i) == 0) {
                    crossing = Math.max(crossing, read.egressBytes(i));
                }
            } else if (kind == org.pfcswitch.core.trace.TraceRecorder.BUFFER) {
                assertEquals(2, queueRows, "a queue row of each port in the sample at " + read.time(i));
                assertEquals(read.bufferBytes(i), ingress, "the buffer is the sum of the ingress queues at " + read.time(i));
                assertEquals(read.bufferBytes(i), egress, "and of the egress queues at " + read.time(i));
                samples++;
                fullBuffer += read.bufferBytes(i) > 0 ? 1 : 0;
                ingress = 0;
                egress = 0;
                queueRows = 0;
            }
        }
        // one per period in which a worker passed: on a crowded machine the OS holds workers for milliseconds
        assertTrue(samples > 100, "samples at 50 us over 1 s: " + samples);
        assertTrue(fullBuffer > 0, "the flood fills the buffer");
        assertTrue(crossing > 0, "loop's egress queue (worker 0) holds what sink's worker admitted");
        Path png = dir.resolve("two-workers.png");
        Cli plot = Cli.run("plot", trace.toString(), "--out", png.toString());
        assertEquals(0, plot.exitCode(), plot.err());
        assertTrue(Files.size(png) > 1000);
    }

    private static JsonNode show(HttpClient http, String api, String view) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/show/" + view)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }
}

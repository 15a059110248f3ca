package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --shadow dt,dsh} on the live switch (DPDK net_null/net_ring, no hugepages): {@code show
 * shadow} over the control API and its table, the shadow meters of /metrics (promtool-clean), a dt
 * shadow agreeing with the active dt, and a live scheme change that leaves the shadows counting, on
 * one worker and on two.
 * The flood switch of {@link ControlApiTest}: a 1 Gb/s lossless port flooded, so XOFFs and drops
 * happen at once.
 */
class LiveShadowTest {

    @TempDir
    Path dir;

    /**
     * On one worker, and on two: then worker 1 owns sink and worker 0 loop, so every flooded frame
     * crosses, each worker's shadows admit what arrives on its own port, and each sees the whole buffer.
     */
    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void showShadowAndMetricsFromTheRunningSwitch(int workers) throws Exception {
        Path cfg = dir.resolve("switch.yaml");
        Files.writeString(cfg, "eal: {hugepages: off}\nworkers: " + workers + "\n" + ControlApiTest.FLOOD_SWITCH);
        int port = ControlApiTest.freePort();
        String api = "http://127.0.0.1:" + port;
        Path token = dir.resolve("control.token");
        HttpClient http = HttpClient.newHttpClient();
        ObjectMapper json = new ObjectMapper();
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--shadow", "dt,dsh", "--control-port",
                Integer.toString(port), "--token-file", token.toString())) {
            sw.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(60));
            assertTrue(sw.stdout().contains("shadow schemes: dt, dsh"), sw.stdout());
            JsonNode shadow = null;
            long deadline = System.nanoTime() + 10_000_000_000L;
            do {
                Thread.sleep(100);
                shadow = json.readTree(get(http, api + "/api/v1/show/shadow"));
            } while (shadow.get("schemes").get(0).get("xoffs").asLong() == 0 && System.nanoTime() < deadline);
            JsonNode schemes = shadow.get("schemes");
            assertEquals(3, schemes.size(), shadow.toString());
            assertEquals("active", schemes.get(0).get("role").asText());
            assertTrue(schemes.get(0).get("xoffs").asLong() > 0, "the flooded port was paused: " + shadow);
            // one snapshot: the dt shadow saw exactly what the active dt saw
            assertEquals(schemes.get(0).get("xoffs"), schemes.get(1).get("xoffs"), shadow.toString());
            assertEquals(schemes.get(0).get("drops"), schemes.get(1).get("drops"), shadow.toString());
            assertEquals("dsh", schemes.get(2).get("scheme").asText());

            Cli text = Cli.run("show", "shadow", "--api", api);
            assertEquals(0, text.exitCode(), text.err());
            assertTrue(text.out().contains("XOFFS_DT(active)") && text.out().contains("XOFFS_DSH"), text.out());

            String metrics = get(http, api + "/metrics");
            for (String series : new String[] {"pfcswitch_shadow_xoff_total{port=\"sink\",priority=\"3\",scheme=\"dsh\"}",
                    "pfcswitch_shadow_drops_total{reason=\"lossless_violation\",scheme=\"dt\"}",
                    "pfcswitch_xoff_total{port=\"sink\",priority=\"3\"}",
                    "pfcswitch_shadow_buffer_max_used_bytes{scheme=\"dsh\"}"}) {
                assertTrue(metrics.contains(series), "missing " + series);
            }
            Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
            promtool.getOutputStream().write(metrics.getBytes(StandardCharsets.UTF_8));
            promtool.getOutputStream().close();
            String out = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(promtool.waitFor(30, TimeUnit.SECONDS));
            assertEquals(0, promtool.exitValue(), "promtool check metrics:\n" + out);

            long dshBefore = schemes.get(2).get("admitted").asLong();
            Cli set = Cli.run("set", "scheme", "spfc", "--api", api, "--token-file", token.toString());
            for (int tries = 1; tries < 3 && set.err().contains("not applied"); tries++) {
                // on a crowded machine the request can wait past its window: it was not applied, so again
                set = Cli.run("set", "scheme", "spfc", "--api", api, "--token-file", token.toString());
            }
            assertEquals(0, set.exitCode(), set.err());
            JsonNode after = json.readTree(get(http, api + "/api/v1/show/shadow")).get("schemes");
            assertEquals("spfc", after.get(0).get("scheme").asText());
            assertTrue(after.get(2).get("admitted").asLong() >= dshBefore, "the shadows go on counting through a change");

            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + "\n" + sw.stderr());
            assertTrue(sw.stdout().contains("(all returned)"), sw.stdout());
        }
    }

    private static String get(HttpClient http, String url) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}

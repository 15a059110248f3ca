package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Counters as an operator reads them, on a real running switch under load ({@link ControlApiTest#FLOOD_SWITCH}:
 * port sink floods loop, shaped to 1 Gb/s, with lossless priority 3): clear makes show count from
 * then while /metrics never goes back, watermarks rise and a clear restarts only the since-clear
 * ones, --port keeps the rows asked for, and rates are per second of the switch's clock.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class LiveCountersTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final int SINK = 1;
    private static final int LOOP = 0;

    @TempDir
    static Path dir;
    FloodedSwitch sw;
    String api;
    Path tokenFile;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startSwitch() throws Exception {
        // loop at 10 Mb/s stays congested by however fast this machine floods it; alpha 4: the flooded
        // priority group holds most of the buffer, until the watermark test lowers it
        String config = ControlApiTest.FLOOD_SWITCH.replace("scheme: dt}", "scheme: dt, schemes: {dt: {alpha: 4}}}")
                .replace("{name: loop, device: net_ring0, speed: 1G}", "{name: loop, device: net_ring0, speed: 10M}");
        assertTrue(config.contains("alpha: 4") && config.contains("10M"), config);
        sw = FloodedSwitch.start(dir, "eal: {hugepages: off}\n" + config, dir.resolve("control.token"));
        api = sw.api;
        tokenFile = sw.tokenFile;
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (show("ports").path("ports").path(SINK).path("rx_frames").asLong() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    void stopSwitch() throws Exception {
        if (sw != null) {
            sw.close();
        }
    }

    private String get(String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api + path)).timeout(Duration.ofSeconds(10))
                .GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }

    private JsonNode show(String view) throws Exception {
        return JSON.readTree(get("/api/v1/show/" + view));
    }

    /** Every counter series of a scrape ({@code ..._total}), by its name and labels. */
    private Map<String, Double> counters() throws Exception {
        Map<String, Double> out = new LinkedHashMap<>();
        for (String line : get("/metrics").split("\n")) {
            int space = line.lastIndexOf(' ');
            if (!line.startsWith("#") && line.startsWith("pfcswitch_") && line.substring(0, Math.max(0, line.indexOf('{')))
                    .endsWith("_total")) {
                out.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
            }
        }
        return out;
    }

    private Cli cli(String... args) {
        String[] all = java.util.Arrays.copyOf(args, args.length + 2);
        all[args.length] = "--api";
        all[args.length + 1] = api;
        return Cli.run(all);
    }

    @Test
    void aClearMakesShowCountFromThenWhileMetricsNeverGoBack() throws Exception {
        String rxSeries = "pfcswitch_rx_frames_total{port=\"sink\",priority=\"3\"}";
        Map<String, Double> before = counters();
        assertTrue(before.get(rxSeries) > 0, "the flood is counted");
        for (String family : new String[] {"counters", "queues", "pfc"}) {
            Cli c = cli("clear", family, "--token-file", tokenFile.toString());
            assertEquals(0, c.exitCode(), c.err());
            assertTrue(c.out().startsWith("cleared " + family + " at "), c.out());
        }
        JsonNode ports = show("ports");
        JsonNode queues = show("queues");
        JsonNode pfc = show("pfc");
        Map<String, Double> after = counters();
        double grew = after.get(rxSeries) - before.get(rxSeries);
        long sinceClear = ports.path("ports").path(SINK).path("rx_frames").asLong();
        assertTrue(sinceClear >= 0 && sinceClear <= grew, sinceClear + " since the clear, " + grew + " across it");
        assertTrue(sinceClear < before.get(rxSeries), "show counts from the clear, not from start");
        long queueRx = queues.path("queues").path(SINK * 8 + 3).path("rx_frames").asLong();
        assertTrue(queueRx >= 0 && queueRx <= grew, Long.toString(queueRx));
        assertTrue(pfc.path("ports").path(SINK).path("pause_sent").path(3).asLong()
                <= after.get("pfcswitch_pfc_pause_sent_total{port=\"sink\",priority=\"3\"}"));
        assertFalse(ports.path("since").asText().equals("start"), ports.toString());
        for (Map.Entry<String, Double> e : before.entrySet()) {
            assertTrue(after.get(e.getKey()) >= e.getValue(), e.getKey() + " went back from " + e.getValue() + " to "
                    + after.get(e.getKey()));
        }
        assertTrue(cli("show", "ports").out().startsWith("counters since clear at "));

        Cli refused = cli("clear", "counters", "--token-file", dir.resolve("no-such-token").toString());
        assertEquals(1, refused.exitCode());
        Cli unknown = cli("clear", "everything", "--token-file", tokenFile.toString());
        assertEquals(2, unknown.exitCode());
        assertTrue(unknown.err().contains("nothing called 'everything' to clear (allowed: counters, queues, pfc, watermarks)"),
                unknown.err());
    }

    @Test
    void watermarksRiseUnderLoadAndAClearRestartsOnlyTheSinceClearOnes() throws Exception {
        JsonNode w = show("watermark");
        long pgHigh = w.path("priority_groups").path(SINK).path("since_clear_bytes").path(3).asLong();
        long queueHigh = w.path("queues").path(LOOP).path("since_start_bytes").path(3).asLong();
        long held = show("queues").path("queues").path(SINK * 8 + 3).path("ingress_bytes").asLong();
        assertTrue(pgHigh > 0 && pgHigh >= held, pgHigh + " watermark, " + held + " held now");
        assertTrue(queueHigh > 0, w.toString());
        assertEquals(0, w.path("priority_groups").path(LOOP).path("since_start_bytes").path(3).asLong(),
                "nothing arrives on loop");

        Cli lower = cli("set", "param", "alpha=1/64", "--token-file", tokenFile.toString());
        assertEquals(0, lower.exitCode(), lower.err());
        long deadline = System.nanoTime() + 15_000_000_000L;     // the line drains the group to its new threshold
        while (show("queues").path("queues").path(SINK * 8 + 3).path("ingress_bytes").asLong() > pgHigh / 2
                && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        Cli clear = cli("clear", "watermarks", "--token-file", tokenFile.toString());
        assertEquals(0, clear.exitCode(), clear.err());
        JsonNode after = show("watermark");
        long pgSinceClear = after.path("priority_groups").path(SINK).path("since_clear_bytes").path(3).asLong();
        long pgSinceStart = after.path("priority_groups").path(SINK).path("since_start_bytes").path(3).asLong();
        assertTrue(pgSinceClear > 0 && pgSinceClear < pgHigh, pgSinceClear + " since the clear, " + pgHigh + " before");
        assertTrue(pgSinceStart >= pgHigh, "the persistent watermark keeps its maximum: " + pgSinceStart);
        double gauge = 0;
        for (String line : get("/metrics").split("\n")) {
            if (line.startsWith("pfcswitch_pg_watermark_bytes{port=\"sink\",priority=\"3\"}")) {
                gauge = Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        assertTrue(gauge >= pgHigh, "the /metrics gauge is the persistent one: " + gauge);
        Cli text = cli("show", "watermark", "pg");
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("Ingress priority group watermark (bytes held), since clear at "), text.out());
        assertTrue(text.out().contains("persistent (since start)") && !text.out().contains("Egress queue"), text.out());
    }

    @Test
    void portFiltersKeepTheRowsAskedForAndAnUnknownPortIsOneLine() throws Exception {
        JsonNode ports = JSON.readTree(cli("show", "ports", "--port", "sink", "--json").out());
        assertEquals(1, ports.path("ports").size());
        assertEquals("sink", ports.path("ports").path(0).path("port").asText());
        JsonNode queues = JSON.readTree(cli("show", "queues", "--port", "loop", "--json").out());
        assertEquals(8, queues.path("queues").size());
        Cli unknown = cli("show", "pfc", "--port", "sink,nope");
        assertEquals(2, unknown.exitCode());
        assertEquals("pfcswitch show: no port 'nope' (ports: loop, sink) (HTTP 400)", unknown.err().strip());
        Cli notPerPort = cli("show", "buffer", "--port", "sink");
        assertEquals(2, notPerPort.exitCode());
        assertTrue(notPerPort.err().contains("--port: the buffer view has no rows per port"), notPerPort.err());
    }

    @Test
    void ratesArePerSecondOfTheSwitchsClockAndNotAvailableTheFirstTime() throws Exception {
        Cli rates = cli("show", "ports", "--rates", "--port", "sink", "--json");
        assertEquals(0, rates.exitCode(), rates.err());
        JsonNode sink = JSON.readTree(rates.out());
        double interval = sink.path("rate_interval_seconds").asDouble();
        assertTrue(interval >= 0.9 && interval < 5, "two snapshots about 1 s apart: " + interval);
        JsonNode row = sink.path("ports").path(0);
        assertTrue(row.path("rx_frames_per_s").asDouble() > 0, row.toString());
        assertEquals(0, row.path("tx_frames_per_s").asDouble(), "sink only receives");

        Cli watch = cli("show", "pfc", "--watch", "0.3", "--count", "2", "--port", "sink");
        assertEquals(0, watch.exitCode(), watch.err());
        String[] prints = watch.out().split("-- ");
        assertEquals(3, prints.length, watch.out());
        assertTrue(prints[1].contains("rates n/a until the next snapshot") && prints[1].contains("n/a"), prints[1]);
        assertTrue(prints[2].contains("rates per second over the last"), prints[2]);
        String prio3 = prints[2].lines().filter(l -> l.startsWith("sink  3 ")).findFirst().orElseThrow();
        assertFalse(prio3.contains("n/a"), prio3);
    }

    /**
     * On a terminal, --watch redraws each snapshot in place (cursor home, erase) instead of appending
     * it: the same command as above, run by the launcher's JVM under script(1), which gives it a pty.
     */
    @Test
    void watchOnATerminalRedrawsInPlace() throws Exception {
        java.util.List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(LauncherTest.launcherJvmFlags());
        command.addAll(java.util.List.of("-cp", System.getProperty("java.class.path"), PfcSwitch.class.getName(),
                "show", "pfc", "--watch", "0.3", "--count", "2", "--port", "sink", "--api", api));
        String line = command.stream().map(w -> "'" + w.replace("'", "'\\''") + "'")
                .collect(java.util.stream.Collectors.joining(" "));
        Process p = new ProcessBuilder("script", "-q", "-e", "-c", line, "/dev/null")
                .redirectInput(ProcessBuilder.Redirect.PIPE).redirectErrorStream(true).start();
        p.getOutputStream().close();
        String screen = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertTrue(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS), screen);
        assertEquals(0, p.exitValue(), screen);
        String[] frames = screen.split(java.util.regex.Pattern.quote(ShowCommand.HOME_AND_CLEAR), -1);
        assertEquals(3, frames.length, "two snapshots, each drawn from the top of a cleared screen: " + screen);
        assertTrue(frames[2].contains("rates per second over the last"), frames[2]);
        for (int i = 1; i <= 2; i++) {
            assertTrue(frames[i].startsWith("-- ") && frames[i].contains("(every 0.3 s; Ctrl-C stops)"), frames[i]);
        }
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.control.json.JsonInput;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The control API and /metrics of a real running switch (DPDK on a net_null port that floods it
 * with priority-3 frames and a net_ring port shaped to 1 Gb/s, so its buffer fills and it sends
 * PFC), read by the CLI, by promtool and by a real Prometheus server that this test starts on
 * loopback and stops.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ControlApiTest {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** A request this test sends fails after this long rather than wait for a frozen API. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A switch under load without hosts: net_null floods port sink with untagged non-IP frames,
     * which the PCP classifier puts in lossless priority 3, bound for port loop (a ring looped back
     * onto itself) shaped to 1 Gb/s: its buffer fills at once, it sends PFC to sink (which does not
     * listen), drops lossless frames and keeps forwarding. Without its eal: line.
     */
    static final String FLOOD_SWITCH = """
            ports:
              - {name: loop, device: net_ring0, speed: 1G}
              - {name: sink, device: "net_null0,copy=1", speed: 1G}      # copy=1: rx frames are zeros, not recycled mbufs
            classification: {trust: pcp, defaultPriority: 3}
            forwarding: {learning: false, staticMacs: [{mac: "00:00:00:00:00:00", port: loop}]}
            mmu: {totalBytes: 1MiB, scheme: dt}
            """;

    @TempDir
    static Path dir;
    FloodedSwitch sw;
    int port;
    String api;
    Path tokenFile;
    final HttpClient http = HttpClient.newHttpClient();

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    @BeforeAll
    void startSwitch() throws Exception {
        sw = FloodedSwitch.start(dir, "eal: {hugepages: off}\n" + FLOOD_SWITCH
                + "pfcwd: {detection: 200ms, restoration: 400ms, action: drop}\n", dir.resolve("tokens").resolve("control.token"));
        port = sw.port;
        api = sw.api;
        tokenFile = sw.tokenFile;
        // Every test may assume congestion: wait (bounded) until the flooded port has been paused once.
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (show("pfc").get("ports").get(1).get("pause_sent").get(3).asLong() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
    }

    @AfterAll
    void stopSwitch() throws Exception {
        if (sw != null) {
            sw.close();
            assertFalse(Files.exists(tokenFile), "the token file goes with the switch");
        }
    }

    HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(api + path)).timeout(ANSWER_TIMEOUT).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    HttpResponse<String> post(String path, String body, String token) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(api + path)).timeout(ANSWER_TIMEOUT)
                .POST(HttpRequest.BodyPublishers.ofString(body));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    JsonNode show(String view) throws Exception {
        HttpResponse<String> r = get("/api/v1/show/" + view);
        assertEquals(200, r.statusCode(), r.body());
        return JSON.readTree(r.body());
    }

    String token() throws IOException {
        return Files.readString(tokenFile).trim();
    }

    @Test
    void tokenFileIsOwnerOnly() throws Exception {
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tokenFile.getParent())));
        assertEquals(64, token().length(), "32 random bytes in hex");
    }

    @Test
    void metricsPassPromtoolAndCarryTheSwitchsCounters() throws Exception {
        // Right after start the buffer may not have filled yet: wait (bounded) for the first XOFF.
        String pfcSeries = "pfcswitch_pfc_pause_sent_total{port=\"sink\",priority=\"3\"}";
        long deadline = System.nanoTime() + 10_000_000_000L;
        HttpResponse<String> r = get("/metrics");
        while (value(r.body(), pfcSeries) == 0 && System.nanoTime() < deadline) {
            Thread.sleep(100);
            r = get("/metrics");
        }
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain"));
        Process promtool = new ProcessBuilder("promtool", "check", "metrics").redirectErrorStream(true).start();
        promtool.getOutputStream().write(r.body().getBytes(StandardCharsets.UTF_8));
        promtool.getOutputStream().close();
        String out = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, TimeUnit.SECONDS));
        assertEquals(0, promtool.exitValue(), "promtool check metrics:\n" + out);
        String body = r.body();
        for (String series : List.of("pfcswitch_rx_frames_total{port=\"sink\",priority=\"3\"}",
                "pfcswitch_pfc_pause_sent_total{port=\"sink\",priority=\"3\"}", "pfcswitch_buffer_used_bytes{view=\"total\"}",
                "pfcswitch_xoff_threshold_bytes{port=\"sink\",priority=\"3\"}", "pfcswitch_drops_total{port=\"sink\",priority=\"3\",reason=\"lossless_violation\"}",
                "pfcswitch_paused_seconds_total{port=\"loop\",queue=\"3\"}", "pfcswitch_scheme_info{scheme=",
                "pfcswitch_worker_stalls_total{over=\"1ms\"}", "pfcswitch_rx_missed_frames_total{port=\"sink\"}", "pfcswitch_malformed_frames_total{port=\"loop\",reason=\"runt\"}",
                "pfcswitch_lossless_drops_total{port=\"sink\",priority=\"3\",sender=\"obeys_pfc\"}",
                "pfcswitch_lossless_violations_by_sender_total{sender=\"ignores_pfc\"}",
                "pfcswitch_pfcwd_storms_total{port=\"loop\",priority=\"3\"}", "pfcswitch_pfcwd_stormed{port=\"loop\",priority=\"3\"}",
                "pfcswitch_pfcwd_restorations_total{port=\"loop\",priority=\"3\"}",
                "pfcswitch_pfcwd_dropped_frames_total{port=\"loop\",priority=\"3\"}")) {
            assertTrue(body.contains(series), "missing " + series);
        }
        assertTrue(value(body, "pfcswitch_rx_frames_total{port=\"sink\",priority=\"3\"}") > 1000, "traffic counted");
        assertTrue(value(body, "pfcswitch_pfc_pause_sent_total{port=\"sink\",priority=\"3\"}") > 0, "the congested ingress sent PFC");
    }

    /**
     * The families the dashboard's tests judge ({@link ExportedMetrics}, a scrape put together in the
     * test) hold every family this live switch exports, so a family the running switch adds cannot
     * miss the dashboard unnoticed. GC families depend on the collector and are left out.
     */
    @Test
    void aLiveSwitchExportsNoFamilyTheDashboardTestsDoNotJudge() throws Exception {
        Set<String> unjudged = ExportedMetrics.families(get("/metrics").body());
        unjudged.removeIf(family -> family.startsWith("jvm_gc_"));
        unjudged.removeAll(ExportedMetrics.families());
        assertEquals(Set.of(), unjudged, "families of a live scrape that ExportedMetrics lacks");
    }

    static double value(String exposition, String series) {
        for (String line : exposition.split("\n")) {
            if (line.startsWith(series + " ")) {
                return Double.parseDouble(line.substring(series.length() + 1).trim());
            }
        }
        throw new AssertionError("no series " + series);
    }

    @Test
    void showViewsAnswerFromTheRunningSwitch() throws Exception {
        JsonNode ports = show("ports");
        assertEquals("sink", ports.get("ports").get(1).get("port").asText());
        assertTrue(ports.get("ports").get(1).get("rx_frames").asLong() > 0);
        JsonNode thresholds = show("thresholds");
        assertEquals(2, thresholds.get("queues").size(), "one lossless queue per port");
        assertTrue(thresholds.get("queues").get(1).get("xoff_threshold_bytes").asLong() > 0);
        JsonNode buffer = show("buffer");
        assertEquals(1 << 20, buffer.get("size_bytes").asLong());
        assertTrue(show("pfc").get("ports").get(1).get("pause_sent").get(3).asLong() > 0);
        Cli text = Cli.run("show", "queues", "--api", api);
        assertEquals(0, text.exitCode(), text.err());
        assertTrue(text.out().contains("XOFF_THRESHOLD_B") && text.out().contains("sink"), text.out());
        assertTrue(ports.get("ports").get(1).get("sender_obeys_pfc").asBoolean());
        assertTrue(ports.get("ports").get(1).has("lossless_drops"));
        assertTrue(buffer.has("lossless_violations_obeying") && buffer.has("lossless_violations_ignoring"), buffer.toString());
        JsonNode wd = show("pfcwd");
        assertTrue(wd.get("enabled").asBoolean(), wd.toString());
        assertEquals("drop", wd.get("action").asText());
        assertEquals(0.2, wd.get("detection_seconds").asDouble(), 1e-9);
        Cli wdText = Cli.run("show", "pfcwd", "--api", api);
        assertEquals(0, wdText.exitCode(), wdText.err());
        assertTrue(wdText.out().contains("PFC watchdog: detection 200.0 ms, restoration 400.0 ms, action drop, poll 20.0 ms"),
                wdText.out());
        Cli watch = Cli.run("show", "pfc", "--api", api, "--watch", "0.2", "--count", "2");
        assertEquals(0, watch.exitCode(), watch.err());
        assertEquals(2, watch.out().split("PAUSE_SENT/S").length - 1, "two prints, with rates: " + watch.out());
    }

    @Test
    void mutationsNeedTheTokenAndBadInputChangesNothing() throws Exception {
        String before = show("scheme").get("scheme").asText();
        assertEquals(401, post("/api/v1/scheme", "{\"scheme\":\"dsh\"}", null).statusCode());
        assertEquals(401, post("/api/v1/scheme", "{\"scheme\":\"dsh\"}", "0".repeat(64)).statusCode());
        String refusal = post("/api/v1/scheme", "{\"scheme\":\"dsh\"}", null).body();
        assertTrue(refusal.contains("Authorization: Bearer TOKEN") && !refusal.contains("/"),
                "a 401 says what is needed, not where the token lives: " + refusal);
        String t = token();
        record Bad(String path, String body, int status, String says) {}
        for (Bad b : List.of(
                new Bad("/api/v1/scheme", "{\"scheme\":", 400, "not JSON"),
                new Bad("/api/v1/scheme", "[1]", 400, "JSON object"),
                new Bad("/api/v1/scheme", "{\"scheme\":\"fifo\"}", 400, "schemes: st, dt"),
                new Bad("/api/v1/scheme", "{\"scheme\":\"bfc\"}", 409, "restart"),
                new Bad("/api/v1/params", "{\"params\":{\"alpha\":\"2000\"}}", 400, "alpha must be a number in"),
                new Bad("/api/v1/params", "{\"params\":{\"nonsense\":\"1\"}}", 400, "is not a parameter of"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":\"x\"}}", 400, "ecn.pmax"),
                new Bad("/api/v1/params", "{\"params\":{}}", 400, "no parameter given"))) {
            HttpResponse<String> r = post(b.path(), b.body(), t);
            assertEquals(b.status(), r.statusCode(), b + " -> " + r.body());
            assertTrue(JSON.readTree(r.body()).get("error").asText().contains(b.says()), b + " -> " + r.body());
        }
        assertEquals(404, get("/api/v1/show/nothing").statusCode());
        assertEquals(405, post("/api/v1/show/ports", "{}", t).statusCode());
        assertEquals(before, show("scheme").get("scheme").asText(), "nothing changed");
        assertEquals("0.0625", param(show("scheme"), "alpha"), "dt's alpha unchanged");
    }

    @Test
    void aValidSetIsVisibleInTheNextShowAndInMetrics() throws Exception {
        Cli set = Cli.run("set", "param", "alpha=1/4", "ecn.kmax=400KiB", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, set.exitCode(), set.err());
        assertEquals("set under dt: alpha = 1/4, ecn.kmax = 400KiB", set.out().strip(), "what changed, in words");
        JsonNode scheme = show("scheme");
        assertEquals("0.25", param(scheme, "alpha"));
        assertEquals(400 * 1024, scheme.get("ecn").get("kmax_bytes").asLong());
        sw.process.awaitLine("control: set {alpha=1/4, ecn.kmax=400KiB}", Duration.ofSeconds(5));

        Cli to = Cli.run("set", "scheme", "spfc", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, to.exitCode(), to.err());
        assertTrue(to.out().matches("scheme dt -> spfc; [0-9,]+ bytes in the buffer kept, now spfc's\\s*"), to.out());
        JsonNode spfc = show("scheme");
        assertEquals("spfc", spfc.get("scheme").asText());
        assertEquals("victim", spfc.get("state_name").asText(), "SPFC's per-queue state is shown");
        assertEquals(2, spfc.get("state").size(), "one lossless queue per port");
        assertTrue(spfc.get("state").get(1).has("victim"));
        assertTrue(get("/metrics").body().contains("pfcswitch_scheme_info{scheme=\"spfc\"} 1"));
        assertFalse(get("/metrics").body().contains("pfcswitch_scheme_info{scheme=\"dt\"}"), "the old scheme's series is gone");
        Cli back = Cli.run("set", "scheme", "dt", "--json", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, back.exitCode(), back.err());
        assertEquals("spfc", JsonInput.read(back.out()).get("previous").asText(), "--json prints the API's answer");
        Cli reset = Cli.run("set", "param", "alpha=1/16", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, reset.exitCode(), reset.err());
    }

    /** trace records the congested lossless queue and the PFC frames live; plot draws it; bad requests get one line. */
    @Test
    void traceRecordsQueuesThresholdsAndPfcAndPlotDrawsIt() throws Exception {
        Path trace = dir.resolve("live-trace.csv");
        Cli t = Cli.run("trace", "--duration", "1s", "--every", "20us", "--out", trace.toString(), "--api", api);
        assertEquals(0, t.exitCode(), t.err());
        List<String> lines = Files.readAllLines(trace);
        assertTrue(lines.getFirst().startsWith("# pfcswitch-trace v1 scheme=") && lines.getFirst().contains("source=live")
                && lines.getFirst().contains("ports=loop,sink"), lines.getFirst());
        assertTrue(lines.getLast().matches("# end records=\\d+ dropped=0"), lines.getLast());
        long queueRows = lines.stream().filter(l -> l.matches("\\d+,queue,1,3,\\d+,\\d+,\\d+,,")).count();
        assertTrue(queueRows > 1000, "samples of sink's lossless queue at 20 us over 1 s: " + queueRows);
        assertTrue(lines.stream().anyMatch(l -> l.matches("\\d+,pfc_tx,1,3,,,,xoff,\\d+")), "PFC sent to the flooding port");
        assertTrue(t.out().contains("dropped=0"), t.out());
        Path png = dir.resolve("live-trace.png");
        Cli plot = Cli.run("plot", trace.toString(), "--out", png.toString(), "--port", "sink");
        assertEquals(0, plot.exitCode(), plot.err());
        byte[] head = java.util.Arrays.copyOf(Files.readAllBytes(png), 8);
        assertEquals("\u0089PNG", new String(head, 0, 4, StandardCharsets.ISO_8859_1));

        for (String refused : List.of("/api/v1/trace?duration=2h", "/api/v1/trace?every=1ns", "/api/v1/trace?often=1")) {
            HttpResponse<String> r = get(refused);
            assertEquals(400, r.statusCode(), refused + " -> " + r.body());
        }
        Cli bad = Cli.run("trace", "--duration", "soon", "--out", trace.toString(), "--api", api);
        assertEquals(2, bad.exitCode());
    }

    /**
     * Stuck local clients cannot freeze the API of a forwarding switch: 120 half-sent requests
     * (headers never finished), 60 clients sending a byte a second and 60 idle connections are held
     * open, and reconnected when the switch drops them, for longer than the request timeout; then
     * 100 more idle ones take the count over the 256 connections the API keeps open; meanwhile {@code show}, {@code /metrics} and {@code set}
     * answer within 4 s each, under the 5 s after which the switch drops a stuck client, so an API
     * that answers only once the stuck clients are gone fails (a frozen one never answers; on a
     * quiet machine they take milliseconds), every {@code set} that says it succeeded is visible in the next
     * {@code show}, and the switch logs exactly the changes its clients were told succeeded.
     */
    @Test
    void stuckClientsCannotFreezeTheApiWhileTheSwitchForwards() throws Exception {
        // The CLI runs in this JVM: its first run loads its classes, which is not the switch's time.
        Cli warmUp = Cli.run("set", "param", "alpha=1/16", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, warmUp.exitCode(), warmUp.err());
        long rxBefore = show("ports").get("ports").get(1).get("rx_frames").asLong();
        long setsLoggedBefore = sw.process.stdout().lines().filter(l -> l.contains("control: set {alpha=")).count();
        Duration bound = Duration.ofSeconds(4);
        long[] slowest = new long[1];
        HostileClients more = null;
        try (HostileClients hostile = new HostileClients(port, 120, 60, 60)) {
            hostile.awaitOpen(Duration.ofSeconds(10));
            String[] alphas = {"1/8", "1/4", "1/2", "1/16"};
            String[] shown = {"0.125", "0.25", "0.5", "0.0625"};
            int sets = 0;
            long start = System.nanoTime();
            long end = start + 10_000_000_000L;
            for (int round = 0; System.nanoTime() < end; round++) {
                if (more == null && System.nanoTime() - start > 6_500_000_000L) {    // past the 5 s request timeout
                    more = new HostileClients(port, 0, 0, 100);
                    more.awaitOpen(Duration.ofSeconds(10));
                }
                assertAnswersWithin(bound, slowest, "show ports", () -> show("ports"));
                assertAnswersWithin(bound, slowest, "/metrics", () -> get("/metrics").statusCode());
                int i = round % alphas.length;
                Cli set = assertAnswersWithin(bound, slowest, "set",
                        () -> Cli.run("set", "param", "alpha=" + alphas[i], "--api", api, "--token-file", tokenFile.toString()));
                assertEquals(0, set.exitCode(), set.err());
                sets++;
                assertEquals(shown[i], param(show("scheme"), "alpha"), "a set that succeeded is in force");
                Thread.sleep(300);
            }
            assertTrue(hostile.reconnects() > 0, "the switch dropped stuck clients (request or idle timeout, or evicted)");
            long logged = sw.process.stdout().lines().filter(l -> l.contains("control: set {alpha=")).count() - setsLoggedBefore;
            assertEquals(sets, logged, "the switch applied exactly the changes its clients were told succeeded");
        } finally {
            if (more != null) {
                more.close();
            }
            Cli.run("set", "param", "alpha=1/16", "--api", api, "--token-file", tokenFile.toString());
        }
        System.out.println("stuck clients: slowest answer " + slowest[0] / 1_000_000 + " ms");
        assertTrue(show("ports").get("ports").get(1).get("rx_frames").asLong() > rxBefore, "the switch forwarded meanwhile");
        HttpResponse<String> scrape = get("/metrics");
        assertEquals(200, scrape.statusCode(), scrape.body());
        String metrics = scrape.body();
        assertTrue(metrics.contains("pfcswitch_control_connections_dropped_total"), metrics);
        assertTrue(value(metrics, "pfcswitch_control_connections_dropped_total{reason=\"request_timeout\"}") > 0, metrics);
        assertTrue(value(metrics, "pfcswitch_control_connections_dropped_total{reason=\"evicted\"}") > 0, metrics);
        assertEquals("0.0625", param(show("scheme"), "alpha"), "ends as it started");
    }

    /** A change that can no longer reach the switch before the client's deadline is refused, never applied later. */
    @Test
    void aChangePastItsDeadlineIsRefusedAndNotApplied() throws Exception {
        String before = param(show("scheme"), "alpha");
        HttpResponse<String> late = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/params"))
                .header("Authorization", "Bearer " + token())
                .header("X-Pfcswitch-Apply-Before", Long.toString(System.currentTimeMillis() - 1))
                .POST(HttpRequest.BodyPublishers.ofString("{\"params\":{\"alpha\":\"1/2\"}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(503, late.statusCode(), late.body());
        assertTrue(JSON.readTree(late.body()).get("error").asText().startsWith("not applied"), late.body());
        Thread.sleep(200);
        assertEquals(before, param(show("scheme"), "alpha"), "nothing changed, then or later");
        HttpResponse<String> bad = http.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/params"))
                .header("Authorization", "Bearer " + token()).header("X-Pfcswitch-Apply-Before", "soon")
                .POST(HttpRequest.BodyPublishers.ofString("{\"params\":{\"alpha\":\"1/2\"}}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(400, bad.statusCode(), bad.body());
        assertTrue(bad.body().contains("X-Pfcswitch-Apply-Before"), bad.body());
    }

    /** Requests over the size limits get one clear refusal each, and the API goes on answering. */
    @Test
    void oversizedAndUnframedRequestsAreRefused() throws Exception {
        record Raw(String request, String status, String says) {}
        for (Raw r : List.of(
                new Raw("GET /metrics HTTP/1.1\r\nX-Big: " + "a".repeat(9000) + "\r\n\r\n", "431", "over 8192 bytes"),
                new Raw("POST /api/v1/params HTTP/1.1\r\nContent-Length: 70000\r\n\r\n", "413", "at most 65536"),
                new Raw("POST /api/v1/params HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n", "411", "Content-Length"),
                new Raw("HELLO\r\n\r\n", "400", "not an HTTP/1.x request line"))) {
            String answer = HostileClients.exchange(port, r.request());
            assertTrue(answer.startsWith("HTTP/1.1 " + r.status()), r + " -> " + answer);
            assertTrue(answer.contains(r.says()), r + " -> " + answer);
        }
        assertEquals(200, get("/metrics").statusCode());
    }

    /** A second switch given this one's control port stops before it starts DPDK, and leaves this one's token alone. */
    @Test
    void aSecondRunOnTheSamePortKeepsTheFirstOnesToken() throws Exception {
        String first = token();
        Path cfg = dir.resolve("second.yaml");
        Files.writeString(cfg, "eal: {hugepages: off}\n" + FLOOD_SWITCH);
        try (SwitchProcess second = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", tokenFile.toString())) {
            assertEquals(1, second.waitFor(Duration.ofSeconds(60)), second.stdout() + "\n" + second.stderr());
            assertTrue(second.stderr().contains("cannot listen on 127.0.0.1:" + port), second.stderr());
            assertFalse(second.stdout().contains("EAL "), "it stops before DPDK opens a device: " + second.stdout());
        }
        assertEquals(first, token(), "the running switch's token is untouched");
        Cli set = Cli.run("set", "param", "alpha=1/16", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, set.exitCode(), set.err());
    }

    static <T> T assertAnswersWithin(Duration bound, long[] slowest, String what, java.util.concurrent.Callable<T> call)
            throws Exception {
        long start = System.nanoTime();
        T result = call.call();
        long took = System.nanoTime() - start;
        slowest[0] = Math.max(slowest[0], took);
        assertTrue(took < bound.toNanos(), what + " took " + took / 1_000_000 + " ms, over " + bound.toMillis() + " ms");
        return result;
    }

    static String param(JsonNode scheme, String name) {
        for (JsonNode p : scheme.get("parameters")) {
            if (p.get("name").asText().equals(name)) {
                return p.get("value").asText();
            }
        }
        throw new AssertionError("no parameter " + name + " in " + scheme);
    }

    @Test
    void cliErrorsAreOneLine() {
        Cli remote = Cli.run("run", "-c", "nothing.yaml", "--control-bind", "0.0.0.0");
        assertEquals(2, remote.exitCode());
        assertTrue(remote.err().contains("--allow-remote-control"), remote.err());
        Cli nobody = Cli.run("show", "ports", "--api", "http://127.0.0.1:1");
        assertEquals(1, nobody.exitCode());
        assertTrue(nobody.err().contains("no switch answers"), nobody.err());
        Cli noToken = Cli.run("set", "scheme", "dt", "--api", api, "--token-file", dir.resolve("missing.token").toString());
        assertEquals(1, noToken.exitCode());
        assertTrue(noToken.err().contains("no token file"), noToken.err());
        Cli badView = Cli.run("show", "everything", "--api", api);
        assertEquals(2, badView.exitCode());
    }

    /**
     * A real Prometheus scrapes two live switches as two instances of the job (this one, with the
     * PFC watchdog; a second one under dsh with a dt shadow and a small young generation, so GC
     * pauses show): every PromQL expression of the Grafana dashboard returns data, and each one,
     * filtered to one switch by the dashboard's instance variable, returns only that switch's series.
     */
    @Test
    void prometheusScrapesTwoSwitchesAndTheDashboardKeepsThemApart() throws Exception {
        Path cfgB = dir.resolve("switch-b.yaml");
        Files.writeString(cfgB, "eal: {hugepages: off}\n" + FLOOD_SWITCH.replace("scheme: dt", "scheme: dsh"));
        int portB = freePort();
        int promPort = freePort();
        Path promDir = dir.resolve("prometheus");
        Files.createDirectories(promDir);
        Path config = promDir.resolve("prometheus.yml");
        String a = "127.0.0.1:" + port;
        String b = "127.0.0.1:" + portB;
        Files.writeString(config, Files.readString(Path.of("..", "testbed-configs", "prometheus.yml"))
                .replace("[\"127.0.0.1:9464\"]", "[\"" + a + "\", \"" + b + "\"]"));
        Process prom = null;
        try (SwitchProcess swB = SwitchProcess.start(List.of("-Xmn8m"), "run", "-c", cfgB.toString(), "--shadow", "dt",
                "--control-port", Integer.toString(portB), "--token-file", dir.resolve("tokens-b").resolve("control.token").toString())) {
            swB.awaitLine("control API on http://" + b, Duration.ofSeconds(60));
            prom = new ProcessBuilder("prometheus", "--config.file=" + config, "--storage.tsdb.path=" + promDir.resolve("data"),
                    "--web.listen-address=127.0.0.1:" + promPort, "--log.level=warn")
                    .redirectErrorStream(true).redirectOutput(promDir.resolve("log").toFile()).start();
            String q = "http://127.0.0.1:" + promPort + "/api/v1/query?query=";
            List<String> exprs = DashboardQueries.expressions(Path.of("..", "testbed-configs", "grafana", "pfcswitch-dashboard.json"));
            long deadline = System.nanoTime() + 60_000_000_000L;
            List<String> empty = exprs;
            while (System.nanoTime() < deadline) {
                empty = exprs.stream().filter(e -> !hasData(q, forSwitches(e, ".*"))).toList();
                if (empty.isEmpty()) {
                    break;
                }
                Thread.sleep(1000);
            }
            assertTrue(empty.isEmpty(), "dashboard queries without data after 60 s: " + empty + "\nprometheus log:\n"
                    + Files.readString(promDir.resolve("log")));
            int[] answered = new int[2];
            for (String expr : exprs) {
                for (int i = 0; i < 2; i++) {
                    String instance = i == 0 ? a : b;
                    JsonNode r = query(q, forSwitches(expr, instance));
                    for (JsonNode series : r) {
                        assertEquals(instance, series.get("metric").path("instance").asText(), "filtered to " + instance + ": "
                                + forSwitches(expr, instance) + " -> " + series);
                    }
                    answered[i] += r.isEmpty() ? 0 : 1;
                }
            }
            assertTrue(answered[0] >= exprs.size() / 2 && answered[1] >= exprs.size() / 2,
                    "most queries answer for each switch: " + java.util.Arrays.toString(answered) + " of " + exprs.size());
            JsonNode pfc = query(q, "pfcswitch_pfc_pause_sent_total{port=\"sink\",priority=\"3\",instance=\"" + a + "\"}");
            assertEquals("sink", pfc.get(0).get("metric").get("port").asText());
            assertEquals("pfcswitch", pfc.get(0).get("metric").get("job").asText());
            assertTrue(pfc.get(0).get("value").get(1).asDouble() > 0, "PFC pauses through Prometheus: " + pfc);
            JsonNode views = query(q, "pfcswitch_buffer_used_bytes");
            assertEquals(10, views.size(), "one occupancy series per ledger view and switch: " + views);
            JsonNode schemes = query(q, "pfcswitch_build_info");
            assertEquals(java.util.Set.of("dt", "dsh"), java.util.Set.of(schemes.get(0).get("metric").get("scheme").asText(),
                    schemes.get(1).get("metric").get("scheme").asText()), "each switch's own scheme: " + schemes);
            assertEquals(0, swB.signalAndWait("TERM", Duration.ofSeconds(30)), swB.stdout() + "\n" + swB.stderr());
        } finally {
            if (prom != null) {
                prom.destroy();
                if (!prom.waitFor(20, TimeUnit.SECONDS)) {
                    prom.destroyForcibly();
                }
            }
        }
    }

    /** A dashboard query as Grafana sends it with job pfcswitch and the instance variable set to {@code instance}. */
    private static String forSwitches(String expr, String instance) {
        return expr.replace("$job", "pfcswitch").replace("$instance", instance);
    }

    private boolean hasData(String q, String expr) {
        try {
            JsonNode r = query(q, expr);
            return r != null && !r.isEmpty();
        } catch (Exception e) {
            return false;
        }
    }

    private JsonNode query(String q, String expr) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(q
                + java.net.URLEncoder.encode(expr, StandardCharsets.UTF_8))).GET().build(), HttpResponse.BodyHandlers.ofString());
        JsonNode n = JSON.readTree(r.body());
        if (!"success".equals(n.path("status").asText())) {
            throw new AssertionError(expr + ": " + r.body());
        }
        return n.get("data").get("result");
    }
}

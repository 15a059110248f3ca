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
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Bad control-API requests against a real running switch (the flooded switch of
 * {@link ControlApiTest}): bodies that are not strict JSON, and parameters of schemes that are not
 * active, through raw HTTP and through {@code pfcswitch set}. Each is refused with 400 and one line
 * naming the problem, and none changes the switch: afterwards dt's alpha is as configured and
 * {@code set scheme spfc} works (a bad inactive parameter once made it fail and could not be removed).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BadApiInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    FloodedSwitch sw;
    String api;
    Path tokenFile;
    final HttpClient http = HttpClient.newHttpClient();

    @BeforeAll
    void startSwitch() throws Exception {
        sw = FloodedSwitch.start(dir, "eal: {hugepages: off}\n" + ControlApiTest.FLOOD_SWITCH,
                dir.resolve("tokens").resolve("control.token"));
        api = sw.api;
        tokenFile = sw.tokenFile;
    }

    @AfterAll
    void stopSwitch() throws Exception {
        if (sw != null) {
            sw.close();
        }
    }

    record Bad(String path, String body, String says) {}

    @Test
    void badBodiesAndParametersAreRefusedWithOneLineAndChangeNothing() throws Exception {
        String token = Files.readString(tokenFile).trim();
        List<Bad> bodies = List.of(
                new Bad("/api/v1/scheme", "{\"scheme\":\"dsh\"} garbage", "Unrecognized token 'garbage'"),
                new Bad("/api/v1/scheme", "{\"scheme\":\"dsh\"} 42", "Trailing token"),
                new Bad("/api/v1/scheme", "{\"scheme\":\"dsh\"}{\"scheme\":\"dt\"}", "Trailing token"),
                new Bad("/api/v1/scheme", "{\"scheme\":\"dt\",\"scheme\":\"dsh\"}", "Duplicate field 'scheme'"),
                new Bad("/api/v1/params", "{\"params\":{\"alpha\":\"1/8\",\"alpha\":\"1/4\"}}", "Duplicate field 'alpha'"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":NaN}}", "not JSON"),
                new Bad("/api/v1/scheme", "{'scheme':'dsh'}", "not JSON"),
                new Bad("/api/v1/scheme", "{scheme:\"dsh\"}", "not JSON"),
                new Bad("/api/v1/scheme", "/* why not */ {\"scheme\":\"dsh\"}", "not JSON"),
                new Bad("/api/v1/scheme", "", "expected a JSON object"),
                new Bad("/api/v1/scheme", "[".repeat(5_000), "not JSON"),
                new Bad("/api/v1/params", "{\"params\":{\"spfc.kSpfc\":\"abc\"}}", "mmu.schemes.spfc.kSpfc must be a number"),
                new Bad("/api/v1/params", "{\"params\":{\"reverie.alpha\":\"-5\"}}", "reverie.alpha is not a parameter of reverie"),
                new Bad("/api/v1/params", "{\"params\":{\"bfc.nonsense\":\"1\"}}", "bfc.nonsense is not a parameter of bfc"),
                new Bad("/api/v1/params", "{\"params\":{\"dsh.alpha\":\"0\"}}", "mmu.schemes.dsh.alpha must be"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":\"0\"}}", "ecn.pmax must be a probability in (0, 1]"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":1.5}}", "ecn.pmax must be a probability in (0, 1]"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":\"NaN\"}}", "ecn.pmax must be a probability in (0, 1]"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.pmax\":\"Infinity\"}}", "ecn.pmax must be a probability"),
                new Bad("/api/v1/params", "{\"params\":{\"alpha\":\"NaN\"}}", "mmu.schemes.dt.alpha must be a number"),
                new Bad("/api/v1/params", "{\"params\":{\"ecn.kmin\":\"lots\"}}", "ecn.kmin"),
                new Bad("/api/v1/params", "{\"params\":{\"fifo.depth\":\"1\"}}", "unknown key 'fifo.depth'"),
                new Bad("/api/v1/params", "{\"params\":{\"alpha\":{\"x\":1}}}", "expected a string or number"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":50}", "pfcwd detection_ms: must be 100-5000 ms, got 50"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400,\"restoration_ms\":70000}",
                        "pfcwd restoration_ms: must be 100-60000 ms, got 70000"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400,\"action\":\"shout\"}",
                        "pfcwd action: expected drop, forward or alert, got 'shout'"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400,\"ports\":[\"eth9\"]}",
                        "pfcwd ports: no port 'eth9' (ports: loop, sink, or all)"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400.5}", "pfcwd detection_ms: expected whole milliseconds"),
                new Bad("/api/v1/pfcwd/start", "{\"ports\":[\"loop\"]}", "pfcwd detection_ms: required"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400,\"priorities\":[8]}", "pfcwd priorities: expected priorities 0-7"),
                new Bad("/api/v1/pfcwd/start", "{\"detection_ms\":400,\"poll_ms\":5}", "pfcwd unknown key 'poll_ms'"),
                new Bad("/api/v1/pfcwd/stop", "{\"ports\":\"loop\"}", "pfcwd ports: expected a list of port names"));
        List<String> failures = new ArrayList<>();
        for (Bad b : bodies) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(api + b.path()))
                    .header("Authorization", "Bearer " + token).POST(HttpRequest.BodyPublishers.ofString(b.body())).build(),
                    HttpResponse.BodyHandlers.ofString());
            String error = r.statusCode() == 400 ? JSON.readTree(r.body()).path("error").asText() : "";
            if (r.statusCode() != 400 || !error.contains(b.says()) || error.contains("\n") || error.contains("Exception")) {
                failures.add(b + " -> HTTP " + r.statusCode() + " " + r.body());
            }
        }
        record SetCase(String says, String... args) {}
        for (SetCase c : List.of(
                new SetCase("mmu.schemes.spfc.kSpfc must be a number", "param", "spfc.kSpfc=abc"),
                new SetCase("reverie.alpha is not a parameter of reverie", "param", "reverie.alpha=-5"),
                new SetCase("bfc.nonsense is not a parameter of bfc", "param", "bfc.nonsense=1"),
                new SetCase("ecn.pmax must be a probability in (0, 1]", "param", "ecn.pmax=0"),
                new SetCase("unknown scheme 'fifo'", "scheme", "fifo"))) {
            List<String> args = new ArrayList<>(List.of("set"));
            args.addAll(List.of(c.args()));
            args.addAll(List.of("--api", api, "--token-file", tokenFile.toString()));
            Cli r = Cli.run(args.toArray(String[]::new));
            String problem = BadInputTest.judge(new BadInputTest.Case("set " + String.join(" ", c.args()), args, 2,
                    c.says()), r.exitCode(), r.err());
            if (problem != null) {
                failures.add(problem);
            }
        }
        for (SetCase c : List.of(
                new SetCase("pfcwd detection_ms: must be 100-5000 ms, got 50", "start", "all", "50"),
                new SetCase("pfcwd action: expected drop, forward or alert, got 'shout'", "start", "--action", "shout", "loop", "400"),
                new SetCase("pfcwd ports: no port 'eth9'", "stop", "eth9"),
                new SetCase("DETECTION_TIME_MS: expected whole milliseconds after the ports, got 'soon'", "start", "loop", "soon"))) {
            List<String> args = new ArrayList<>(List.of("pfcwd"));
            args.addAll(List.of(c.args()));
            args.addAll(List.of("--api", api, "--token-file", tokenFile.toString()));
            Cli r = Cli.run(args.toArray(String[]::new));
            String problem = BadInputTest.judge(new BadInputTest.Case("pfcwd " + String.join(" ", c.args()), args, 2,
                    c.says()), r.exitCode(), r.err());
            if (problem != null) {
                failures.add(problem);
            }
        }
        assertTrue(failures.isEmpty(), String.join("\n", failures));
        assertEquals(false, JSON.readTree(Cli.run("show", "pfcwd", "--json", "--api", api).out()).get("enabled").asBoolean(),
                "no refused pfcwd start started it");
        Cli start = Cli.run("pfcwd", "start", "--priority", "3", "loop", "400", "--api", api, "--token-file", tokenFile.toString());
        assertEquals("pfcwd started on loop (priority 3): action drop, detection 400 ms, restoration 800 ms", start.out().strip(),
                "a good start after the refused ones works: " + start.err());
        JsonNode watched = JSON.readTree(Cli.run("pfcwd", "show", "config", "--json", "--api", api).out()).get("ports");
        assertEquals(1, watched.size(), watched.toString());
        assertEquals("loop", watched.get(0).get("port").asText(), watched.toString());
        assertEquals(0.8, watched.get(0).get("restoration_seconds").asDouble(), 1e-9, "default: twice the detection time");
        Cli stop = Cli.run("pfcwd", "stop", "--api", api, "--token-file", tokenFile.toString());
        assertEquals("pfcwd stopped on loop, sink", stop.out().strip(), stop.err());
        assertTrue(Cli.run("pfcwd", "show", "config", "--api", api).out().startsWith("PFC watchdog: off"));

        JsonNode scheme = JSON.readTree(Cli.run("show", "scheme", "--json", "--api", api).out());
        assertEquals("dt", scheme.get("scheme").asText(), "nothing changed the scheme");
        Cli toSpfc = Cli.run("set", "scheme", "spfc", "--api", api, "--token-file", tokenFile.toString());
        assertEquals(0, toSpfc.exitCode(), "no refused parameter was kept to break a later change: " + toSpfc.err());
    }
}

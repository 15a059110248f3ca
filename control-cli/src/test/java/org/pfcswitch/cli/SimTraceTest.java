package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.core.trace.TraceReader;
import org.pfcswitch.core.trace.TraceRecorder;

/**
 * {@code sim --trace}: a trace per scheme of the shipped SPFC scenario whose PFC rows add up to the
 * pauses sim reports, whose queue rows cover every port's lossless queue once per period, and
 * which changes nothing in the results; the switch of a leaf-spine chosen by name; the errors.
 */
class SimTraceTest {

    private static final Path SCENARIOS = Path.of("..", "testbed-configs", "scenarios");
    private static final String SPFC = SCENARIOS.resolve("spfc-victim.yaml").toString();
    /** 2 ms of the SPFC case, 1 ms of bursts. */
    private static final List<String> SHORT = List.of("-c", SPFC, "--scheme", "dt,spfc", "--json", "--set", "duration=2ms",
            "--set", "measure.to=2ms", "--set", "traffic.bursts.repeatUntil=2ms");

    @Test
    void aTracePerSchemeAddsUpToThePausesSimReports(@TempDir Path dir) throws IOException {
        Cli traced = sim(SHORT, "--trace", dir.resolve("trace.csv").toString(), "--trace-every", "5us");
        assertEquals(0, traced.exitCode(), traced.err());
        Cli plain = sim(SHORT);
        assertEquals(plain.out(), traced.out(), "a trace only reads the switch: the same results");
        assertTrue(traced.err().contains("wrote trace " + dir.resolve("trace-dt.csv")), traced.err());
        assertFalse(Files.exists(dir.resolve("trace.csv")), "several schemes: one file each, none under the plain name");

        JsonNode schemes = new ObjectMapper().readTree(traced.out()).get("schemes");
        for (String scheme : new String[] {"dt", "spfc"}) {
            TraceReader.Trace t = TraceReader.read(dir.resolve("trace-" + scheme + ".csv"));
            assertEquals(scheme, t.header().scheme());
            assertEquals("sim", t.header().source());
            assertEquals("switch", t.header().switchName());
            assertEquals(5_000, t.header().everyNanos());
            assertEquals(32, t.header().portNames().size());
            assertEquals(List.of("H0", "H1"), t.header().portNames().subList(0, 2));
            assertEquals("R2", t.header().portName(31));
            assertTrue(t.complete());
            assertEquals(0, t.dropped());

            List<TraceReader.Queue> queues = t.queues();
            assertEquals(32, queues.size(), "every port's one lossless queue");
            assertTrue(queues.stream().allMatch(q -> q.priority() == 3), queues.toString());
            int h0Rows = 0;
            long lastTime = -1;
            boolean h0Grew = false;
            long h0Most = 0;
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == TraceRecorder.QUEUE && t.port(i) == 0) {
                    assertTrue(t.time(i) > lastTime);
                    assertTrue(t.time(i) / 5_000 > lastTime / 5_000 || t.time(i) == 2_000_000,
                            "one sample per period (and one at the end)");
                    lastTime = t.time(i);
                    h0Rows++;
                    h0Grew |= t.ingressBytes(i) > 10_000;
                    h0Most = Math.max(h0Most, t.ingressBytes(i));
                    assertTrue(t.thresholdBytes(i) > 0);
                }
            }
            assertTrue(h0Rows >= 390 && h0Rows <= 401, h0Rows + " samples of H0's queue in 2 ms at 5 us");
            assertTrue(h0Grew, "H0's ingress queue held bytes at some point");

            JsonNode r = schemes.get(scheme);
            assertTrue(r.get("maxBufferBytes").asLong() >= h0Most,
                    scheme + ": the buffer at its fullest held at least H0's fullest sampled queue, " + h0Most + " B");
            long sent = r.get("pfcPausesSent").asLong();
            assertTrue(sent > 0, scheme + " paused someone");
            assertEquals(sent, t.pfcCount(TraceRecorder.PFC_TX, TraceRecorder.XOFF, -1),
                    scheme + ": the trace's XOFF counts add up to the PAUSE frames sim reports");
            JsonNode byPort = r.get("pfcPausesSentByPort");
            for (String host : new String[] {"H0", "H1", "R1", "R2"}) {
                assertEquals(byPort.get(host).asLong(), t.pfcCount(TraceRecorder.PFC_TX, TraceRecorder.XOFF,
                        t.header().portIndex(host)), scheme + " " + host);
            }
            assertTrue(t.pfcCount(TraceRecorder.PFC_TX, TraceRecorder.XON, -1) > 0, "XONs too");
        }
    }

    @Test
    void oneSchemeWritesTheFileAsNamed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("dt.trace");
        Cli c = sim(List.of("-c", SPFC, "--scheme", "dt", "--set", "duration=200us", "--set", "measure.to=200us",
                "--set", "measure.from=0us"), "--trace", file.toString());
        assertEquals(0, c.exitCode(), c.err());
        TraceReader.Trace t = TraceReader.read(file);
        assertEquals(10_000, t.header().everyNanos(), "default period 10 us");
        assertEquals(32L * 21, t.size() - countPfc(t), "32 queues x 20 periods + the end sample");
    }

    /** On a leaf-spine --trace-switch picks the switch: spine0's trace adds up to the pauses spine0 sent. */
    @Test
    void aLeafSpineTracesTheSwitchNamed(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("spine.csv");
        List<String> args = List.of("-c", SCENARIOS.resolve("leafspine-incast.yaml").toString(), "--scheme", "dt", "--json",
                "--set", "duration=400us", "--set", "measure.to=400us", "--set", "traffic.fanin.repeatUntil=400us");
        Cli c = sim(args, "--trace", file.toString(), "--trace-switch", "spine0");
        assertEquals(0, c.exitCode(), c.err());
        TraceReader.Trace t = TraceReader.read(file);
        assertEquals("spine0", t.header().switchName());
        assertEquals(List.of("leaf0", "leaf1"), t.header().portNames());
        long spinePauses = new ObjectMapper().readTree(c.out()).get("schemes").get("dt").get("fabricPausesSentBySwitch")
                .get("spine0").asLong();
        assertTrue(spinePauses > 0);
        assertEquals(spinePauses, t.pfcCount(TraceRecorder.PFC_TX, TraceRecorder.XOFF, -1));

        Cli leaf = sim(args, "--trace", dir.resolve("leaf.csv").toString());
        assertEquals(0, leaf.exitCode(), leaf.err());
        TraceReader.Trace l = TraceReader.read(dir.resolve("leaf.csv"));
        assertEquals("leaf0", l.header().switchName(), "default: the first switch");
        assertEquals(List.of("L0H0", "L0H1", "L0H2", "L0H3", "spine0", "spine1"), l.header().portNames());

        Cli bad = sim(args, "--trace", file.toString(), "--trace-switch", "spine7");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("--trace-switch: no switch 'spine7' in "), bad.err());
        assertTrue(bad.err().contains("its switches: leaf0, leaf1, spine0, spine1"), bad.err());
    }

    @Test
    void traceOptionsNeedTraceAndAPeriod(@TempDir Path dir) {
        Cli every = sim(List.of("-c", SPFC), "--trace-every", "1us");
        assertEquals(2, every.exitCode());
        assertTrue(every.err().startsWith("--trace-every needs --trace FILE"), every.err());
        Cli zero = sim(List.of("-c", SPFC), "--trace", dir.resolve("t.csv").toString(), "--trace-every", "0");
        assertEquals(2, zero.exitCode());
        assertTrue(zero.err().startsWith("--trace-every: expected a time like 10s or 500ms"), zero.err());
    }

    @Test
    void traceFileNames() {
        assertEquals(Path.of("out", "trace-dt.csv"), SimCommand.traceFile(Path.of("out", "trace.csv"), null, "dt"));
        assertEquals(Path.of("trace.csv"), SimCommand.traceFile(Path.of("trace.csv"), null, null));
        assertEquals(Path.of("trace-spfc"), SimCommand.traceFile(Path.of("trace"), null, "spfc"));
        assertEquals(Path.of("t-traffic.bursts.count=8-dt.csv"),
                SimCommand.traceFile(Path.of("t.csv"), "traffic.bursts.count=8", "dt"));
    }

    private static long countPfc(TraceReader.Trace t) {
        long n = 0;
        for (int i = 0; i < t.size(); i++) {
            n += t.kind(i) == TraceRecorder.QUEUE ? 0 : 1;
        }
        return n;
    }

    private static Cli sim(List<String> args, String... more) {
        List<String> all = new ArrayList<>();
        all.add("sim");
        all.addAll(args);
        all.addAll(List.of(more));
        return Cli.run(all.toArray(String[]::new));
    }
}

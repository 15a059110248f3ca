package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code pfcswitch sim} on the shipped scenarios: the papers' directions, byte-identical JSON for
 * a seed, the files --out writes, and one-line errors for bad scenario files. Runs are shortened
 * only through --set on the same files.
 */
class SimCommandTest {

    private static final Path SCENARIOS = Path.of("..", "testbed-configs", "scenarios");
    private static final String SPFC = SCENARIOS.resolve("spfc-victim.yaml").toString();
    private static final String DSH = SCENARIOS.resolve("dsh-collateral.yaml").toString();
    private static final String NINE = SCENARIOS.resolve("spfc-testbed-9port.yaml").toString();
    /** 3 ms of the SPFC case: 2 ms of bursts, throughput measured over them (the full case is 12 ms). */
    private static final String[] SPFC_SHORT = {"--set", "duration=3ms", "--set", "measure.to=3ms",
            "--set", "traffic.bursts.repeatUntil=3ms"};

    /** A sweep is the same as separate --set runs, one after the other, in one document. */
    @Test
    void aSweepRunsOncePerValueAndMatchesSeparateRuns() throws IOException {
        String[] common = {"-c", DSH, "--scheme", "dt,dsh", "--json", "--set", "duration=500us", "--set", "measure.to=500us"};
        Cli sweep = sim(concat(common, "--sweep", "traffic.fanin.count=4,12"));
        assertEquals(0, sweep.exitCode(), sweep.err());
        String doc = sweep.out().strip();
        assertTrue(doc.startsWith("{\"sweep\":\"traffic.fanin.count\",\"runs\":[{\"value\":\"4\",\"result\":"), doc);
        assertEquals(2, new ObjectMapper().readTree(doc).get("runs").size(), doc);
        for (String n : new String[] {"4", "12"}) {
            Cli single = sim(concat(common, "--set", "traffic.fanin.count=" + n));
            assertEquals(0, single.exitCode(), single.err());
            assertTrue(doc.contains("{\"value\":\"" + n + "\",\"result\":" + single.out().strip() + "}"),
                    "the sweep's result for " + n + " differs from a separate run");
        }
        Cli bad = sim("-c", DSH, "--sweep", "traffic.fanin.count");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().contains("--sweep wants KEY=V1,V2,..."), bad.err());
    }

    private static Cli sim(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "sim";
        System.arraycopy(args, 0, all, 1, args.length);
        return Cli.run(all);
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * The paper's Section III case over the scenario's full length (12 ms, bursts from 1 ms to 12 ms)
     * at N = 8: SPFC never pauses H0 ("PAUSEs in P0 are completely avoided", SPFC IV-E), DT does,
     * and F1 gets more throughput. The 2 ms-of-bursts runs check the same direction at N = 16, 24.
     */
    @Test
    void spfcSendsFewerPausesToH0AndGivesF1MoreThroughputThanDt() {
        assertSpfcBeatsDt(8, true, "-c", SPFC, "--scheme", "dt,spfc", "--json", "--set", "traffic.bursts.count=8");
        for (int n : new int[] {16, 24}) {
            assertSpfcBeatsDt(n, false, concat(SPFC_SHORT, "-c", SPFC, "--scheme", "dt,spfc", "--json",
                    "--set", "traffic.bursts.count=" + n));
        }
    }

    private static void assertSpfcBeatsDt(int n, boolean noSpfcPause, String... args) {
        Cli c = sim(args);
        assertEquals(0, c.exitCode(), c.err());
        String json = c.out();
        long dtPauses = number(json, "dt", "\"pfcPausesSentByPort\":\\{\"H0\":(\\d+)");
        long spfcPauses = number(json, "spfc", "\"pfcPausesSentByPort\":\\{\"H0\":(\\d+)");
        double dtF1 = decimal(json, "dt", "\"F1\":([0-9.]+)");
        double spfcF1 = decimal(json, "spfc", "\"F1\":([0-9.]+)");
        String at = "N = " + n + ": " + json;
        assertTrue(dtPauses > 0, "DT must pause H0 (the victim phenomenon); " + at);
        assertTrue(spfcPauses < dtPauses, "SPFC must pause H0 less than DT; " + at);
        if (noSpfcPause) {
            assertEquals(0, spfcPauses, "SPFC must never pause H0 over the whole run; " + at);
        }
        assertTrue(spfcF1 > dtF1, "F1 must get more throughput under SPFC; " + at);
        assertEquals(0, number(json, "dt", "\"losslessViolations\":(\\d+)"), at);
        assertEquals(0, number(json, "spfc", "\"losslessViolations\":(\\d+)"), at);
    }

    /**
     * The SPFC testbed at its own scale (9 x 10 G, 2.5 MB; N = 6: H1 and its 5 clone ports), 10 ms of
     * bursts. DT pauses the victim port H0 only while F2 runs above its fair share of R2, C/(N+1) =
     * 1.43 Gb/s (testbed/SPFC-INVESTIGATION.md, "The 9-port testbed"). With DCQCN's 1 Gb/s floor F2
     * falls below it within about 250 us, so neither scheme pauses H0: the paper's DT victim effect
     * does not appear here. With the floor at 2 Gb/s DT pauses H0 and SPFC never does, and F1 gets
     * more under SPFC: the paper's direction. The clone ports deliver 5 copies of H1's traffic.
     */
    @Test
    void ninePortTestbedPausesTheVictimUnderDtOnlyWhileF2StaysAboveItsFairShare() {
        String[] shortRun = {"-c", NINE, "--scheme", "dt,spfc", "--json", "--set", "duration=20ms",
                "--set", "measure.to=20ms", "--set", "traffic.burst.repeatUntil=20ms"};
        Cli floor1 = sim(shortRun);
        assertEquals(0, floor1.exitCode(), floor1.err());
        String json = floor1.out();
        for (String scheme : new String[] {"dt", "spfc"}) {
            assertEquals(0, number(json, scheme, "\"pfcPausesSentByPort\":\\{\"H0\":(\\d+)"), scheme + ": " + json);
            assertEquals(0, number(json, scheme, "\"losslessViolations\":(\\d+)"), json);
            double burst = decimal(json, scheme, "\"burst\":([0-9.]+)");
            double clones = decimal(json, scheme, "\"clones\":([0-9.]+)");
            assertTrue(burst > 1 && Math.abs(clones - 5 * burst) < 0.05 * clones, scheme + ": 5 copies of H1's "
                    + burst + " Gb/s, got " + clones + " Gb/s; " + json);
        }
        assertSpfcBeatsDt(6, true, concat(shortRun, "--set", "cc.minRate=2G"));
    }

    @Test
    void dshPausesLaterThanDtWhenBurstsPileOntoOneIngressPort(@TempDir Path out) throws IOException {
        Cli c = sim("-c", DSH, "--scheme", "dt,dsh", "--out", out.toString());
        assertEquals(0, c.exitCode(), c.err());
        long dt = firstPause(c.out(), "dt");
        long dsh = firstPause(c.out(), "dsh");
        assertTrue(dt > 200_000, "DT pauses after the fan-in starts at 200 us, got " + dt + " ns:\n" + c.out());
        assertTrue(dsh > dt, "DSH's first pause must come later than DT's (" + dt + " ns):\n" + c.out());
        for (String f : new String[] {"timeseries-dt.csv", "flows-dsh.csv", "dt.png", "dsh.png", "throughput-F0.png"}) {
            assertTrue(Files.size(out.resolve(f)) > 100, f);
        }
        String header = Files.readAllLines(out.resolve("timeseries-dt.csv")).getFirst();
        assertEquals("time_us,queue_bytes_H0,paused_H0,queue_bytes_H2,paused_H2,queue_bytes_R0,paused_R0,"
                + "queue_bytes_R1,paused_R1,gbps_F0,gbps_F1,gbps_fanin", header);
    }

    /** --figures picks the formats --out writes each figure in: vector ones for a paper, and no PNG unless asked. */
    @Test
    void figuresAreWrittenInTheFormatsAsked(@TempDir Path out) throws IOException {
        Cli c = sim("-c", SCENARIOS.resolve("bfc-two-flows.yaml").toString(), "--scheme", "dt", "--set", "duration=200us", "--set", "measure.from=0us", "--set", "measure.to=200us",
                "--out", out.toString(), "--figures", "svg,PDF");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(Files.readString(out.resolve("dt.svg")).contains("<svg"), "dt.svg is SVG");
        byte[] pdf = Files.readAllBytes(out.resolve("dt.pdf"));
        assertEquals("%PDF", new String(pdf, 0, 4, java.nio.charset.StandardCharsets.US_ASCII), "dt.pdf is PDF");
        assertTrue(Files.exists(out.resolve("throughput-A.svg")) && Files.exists(out.resolve("throughput-A.pdf")));
        try (var files = Files.list(out)) {
            assertTrue(files.noneMatch(f -> f.toString().endsWith(".png")), "no PNG unless asked");
        }
        Cli bad = sim("-c", SCENARIOS.resolve("bfc-two-flows.yaml").toString(), "--out", out.toString(), "--figures", "eps");
        assertEquals(2, bad.exitCode(), bad.err());
        assertTrue(bad.err().lines().findFirst().orElse("").contains("'eps' is not a figure format: png, svg or pdf"), bad.err());
    }

    /**
     * BFC's testbed microbenchmark (claim B11): two line-rate flows into one port. Per-flow
     * backpressure holds the bottleneck queue near one hop's BDP (paper: 15 KB on average), where
     * DT lets it grow to the PFC threshold; the price is at most App. C's 20 % idle after resumes.
     */
    @Test
    void bfcHoldsTheBottleneckQueueNearOneBdpWhereDtFillsThePool(@TempDir Path out) throws IOException {
        Cli c = sim("-c", SCENARIOS.resolve("bfc-two-flows.yaml").toString(), "--scheme", "bfc,dt", "--out",
                out.toString());
        assertEquals(0, c.exitCode(), c.err());
        double bfcQueue = meanAfter(out.resolve("timeseries-bfc.csv"), "queue_bytes_R", 500);
        double dtQueue = meanAfter(out.resolve("timeseries-dt.csv"), "queue_bytes_R", 500);
        assertTrue(bfcQueue > 5_000 && bfcQueue < 50_000, "bfc's mean queue at R: " + bfcQueue + " B\n" + c.out());
        assertTrue(dtQueue > 1_000_000, "dt's mean queue at R: " + dtQueue + " B\n" + c.out());
        double bfcRate = meanAfter(out.resolve("timeseries-bfc.csv"), "gbps_A", 500)
                + meanAfter(out.resolve("timeseries-bfc.csv"), "gbps_B", 500);
        double dtRate = meanAfter(out.resolve("timeseries-dt.csv"), "gbps_A", 500)
                + meanAfter(out.resolve("timeseries-dt.csv"), "gbps_B", 500);
        assertTrue(bfcRate > 0.78 * dtRate, "bfc " + bfcRate + " Gb/s against dt " + dtRate + ":\n" + c.out());
        assertTrue(c.out().contains("lossless viol."), c.out());
    }

    /** The BFC incast scenario, cut to 1 ms: both schemes run, nothing is lost, both traffics get per-traffic FCT. */
    @Test
    void bfcWebsearchIncastRunsBothSchemes() {
        Cli c = sim("-c", SCENARIOS.resolve("bfc-websearch-incast.yaml").toString(), "--json", "--set", "duration=1ms",
                "--set", "measure.from=0us", "--set", "measure.to=1ms", "--set", "traffic.web.stop=1ms", "--set", "traffic.incast.stop=1ms",
                "--set", "traffic.incast.load=1");
        assertEquals(0, c.exitCode(), c.err());
        for (String scheme : new String[] {"dt", "bfc"}) {
            assertEquals(0, number(c.out(), scheme, "\"drops\":(\\d+)"), scheme);
            assertTrue(number(c.out(), scheme, "\"flows\":\\{\"count\":(\\d+)") > 0, scheme);
            assertTrue(c.out().contains("\"fctByTraffic\":{\"web\":"), c.out());
        }
        assertTrue(number(c.out(), "bfc", "\"pfcPausesSent\":(\\d+)") > 0, "the incast must make BFC pause");
    }

    /** Mean of a time-series CSV column over the samples at or after {@code fromUs}. */
    private static double meanAfter(Path csv, String column, double fromUs) throws IOException {
        List<String> lines = Files.readAllLines(csv);
        int col = List.of(lines.getFirst().split(",")).indexOf(column);
        assertTrue(col > 0, column + " not in " + lines.getFirst());
        double sum = 0;
        int n = 0;
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",");
            if (Double.parseDouble(f[0]) >= fromUs) {
                sum += Double.parseDouble(f[col]);
                n++;
            }
        }
        return sum / n;
    }

    /** The table's "1st pause" column in ns (never = Long.MAX_VALUE). */
    private static long firstPause(String table, String scheme) {
        Matcher m = Pattern.compile("(?m)^" + scheme + " .*?\\s([0-9.]+ us|none)\\s+[0-9.]+\\s+[0-9.]+\\s+[0-9.]+\\s+\\d+/")
                .matcher(table);
        assertTrue(m.find(), "no row for " + scheme + " in\n" + table);
        String v = m.group(1);
        return v.equals("none") ? Long.MAX_VALUE : Math.round(Double.parseDouble(v.replace(" us", "")) * 1000);
    }

    /**
     * Issue 17 item 5, the issue's own command: reverie's lossless violations on the 9-port testbed
     * are all copies from the clone ports, which ignore PAUSE; none is from a sender that obeys PFC.
     * The table and the JSON both split them (the old key stays).
     */
    @Test
    void losslessViolationsAreSplitBySendersThatObeyPfcAndSendersThatDoNot() throws IOException {
        Cli table = sim("-c", NINE, "--scheme", "reverie,dt", "--seed", "2");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("lossless viol.  viol. obeying  viol. ignoring"), table.out());
        Cli c = sim("-c", NINE, "--scheme", "reverie,dt", "--seed", "2", "--json");
        assertEquals(0, c.exitCode(), c.err());
        JsonNode schemes = new ObjectMapper().readTree(c.out()).get("schemes");
        JsonNode reverie = schemes.get("reverie");
        long violations = reverie.get("losslessViolations").asLong();
        assertTrue(violations > 0, c.out());
        assertEquals(0, reverie.get("losslessViolationsObeying").asLong(), c.out());
        assertEquals(violations, reverie.get("losslessViolationsIgnoring").asLong(), c.out());
        assertTrue(table.out().matches("(?s).*\\nreverie .* " + violations + " +0 +" + violations + "\\n.*"), table.out());
        assertEquals(0, schemes.get("dt").get("losslessViolations").asLong(), c.out());
        assertEquals(0, schemes.get("dt").get("losslessViolationsIgnoring").asLong(), c.out());
    }

    @Test
    void theSameSeedGivesByteIdenticalJsonAndAnotherSeedDoesNot() throws IOException {
        String[] args = {"-c", DSH, "--scheme", "dt,dsh,bfc", "--json", "--set", "cc.mode=dcqcn",
                "--set", "traffic.fanin.count=12", "--set", "duration=500us", "--set", "measure.to=500us"};
        Cli a = sim(concat(args, "--seed", "7"));
        Cli b = sim(concat(args, "--seed", "7"));
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(a.out(), b.out());
        assertTrue(a.out().startsWith("{\"scenario\":\"dsh-collateral\",\"seed\":7,\"schemes\":{\"dt\":{\"pfcPausesSent\":"),
                a.out());
        for (String key : new String[] {"pfcPausesSentByPort", "pauseTimeNs", "\"flows\":{\"count\"", "fctP50Ns",
                "fctP99Ns", "throughputGbpsByFlow", "losslessViolations", "losslessViolationsObeying",
                "losslessViolationsIgnoring", "drops"}) {
            assertTrue(a.out().contains(key), key);
        }
        JsonNode dt = new ObjectMapper().readTree(a.out()).get("schemes").get("dt");
        assertTrue(dt.get("flows").get("count").isIntegralNumber(), a.out());
        dt.get("throughputGbpsByFlow").forEach(v -> assertTrue(v.isNumber(), a.out()));
        dt.get("fctBySize").forEach(bin -> assertTrue(bin.get("slowdownMean").isNumber() || bin.get("count").asInt() == 0,
                "a bin's slowdown is a number, or null when no flow of it completed: " + bin));
        String[] web = {"-c", SCENARIOS.resolve("websearch-load.yaml").toString(), "--scheme", "dt", "--json",
                "--set", "duration=300us", "--set", "measure.from=0us", "--set", "measure.to=300us",
                "--set", "traffic.web.stop=300us"};
        Cli seed1 = sim(concat(web, "--seed", "1"));
        Cli seed2 = sim(concat(web, "--seed", "2"));
        assertEquals(0, seed1.exitCode(), seed1.err());
        assertNotEquals(seed1.out().replace("\"seed\":1", ""), seed2.out().replace("\"seed\":2", ""),
                "flow arrivals and sizes draw from the seed, so another seed must change the run");
    }

    /**
     * The shipped leaf-spine incast: hosts named by leaf and port, the usual keys, pauses over all
     * switches (fabric ports included, so the total exceeds the host ports' sum), nothing lost, and
     * byte-identical JSON for the same seed.
     */
    @Test
    void leafSpineIncastRunsLosslessAndDeterministically() {
        String[] args = {"-c", SCENARIOS.resolve("leafspine-incast.yaml").toString(), "--scheme", "dt,dsh", "--json",
                "--set", "duration=400us", "--set", "measure.to=400us", "--set", "traffic.fanin.repeatUntil=400us"};
        Cli a = sim(args);
        Cli b = sim(args);
        assertEquals(0, a.exitCode(), a.err());
        assertEquals(a.out(), b.out());
        for (String scheme : new String[] {"dt", "dsh"}) {
            assertEquals(0, number(a.out(), scheme, "\"losslessViolations\":(\\d+)"), scheme);
            assertEquals(0, number(a.out(), scheme, "\"drops\":(\\d+)"), scheme);
            long total = number(a.out(), scheme, "\"pfcPausesSent\":(\\d+)");
            long toHosts = 0;
            for (String h : new String[] {"L0H0", "L0H1", "L0H2", "L0H3", "L1H0", "L1H1", "L1H2", "L1H3"}) {
                toHosts += number(a.out(), scheme, "\"" + h + "\":(\\d+)");
            }
            assertTrue(toHosts > 0 && total > toHosts, scheme + ": " + total + " pauses, " + toHosts + " to hosts");
            long fabric = 0;
            for (String sw : new String[] {"leaf0", "leaf1", "spine0", "spine1"}) {
                fabric += number(a.out(), scheme, "\"fabricPausesSentBySwitch\":\\{[^}]*\"" + sw + "\":(\\d+)");
            }
            assertEquals(total - toHosts, fabric, scheme + ": the per-switch fabric pauses add up");
        }
        Cli table = sim("-c", SCENARIOS.resolve("leafspine-incast.yaml").toString(), "--scheme", "dt",
                "--set", "duration=200us", "--set", "measure.to=200us", "--set", "traffic.fanin.repeatUntil=200us");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("leaf-spine: 2 leaves x 2 spines"), table.out());
        assertTrue(table.out().contains("fabric pauses by switch, dt: leaf0 "), table.out());
    }

    /**
     * The SPFC §VII-C WebSearch scenario, shortened to 40 ms of arrivals: it runs lossless under
     * st, dt and spfc and reports FCT per host group (H0 vs the synchronised H1-H29), whose
     * burst flows come 29 at a time, one size per arrival, so every size bin holds a multiple of 29.
     * (The paper's direction, SPFC fewer pauses and faster large flows than DT, is not asserted: it is
     * not robust here across seeds and run lengths; see testbed/SPFC-INVESTIGATION.md.)
     */
    @Test
    void spfcWebsearchRunsLosslessAndReportsFctByHostGroup() {
        Cli c = sim("-c", SCENARIOS.resolve("spfc-websearch.yaml").toString(), "--json", "--set", "duration=45ms",
                "--set", "measure.to=40ms", "--set", "traffic.H0.stop=40ms", "--set", "traffic.bursts.stop=40ms");
        assertEquals(0, c.exitCode(), c.err());
        String json = c.out();
        for (String scheme : new String[] {"st", "dt", "spfc"}) {
            assertEquals(0, number(json, scheme, "\"losslessViolations\":(\\d+)"), scheme);
            assertTrue(number(json, scheme, "\"pfcXoffEdges\":(\\d+)") > 0, scheme + " pauses someone: " + json);
            String groups = find(json, scheme, "\"fctByTraffic\":\\{(\"H0\":\\[.*?\\]),\"bursts\":\\[");
            assertTrue(groups.contains("\"highBytes\":10000") && groups.contains("\"highBytes\":1000000")
                    && groups.contains("\"highBytes\":null"), groups);
            String bursts = find(json, scheme, "\"bursts\":(\\[\\{\"lowBytes\".*?\\])");
            Matcher m = Pattern.compile("\"started\":(\\d+)").matcher(bursts);
            int total = 0;
            while (m.find()) {
                assertEquals(0, Integer.parseInt(m.group(1)) % 29, "whole groups of 29 per size bin: " + bursts);
                total += Integer.parseInt(m.group(1));
            }
            assertTrue(total >= 29, "at least one burst arrival in 40 ms: " + bursts);
        }
        Cli table = sim("-c", SCENARIOS.resolve("spfc-websearch.yaml").toString(), "--scheme", "dt",
                "--set", "duration=12ms", "--set", "measure.to=10ms", "--set", "traffic.H0.stop=10ms",
                "--set", "traffic.bursts.stop=10ms");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("FCT by traffic and flow size") && table.out().contains("XOFFs"), table.out());
    }

    /** Not on a terminal (stderr captured here, as in a pipe or a CI log): no progress bar, a plain line per scheme. */
    @Test
    void offATerminalProgressIsPlainLinesWithoutCarriageReturns() {
        Cli c = sim("-c", SPFC, "--scheme", "dt,spfc", "--set", "duration=1ms", "--set", "measure.from=0ms",
                "--set", "measure.to=1ms");
        assertEquals(0, c.exitCode(), c.err());
        assertFalse(c.err().contains("\r"), c.err());
        for (String scheme : new String[] {"dt", "spfc"}) {
            assertTrue(Pattern.compile("(?m)^spfc-victim " + scheme + ": 1\\.000 ms simulated, [\\d,]+ events in [\\d.]+ s wall")
                    .matcher(c.err()).find(), c.err());
        }
    }

    @Test
    void badScenarioFilesGetOneLineNamingFileAndKey(@TempDir Path dir) throws IOException {
        String base = Files.readString(Path.of(DSH));
        expectError(dir, base.replace("duration: 1ms", "duration: soon"), "duration: expected a time like 9us");
        expectError(dir, base.replace("kind: incast", "kind: outcast"), "traffic.fanin.kind: expected flow, flows, incast, incastLoad, poisson, replay or pfcStorm");
        expectError(dir, base.replace("to: R1, bytes: 64KiB", "to: R9, bytes: 64KiB"), "traffic.fanin.to: no host named 'R9'");
        expectError(dir, base.replace("seed: 1", "seed: 1\nsped: 2"), "sped");
        expectError(dir, base.replace("mtuBytes: 1500", "mtuBytes: 1500\n  ports: {count: 4, speed: 100G}"),
                "mmu.ports: a scenario's ports are its hosts");
        String ls = Files.readString(SCENARIOS.resolve("leafspine-incast.yaml"));
        expectError(dir, ls.replace("kind: leafSpine", "kind: fatTree"), "topology.kind: expected leafSpine, clos, ring or single");
        expectError(dir, ls.replace("to: L1H0", "to: L2H0"), "traffic.F0.to: no host named 'L2H0'");
        expectError(dir, ls.replace("spines: 2", "spines: 2\n  cores: 4"), "cores");
        String nine = Files.readString(Path.of(NINE));
        expectError(dir, nine.replace("of: H1", "of: H9"), "traffic.clones.of: no host named 'H9'");
        expectError(dir, nine.replace("pfc: ignore", "pfc: maybe"), "traffic.clones.pfc: expected ignore or skip, got 'maybe'");
        expectError(dir, nine.replace("from: C0, count: 5", "from: C0, count: 6"),
                "traffic.clones.count: 6 clone ports from C0 run past the last host (C4)");
        expectError(dir, nine.replace("{name: C, count: 5, speed: 10G", "{name: C, count: 5, speed: 25G"),
                "traffic.clones.from: clone port C0 needs the link of H1");
        expectError(dir, nine.replace("F1: {kind: flow, from: H0", "F1: {kind: flow, from: C0"),
                "traffic.F1.from: host C0 is a clone port of H1");
        String cdf = SCENARIOS.resolve("../workloads/websearch.cdf").toAbsolutePath().normalize().toString();
        String web = Files.readString(SCENARIOS.resolve("spfc-websearch.yaml")).replace("../workloads/websearch.cdf", cdf);
        expectError(dir, web.replace("synchronized: true", "synchronized: maybe"),
                "traffic.bursts.synchronized: expected true or false");
        expectError(dir, web.replace("count: 29, to: R2", "count: 29, to: [R2, H7]"),
                "traffic.bursts.to: a synchronized group's receivers must not be among its senders, got H7 in both");
        expectError(dir, web.replace("load: 0.2", "load: 1.5"),
                "traffic.bursts.load: expected a fraction of the receivers' combined line rate in (0, 1], got 1.5");
        expectError(dir, web.replace("fctByTraffic: true", "fctByTraffic: 3"), "report.fctByTraffic: expected true or false");
        Cli c = sim("-c", DSH, "--set", "traffic.nosuch.count=3");
        assertEquals(1, c.exitCode());
        assertTrue(c.err().contains("--set traffic.nosuch.count: traffic.nosuch does not exist"), c.err());
        Cli s = sim("-c", DSH, "--scheme", "dt,foo");
        assertEquals(2, s.exitCode());
        assertTrue(s.err().contains("unknown scheme 'foo'"), s.err());
        Cli missing = sim("-c", dir.resolve("nope.yaml").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().contains("nope.yaml: no such file"), missing.err());
    }

    private static void expectError(Path dir, String yaml, String expected) throws IOException {
        Path f = dir.resolve("bad.yaml");
        Files.writeString(f, yaml);
        Cli c = sim("-c", f.toString());
        assertEquals(1, c.exitCode(), c.out());
        String line = c.err().strip();
        assertTrue(line.startsWith("pfcswitch sim: error: " + f + ": "), line);
        assertTrue(line.contains(expected), "expected '" + expected + "' in: " + line);
        assertEquals(1, line.lines().count(), line);
    }

    private static long number(String json, String scheme, String regex) {
        return Long.parseLong(find(json, scheme, regex));
    }

    private static double decimal(String json, String scheme, String regex) {
        return Double.parseDouble(find(json, scheme, regex));
    }

    /** The first match of {@code regex} inside scheme {@code scheme}'s object. */
    private static String find(String json, String scheme, String regex) {
        int at = json.indexOf("\"" + scheme + "\":{\"pfcPausesSent\"");
        assertTrue(at >= 0, scheme + " missing in " + json);
        Matcher m = Pattern.compile(regex).matcher(json);
        assertTrue(m.find(at), regex + " not found for " + scheme + " in " + json);
        return m.group(1);
    }

    /** More than eight traffics: one summed throughput column, not one per traffic. */
    @Test
    void manyTrafficsShareOneThroughputColumn(@TempDir Path dir) throws IOException {
        StringBuilder traffic = new StringBuilder();
        for (int i = 0; i < 9; i++) {
            traffic.append("  f").append(i).append(": {kind: flow, from: H").append(i % 2)
                    .append(", to: R, bytes: 20KB, start: ").append(i * 10).append("us}\n");
        }
        Path scenario = dir.resolve("many.yaml");
        Files.writeString(scenario, """
                name: many-traffics
                duration: 1ms
                cc: {mode: none}
                hosts:
                  - {name: H, count: 2, speed: 10G, delay: 1us}
                  - {name: R, speed: 10G, delay: 1us}
                mmu: {totalBytes: 1MB, losslessPriorities: [3], scheme: dt}
                traffic:
                """ + traffic);
        Cli sim = Cli.run("sim", "-c", scenario.toString(), "--scheme", "dt");
        assertEquals(0, sim.exitCode(), sim.err());
        assertTrue(sim.out().contains("traffic Gb/s"), sim.out());
        assertFalse(sim.out().contains("f8 Gb/s"), sim.out());
        assertTrue(sim.out().contains("traffic Gb/s: all 9 traffics together"), sim.out());
    }
}

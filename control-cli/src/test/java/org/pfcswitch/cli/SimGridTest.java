package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * Grid sweeps of {@code sim}: the cross product of several --sweep, seeds, a pool of --jobs
 * threads with the same rows whatever the pool, the results table (CSV, JSON) and its summary over
 * seeds, and one-line errors for bad grids.
 */
class SimGridTest {

    static final String WEB = Path.of("..", "testbed-configs", "scenarios", "websearch-load.yaml").toString();
    /** 1 ms of WebSearch at 16 hosts: flows draw from the seed, so seeds differ. */
    static final String[] SHORT = {"-c", WEB, "--set", "duration=1ms", "--set", "measure.from=0us",
            "--set", "measure.to=1ms", "--set", "traffic.web.stop=1ms"};
    /** 2 loads x 2 schemes x 2 seeds = 8 runs. */
    static final String[] GRID = concat(SHORT, "--scheme", "dt,spfc", "--sweep", "traffic.web.load=0.3,0.6",
            "--seeds", "2");

    @Test
    void theSameGridGivesTheSameRowsWhateverTheNumberOfJobs(@TempDir Path dir) throws IOException {
        Path csv1 = dir.resolve("j1.csv");
        Path csv2 = dir.resolve("j2.csv");
        Path json1 = dir.resolve("j1.json");
        Path json2 = dir.resolve("j2.json");
        Cli one = sim(concat(GRID, "--jobs", "1", "--table", csv1.toString(), "--table", json1.toString()));
        assertEquals(0, one.exitCode(), one.err());
        Cli two = sim(concat(GRID, "--jobs", "2", "--table", csv2.toString(), "--table", json2.toString()));
        assertEquals(0, two.exitCode(), two.err());
        String a = withoutWall(Files.readString(csv1));
        assertEquals(a, withoutWall(Files.readString(csv2)));
        assertEquals(withoutWallJson(Files.readString(json1)), withoutWallJson(Files.readString(json2)));
        assertEquals(one.out(), two.out(), "the printed summary holds no wall time");

        List<String> lines = Files.readAllLines(csv1);
        assertEquals(9, lines.size(), "a header and 8 rows: " + lines);
        assertTrue(lines.getFirst().startsWith("traffic.web.load,scheme,seed,pfc_pauses,"), lines.getFirst());
        assertTrue(lines.getFirst().endsWith(",frames_mb,heap_alloc_mb,wall_s"), lines.getFirst());
        assertTrue(lines.getFirst().contains(",fct_p99_ns_lt10KB,") && lines.getFirst().contains(",max_buffer_bytes,")
                && lines.getFirst().contains(",lossless_violations,") && lines.getFirst().contains(",pfc_pauses_to_H0,"),
                lines.getFirst());
        List<String> order = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            String[] c = l.split(",", -1);
            order.add(c[0] + " " + c[1] + " " + c[2]);
        }
        assertEquals(List.of("0.3 dt 1", "0.3 dt 2", "0.3 spfc 1", "0.3 spfc 2", "0.6 dt 1", "0.6 dt 2", "0.6 spfc 1",
                "0.6 spfc 2"), order, "rows in grid order: point, scheme, seed");
        assertNotEquals(lines.get(1).substring(9), lines.get(2).substring(9), "seeds 1 and 2 must differ");
        assertTrue(one.out().contains("mean +- half-width of the 95 % confidence interval"), one.out());
        assertTrue(one.err().contains("8 runs in"), one.err());
    }

    /** A grid run equals the single runs it is made of: a row per (point, scheme, seed) with the same figures. */
    @Test
    void aRowHoldsWhatTheSingleRunReports(@TempDir Path dir) throws IOException {
        Path json = dir.resolve("t.json");
        Cli grid = sim(concat(GRID, "--table", json.toString()));
        assertEquals(0, grid.exitCode(), grid.err());
        JsonNode rows = new ObjectMapper().readTree(json.toFile()).get("rows");
        assertEquals(8, rows.size());
        Cli single = sim(concat(SHORT, "--scheme", "dt,spfc", "--set", "traffic.web.load=0.6", "--seed", "2", "--json"));
        assertEquals(0, single.exitCode(), single.err());
        JsonNode spfc = new ObjectMapper().readTree(single.out()).get("schemes").get("spfc");
        JsonNode row = rows.get(7);
        assertEquals("0.6", row.get("traffic.web.load").asText());
        assertEquals("spfc", row.get("scheme").asText());
        assertEquals(2, row.get("seed").asInt());
        assertEquals(spfc.get("pfcPausesSent").asLong(), row.get("pfc_pauses").asLong());
        assertEquals(spfc.get("pfcXoffEdges").asLong(), row.get("xoffs").asLong());
        assertEquals(spfc.get("pauseTimeNs").asLong(), row.get("pause_time_ns").asLong());
        assertEquals(spfc.get("flows").get("fctP99Ns").asLong(), row.get("fct_p99_ns").asLong());
        assertEquals(spfc.get("fctBySize").get(0).get("fctP99Ns").asLong(), row.get("fct_p99_ns_lt10KB").asLong());
        assertEquals(spfc.get("drops").asLong(), row.get("drops").asLong());
        assertEquals(spfc.get("losslessViolations").asLong(), row.get("lossless_violations").asLong());
        assertTrue(row.has("lossless_violations_obeying") && row.has("lossless_violations_ignoring"),
                "the grid keeps the split of lossless violations by whether the sender obeys PFC: " + row);
        assertEquals(spfc.get("losslessViolationsObeying").asLong(), row.get("lossless_violations_obeying").asLong());
        assertEquals(spfc.get("losslessViolationsIgnoring").asLong(), row.get("lossless_violations_ignoring").asLong());
    }

    @Test
    void theSummaryGivesTheMeanAndAStudentTIntervalOverSeeds(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("t.csv");
        Path summary = dir.resolve("s.csv");
        Cli c = sim(concat(SHORT, "--sweep", "traffic.web.load=0.6", "--seed", "1..3", "--scheme", "dt",
                "--table", csv.toString(), "--summary", summary.toString()));
        assertEquals(0, c.exitCode(), c.err());
        List<String> rows = Files.readAllLines(csv);
        List<String> header = List.of(rows.getFirst().split(","));
        int col = header.indexOf("fct_p50_ns");
        double[] v = new double[3];
        for (int i = 0; i < 3; i++) {
            v[i] = Double.parseDouble(rows.get(i + 1).split(",", -1)[col]);
        }
        double mean = (v[0] + v[1] + v[2]) / 3;
        double sd = Math.sqrt(((v[0] - mean) * (v[0] - mean) + (v[1] - mean) * (v[1] - mean)
                + (v[2] - mean) * (v[2] - mean)) / 2);
        double ci = 4.303 * sd / Math.sqrt(3);          // t(0.975, 2)
        List<String> s = Files.readAllLines(summary);
        assertEquals(2, s.size(), s.toString());
        List<String> sh = List.of(s.getFirst().split(","));
        String[] cells = s.get(1).split(",", -1);
        assertEquals("3", cells[sh.indexOf("seeds")]);
        assertEquals(mean, Double.parseDouble(cells[sh.indexOf("fct_p50_ns_mean")]), 1e-3);
        assertEquals(ci, Double.parseDouble(cells[sh.indexOf("fct_p50_ns_ci95")]), 1e-3);
        assertFalse(sh.contains("wall_s_mean") || sh.contains("seed_mean"), sh.toString());
        Path sj = dir.resolve("s.json");
        Cli j = sim(concat(SHORT, "--sweep", "traffic.web.load=0.6", "--seed", "1..3", "--scheme", "dt",
                "--summary", sj.toString()));
        assertEquals(0, j.exitCode(), j.err());
        JsonNode sum = new ObjectMapper().readTree(sj.toFile()).get("summary").get(0);
        assertEquals(mean, sum.get("fct_p50_ns_mean").asDouble(), 1e-3);
    }

    @Test
    void badGridsGetOneLineErrors() {
        assertUsage(sim(concat(SHORT, "--sweep", "traffic.web.load=")), "--sweep traffic.web.load: empty value list");
        assertUsage(sim(concat(SHORT, "--sweep", "traffic.web.load=0.3,,0.5")), "--sweep traffic.web.load: empty value in");
        assertUsage(sim(concat(SHORT, "--sweep", "traffic.web.load=0.3", "--sweep", "traffic.web.load=0.5")),
                "--sweep traffic.web.load is given twice");
        assertUsage(sim(concat(SHORT, "--sweep", "=1,2")), "--sweep wants KEY=V1,V2,...");
        assertUsage(sim(concat(SHORT, "--seeds", "3", "--seed", "1")), "give --seed or --seeds, not both");
        assertUsage(sim(concat(SHORT, "--seed", "5..2")), "the range is empty");
        assertUsage(sim(concat(SHORT, "--seed", "x")), "--seed wants N or A..B");
        assertUsage(sim(concat(GRID, "--jobs", "0")), "--jobs must be at least 1");
        assertUsage(sim(concat(GRID, "--table", "t.txt")), "must end in .csv or .json");
        assertUsage(sim(concat(GRID, "--trace", "t.csv")), "--trace records single runs");
        assertUsage(sim(concat(GRID, "--scheme", "dt")), "--scheme dt is given twice");
        Cli unknown = sim(concat(SHORT, "--sweep", "traffic.web.lode=0.3,0.5", "--seeds", "2"));
        assertEquals(1, unknown.exitCode(), unknown.err());
        assertEquals(1, unknown.err().strip().lines().count(), unknown.err());
        assertTrue(unknown.err().contains("--sweep traffic.web.lode=0.3") && unknown.err().contains("lode"), unknown.err());
        Cli badValue = sim(concat(SHORT, "--sweep", "traffic.web.load=0.3,lots", "--seeds", "2"));
        assertEquals(1, badValue.exitCode(), badValue.err());
        assertTrue(badValue.err().contains("traffic.web.load=lots"), badValue.err());
        assertFalse(badValue.err().contains("runs in"), "a bad value fails before any run: " + badValue.err());
    }

    @Test
    void everyRunStatesItsMemory(@TempDir Path dir) throws IOException {
        Path csv = dir.resolve("t.csv");
        Path summary = dir.resolve("s.csv");
        Cli c = sim(concat(SHORT, "--scheme", "dt", "--seeds", "2", "--jobs", "2", "--table", csv.toString(),
                "--summary", summary.toString()));
        assertEquals(0, c.exitCode(), c.err());
        List<String> lines = Files.readAllLines(csv);
        List<String> header = List.of(lines.getFirst().split(","));
        for (String row : lines.subList(1, lines.size())) {
            String[] cells = row.split(",", -1);
            for (String column : List.of("frames_mb", "heap_alloc_mb")) {
                double mb = Double.parseDouble(cells[header.indexOf(column)]);
                assertTrue(mb > 0, column + " of a run that held frames and built hosts: " + row);
            }
        }
        List<String> sh = List.of(Files.readAllLines(summary).getFirst().split(","));
        assertTrue(sh.contains("frames_mb_mean"), "the frames' memory is the run's own: averaged over seeds " + sh);
        assertFalse(sh.contains("heap_alloc_mb_mean"), "the heap allocated depends on the JIT: not a result " + sh);
        assertTrue(c.err().contains("MB of Java heap allocated"), "the grid's last line says what a run takes: " + c.err());
    }

    @Test
    void runsThatCouldOutgrowTheHeapTogetherAreWarnedAboutBeforeTheyStart() {
        Scenario s = ScenarioLoader.load(Path.of(WEB), List.of()).scenario();
        ScenarioRunner.MemoryEstimate e = ScenarioRunner.estimateMemory(s);
        assertTrue(e.frameBytes() >= s.mmu().totalBytes(), "a full buffer's frames: " + e);
        assertTrue(e.heapBytes() > 0, e.toString());
        StringWriter tight = new StringWriter();
        SimCommand.warnIfBeyondHeap(List.of(s), 2, 2 * e.totalBytes() - 1, new PrintWriter(tight, true));
        assertTrue(tight.toString().startsWith("warning: a run of websearch-load may take up to "), tight.toString());
        assertTrue(tight.toString().contains("2 at once") && tight.toString().contains("--jobs"), tight.toString());
        assertEquals(1, tight.toString().lines().count(), "one line: " + tight);
        StringWriter enough = new StringWriter();
        SimCommand.warnIfBeyondHeap(List.of(s), 2, 2 * e.totalBytes(), new PrintWriter(enough, true));
        assertEquals("", enough.toString());
    }

    static void assertUsage(Cli c, String message) {
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(c.err().startsWith(message) || c.err().contains(message), c.err());
        assertTrue(c.err().lines().findFirst().orElse("").contains(message), "the first line says it: " + c.err());
    }

    /** Every line without its last two cells (heap_alloc_mb and wall_s, the machine's columns, always last). */
    static String withoutWall(String csv) {
        StringBuilder sb = new StringBuilder();
        for (String line : csv.split("\n")) {
            String cut = line.substring(0, line.lastIndexOf(','));
            sb.append(cut, 0, cut.lastIndexOf(',')).append('\n');
        }
        return sb.toString();
    }

    static String withoutWallJson(String json) {
        return json.replaceAll("\"(wall_s|heap_alloc_mb)\":[0-9.]+", "\"$1\":0");
    }

    static Cli sim(String... args) {
        return Cli.run(concat(new String[] {"sim"}, args));
    }

    static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }
}

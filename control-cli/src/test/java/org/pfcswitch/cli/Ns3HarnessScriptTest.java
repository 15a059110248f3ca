package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ns-3 peer harness (perf/ns3/), as far as it runs without an ns-3 build (CI has none): every
 * argument error of compare.sh, run.sh and speed.sh is one line with exit code 2 before anything is
 * built or run; a flow list becomes the same ns-3 and sim files as the drawn flow set it came from;
 * measure.py reports a child's peak memory. NS3_WORK points into a temporary directory, so nothing
 * is written to the checkout.
 */
class Ns3HarnessScriptTest {
    static final Path DIR = Path.of("..", "perf", "ns3").toAbsolutePath().normalize();

    @TempDir
    static Path work;


    @BeforeAll
    static void needsBashAndPython() throws Exception {
        assumeTrue(run(List.of("python3", "-c", "pass")).exitCode() == 0, "no python3 on this machine");
    }

    static ScriptRun script(String name, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(DIR.resolve(name).toString()));
        command.addAll(List.of(args));
        return run(command);
    }

    static ScriptRun run(List<String> command) throws IOException, InterruptedException {
        return ScriptRun.of(command, Map.of("NS3_WORK", work.resolve("ns3-work").toString()));
    }

    static void assertOneLineError(ScriptRun r, String... mustName) {
        assertEquals(2, r.exitCode(), "exit code; stderr: " + r.err());
        assertEquals(1, r.errLines().size(), "one line: " + r.err());
        for (String s : mustName) {
            assertTrue(r.err().contains(s), "names '" + s + "': " + r.err());
        }
    }

    @Test
    void compareHelpShowsTheOneCommand() throws Exception {
        ScriptRun r = script("compare.sh", "--help");
        assertEquals(0, r.exitCode(), r.err());
        for (String option : List.of("--flows", "--runs", "--schemes", "--variants", "--end", "NS3_WORK")) {
            assertTrue(r.out().contains(option), "--help mentions " + option + ":\n" + r.out());
        }
    }

    @Test
    void compareArgumentErrorsAreOneLine() throws Exception {
        assertOneLineError(script("compare.sh"), "--flows");
        assertOneLineError(script("compare.sh", "--flows"), "--flows needs a value");
        assertOneLineError(script("compare.sh", "--frobnicate"), "'--frobnicate'", "--runs");
        assertOneLineError(script("compare.sh", "--flows", "leafspine-ws-incast", "--runs", "0"), "'0'", "1 to 99");
        assertOneLineError(script("compare.sh", "--flows", "leafspine-ws-incast", "--schemes", "sonic,dt"),
                "'dt'", "sonic, reverie");
        assertOneLineError(script("compare.sh", "--flows", "leafspine-ws-incast", "--variants", "fast"),
                "'fast'", "ns3-paths");
        assertOneLineError(script("compare.sh", "--flows", "leafspine-ws-incast", "--end", "soon"), "'soon'");
        assertOneLineError(script("compare.sh", "--flows", "no-such-set"), "'no-such-set'", "leafspine-ws-incast");
    }

    @Test
    void aBadFlowListIsNamedWithItsLine() throws Exception {
        Path flows = Files.writeString(work.resolve("bad-flows.txt"), "0 20 1000 0.001\n# a comment\n3 40 1000 0.002\n");
        assertOneLineError(script("compare.sh", "--flows", flows.toString()), flows + ":3:", "dst 40", "0..31");
        Path columns = Files.writeString(work.resolve("three-columns.txt"), "0 20 1000\n");
        assertOneLineError(script("compare.sh", "--flows", columns.toString()), columns + ":1:", "3 columns");
    }

    @Test
    void runAndSpeedArgumentErrorsAreOneLine() throws Exception {
        assertOneLineError(script("run.sh"), "usage: run.sh FLOWS");
        assertOneLineError(script("run.sh", "leafspine-ws-incast", "dt"), "'dt'");
        assertOneLineError(script("speed.sh", "--rounds", "x"), "'x'");
        assertOneLineError(script("speed.sh", "--warm"), "'--warm'", "--rounds");
        assertEquals(0, script("speed.sh", "--help").exitCode());
    }

    /** The flow list of a drawn flow set, read back, gives ns-3 and sim exactly the drawn set's files. */
    @Test
    void aFlowListGivesTheSameFilesAsTheDrawnSet() throws Exception {
        Path drawn = DIR.resolve("scenarios/leafspine-ws-incast");
        Path out = work.resolve("from-list");
        ScriptRun r = run(List.of("python3", DIR.resolve("gen_leafspine.py").toString(), "--flows-file",
                drawn.resolve("flows.txt").toString(), "--out", out.toString()));
        assertEquals(0, r.exitCode(), r.err());
        for (String file : List.of("topology.txt", "flow-ns3.txt", "flows.txt", "flows.tsv")) {
            assertEquals(Files.readString(drawn.resolve(file)), Files.readString(out.resolve(file)), file);
        }
    }

    @Test
    void measureReportsTheChildsPeakMemoryAndExitCode() throws Exception {
        Path usage = work.resolve("usage");
        ScriptRun r = run(List.of("python3", DIR.resolve("measure.py").toString(), usage.toString(),
                "python3", "-c", "import sys; b = bytearray(96 << 20); b[::4096] = b'x' * len(b[::4096]); sys.exit(3)"));
        assertEquals(3, r.exitCode(), "the command's exit code passes through: " + r.err());
        String[] fields = Files.readString(usage).trim().split(" ");
        assertEquals(2, fields.length, "wall_s peak_rss_kb");
        assertTrue(Double.parseDouble(fields[0]) > 0, "wall time");
        assertTrue(Long.parseLong(fields[1]) >= 96 << 10, "peak RSS covers the 96 MiB it touched: " + fields[1] + " KB");
    }
}

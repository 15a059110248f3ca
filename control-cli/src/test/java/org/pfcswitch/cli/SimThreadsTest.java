package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/**
 * {@code pfcswitch sim --threads N} prints the same bytes for every N: a leaf-spine incast under
 * PFC with a flow list beside it, and the deadlock fabric of DSH's figure 16 (two failed links, the
 * deadlock detector reading every switch); more threads than switches, or fewer than one, is
 * one line naming the limit; a grid takes N threads per run.
 */
class SimThreadsTest {

    private static final Path SCENARIOS = Path.of("..", "testbed-configs", "scenarios");

    private static String json(String scenario, int threads, String... sets) {
        String[] args = new String[7 + 2 * sets.length];
        args[0] = "sim";
        args[1] = "-c";
        args[2] = SCENARIOS.resolve(scenario).toString();
        args[3] = "--json";
        args[4] = "--jobs=1";
        args[5] = "--threads";
        args[6] = Integer.toString(threads);
        for (int i = 0; i < sets.length; i++) {
            args[7 + 2 * i] = "--set";
            args[8 + 2 * i] = sets[i];
        }
        Cli c = Cli.run(args);
        assertEquals(0, c.exitCode(), c.err());
        return c.out();
    }

    @Test
    void aLeafSpineIncastUnderPfcPrintsTheSameJsonOnOneTwoAndThreeThreads() {
        String[] sets = {"duration=300us", "measure.from=50us", "measure.to=250us", "traffic.fanin.repeatUntil=0us"};
        String one = json("leafspine-incast.yaml", 1, sets);
        assertTrue(one.contains("\"pfcPausesSent\""), one);
        assertFalse(one.contains("\"pfcPausesSent\": 0,"), "the incast pauses its senders: " + one);
        assertEquals(one, json("leafspine-incast.yaml", 2, sets));
        assertEquals(one, json("leafspine-incast.yaml", 3, sets));
    }

    @Test
    void theDeadlockFabricPrintsTheSameJsonOnOneTwoAndThreeThreads() {
        String[] sets = {"duration=400us"};
        String one = json("papers/dsh-fig16-deadlock.yaml", 1, sets);
        assertTrue(one.contains("\"deadlock\""), one);
        assertEquals(one, json("papers/dsh-fig16-deadlock.yaml", 2, sets));
        assertEquals(one, json("papers/dsh-fig16-deadlock.yaml", 3, sets));
    }

    @Test
    void moreThreadsThanSwitchesIsOneLine() {
        Cli c = Cli.run("sim", "-c", SCENARIOS.resolve("leafspine-incast.yaml").toString(), "--threads", "5");
        assertEquals(2, c.exitCode(), c.out());
        assertTrue(c.err().startsWith("--threads 5: leafspine-incast has 4 switches, and a thread runs one switch at"
                + " least: give --threads 1..4"), c.err());
        Cli single = Cli.run("sim", "-c", SCENARIOS.resolve("spfc-victim.yaml").toString(), "--threads", "2");
        assertEquals(2, single.exitCode(), single.out());
        assertTrue(single.err().contains("has 1 switch, and a thread runs one switch at least: give --threads 1..1"),
                single.err());
    }

    @Test
    void fewerThanOneThreadIsOneLine() {
        Cli c = Cli.run("sim", "-c", SCENARIOS.resolve("leafspine-incast.yaml").toString(), "--threads", "0");
        assertEquals(2, c.exitCode(), c.out());
        assertTrue(c.err().startsWith("--threads must be at least 1, got 0"), c.err());
    }
}

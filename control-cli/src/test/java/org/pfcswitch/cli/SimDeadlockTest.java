package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * {@code pfcswitch sim} on the shipped ring deadlock: the table's deadlocks column and report line,
 * the JSON's {@code deadlock} object; routed the short way, none; a scenario without a
 * {@code deadlock:} section has neither the column nor the key.
 */
class SimDeadlockTest {

    private static final Path SCENARIOS = Path.of("..", "testbed-configs", "scenarios");
    private static final String RING = SCENARIOS.resolve("ring-deadlock.yaml").toString();

    @Test
    void theTableNamesTheCycle() {
        Cli c = Cli.run("sim", "-c", RING);
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.out().contains("deadlocks\n") || c.out().contains("deadlocks\r\n"), c.out());
        assertTrue(c.out().contains("  dt: 1 deadlocks in 50 checks"), c.out());
        assertTrue(c.out().contains("    deadlock: sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3 (a cycle since 0.100 ms,"
                + " reported at 1.100 ms)"), c.out());
    }

    @Test
    void theJsonHasTheDeadlockObject() throws IOException {
        Cli c = Cli.run("sim", "-c", RING, "--json");
        assertEquals(0, c.exitCode(), c.err());
        JsonNode d = new ObjectMapper().readTree(c.out()).get("schemes").get("dt").get("deadlock");
        assertEquals(100_000, d.get("checkNs").asLong());
        assertEquals(1_000_000, d.get("persistNs").asLong());
        assertEquals(50, d.get("checks").asLong());
        assertEquals(1, d.get("deadlocks").asLong());
        JsonNode rep = d.get("reports").get(0);
        assertEquals("sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3", rep.get("cycle").asText());
        assertEquals(100_000, rep.get("firstSeenNs").asLong());
        assertEquals(1_100_000, rep.get("reportedNs").asLong());

        Cli shortest = Cli.run("sim", "-c", RING, "--json", "--set", "topology.routes=shortest");
        assertEquals(0, shortest.exitCode(), shortest.err());
        JsonNode none = new ObjectMapper().readTree(shortest.out()).get("schemes").get("dt").get("deadlock");
        assertEquals(0, none.get("deadlocks").asLong());
        assertEquals(0, none.get("reports").size());
    }

    @Test
    void withoutTheSectionOutputHasNoDeadlockColumnOrKey() {
        String leafSpine = SCENARIOS.resolve("leafspine-incast.yaml").toString();
        Cli table = Cli.run("sim", "-c", leafSpine, "--scheme", "dt", "--set", "duration=100us", "--set", "measure.from=0us",
                "--set", "measure.to=100us");
        assertEquals(0, table.exitCode(), table.err());
        assertFalse(table.out().contains("deadlock"), table.out());
        Cli json = Cli.run("sim", "-c", leafSpine, "--scheme", "dt", "--json", "--set", "duration=100us",
                "--set", "measure.from=0us", "--set", "measure.to=100us");
        assertFalse(json.out().contains("deadlock"), json.out());
    }
}

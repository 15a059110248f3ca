package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * {@code pfcswitch sim --shadow}: the shadows' would-be XOFFs and drops beside the active scheme's,
 * a shadow of the active scheme agreeing with it exactly, the run itself unchanged, bad names refused.
 */
class SimShadowTest {

    private static final String DSH = Path.of("..", "testbed-configs", "scenarios", "dsh-collateral.yaml").toString();
    private static final String[] SHORT = {"-c", DSH, "--set", "duration=500us", "--set", "measure.to=500us"};

    private static Cli sim(String... args) {
        String[] all = new String[args.length + SHORT.length + 1];
        all[0] = "sim";
        System.arraycopy(SHORT, 0, all, 1, SHORT.length);
        System.arraycopy(args, 0, all, 1 + SHORT.length, args.length);
        return Cli.run(all);
    }

    @Test
    void shadowsAreReportedBesideTheActiveSchemeAndChangeNothing() throws Exception {
        Cli plain = sim("--scheme", "dt,dsh", "--json");
        Cli shadowed = sim("--scheme", "dt,dsh", "--shadow", "dt,st,spfc", "--json");
        assertEquals(0, plain.exitCode(), plain.err());
        assertEquals(0, shadowed.exitCode(), shadowed.err());
        ObjectMapper json = new ObjectMapper();
        JsonNode with = json.readTree(shadowed.out());
        for (String scheme : new String[] {"dt", "dsh"}) {
            JsonNode run = with.get("schemes").get(scheme);
            JsonNode shadows = run.get("shadows");
            JsonNode active = shadows.get("active");
            assertEquals(scheme, active.get("scheme").asText());
            assertEquals(run.get("pfcXoffEdges").asLong(), active.get("xoffs").asLong(),
                    scheme + ": the active's XOFFs are the run's (one switch: host ports only)");
            assertEquals(run.get("drops").asLong(), active.get("drops").asLong());
            assertEquals(3, shadows.get("schemes").size());
            for (String s : new String[] {"dt", "st", "spfc"}) {
                assertEquals(s, shadows.get("schemes").get(s).get("scheme").asText());
            }
            ((ObjectNode) run).remove("shadows");
        }
        assertTrue(with.get("schemes").get("dt").toString().length() > 100);
        JsonNode dtShadowOfDt = json.readTree(shadowed.out()).get("schemes").get("dt").get("shadows");
        assertEquals(dtShadowOfDt.get("active").get("xoffs"), dtShadowOfDt.get("schemes").get("dt").get("xoffs"),
                "a dt shadow of dt counts exactly dt's XOFFs");
        assertEquals(dtShadowOfDt.get("active").get("drops"), dtShadowOfDt.get("schemes").get("dt").get("drops"));
        assertEquals(dtShadowOfDt.get("active").get("maxBufferBytes"), dtShadowOfDt.get("schemes").get("dt").get("maxBufferBytes"));
        assertTrue(dtShadowOfDt.get("active").get("xoffs").asLong() > 0, "the scenario pauses under dt");
        assertEquals(json.readTree(plain.out()), with, "without the shadows' section the run is the same");

        Cli table = sim("--scheme", "dt", "--shadow", "dsh,spfc");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("shadow schemes (would-be XOFFs and drops"), table.out());
        assertTrue(table.out().lines().anyMatch(l -> l.matches("dt\\s+dsh\\s+shadow\\s+\\d+\\s+\\d+\\s+\\d+\\s+.*MB")),
                table.out());
        assertTrue(table.out().lines().anyMatch(l -> l.matches("dt\\s+dt\\s+active\\s+\\d+.*")), table.out());
    }

    @Test
    void badShadowNamesAreUsageErrors() {
        Cli unknown = sim("--shadow", "dsh,nope");
        assertEquals(2, unknown.exitCode());
        String first = unknown.err().lines().findFirst().orElse("");
        assertEquals("--shadow: shadow scheme must be one of st, dt, sonic, dsh, spfc, reverie, capfc, got 'nope'", first);
        Cli bfc = sim("--shadow", "bfc");
        assertEquals(2, bfc.exitCode());
        assertTrue(bfc.err().startsWith("--shadow: bfc cannot be a shadow scheme"), bfc.err());
        Cli grid = sim("--shadow", "dsh", "--seeds", "2");
        assertEquals(2, grid.exitCode());
        assertTrue(grid.err().startsWith("--shadow prints a table beside single runs"), grid.err());
        Cli replay = Cli.run("sim", "--replay", "x.arr", "--shadow", "dsh");
        assertEquals(2, replay.exitCode());
        assertTrue(replay.err().startsWith("--shadow does not go with --replay"), replay.err());
    }
}

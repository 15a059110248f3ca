package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;

/** {@code run --shadow}: checked with the configuration (--check, no DPDK), bad names refused as usage errors. */
class RunShadowCheckTest {

    private static final String CONFIG = Path.of("..", "testbed-configs", "netns-3hosts.yaml").toString();

    @Test
    void shadowsAreCheckedWithTheConfiguration() {
        Cli ok = Cli.run("run", "-c", CONFIG, "--check", "--shadow", "dsh,spfc");
        assertEquals(0, ok.exitCode(), ok.out() + ok.err());
        assertTrue(ok.out().contains("shadow schemes: dsh, spfc (each keeps its own ledger"), ok.out());
        assertTrue(ok.out().contains("configuration OK"), ok.out());

        Cli none = Cli.run("run", "-c", CONFIG, "--check");
        assertTrue(!none.out().contains("shadow schemes"), none.out());

        Cli unknown = Cli.run("run", "-c", CONFIG, "--check", "--shadow", "dsh,xyz");
        assertEquals(2, unknown.exitCode());
        assertEquals("--shadow: shadow scheme must be one of st, dt, sonic, dsh, spfc, reverie, capfc, got 'xyz'",
                unknown.err().lines().findFirst().orElse(""));
        Cli bfc = Cli.run("run", "-c", CONFIG, "--check", "--shadow", "bfc");
        assertEquals(2, bfc.exitCode());
        assertTrue(bfc.err().startsWith("--shadow: bfc cannot be a shadow scheme"), bfc.err());
    }
}

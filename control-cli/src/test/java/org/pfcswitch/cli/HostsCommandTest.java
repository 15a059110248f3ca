package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pfcswitch hosts}: bad input is one error line naming what is wrong, never a stack trace. */
class HostsCommandTest {

    static final String SCENARIO = "../testbed-configs/scenarios/netns-3hosts-incast.yaml";

    @TempDir
    Path dir;

    /** The netns-3hosts testbed under a prefix no namespace has (the test never creates them). */
    private Path testbed() throws Exception {
        String prefix = "pt" + ProcessHandle.current().pid() % 100_000 + "x-";
        Path cfg = dir.resolve("tb.yaml");
        Files.writeString(cfg, Files.readString(Path.of("../testbed-configs/netns-3hosts.yaml")).replace("pfcsw-", prefix));
        return cfg;
    }

    @Test
    void aNamespaceThatDoesNotExistIsNamed() throws Exception {
        Cli r = Cli.run("hosts", "-c", testbed().toString(), "--scenario", SCENARIO, "--duration", "100ms");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().matches("pfcswitch hosts: error: network namespace 'pt\\d+x-h0' does not exist .*\\R"), r.err());
    }

    @Test
    void aScenarioHostTheTestbedLacksIsNamed() throws Exception {
        Cli r = Cli.run("hosts", "-c", testbed().toString(), "--scenario", "../testbed-configs/scenarios/bfc-two-flows.yaml");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().contains("scenario host 'S0' is not in the testbed") && r.err().contains("(hosts: h0, h1, h2)"),
                r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    @Test
    void aBadDurationIsRefused() throws Exception {
        Cli r = Cli.run("hosts", "-c", testbed().toString(), "--scenario", SCENARIO, "--duration", "soon");
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertTrue(r.err().startsWith("--duration: expected a time like 10s or 500ms, got 'soon'"), r.err());
    }

    @Test
    void helpTeachesTheNameRule() {
        Cli r = Cli.run("hosts", "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("runs in the testbed host of the same name") || r.out().contains("testbed host of the same"),
                r.out());
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.core.DeadlockConfig;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.config.ConfigNode;

/** The switch config's {@code deadlock:} section: defaults when absent, off on request, bad values named. */
class DeadlockConfigTest {

    private static final String PORTS = "ports:\n  - {name: a, device: net_ring0}\n  - {name: b, device: net_null0}\n";

    private static DeadlockConfig read(String extra) {
        return SwitchConfigReader.read(ConfigNode.parse("switch.yaml", PORTS + extra)).core().deadlock();
    }

    @Test
    void absentMeansOnWithTheDefaults() {
        assertEquals(new DeadlockConfig(10_000_000, 100_000_000, 50_000_000), read(""));
    }

    @Test
    void givenValuesAndOff() {
        assertEquals(new DeadlockConfig(1_000_000, 50_000_000, 0), read("deadlock: {check: 1ms, persist: 50ms, grace: 0s}\n"));
        assertEquals(new DeadlockConfig(10_000_000, 0, 50_000_000), read("deadlock: {persist: 0s}\n"));
        assertNull(read("deadlock: {enabled: false}\n"));
    }

    @Test
    void badValuesNameTheField() {
        for (String[] c : new String[][] {
                {"deadlock: {check: 0s}", "deadlock.check", "between 100us and 10s"},
                {"deadlock: {check: 20s}", "deadlock.check", "between 100us and 10s"},
                {"deadlock: {persist: -1ms}", "deadlock.persist", ""},
                {"deadlock: {check: fast}", "deadlock.check", ""},
                {"deadlock: {grace: 20s}", "deadlock.grace", "between 0 and 10s"},
                {"deadlock: {every: 1ms}", "deadlock.every", "unknown key"}}) {
            ConfigException e = assertThrows(ConfigException.class, () -> read(c[0] + "\n"), c[0]);
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]), c[0] + ": " + e.getMessage());
        }
    }

    @Test
    void theCheckSaysWhatRuns(@TempDir Path dir) throws Exception {
        Path cfg = dir.resolve("s.yaml");
        Files.writeString(cfg, PORTS + "deadlock: {check: 5ms, persist: 200ms}\n");
        Cli r = Cli.run("run", "-c", cfg.toString(), "--check");
        assertEquals(0, r.exitCode(), r.out() + r.err());
        assertTrue(r.out().contains("deadlock detection: a check every 5.0 ms, a cycle reported after 200.0 ms"), r.out());
    }
}

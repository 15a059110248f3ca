package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pfcswitch run} in a child JVM: start-up log, clean stop on a signal, and bad configurations. */
class RunCommandTest {

    @TempDir
    Path dir;

    private Path config(String name, String yaml) throws Exception {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void helpSaysItForwardsWithoutTheMmu() {
        Cli r = Cli.run("run", "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("WITHOUT THE MMU"), r.out());
        assertTrue(r.out().contains("Examples:"), r.out());
    }

    @Test
    void runsOnRingAndNullVdevsAndStopsCleanlyOnSigint() throws Exception {
        Path cfg = config("ring", """
                eal: {memoryMb: 256, hugepages: off}
                workers: [{ports: [loop, sink]}]
                ports:
                  - {name: loop, device: net_ring0, speed: 10G}
                  - {name: sink, device: net_null0}
                forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: loop}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                """);
        try (SwitchProcess p = SwitchProcess.start("run", "-c", cfg.toString())) {
            p.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            Thread.sleep(300);
            int code = p.signalAndWait("INT", Duration.ofSeconds(30));
            String log = p.stdout();
            assertEquals(0, code, log + "\n" + p.stderr());
            assertTrue(log.contains("forwarding WITHOUT the MMU"), log);
            assertTrue(log.contains("--no-huge -m 256 --no-shconf"), log);
            assertTrue(log.matches("(?s).*port 0 loop .*net_ring0.*link up.*MAC-control rx: yes.*"), log);
            assertTrue(log.contains("static mac 02:00:00:00:00:01 -> port loop"), log);
            assertTrue(log.contains("stopping on SIGINT"), log);
            assertTrue(log.matches("(?s).*counters sink: rx [1-9].*"), "net_null frames were received and counted\n" + log);
            assertTrue(log.matches("(?s).*packet pool: 0 of \\d+ mbufs in use after shutdown \\(all returned\\).*"), log);
            assertEquals("", p.stderr());
        }
    }

    @Test
    void badConfigurationsGiveOneLineAndANonZeroExit() throws Exception {
        String ring = "  - {name: a, device: net_ring0}\n";
        record Case(String name, String yaml, List<String> jvm, String expect) {}
        List<Case> cases = List.of(
                new Case("unknown-vdev", "ports:\n" + ring + "  - {name: b, device: \"net_bogus0,x=1\"}\n", List.of(),
                        "port b: no DPDK driver takes 'net_bogus0' (unknown vdev 'net_bogus'"),
                new Case("bad-pci", "ports:\n  - {name: a, device: \"0000:3g:00.0\"}\n", List.of(),
                        "ports[0].device: malformed PCI address '0000:3g:00.0'"),
                new Case("duplicate-port", "ports:\n" + ring + ring, List.of(), "ports[1].name: duplicate port 'a' (also ports[0])"),
                new Case("duplicate-device", "ports:\n" + ring + "  - {name: b, device: net_ring0}\n", List.of(),
                        "ports[1].device: duplicate device net_ring0 (also port a)"),
                new Case("unknown-key", "ports:\n" + ring + "forwarding: {learn: true}\n", List.of(),
                        "forwarding.learn: unknown key"),
                new Case("dpdk-missing", "ports:\n" + ring, List.of("-Dpfcswitch.dpdk.shim=/nonexistent/libpfcswitch_dpdk.so"),
                        "DPDK is not available"));
        for (Case c : cases) {
            Path cfg = config(c.name(), c.yaml());
            try (SwitchProcess p = SwitchProcess.start(c.jvm(), "run", "-c", cfg.toString())) {
                int code = p.waitFor(Duration.ofSeconds(30));
                String err = p.stderr();
                assertEquals(1, code, c.name() + ": exit code\n" + p.stdout() + "\n" + err);
                assertEquals(1, err.lines().count(), c.name() + ": one line on stderr, got:\n" + err);
                assertTrue(err.startsWith("pfcswitch run: error: ") && err.contains(c.expect()), c.name() + ": " + err);
            }
        }
    }
}

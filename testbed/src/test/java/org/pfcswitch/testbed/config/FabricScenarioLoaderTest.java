package org.pfcswitch.testbed.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.testbed.Scenario;

/**
 * The fabric kinds and the papers' generators as scenario files give them: a Clos and a leaf-spine
 * with failed links load with the hosts and switches they describe, and every mistake is one line
 * naming the key.
 */
class FabricScenarioLoaderTest {

    @TempDir
    Path dir;

    private static final String HEAD = """
            name: t
            duration: 100us
            payloadMtu: 1000
            mmu: {totalBytes: 4MB, mtuBytes: 1500, losslessPriorities: [3], headroomFormula: ieee}
            """;

    private static final String CLOS = """
            topology:
              kind: clos
              pods: 2
              torsPerPod: 2
              aggsPerPod: 2
              spines: 2
              hostsPerTor: 3
              hostSpeed: 100G
              hostDelay: 1us
              torSpeed: 400G
            """;

    private static final String FLOW = "traffic:\n  f: {kind: flow, from: T0H0, to: T3H2, bytes: 10KB}\n";

    private Scenario load(String text) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, text);
        Files.writeString(dir.resolve("fixed.cdf"), "1000 0\n1000 100\n");
        return ScenarioLoader.load(f, List.of()).scenario();
    }

    private String error(String text) {
        return assertThrows(ConfigException.class, () -> load(text)).getMessage();
    }

    @Test
    void aClosMakesItsHostsSwitchesAndTiers() throws IOException {
        Scenario s = load(HEAD + CLOS + FLOW);
        assertTrue(s.topology().isFabric());
        assertEquals(12, s.hosts().size());
        assertEquals("T0H0", s.hosts().getFirst().name());
        assertEquals("T3H2", s.hosts().getLast().name());
        var plan = s.topology().plan();
        assertEquals(4 + 4 + 2, plan.switches());
        assertEquals("agg0", plan.switchName(4));
        assertEquals(400_000_000_000L, plan.linkBps(0, 3), "a ToR's first uplink");
        assertTrue(plan.describe(100_000_000_000L).contains("oversubscription 0.38:1 at the ToRs"), plan.describe(100_000_000_000L));
    }

    @Test
    void aLeafSpineWithFailedLinksRoutesAroundThem() throws IOException {
        Scenario s = load(HEAD + """
                topology: {kind: leafSpine, leaves: 4, spines: 2, hostsPerLeaf: 2, hostSpeed: 100G, hostDelay: 1us,
                           fabricSpeed: 400G, failedLinks: [S0-L3, L0-S1]}
                traffic:
                  f: {kind: flow, from: L0H0, to: L3H0, bytes: 10KB}
                """);
        var plan = s.topology().plan();
        assertEquals(List.of("S0-L3", "L0-S1"), plan.failedLinks());
        assertEquals(1, plan.route(0, s.hostIndex("L3H0")).length, "leaf 0 keeps one uplink");
        assertTrue(plan.describe(100_000_000_000L).contains("failed links S0-L3, L0-S1"));
    }

    @Test
    void badFabricsAreOneLineNamingTheKey() {
        assertTrue(error(HEAD + CLOS.replace("clos", "fatTree") + FLOW).contains("topology.kind: expected leafSpine, clos,"));
        String leaves = error(HEAD + CLOS + "  leaves: 3\n" + FLOW);
        assertTrue(leaves.contains("topology") && leaves.contains("leaves"), leaves);
        String unknown = error(HEAD + CLOS + "  failedLinks: [T0-X9]\n" + FLOW);
        assertTrue(unknown.contains("topology.failedLinks: failed link 'T0-X9': no switch named 'X9'"), unknown);
        String notCabled = error(HEAD + CLOS + "  failedLinks: [T0-S1]\n" + FLOW);
        assertTrue(notCabled.contains("topology.failedLinks: failed link 'T0-S1': T0 and S1 are not cabled"), notCabled);
        String cutOff = error(HEAD + CLOS + "  failedLinks: [T0-A0, T0-A1]\n" + FLOW);
        assertTrue(cutOff.contains("topology.failedLinks: ") && cutOff.contains("has no path to T0"), cutOff);
        String noSpines = error(HEAD + CLOS.replace("spines: 2", "spines: 0") + FLOW);
        assertTrue(noSpines.contains("topology.spines"), noSpines);
        String hosts = error(HEAD + CLOS + "hosts:\n  - {name: H, count: 2, speed: 100G, delay: 1us}\n" + FLOW);
        assertTrue(hosts.contains("hosts: a clos topology makes its own hosts"), hosts);
        assertEquals(1, unknown.lines().count());
    }

    @Test
    void theGeneratorsReadArrivalsAndIncastLoadsAndRefuseBadOnes() throws IOException {
        Scenario s = load(HEAD + CLOS + """
                traffic:
                  bg: {kind: poisson, from: all, to: all, cdf: fixed.cdf, load: 0.5, arrivals: logNormal, sigma: 2}
                  fanin: {kind: incastLoad, from: all, to: all, fanIn: 8, bytes: 64KB, load: 0.1}
                """);
        assertEquals(List.of("bg", "fanin"), s.traffic().stream().map(Scenario.TrafficSpec::name).toList());
        String arrivals = error(HEAD + CLOS + "traffic:\n  bg: {kind: poisson, from: all, to: all, cdf: fixed.cdf, load: 0.5,"
                + " arrivals: pareto}\n");
        assertTrue(arrivals.contains("traffic.bg.arrivals: expected poisson or logNormal, got 'pareto'"), arrivals);
        String sigma = error(HEAD + CLOS + "traffic:\n  bg: {kind: poisson, from: all, to: all, cdf: fixed.cdf, load: 0.5,"
                + " sigma: 2}\n");
        assertTrue(sigma.contains("traffic.bg.sigma: applies to arrivals: logNormal only"), sigma);
        String badSigma = error(HEAD + CLOS + "traffic:\n  bg: {kind: poisson, from: all, to: all, cdf: fixed.cdf, load: 0.5,"
                + " arrivals: logNormal, sigma: 0}\n");
        assertTrue(badSigma.contains("traffic.bg.sigma: expected a log-normal shape in (0, 10], got 0"), badSigma);
        String fanIn = error(HEAD + CLOS + "traffic:\n  i: {kind: incastLoad, from: all, to: all, fanIn: 12, bytes: 64KB,"
                + " load: 0.1}\n");
        assertTrue(fanIn.contains("traffic.i.fanIn: 12 senders per incast, but only 11"), fanIn);
        String load = error(HEAD + CLOS + "traffic:\n  i: {kind: incastLoad, from: all, to: all, fanIn: 2, bytes: 64KB,"
                + " load: 1.5}\n");
        assertTrue(load.contains("traffic.i.load: expected a fraction of the senders' combined line rate"), load);
    }
}

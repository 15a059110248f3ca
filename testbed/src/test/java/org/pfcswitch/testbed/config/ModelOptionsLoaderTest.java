package org.pfcswitch.testbed.config;

import org.pfcswitch.config.ConfigException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.core.EcmpHash;
import org.pfcswitch.core.EcnPoint;
import org.pfcswitch.core.FrameCost;
import org.pfcswitch.core.PfcPauseMode;
import org.pfcswitch.core.Scheduling;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.testbed.AckPolicy;
import org.pfcswitch.testbed.CnpPolicy;
import org.pfcswitch.testbed.HeadroomQueues;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.HostModel;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeDefaults;
import org.pfcswitch.testbed.SimModel;

/** The model options of a scenario file: defaults, the ns3-datacenter profile, explicit overrides, clear errors. */
class ModelOptionsLoaderTest {

    @TempDir
    Path dir;

    private static final String BASE = """
            name: m
            duration: 1ms
            hosts:
              - {name: H, count: 2, speed: 100G, delay: 1us}
            traffic:
              f: {kind: flow, from: H0, to: H1, bytes: 10KB}
            mmu: {totalBytes: 1MiB, mtuBytes: 1500, losslessPriorities: [3], privateBytes: 3072, headroomFormula: ieee,
                  scheme: dt}
            """;

    private SimModel load(String extra, String... overrides) throws IOException {
        Path f = dir.resolve("s.yaml");
        Files.writeString(f, BASE + extra);
        return ScenarioLoader.load(f, List.of(overrides)).scenario().model();
    }

    @Test
    void withoutOptionsTheModelIsPfcswitchsOwn() throws IOException {
        assertEquals(SimModel.DEFAULT, load(""));
        assertEquals(SimModel.DEFAULT, load("model: pfcswitch\n"));
    }

    @Test
    void theNs3ProfileSelectsEveryOptionTogether() throws IOException {
        SimModel m = load("model: ns3-datacenter\n");
        assertEquals(SimModel.NS3_DATACENTER, m.profile());
        assertEquals(new SwitchModel(PfcPauseMode.UNTIL_RESUME, EcnPoint.AFTER_DEQUEUE, EcmpHash.FIVE_TUPLE, 0, true,
                Scheduling.ROUND_ROBIN, FrameCost.NS3_PACKET), m.switches());
        assertEquals(new HostModel(PfcPauseMode.UNTIL_RESUME, CnpPolicy.ON_ACK, 4_000, AckPolicy.PACKET, 3,
                org.pfcswitch.testbed.FctEnd.LAST_ACK),
                m.hosts());
        assertTrue(m.describe().startsWith("ns3-datacenter (pfc.mode untilResume, ecn.at afterDequeue,"), m.describe());
        assertEquals(HeadroomQueues.LOSSLESS_AND_QUEUE0, m.headroom());
        assertEquals(SchemeDefaults.ARTIFACT, m.schemeDefaults());
        assertEquals(org.pfcswitch.testbed.HostAddresses.NS3, m.addresses());
        assertTrue(m.describe().contains("ecmp fiveTuple seed perSwitch, topology.addresses ns3,"), m.describe());
        assertTrue(m.describe().endsWith(", schemeDefaults artifact, frameCost ns3Packet)"), m.describe());
    }

    /** schemeDefaults artifact: the artifact's Reverie filter and no pool guard reach the switch; a parameter the scenario gives wins. */
    @Test
    void theArtifactsSchemeDefaultsReachTheSwitchUnlessTheScenarioGivesTheParameter() throws IOException {
        Path f = dir.resolve("sd.yaml");
        Files.writeString(f, BASE.replace("scheme: dt}", "scheme: dt, schemes: {reverie: {poolGuard: true}}}")
                + "model: ns3-datacenter\n");
        Scenario s = ScenarioLoader.load(f, List.of()).scenario();
        assertEquals(SchemeDefaults.ARTIFACT, s.model().schemeDefaults());
        MmuConfig reverie = ScenarioRunner.build(s, "reverie").core().mmu().config();
        assertEquals("departure", reverie.parametersOf("reverie").get("filterUpdate"));
        assertEquals("true", reverie.parametersOf("reverie").get("poolGuard"), "the scenario's own value wins");
        assertEquals("false", ScenarioRunner.build(s, "sonic").core().mmu().config().parametersOf("sonic").get("poolGuard"));
        assertEquals(Map.of(), ScenarioRunner.build(s, "dt").core().mmu().config().parametersOf("dt"), "DT: nothing");

        Files.writeString(f, BASE + "model: ns3-datacenter\nschemeDefaults: paper\n");
        s = ScenarioLoader.load(f, List.of()).scenario();
        assertEquals(SchemeDefaults.PAPER, s.model().schemeDefaults());
        assertEquals(Map.of(), ScenarioRunner.build(s, "reverie").core().mmu().config().parametersOf("reverie"));
        assertEquals(SchemeDefaults.PAPER, load("").schemeDefaults(), "pfcswitch's own profile");
        Files.writeString(f, BASE + "schemeDefaults: ns3\n");
        ConfigException e = assertThrows(ConfigException.class, () -> ScenarioLoader.load(f, List.of()));
        assertTrue(e.getMessage().contains("schemeDefaults") && e.getMessage().contains("artifact"), e.getMessage());
    }

    @Test
    void anExplicitOptionOverridesTheProfile() throws IOException {
        SimModel m = load("""
                model: ns3-datacenter
                frameCost: ethernet
                pfc: {mode: quanta, headroomQueues: lossless}
                ecn: {at: enqueue}
                scheduler: strict
                cc: {cnp: perInterval, rateDecreaseInterval: 0, ackEvery: message, controlPriority: 6}
                report: {fctEnd: lastByte}
                """);
        assertEquals(new SwitchModel(PfcPauseMode.QUANTA, EcnPoint.ENQUEUE, EcmpHash.FIVE_TUPLE, 0, true), m.switches());
        assertEquals(HostModel.DEFAULT, m.hosts());
        assertEquals(HeadroomQueues.LOSSLESS, m.headroom());
        SimModel one = load("model: ns3-datacenter\n", "model=ns3-datacenter");
        assertEquals(EcnPoint.AFTER_DEQUEUE, one.switches().ecnAt());
        SimModel set = load("pfc: {pauseQuanta: 100}\ncc: {mode: dcqcn}\n", "pfc.mode=untilResume",
                "cc.rateDecreaseInterval=8us");
        assertEquals(PfcPauseMode.UNTIL_RESUME, set.switches().pfc());
        assertEquals(PfcPauseMode.UNTIL_RESUME, set.hosts().pfc());
        assertEquals(8_000, set.hosts().rateDecreaseIntervalNanos());
        assertEquals(EcnPoint.DEQUEUE, set.switches().ecnAt());
    }

    @Test
    void theEcmpHashIsALeafSpineOption() throws IOException {
        String leafSpine = BASE.replace("""
                hosts:
                  - {name: H, count: 2, speed: 100G, delay: 1us}
                """, """
                topology: {kind: leafSpine, leaves: 2, spines: 2, hostsPerLeaf: 1, hostSpeed: 100G, hostDelay: 1us,
                           ecmp: %s}
                """).replace("to: H1", "to: L1H0").replace("from: H0", "from: L0H0");
        Path f = dir.resolve("ls.yaml");
        Files.writeString(f, leafSpine.formatted("{hash: fiveTuple, seed: 7}"));
        SwitchModel sw = ScenarioLoader.load(f, List.of()).scenario().model().switches();
        assertEquals(new SwitchModel(PfcPauseMode.QUANTA, EcnPoint.DEQUEUE, EcmpHash.FIVE_TUPLE, 7, false), sw);
        assertEquals(sw, sw.forSwitch(3));
        Files.writeString(f, leafSpine.formatted("{seed: perSwitch}"));
        sw = ScenarioLoader.load(f, List.of()).scenario().model().switches();
        assertEquals(3, sw.forSwitch(3).ecmpSeed());
        Files.writeString(f, leafSpine.formatted("{hash: crc}"));
        ConfigException e = assertThrows(ConfigException.class, () -> ScenarioLoader.load(f, List.of()));
        assertTrue(e.getMessage().contains("topology.ecmp.hash") && e.getMessage().contains("fiveTuple"), e.getMessage());
    }

    /** topology.addresses: ns-3's host addresses under our profile, ours under ns-3's; anything else is named. */
    @Test
    void hostAddressesAreAnOptionOfTheirOwn() throws IOException {
        String leafSpine = BASE.replace("""
                hosts:
                  - {name: H, count: 2, speed: 100G, delay: 1us}
                """, """
                topology: {kind: leafSpine, leaves: 2, spines: 2, hostsPerLeaf: 1, hostSpeed: 100G, hostDelay: 1us,
                           addresses: %s}
                """).replace("to: H1", "to: L1H0").replace("from: H0", "from: L0H0");
        Path f = dir.resolve("addr.yaml");
        Files.writeString(f, leafSpine.formatted("ns3"));
        assertEquals(org.pfcswitch.testbed.HostAddresses.NS3, ScenarioLoader.load(f, List.of()).scenario().model().addresses());
        assertEquals(org.pfcswitch.testbed.HostAddresses.PFCSWITCH, ScenarioLoader.load(f,
                List.of("model=ns3-datacenter", "topology.addresses=pfcswitch")).scenario().model().addresses());
        Files.writeString(f, leafSpine.formatted("ipv6"));
        ConfigException e = assertThrows(ConfigException.class, () -> ScenarioLoader.load(f, List.of()));
        assertTrue(e.getMessage().contains("topology.addresses") && e.getMessage().contains("ns3"), e.getMessage());
        assertEquals(0x0B00_0001, org.pfcswitch.testbed.HostAddresses.NS3.of(0));          // 11.0.0.1
        assertEquals(0x0B00_2101, org.pfcswitch.testbed.HostAddresses.NS3.of(33));         // 11.0.33.1
        assertEquals(0x0B01_0001, org.pfcswitch.testbed.HostAddresses.NS3.of(256));        // 11.1.0.1
        assertEquals(0x0A00_0003, org.pfcswitch.testbed.HostAddresses.PFCSWITCH.of(2));    // 10.0.0.3
    }

    @Test
    void theShippedScenarioLoadsUnderEitherModel() {
        Path shipped = Path.of("..", "testbed-configs", "scenarios", "ns3-model-options.yaml");
        assertEquals(SimModel.DEFAULT, ScenarioLoader.load(shipped, List.of()).scenario().model());
        assertEquals(SimModel.NS3_DATACENTER,
                ScenarioLoader.load(shipped, List.of("model=ns3-datacenter")).scenario().model().profile());
        assertEquals(EcnPoint.AFTER_DEQUEUE,
                ScenarioLoader.load(shipped, List.of("ecn={at: afterDequeue}")).scenario().model().switches().ecnAt());
    }

    @Test
    void aBadValueIsAnErrorNamingItsField() {
        assertError("model: ns3\n", "model", "ns3-datacenter");
        assertError("pfc: {mode: forever}\n", "pfc.mode", "untilResume");
        assertError("ecn: {at: sometimes}\n", "ecn.at", "afterDequeue");
        assertError("ecn: {when: dequeue}\n", "ecn", "when");
        assertError("cc: {cnp: always}\n", "cc.cnp", "perMarkedPacket");
        assertError("scheduler: fair\n", "scheduler", "roundRobin");
        assertError("cc: {controlPriority: 9}\n", "cc.controlPriority", "7");
        assertError("pfc: {headroomQueues: all}\n", "pfc.headroomQueues", "losslessAndQueue0");
        assertError("cc: {ackEvery: byte}\n", "cc.ackEvery", "packet");
        assertError("cc: {rateDecreaseInterval: soon}\n", "cc.rateDecreaseInterval", "");
        assertError("report: {fctEnd: whenever}\n", "report.fctEnd", "lastAck");
    }

    private void assertError(String extra, String field, String hint) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(extra));
        assertTrue(e.getMessage().contains(field), e.getMessage());
        assertTrue(e.getMessage().contains(hint), e.getMessage());
    }
}

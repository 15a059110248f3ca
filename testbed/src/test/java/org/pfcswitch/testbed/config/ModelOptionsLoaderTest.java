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
import org.pfcswitch.core.EcnPoint;
import org.pfcswitch.core.PfcPauseMode;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.testbed.AckPolicy;
import org.pfcswitch.testbed.CnpPolicy;
import org.pfcswitch.testbed.HostModel;
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
        assertEquals(new SwitchModel(PfcPauseMode.UNTIL_RESUME, EcnPoint.AFTER_DEQUEUE), m.switches());
        assertEquals(new HostModel(PfcPauseMode.UNTIL_RESUME, CnpPolicy.PER_MARKED_PACKET, 4_000, AckPolicy.PACKET),
                m.hosts());
    }

    @Test
    void anExplicitOptionOverridesTheProfile() throws IOException {
        SimModel m = load("""
                model: ns3-datacenter
                pfc: {mode: quanta}
                ecn: {at: enqueue}
                cc: {cnp: perInterval, rateDecreaseInterval: 0, ackEvery: message}
                """);
        assertEquals(new SwitchModel(PfcPauseMode.QUANTA, EcnPoint.ENQUEUE), m.switches());
        assertEquals(HostModel.DEFAULT, m.hosts());
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
    void aBadValueIsAnErrorNamingItsField() {
        assertError("model: ns3\n", "model", "ns3-datacenter");
        assertError("pfc: {mode: forever}\n", "pfc.mode", "untilResume");
        assertError("ecn: {at: sometimes}\n", "ecn.at", "afterDequeue");
        assertError("ecn: {when: dequeue}\n", "ecn", "when");
        assertError("cc: {cnp: always}\n", "cc.cnp", "perMarkedPacket");
        assertError("cc: {ackEvery: byte}\n", "cc.ackEvery", "packet");
        assertError("cc: {rateDecreaseInterval: soon}\n", "cc.rateDecreaseInterval", "");
    }

    private void assertError(String extra, String field, String hint) {
        ConfigException e = assertThrows(ConfigException.class, () -> load(extra));
        assertTrue(e.getMessage().contains(field), e.getMessage());
        assertTrue(e.getMessage().contains(hint), e.getMessage());
    }
}

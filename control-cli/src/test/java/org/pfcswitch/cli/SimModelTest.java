package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

/**
 * {@code pfcswitch sim --set model=ns3-datacenter}: the table and the JSON name the model and every
 * choice; under the default model neither says anything (the output stays as it was).
 */
class SimModelTest {

    private static final String LEAF_SPINE = Path.of("..", "testbed-configs", "scenarios", "leafspine-incast.yaml").toString();
    private static final String[] SHORT = {"--scheme", "dt", "--set", "duration=100us", "--set", "measure.from=0us",
            "--set", "measure.to=100us"};

    private static Cli sim(String... more) {
        String[] args = new String[3 + SHORT.length + more.length];
        args[0] = "sim";
        args[1] = "-c";
        args[2] = LEAF_SPINE;
        System.arraycopy(SHORT, 0, args, 3, SHORT.length);
        System.arraycopy(more, 0, args, 3 + SHORT.length, more.length);
        return Cli.run(args);
    }

    @Test
    void theNs3ProfileIsNamedInTheTableAndTheJson() throws IOException {
        Cli table = sim("--set", "model=ns3-datacenter", "--set", "pfc.mode=quanta");
        assertEquals(0, table.exitCode(), table.err());
        assertTrue(table.out().contains("model: ns3-datacenter (pfc.mode quanta, ecn.at afterDequeue, scheduler roundRobin,"
                + " ecmp fiveTuple seed perSwitch, topology.addresses ns3, pfc.headroomQueues losslessAndQueue0, cc.cnp onAck,"
                + " cc.rateDecreaseInterval 4000ns, cc.ackEvery packet, cc.controlPriority 3, report.fctEnd lastAck,"
                + " schemeDefaults artifact, frameCost ns3Packet)"), table.out());
        Cli json = sim("--json", "--set", "model=ns3-datacenter");
        assertEquals(0, json.exitCode(), json.err());
        JsonNode root = new ObjectMapper().readTree(json.out());
        assertTrue(root.get("model").asText().startsWith("ns3-datacenter (pfc.mode untilResume,"), json.out());
    }

    @Test
    void theDefaultModelAddsNothing() throws IOException {
        Cli table = sim();
        assertEquals(0, table.exitCode(), table.err());
        assertFalse(table.out().contains("model:"), table.out());
        Cli json = sim("--json");
        assertNull(new ObjectMapper().readTree(json.out()).get("model"));
    }
}

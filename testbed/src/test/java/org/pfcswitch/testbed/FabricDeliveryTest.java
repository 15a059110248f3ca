package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.topology.FabricPlan;

/**
 * Every flow arrives whole through a three-tier Clos and through a leaf-spine whose failed cables
 * send frames down and up again; the ideal FCT counts the path's own links.
 */
class FabricDeliveryTest {

    private static final long G = 1_000_000_000L;

    private static Testbed build(FabricPlan plan) {
        return Testbed.fabric(plan).links(100 * G, 1_000).seed(1)
                .mmu(MmuConfig.builder().totalBytes(4L << 20).losslessPriorities(List.of(3)).scheme("dt")).build();
    }

    /** Every host sends 20 KB to every other; all must complete in order. */
    private static void allToAllCompletes(Testbed tb) {
        int n = tb.hosts();
        int flows = 0;
        for (int src = 0; src < n; src++) {
            for (int dst = 0; dst < n; dst++) {
                if (src != dst) {
                    tb.addFlow(src, dst, 3, 20_000, (src * n + dst) * 200L);
                    flows++;
                }
            }
        }
        tb.runUntil(3_000_000);
        FlowRecords rec = tb.records();
        for (int f = 0; f < flows; f++) {
            assertTrue(rec.completed(f), "flow " + f + " " + rec.src(f) + " -> " + rec.dst(f));
            assertEquals(20_000, rec.receivedPayloadBytes(f));
        }
    }

    @Test
    void aClosDeliversEveryFlow() {
        Testbed tb = build(FabricPlan.clos(2, 2, 2, 2, 2, 400 * G, 1_000, 400 * G, 1_000, List.of()));
        assertEquals(4 + 4 + 2, tb.switches());
        allToAllCompletes(tb);
        long spineFrames = tb.core(8).counters().txFrames(0) + tb.core(9).counters().txFrames(0);
        assertTrue(spineFrames > 0, "flows between pods cross the spines");
    }

    @Test
    void aLeafSpineWithFailedLinksDeliversEveryFlowAroundThem() {
        FabricPlan plan = FabricPlan.leafSpine(4, 2, 2, 400 * G, 1_000, List.of("S0-L3", "S1-L0"));
        Testbed tb = build(plan);
        allToAllCompletes(tb);
        assertEquals(0, tb.core(4).counters().txFrames(3), "nothing crosses the failed S0-L3");
        assertEquals(0, tb.core(5).counters().txFrames(0), "nor S1-L0");
        assertTrue(tb.core(1).counters().txFrames(3) > 0, "L1 bounces S0's frames up to S1");
    }

    @Test
    void theIdealCountsEveryLinkOfThePath() {
        // ToRs 0..3 in pods of two, host h on ToR h; ToR links 2 us, spine links 3 us, both 400 G.
        Testbed tb = build(FabricPlan.clos(2, 2, 2, 2, 1, 400 * G, 2_000, 400 * G, 3_000, List.of()));
        long samePod = tb.records().idealNanos(tb.addFlow(0, 1, 3, 1_000, 0));
        long otherPod = tb.records().idealNanos(tb.addFlow(0, 3, 3, 1_000, 0));
        long fullFrameAt400G = org.pfcswitch.core.LineRate.nanos(tb.payloadMtu() + 14 + 20 + 8 + 12 + 4, 400 * G);
        assertEquals(2 * 3_000 + 2 * fullFrameAt400G, otherPod - samePod,
                "the other pod is two more 3 us links away, each storing and forwarding the frame");
    }
}

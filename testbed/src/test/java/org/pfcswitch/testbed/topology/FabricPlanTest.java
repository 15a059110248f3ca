package org.pfcswitch.testbed.topology;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/** Routes and headers of the fabric plans: up-down in an intact fabric, around failed cables, none is an error. */
class FabricPlanTest {

    private static final long G = 1_000_000_000L;

    @Test
    void anIntactLeafSpineSpreadsOverEverySpineAndComesStraightDown() {
        FabricPlan p = FabricPlan.leafSpine(3, 4, 2, 100 * G, 1_000, List.of());
        int remote = 4;                                     // L2H0
        assertArrayEquals(new int[] {2, 3, 4, 5}, p.route(0, remote), "leaf 0: its four uplinks");
        for (int s = 3; s < 7; s++) {
            assertArrayEquals(new int[] {2}, p.route(s, remote), "a spine: its port to leaf 2");
        }
        assertArrayEquals(new int[] {0}, p.route(2, remote), "leaf 2: the host's port");
    }

    @Test
    void failedLinksMakeSpinesBounceOffOtherLeaves() {
        // DSH Fig. 16: S0-L3 and S1-L0 failed; L0 reaches L3 through S0, a middle leaf, S1.
        FabricPlan p = FabricPlan.leafSpine(4, 2, 1, 400 * G, 2_000, List.of("S0-L3", "S1-L0"));
        int l3host = 3;
        int s0 = 4;
        int s1 = 5;
        assertArrayEquals(new int[] {1}, p.route(0, l3host), "L0's only uplink: S0");
        int[] viaLeaves = p.route(s0, l3host);
        assertEquals(List.of(1, 2), List.of(p.peerSwitch(s0, viaLeaves[0]), p.peerSwitch(s0, viaLeaves[1])),
                "S0 bounces to L1 and L2");
        assertEquals(s1, p.peerSwitch(1, p.route(1, l3host)[0]), "L1 sends it up to S1");
        assertEquals(3, p.peerSwitch(s1, p.route(s1, l3host)[0]));
        assertTrue(p.describe(100 * G).startsWith("oversubscription 0.25:1 at the leaves"),
                "the header gives the worst leaf, one 400 G uplink for 100 G of hosts: " + p.describe(100 * G));
    }

    @Test
    void aClosGoesUpOnlyAsFarAsItMust() {
        FabricPlan p = FabricPlan.clos(2, 2, 2, 3, 1, 400 * G, 1_000, 400 * G, 1_000, List.of());
        // ToRs 0..3, aggregation 4..7, spines 8..10; host h on ToR h.
        assertEquals(2, p.route(0, 1).length, "same pod: over both aggregation switches");
        int agg = p.peerSwitch(0, p.route(0, 1)[0]);
        assertEquals(1, p.peerSwitch(agg, p.route(agg, 1)[0]), "and straight down to ToR 1");
        int up = p.peerSwitch(0, p.route(0, 3)[0]);
        assertEquals(3, p.route(up, 3).length, "other pod: over the three spines");
        assertTrue(p.describe(100 * G).contains("oversubscription 0.13:1 at the ToRs, 0.67:1 at the aggregation"),
                p.describe(100 * G));
    }

    @Test
    void theHeaderStatesEachPapersOversubscription() {
        assertTrue(FabricPlan.leafSpine(16, 4, 16, 25 * G, 2_000, List.of()).describe(25 * G)
                .startsWith("oversubscription 4:1 at the leaves"), "Reverie");
        assertTrue(FabricPlan.leafSpine(8, 8, 16, 100 * G, 1_000, List.of()).describe(100 * G)
                .startsWith("oversubscription 2:1 at the leaves"), "BFC");
        assertTrue(FabricPlan.clos(8, 4, 2, 4, 16, 400 * G, 2_000, 400 * G, 2_000, List.of()).describe(100 * G)
                .contains("oversubscription 2:1 at the ToRs, 1:1 at the aggregation switches"), "SPFC");
    }

    @Test
    void aFabricLeftWithoutAPathIsAnError() {
        String m = assertThrows(IllegalArgumentException.class,
                () -> FabricPlan.leafSpine(2, 2, 1, 100 * G, 1_000, List.of("L0-S0", "L0-S1"))).getMessage();
        assertTrue(m.contains("has no path to L0 (host L0H0)"), m);
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.mmu.BufferLedger;

/**
 * The per-group and per-queue watermarks the core keeps where it admits: the most bytes an ingress
 * (port, priority) held and an egress (port, queue) had waiting, kept after the queues drain,
 * restarted from what is held now by {@link SwitchCore#resetWatermarks}, and merged across workers.
 */
class WatermarksTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int OUT = 2;
    private static final int PG = BufferLedger.key(0, 3);
    private static final int QUEUE = BufferLedger.key(OUT, 3);

    @Test
    void theMostBytesHeldStayAfterTheQueuesDrainAndAResetStartsFromWhatIsHeldNow() {
        CoreRig rig = new CoreRig(Configs.core(3));
        BufferLedger ledger = rig.core.mmu().ledger();
        SwitchCounters c = rig.core.counters();
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);       // the egress queue holds what comes
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 10);
        long oneFrame = ledger.ingressBytes(PG);
        assertTrue(oneFrame > 1000, "a charged frame");
        assertEquals(oneFrame, c.maxIngressBytes[PG]);
        for (int i = 0; i < 4; i++) {
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 20 + i);
        }
        rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_3, 1000, 30);
        assertEquals(5 * oneFrame, c.maxIngressBytes[PG], "port 0's priority group held five frames");
        assertEquals(oneFrame, c.maxIngressBytes[BufferLedger.key(1, 3)], "port 1's held one");
        assertEquals(6 * oneFrame, c.maxQueueBytes[QUEUE], "the egress queue had all six waiting");
        assertEquals(0, c.maxIngressBytes[BufferLedger.key(0, 1)], "a priority nothing arrived on");

        rig.receivePfc(OUT, 1 << 3, 0, 1_000);                       // XON: the queue drains
        rig.runUntil(1_000_000);
        assertEquals(0, ledger.ingressBytes(PG));
        assertEquals(5 * oneFrame, c.maxIngressBytes[PG], "a watermark outlasts the bytes");
        assertEquals(6 * oneFrame, c.maxQueueBytes[QUEUE]);

        rig.core.resetWatermarks();
        assertEquals(0, c.maxIngressBytes[PG], "nothing held at the reset");
        assertEquals(0, c.maxQueueBytes[QUEUE]);

        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 2_000_000);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 2_000_010);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 2_000_020);
        rig.core.resetWatermarks();
        assertEquals(2 * oneFrame, c.maxIngressBytes[PG], "a reset starts from what the group holds now");
        assertEquals(2 * oneFrame, c.maxQueueBytes[QUEUE]);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 2_000_030);
        assertEquals(3 * oneFrame, c.maxIngressBytes[PG]);
    }

    @Test
    void aSnapshotTakenWithTheResetKeepsTheMaximaReachedBeforeIt() {
        CoreRig rig = new CoreRig(Configs.core(3));
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 10);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 20);
        long held = rig.core.mmu().ledger().ingressBytes(PG);
        rig.receivePfc(OUT, 1 << 3, 0, 1_000);
        rig.runUntil(1_000_000);
        CoreSnapshot snap = new CoreSnapshot(3);
        snap.captureAndResetWatermarks(rig.core, 1_000_000);
        assertEquals(held, snap.counters.maxIngressBytes[PG]);
        assertEquals(held, snap.counters.maxQueueBytes[QUEUE]);
        assertEquals(0, rig.core.counters().maxIngressBytes[PG], "the core's restarted");
    }

    @Test
    void aMergedSnapshotTakesAGroupsWatermarkFromItsOwnerAndAQueuesLargestView() {
        CoreSnapshot[] parts = {new CoreSnapshot(2), new CoreSnapshot(2)};
        int[] workerOf = {0, 1};
        int pg0 = BufferLedger.key(0, 3);
        int pg1 = BufferLedger.key(1, 3);
        parts[0].counters.maxIngressBytes[pg0] = 9_000;             // only port 0's worker charges port 0
        parts[1].counters.maxIngressBytes[pg1] = 4_000;
        parts[0].counters.maxQueueBytes[pg1] = 3_000;               // both see port 1's egress queue
        parts[1].counters.maxQueueBytes[pg1] = 7_000;
        for (CoreSnapshot p : parts) {
            p.scheme = "dt";
        }
        CoreSnapshot merged = new CoreSnapshot(2);
        merged.merge(parts, workerOf);
        assertEquals(9_000, merged.counters.maxIngressBytes[pg0]);
        assertEquals(4_000, merged.counters.maxIngressBytes[pg1]);
        assertEquals(7_000, merged.counters.maxQueueBytes[pg1]);
    }
}

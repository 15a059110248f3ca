package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Lossless violations put on the sender that caused them: port 1's sender ignores PFC (as a clone
 * port with {@code pfc: ignore}), port 0's obeys. Both blast a paused egress port far past any
 * headroom; each one's drops are counted against its own kind of sender, lossy drops never.
 */
class LosslessAttributionTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int DSCP_PRIO_1 = 8;
    private static final int OUT = 2;

    @Test
    void dropsAreCountedByWhetherTheSenderObeysPfc() {
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").totalBytes(1L << 20).build())
                .senderIgnoresPfc(1, true).build();
        CoreRig rig = new CoreRig(config);
        assertFalse(rig.core.senderIgnoresPfc(0));
        assertTrue(rig.core.senderIgnoresPfc(1));
        rig.receivePfc(OUT, 0xff, 65535, 0);                     // OUT paused: nothing drains
        long now = 10;
        for (int i = 0; i < 2000; i++) {                         // 2000 x ~1 KB each, far past 1 MiB
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, now);
            rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_3, 1000, now);
            rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_1, 1000, now);
            now += 10;
        }
        SwitchCounters c = rig.core.counters();
        long obeying = rig.core.losslessViolations(false);
        long ignoring = rig.core.losslessViolations(true);
        assertTrue(obeying > 0 && ignoring > 0, obeying + " / " + ignoring);
        assertEquals(c.losslessDrops[3], obeying);
        assertEquals(c.losslessDrops[8 + 3], ignoring);
        assertEquals(0, c.losslessDrops[8 + 1], "a lossy drop is no lossless violation");
        assertEquals(rig.core.mmu().losslessViolations(), obeying + ignoring);

        // the diagnosis: both senders were told to stop (XOFF frames went out on ports 0 and 1) and kept sending
        assertTrue(c.pfcXoffTx[3] > 0 && c.pfcXoffTx[8 + 3] > 0);
        assertTrue(c.losslessDropMaxNanosAfterXoff > 0, "drops came after the XOFF frame: " + c.losslessDropMaxNanosAfterXoff);
        assertEquals(1, c.lastLosslessDropPort, "the last frame offered was port 1's");
        assertEquals(3, c.lastLosslessDropPriority);
        assertTrue(c.lastLosslessDropNanosAfterXoff > 0);

        CoreSnapshot snap = new CoreSnapshot(3);
        snap.capture(rig.core, now);
        assertEquals(obeying, snap.losslessViolationsObeying);
        assertEquals(ignoring, snap.losslessViolationsIgnoring);
        assertEquals(ignoring, snap.losslessDrops(1));
        assertTrue(snap.senderIgnoresPfc[1]);
        assertFalse(snap.senderIgnoresPfc[0]);

        rig.core.changeMmu(Configs.mmu(3, "st").totalBytes(1L << 20).build(), now);
        assertEquals(0, rig.core.mmu().losslessViolations(), "the MMU's count restarts with it");
        assertEquals(obeying, rig.core.losslessViolations(false), "the core's goes on");
    }

    /**
     * The drop log names each lost frame of an obeying sender (QP 17, its PSN) and the first frame
     * into its queue's headroom since it was last empty, the frame its overflow is judged from;
     * drops of a sender that ignores PFC are not logged.
     */
    @Test
    void theDropLogNamesTheLostFrameAndTheFirstFrameIntoTheHeadroom() {
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").totalBytes(1L << 20).build())
                .senderIgnoresPfc(1, true).build();
        CoreRig rig = new CoreRig(config);
        rig.receivePfc(OUT, 0xff, 65535, 0);                     // OUT paused: nothing drains
        long now = 10;
        int firstInHeadroom = -1;
        for (int psn = 0; psn < 2000; psn++) {
            long headroomBefore = rig.core.mmu().ledger().ingressHeadroom(3);
            rig.core.onFrame(0, rig.roceFrame(Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 0, 1000, psn), now);
            if (firstInHeadroom < 0 && headroomBefore == 0 && rig.core.mmu().ledger().ingressHeadroom(3) > 0) {
                firstInHeadroom = psn;
            }
            rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_3, 1000, now);
            now += 10;
        }
        LosslessDropLog log = rig.core.losslessDropLog();
        long obeying = rig.core.losslessViolations(false);
        assertTrue(firstInHeadroom > 0 && obeying > 0, firstInHeadroom + " / " + obeying);
        assertEquals(obeying, log.size(), "every obeying drop logged, no ignoring one");
        long headroom = rig.core.mmu().config().headroomBytes(0);
        for (int i = 0; i < log.size(); i++) {
            assertEquals(0, log.port(i));
            assertEquals(3, log.priority(i));
            assertEquals(17, log.qp(i));
            assertEquals(17, log.firstHeadroomQp(i));
            assertEquals(firstInHeadroom, log.firstHeadroomPsn(i), "nothing left the headroom: one episode");
            assertTrue(log.xoffSentAt(i) >= log.firstHeadroomAt(i) && log.xoffSentAt(i) < log.at(i));
            assertTrue(log.headroomBytes(i) <= headroom && log.headroomBytes(i) > headroom - 1100, log.headroomBytes(i) + " of " + headroom);
        }
        // the first drop: the PSN after the frames the headroom holds, from the first one on, all of one size
        int held = log.psn(0) - firstInHeadroom;
        assertEquals(0, log.headroomBytes(0) % held, log.headroomBytes(0) + " B in " + held + " frames");
        long perFrame = log.headroomBytes(0) / held;
        assertTrue(perFrame > 1000 && perFrame < 1100, perFrame + " B per frame");
        assertEquals(log.psn(0) + 1, log.psn(1), "every later frame is lost too");
        assertEquals(0, log.overflow());
    }
}

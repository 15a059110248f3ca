package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * The receiver tells a lost packet from a reordered one: a PSN skipped and never filled is missing;
 * one filled later by a late packet is only out of order.
 */
class PsnOrderTest {

    /** A flow's receiver fed these PSNs: {out of order, missing}. */
    private static long[] receive(int... psns) {
        FlowRecords records = new FlowRecords();
        records.add(1 << 20, 0, 0, 1, 1);
        Flow f = new Flow(0, 0, 1, 3, 1 << 20, 1000, new RoceFrameBuilder(), null, 49152);
        for (int psn : psns) {
            int skipped = f.receivedPsn(psn);
            records.onReceived(0, 1000, Math.max(0, skipped), skipped == Flow.LATE, false, 0);
        }
        return new long[] {records.outOfOrder(0), records.missingPackets(0)};
    }

    @Test
    void inOrderIsNeitherOutOfOrderNorMissing() {
        assertEquals(0, receive(0, 1, 2, 3)[0]);
        assertEquals(0, receive(0, 1, 2, 3)[1]);
    }

    @Test
    void aLossLeavesAMissingPacket() {
        long[] r = receive(0, 2, 3, 5);
        assertEquals(2, r[0], "2 and 5 skipped one each");
        assertEquals(2, r[1], "1 and 4 never came");
    }

    @Test
    void reorderingLeavesNothingMissing() {
        long[] swap = receive(0, 2, 1, 3);
        assertEquals(2, swap[0], "2 skipped 1, then 1 came late; 3 is in order again");
        assertEquals(0, swap[1]);
        long[] wider = receive(0, 3, 1, 2, 4);
        assertEquals(3, wider[0]);
        assertEquals(0, wider[1], "1 and 2 both filled late");
    }

    @Test
    void thePsnWrapsAt2To24() {
        Flow f = new Flow(0, 0, 1, 3, 1 << 20, 1000, new RoceFrameBuilder(), null, 49152);
        f.expectedPsn = 0xFF_FFFE;
        assertEquals(0, f.receivedPsn(0xFF_FFFE));
        assertEquals(0, f.receivedPsn(0xFF_FFFF));
        assertEquals(0, f.receivedPsn(0), "0 follows 2^24 - 1");
        assertEquals(1, f.receivedPsn(2));
        assertEquals(Flow.LATE, f.receivedPsn(0xFF_FFFF), "behind, across the wrap");
    }
}

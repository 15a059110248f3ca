package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** XOFF/XON state machines: hysteresis in the DT scheme, and the OR of queue, port and blame holds. */
class FlowControlTest {
    private static final int LEN = 1000;

    @Test
    void dtPausesOnceAndResumesOnlyBelowThresholdMinusOffsetWithEmptyHeadroom() {
        // α = 1, δ = 4000 B: XOFF once shr reaches T; XON only when headroom is empty and shr + δ < T.
        MmuConfig cfg = Configs.small("dt", 4, 1_000_000).schemeParameter("dt", "alpha", "1")
                .schemeParameter("dt", "xonOffsetBytes", "4000").build();
        Switch sw = new Switch(cfg);
        BufferLedger l = sw.mmu.ledger();
        int k = BufferLedger.key(0, 3);
        long now = 0;
        while (!sw.paused(0, 3)) {
            sw.send(0, 3, 1, 3, LEN, now += 10);
        }
        assertEquals(1, sw.xoffs);
        // In-flight bytes after XOFF land in headroom; no second XOFF is advertised.
        for (int i = 0; i < 5; i++) {
            assertEquals(Verdict.HEADROOM, sw.send(0, 3, 1, 3, LEN, now += 10));
        }
        assertEquals(1, sw.xoffs);
        long pool = sw.mmu.scheme().layout().sharedPool();
        while (sw.dequeue(1, 3, now += 10)) {
            long shr = l.ingressShared(k);
            long t = Thresholds.dynamic(1, pool, l.sharedUsed());
            if (sw.paused(0, 3)) {
                assertTrue(l.ingressHeadroom(k) > 0 || shr + 4000 >= t, "stayed paused although XON was due");
            } else {
                assertEquals(0, l.ingressHeadroom(k), "XON with bytes still in headroom");
                assertTrue(shr == 0 || shr + 4000 < t, "XON above the hysteresis band");
                break;
            }
        }
        assertEquals(1, sw.xons);
        // Back inside the band: one more packet fits without a new XOFF (no flapping at the threshold).
        sw.send(0, 3, 1, 3, LEN, now += 10);
        assertEquals(1, sw.xoffs);
    }

    @Test
    void advertisedStateIsQueueOrPortOrBlame() {
        List<String> events = new ArrayList<>();
        FlowControl fc = new FlowControl(2, new FlowControlListener() {
            @Override
            public void onXoff(int port, int priority, long now) {
                events.add("xoff " + port + "/" + priority);
            }

            @Override
            public void onXon(int port, int priority, long now) {
                events.add("xon " + port + "/" + priority);
            }
        });
        fc.setQueueXoff(1, 3, 0);
        fc.setPortXoff(1, 0xFF, 1);                  // all 8 priorities; 3 is already advertised
        assertEquals(0xFF, fc.advertisedVector(1));
        assertEquals(8, events.size());
        fc.clearPortXoff(1, 2);                      // a port RESUME must not un-pause the queue-paused class
        assertTrue(fc.isAdvertisedXoff(1, 3));
        assertEquals(1 << 3, fc.advertisedVector(1));
        fc.addHold(1, 3, 3);
        fc.addHold(1, 3, 3);                         // two egress queues blame the same input
        fc.clearQueueXoff(1, 3, 4);
        fc.removeHold(1, 3, 5);
        assertTrue(fc.isAdvertisedXoff(1, 3));
        fc.removeHold(1, 3, 6);
        assertFalse(fc.isAdvertisedXoff(1, 3));
        assertEquals("xon 1/3", events.getLast());
        assertEquals(8, fc.xoffEvents());
        assertEquals(8, fc.xonEvents());
        assertEquals(0, fc.advertisedVector(0));
    }
}

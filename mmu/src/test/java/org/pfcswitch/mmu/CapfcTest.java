package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pfcswitch.mmu.scheme.Capfc;

/**
 * CaPFC culprit selection with the Table II thresholds (1 G ports, KB = 1024: WARN = XON = 20 KB,
 * XOFF = 25 KB) on a 5-port switch: inputs A = 0, B = 1, C = 2, a filler input 4, congested egress
 * O = port 3, priority 3 (DSH/CaPFC spec B14 C1, C2).
 */
class CapfcTest {
    private static final int A = 0;
    private static final int B = 1;
    private static final int C = 2;
    private static final int O = 3;
    private static final int FILLER = 4;

    static Switch capfc(String algorithm, String cut, boolean strict) {
        MmuConfig cfg = MmuConfig.builder().totalBytes(4_000_000).ports(5, 1_000_000_000L, 1_000)
                .losslessPriorityMask(1 << 3).privateBytes(0).headroomFormula("ieee").scheme("capfc")
                .schemeParameter("capfc", "algorithm", algorithm).schemeParameter("capfc", "cut", cut)
                .schemeParameter("capfc", "cutStrict", String.valueOf(strict)).build();
        return new Switch(cfg);
    }

    /** C2: counts exactly 6/4/2 when the 12th counted 512 B packet lifts O above XOFF. */
    @ParameterizedTest(name = "CUT {0}, strict {1}: blames A {2}, B {3}, C {4}")
    @CsvSource({"0.8, false, true, true, false", "1.0, false, true, true, true", "0.5, false, true, false, false",
            "0.5, true, true, true, false"})
    void stopCalibrateBlamesTheSmallestTopSetReachingCut(String cut, boolean strict, boolean a, boolean b,
            boolean c) {
        Switch sw = capfc("stop_calibrate", cut, strict);
        long now = 0;
        for (int i = 0; i < 39; i++) {                  // 39 × 512 = 19,968 B: below WARN, not counted
            sw.send(FILLER, 3, O, 3, 512, now += 10);
        }
        int[] counted = {A, A, A, A, A, A, B, B, B, B, C, C};
        for (int input : counted) {
            sw.send(input, 3, O, 3, 512, now += 10);
        }
        Capfc capfc = (Capfc) sw.mmu.scheme();
        assertEquals(a, capfc.blames(O, 3, A));
        assertEquals(b, capfc.blames(O, 3, B));
        assertEquals(c, capfc.blames(O, 3, C));
        assertFalse(capfc.blames(O, 3, FILLER));
        assertEquals(a, sw.paused(A, 3));               // blame reaches the wire as PFC XOFF
        assertTrue(sw.mmu.ledger().ingressBytes(BufferLedger.key(A, 3)) < 50 * 1024, "A's own counter is low");
    }

    /**
     * C1: A, B, C send at packet rates 3:2:1; O never drains. A is blamed first; once A's upstream
     * stops, B's count passes A's frozen count and B is blamed, then C. Draining O to XON clears all
     * three blames together.
     */
    @Test
    void stopMaxBlamesInputsOneByOneWhileCongestionLasts() {
        Switch sw = capfc("stop_max", "0.8", false);
        Capfc capfc = (Capfc) sw.mmu.scheme();
        List<Integer> order = new ArrayList<>();
        sw.also = new FlowControlListener() {
            @Override
            public void onXoff(int port, int priority, long now) {
                order.add(port);
            }

            @Override
            public void onXon(int port, int priority, long now) {}
        };
        int[] cycle = {A, A, A, B, B, C};
        long now = 0;
        for (int i = 0; i < 600 && order.size() < 3; i++) {
            int input = cycle[i % cycle.length];
            if (!sw.paused(input, 3)) {
                sw.send(input, 3, O, 3, 1024, now += 10);
            }
        }
        assertEquals(List.of(A, B, C), order);
        long xonsBefore = sw.xons;
        while (sw.mmu.ledger().egressBytes(BufferLedger.key(O, 3)) > 20 * 1024) {
            assertTrue(capfc.blames(O, 3, A) && capfc.blames(O, 3, B) && capfc.blames(O, 3, C), "sticky blame");
            sw.dequeue(O, 3, now += 10);
        }
        assertEquals(xonsBefore + 3, sw.xons);            // three XONs in the same instant
        assertFalse(sw.paused(A, 3) || sw.paused(B, 3) || sw.paused(C, 3));
    }

    @Test
    void egressNeverBlamesItsOwnPortAndLossyStillDropsAtMax() {
        Switch sw = capfc("stop_max", "0.8", false);
        long now = 0;
        for (int i = 0; i < 30; i++) {
            sw.send(O, 3, O, 3, 1024, now += 10);         // hairpin traffic only
        }
        assertFalse(((Capfc) sw.mmu.scheme()).blames(O, 3, O));
        for (int i = 0; i < 100; i++) {
            sw.send(A, 1, O, 1, 1024, now += 10);          // lossy priority 1 into one egress queue
        }
        assertTrue(sw.mmu.drops(Verdict.DROP_EGRESS_LIMIT) > 0);
        assertTrue(sw.mmu.ledger().egressBytes(BufferLedger.key(O, 1)) < 60 * 1024);
        assertEquals(0, sw.mmu.losslessViolations());
    }
}

package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * DT steady state, the oracle every DT paper states: n saturated queues each settle at
 * {@code α·B/(1 + n·α)} (SPFC §II-D: 2B/3 for one queue at α = 2; DSH Eq. 2 and spec A15 M3).
 * Each queue sends 1000 B packets towards a blocked egress, stops at its XOFF (an upstream that obeys
 * at once), and the test reads its shared bytes at that moment.
 */
class DynamicThresholdOracleTest {
    private static final int LEN = 1000;

    /** Sends round robin from ports 0..n-1 (priority p) to a never-draining egress; returns shared bytes at each XOFF. */
    static long[] sharedAtXoff(Switch sw, int n, int priority, int egressPort) {
        long[] atXoff = new long[n];
        boolean[] done = new boolean[n];
        int remaining = n;
        long now = 0;
        while (remaining > 0) {
            for (int i = 0; i < n; i++) {
                if (done[i]) {
                    continue;
                }
                int v = sw.send(i, priority, egressPort, priority, LEN, now += 10);
                assertTrue(Verdict.isAdmitted(v), "lossless packet dropped before XOFF");
                if (sw.paused(i, priority)) {
                    atXoff[i] = sw.mmu.ledger().ingressShared(BufferLedger.key(i, priority));
                    done[i] = true;
                    remaining--;
                }
            }
        }
        return atXoff;
    }

    @ParameterizedTest(name = "alpha 2, {0} congested queue(s)")
    @CsvSource({"1", "2", "4"})
    void alphaTwoSettlesAtTwoAlphaBOverOnePlusNAlpha(int n) {
        // 9 ports × 10 G: the shared pool is whatever the headroom leaves; ω* = 2·B_s/(1 + 2n), 2B_s/3 for n = 1.
        MmuConfig cfg = Configs.small("dt", 9, 2_000_000).schemeParameter("dt", "alpha", "2").build();
        Switch sw = new Switch(cfg);
        long pool = sw.mmu.scheme().layout().sharedPool();
        double expected = 2.0 * pool / (1 + 2.0 * n);
        if (n == 1) {
            assertEquals(2.0 * pool / 3, expected, 1e-6);
        }
        for (long shr : sharedAtXoff(sw, n, 3, 8)) {
            assertEquals(expected, shr, 2 * LEN, "shared bytes at XOFF vs alpha*B/(1+n*alpha)");
        }
    }

    /** DSH spec A15 M3, SIH column: first queue-level PAUSE per ingress queue in the Tomahawk model. */
    @ParameterizedTest(name = "Tomahawk SIH, N = {0}: omega* = {1} B")
    @CsvSource({"1, 155829", "2, 147172", "4, 132454", "8, 110379", "16, 82784", "24, 66227", "31, 56364"})
    void tomahawkSihFirstPausePoint(int n, long omegaStar) {
        Switch sw = new Switch(Configs.tomahawk("dt").build());
        assertEquals(omegaStar, Thresholds.steadyState(1.0 / 16, 2_649_088, n), 1.0);
        for (long shr : sharedAtXoff(sw, n, 1, 31)) {
            assertEquals(omegaStar, shr, 2 * LEN);
        }
    }
}

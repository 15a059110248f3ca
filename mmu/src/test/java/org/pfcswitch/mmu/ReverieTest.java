package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pfcswitch.mmu.scheme.Reverie;

/** Reverie: Theorem 1 shares in steady state (spec II.9, V.5 M-R2) and the filter's semantics (II.5, VI.R3/R9). */
class ReverieTest {
    private static final long SLOW = 10_000_000;   // ≫ τ (≈ 335 µs at 25 G): filtered = instantaneous

    /**
     * One congested lossless ingress queue and one congested lossy egress queue on the Reverie leaf
     * (B_sh = 2,560,000 − 738,240 = 1,821,760 B): each class gets α·B_sh/(1 + α_ll + α_ly).
     */
    @ParameterizedTest(name = "alpha lossless {0}, lossy {1}")
    @CsvSource({"1, 1", "2, 1"})
    void classesSettleAtTheoremOneShares(double alphaLossless, double alphaLossy) {
        MmuConfig cfg = SonicOracleTest.reverieLeaf("reverie")
                .schemeParameter("reverie", "alphaLossless", String.valueOf(alphaLossless))
                .schemeParameter("reverie", "alphaLossy", String.valueOf(alphaLossy)).build();
        Switch sw = new Switch(cfg);
        long pool = sw.mmu.scheme().layout().sharedPool();
        assertEquals(1_821_760, pool);
        double[] avg = SteadyState.averages(sw, new SteadyState.Flow[] {new SteadyState.Flow(0, 3, 10),
                new SteadyState.Flow(1, 1, 11)}, 40_000, 2, 1048, SLOW);
        double sum = 1 + alphaLossless + alphaLossy;
        assertEquals(alphaLossless * pool / sum, avg[0], 0.02 * pool);   // B_sh/3, or B_sh/2 at α 2:1
        assertEquals(alphaLossy * pool / sum, avg[1], 0.02 * pool);      // B_sh/3, or B_sh/4
        assertEquals(0, sw.mmu.losslessViolations());
    }

    @Test
    void aClassAloneGetsAlphaOverOnePlusAlpha() {
        Switch sw = new Switch(SonicOracleTest.reverieLeaf("reverie").build());
        double[] avg = SteadyState.averages(sw, new SteadyState.Flow[] {new SteadyState.Flow(1, 1, 11)}, 20_000,
                2, 1048, SLOW);
        assertEquals(1_821_760 / 2.0, avg[0], 0.02 * 1_821_760);
    }

    @Test
    void aBurstIsAbsorbedBeforeTheFilterCatchesUp() {
        // R3: a line-rate step into an idle lossless queue goes well past Γ before the filter crosses it.
        Switch sw = new Switch(SonicOracleTest.reverieLeaf("reverie").build());
        Reverie r = (Reverie) sw.mmu.scheme();
        long now = 0;
        long step = 335;                                          // 1048 B at 25 Gb/s
        while (!sw.paused(0, 3)) {
            sw.send(0, 3, 10, 3, 1048, now += step);
        }
        long q = sw.mmu.ledger().ingressBytes(BufferLedger.key(0, 3));
        assertTrue(q > 1_821_760 / 2, "instantaneous " + q + " should exceed the unfiltered Γ");
        assertTrue(r.filteredIngress(0, 3) < q);
        assertEquals(0, sw.mmu.losslessViolations());
    }

    @Test
    void timeModeFilterMatchesTheExponentialAndEventModeConvergesFromBelow() {
        // TIME: a constant queue Q held for one τ gives Q·(1 − e^-1) (to 0.1 %).
        Switch sw = new Switch(SonicOracleTest.reverieLeaf("reverie").schemeParameter("reverie", "alphaLossless",
                "1000").build());
        Reverie r = (Reverie) sw.mmu.scheme();
        double tau = r.timeConstantNs(0);
        assertEquals(-335.36 / Math.log(0.999), tau, 0.5);       // 1048 B at 25 Gb/s, γ = 0.999
        for (int i = 0; i < 100; i++) {
            sw.send(0, 3, 10, 3, 1000, 1);                        // q = 100,000 B at t = 1
        }
        long t = 1 + (long) tau;
        sw.send(0, 3, 10, 3, 1000, t);                            // sample: held 100,000 for τ
        assertEquals(100_000 * (1 - Math.exp(-(t - 1) / tau)), r.filteredIngress(0, 3), 100.0);
        // EVENT: per-event γ; a constant Q converges from below and never overshoots.
        Switch ev = new Switch(SonicOracleTest.reverieLeaf("reverie").schemeParameter("reverie", "filterUpdate",
                "event").schemeParameter("reverie", "gamma", "0.9").build());
        Reverie re = (Reverie) ev.mmu.scheme();
        ev.send(0, 3, 10, 3, 1000, 0);
        double last = 0;
        for (int i = 1; i <= 200; i++) {
            ev.send(0, 3, 10, 3, 1000, i);
            ev.dequeue(10, 3, i);                                 // q back to 1000 after each pair
            double v = re.filteredIngress(0, 3);
            assertTrue(v <= 1000 + 1e-9, "overshoot " + v);
            assertTrue(v >= last - 1e-9);
            last = v;
        }
        assertEquals(1000, last, 1.0);
    }
}

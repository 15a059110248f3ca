package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pfcswitch.mmu.scheme.Spfc;

/** SPFC state transitions (SPFC spec §5.1 flow model and §5.3 unit sequences). */
class SpfcTest {
    private static final int LEN = 1000;

    /**
     * The spec's unit configuration (§5.3): 4 ports × 10 Gb/s, priority 3 lossless, TC = 100 µs,
     * K = 5 (IRC threshold 25,000 B), B_s = 1,000,000 B, α = 1, no private, 100,000 B headroom per
     * key, XON offset 0.
     */
    static Switch unitSwitch(String scheme) {
        MmuConfig cfg = MmuConfig.builder().totalBytes(1_400_000).ports(4, 10_000_000_000L, 1_000)
                .losslessPriorityMask(1 << 3).privateBytes(0).headroomFormula("fixed").headroomBytes(100_000)
                .scheme(scheme).schemeParameter(scheme, "alpha", "1").schemeParameter(scheme, "xonOffsetBytes", "0")
                .build();
        Switch sw = new Switch(cfg);
        assertEquals(1_000_000, sw.mmu.scheme().layout().sharedPool());
        return sw;
    }

    static Spfc spfc(Switch sw) {
        return (Spfc) sw.mmu.scheme();
    }

    /** Pre-loads {@code packets} of (0,3) towards an otherwise idle egress (port 1), at t = 0. */
    static void preload(Switch sw, int packets) {
        for (int i = 0; i < packets; i++) {
            assertEquals(Verdict.SHARED, sw.send(0, 3, 1, 3, LEN, 0));
        }
    }

    @Test
    void s1ToS4RiseHoldAndLazyFallFollowTheDepartureCounter() {
        Switch sw = unitSwitch("spfc");
        Spfc s = spfc(sw);
        assertEquals(25_000, s.ircThreshold(0));
        preload(sw, 40);
        assertFalse(s.isVictim(0, 3, 0));                 // S16: every port starts NORMAL
        for (int k = 1; k <= 30; k++) {
            sw.dequeue(1, 3, 1_000L * k);
            assertEquals(k >= 26, s.isVictim(0, 3, 1_000L * k), "after departure " + k);   // S1: strict >
        }
        assertTrue(s.isVictim(0, 3, 150_000));            // S2: the holder keeps VICTIM through window 1
        assertTrue(s.isVictim(0, 3, 199_999));
        assertFalse(s.isVictim(0, 3, 200_000));           // window 1 counted 0
        // S4: a departure at exactly a boundary belongs to the new window.
        sw.dequeue(1, 3, 300_000);
        assertFalse(s.isVictim(0, 3, 399_999));           // 1,000 B in window 3 does not pass
    }

    @Test
    void s3LazySkipOverEmptyWindowsFallsBackToNormal() {
        Switch sw = unitSwitch("spfc");
        preload(sw, 30);
        for (int k = 1; k <= 30; k++) {
            sw.dequeue(1, 3, 1_000L * k);
        }
        assertFalse(spfc(sw).isVictim(0, 3, 350_000));
    }

    /**
     * The flow model (§IV-C, Eqs. 5–8): at C = 100 Gb/s, TC = 80 µs, K = 5 the IRC threshold is
     * 200,000 B. A burst port among N departs C/(N+1); the victim port departs (1−ε)C + C/(N+1).
     * Feed one window of departures at the model's rate and read the state in the next window.
     */
    @ParameterizedTest(name = "{0} B per window -> victim {1}")
    @CsvSource({
        "500000, true",   // N = 1 burst port: misclassified VICTIM
        "250000, true",   // N = 3: misclassified (N <= K-2)
        "200000, false",  // N = 4: equality, NORMAL under the strict compare
        "166667, false",  // N = 5
        "40000, false",   // N = 24
        "540000, true",   // victim port, eps = 0.5, N = 24
        "201923, true",   // victim port, eps = 0.875, N = 12
        "196429, false"   // victim port, eps = 0.875, N = 13: misclassified NORMAL
    })
    void flowModelClassification(long bytesPerWindow, boolean victim) {
        MmuConfig cfg = MmuConfig.builder().totalBytes(64L << 20).ports(4, 100_000_000_000L, 1_000)
                .losslessPriorityMask(1 << 3).privateBytes(0).headroomFormula("ieee").scheme("spfc")
                .schemeParameter("spfc", "tcNs", "80000").build();
        Switch sw = new Switch(cfg);
        Spfc s = spfc(sw);
        assertEquals(200_000, s.ircThreshold(0));
        long full = bytesPerWindow / LEN;
        int rest = (int) (bytesPerWindow % LEN);
        for (long i = 0; i < full; i++) {
            sw.send(0, 3, 1, 3, LEN, 0);
        }
        if (rest > 0) {
            sw.send(0, 3, 1, 3, rest, 0);
        }
        long packets = full + (rest > 0 ? 1 : 0);
        for (long i = 0; i < packets; i++) {
            sw.dequeue(1, 3, 1 + i * 79_000 / packets);    // spread over window 0
        }
        assertEquals(victim, s.isVictim(0, 3, 80_001));
        assertEquals(victim, s.isVictim(0, 3, 159_999));
        assertFalse(s.isVictim(0, 3, 160_000));          // a window without departures: NORMAL
    }

    /**
     * S8 and S10: a VICTIM fills the whole pool before it pauses (DT would pause at ≈ α·B_s/(1+α)
     * = 500,000 B); its PAUSE demotes it to NORMAL; it resumes only below the NORMAL threshold, and
     * right after RESUME it is a VICTIM again because its departures in this window pass C/K.
     */
    @Test
    void victimUsesTheWholePoolAndPausingDemotesItUntilResume() {
        Switch sw = unitSwitch("spfc");
        Spfc s = spfc(sw);
        preload(sw, 30);
        for (int k = 1; k <= 30; k++) {
            sw.dequeue(1, 3, 1_000L * k);                 // VICTIM from the 26th departure
        }
        long now = 30_000;
        long sharedAtPause = -1;
        while (sharedAtPause < 0) {
            assertTrue(Verdict.isAdmitted(sw.send(0, 3, 2, 3, LEN, now += 50)));   // egress 2 never drains
            if (sw.paused(0, 3)) {
                sharedAtPause = sw.mmu.ledger().ingressShared(BufferLedger.key(0, 3));
            }
        }
        assertTrue(now < 100_000, "still in window 0");
        assertEquals(1_000_000, sharedAtPause, LEN);      // pool full, not DT's 500,000
        assertFalse(s.isVictim(0, 3, now));               // PAUSE demotes
        // drain egress 2 within window 1: XON only once shr < α(B_s − shr), i.e. shr < 500,000
        long resumedAt = -1;
        long t = 100_000;
        while (resumedAt < 0 && sw.dequeue(2, 3, t += 10)) {
            if (!sw.paused(0, 3)) {
                resumedAt = sw.mmu.ledger().ingressShared(BufferLedger.key(0, 3));
            } else {
                assertFalse(s.isVictim(0, 3, t));
            }
        }
        assertEquals(500_000, resumedAt, LEN);
        assertTrue(s.isVictim(0, 3, t), "departures of this window pass C/K: VICTIM again after RESUME");
    }

    @Test
    void dtBaselinePausesAtHalfThePool() {
        Switch sw = unitSwitch("dt");
        long[] at = DynamicThresholdOracleTest.sharedAtXoff(sw, 1, 3, 2);
        assertEquals(500_000, at[0], LEN);
    }

    @Test
    void normalPortIsSqueezedByAVictimsBytes() {
        // S9: (0,3) VICTIM holding 900,000 B; NORMAL (1,3) pauses near α(B_s − 900,000 − shr1) = 50,000.
        Switch sw = unitSwitch("spfc");
        preload(sw, 30);
        for (int k = 1; k <= 30; k++) {
            sw.dequeue(1, 3, 1_000L * k);
        }
        long now = 30_000;
        for (int i = 0; i < 900; i++) {
            sw.send(0, 3, 2, 3, LEN, now += 50);
        }
        assertFalse(sw.paused(0, 3));
        assertEquals(900_000, sw.mmu.ledger().sharedUsed());
        while (!sw.paused(1, 3)) {
            assertTrue(Verdict.isAdmitted(sw.send(1, 3, 3, 3, LEN, now += 50)));
        }
        assertFalse(spfc(sw).isVictim(1, 3, now));
        assertEquals(50_000, sw.mmu.ledger().ingressShared(BufferLedger.key(1, 3)), 2 * LEN);
    }
}

package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.scheme.Dsh;

/** DSH oracles from the paper's Tomahawk model (DSH spec A6, A15 M1–M7). */
class DshTest {
    private static final long C_100G = 100_000_000_000L;

    @Test
    void poolSizesOfTheTomahawkModel() {
        MmuExplanation e = MmuExplanation.of(Configs.tomahawk("dsh").build());
        assertEquals(688_128, e.privateBytes());
        assertEquals(1_920_000, e.headroomBytes());          // B_i = 32 × 60,000 (Eq. 9)
        assertEquals(14_169_088, e.sharedPoolBytes());       // 5.35 × SIH's 2,649,088
        assertEquals(885_568, e.thresholds().getFirst().bytes());   // α·B_s
        assertEquals(60_000, e.ports().getFirst().insuranceBytes());
    }

    /** M2/M3: first queue-level PAUSE point with the egress blocked, for τ = 0 and τ = Φ. */
    @ParameterizedTest(name = "N = {0}, tauMode {1}: omega* = {2}")
    @CsvSource({"1, zero, 833476", "1, phi, 777005", "2, zero, 787172", "2, phi, 733838", "8, zero, 590379",
            "8, phi, 550379"})
    void firstPausePoint(int n, String tauMode, long omegaStar) {
        Switch sw = new Switch(Configs.tomahawk("dsh").schemeParameter("dsh", "tauMode", tauMode).build());
        for (long shr : DynamicThresholdOracleTest.sharedAtXoff(sw, n, 1, 31)) {
            assertEquals(omegaStar, shr, 2 * 1000);
        }
        assertEquals(0, sw.mmu.flowControl().portXoffEvents());
    }

    @Test
    void estimatorSaturatesAtPhiForALineRateQueueAndSettlesAtCOver7ForSevenClasses() {
        Switch sw = new Switch(Configs.tomahawk("dsh").build());
        Dsh dsh = (Dsh) sw.mmu.scheme();
        // M7: back-to-back 1000 B at 100 G (80 ns apart), no drain: φ̂ = Φ from the second packet on.
        long now = 0;
        sw.send(0, 1, 31, 1, 1000, now);
        assertEquals(0, dsh.phiHat(0, 1));                  // the first packet only sets the anchor
        sw.send(0, 1, 31, 1, 1000, now += 80);
        assertEquals(60_000, dsh.phiHat(0, 1));
        // Seven classes take turns on port 1 (each at C/7): φ̂ → C/7·D ≈ 8,571 B, from above.
        for (int i = 0; i < 7 * 200; i++) {
            sw.send(1, 1 + i % 7, 30, 1 + i % 7, 1000, now += 80);
        }
        for (int prio = 1; prio <= 7; prio++) {
            long phiHat = dsh.phiHat(1, prio);
            assertTrue(phiHat >= 8_500 && phiHat <= 60_000, "phi_hat " + phiHat);
            assertEquals(8_571, phiHat, 100);
        }
    }

    @Test
    void singleQueueDetectorDropsTauAfterTenMillisecondsAndRestoresItOnASwitch() {
        Switch sw = new Switch(Configs.tomahawk("dsh").build());
        Dsh dsh = (Dsh) sw.mmu.scheme();
        sw.send(0, 1, 31, 1, 1000, 0);
        sw.send(0, 1, 31, 1, 1000, 10_000_000);             // exactly 10 ms: the test is strict
        assertFalse(dsh.isSingleQueue(0));
        sw.send(0, 1, 31, 1, 1000, 10_000_001);
        assertTrue(dsh.isSingleQueue(0));
        sw.send(0, 0, 31, 0, 1000, 10_000_002);             // lossy CoS0 (ACKs) does not reset it
        assertTrue(dsh.isSingleQueue(0));
        sw.send(0, 2, 31, 2, 1000, 10_000_003);
        assertFalse(dsh.isSingleQueue(0));
    }

    /**
     * M5: one port, all 7 classes interleaved at line rate, egress blocked, τ = 0 to force the
     * insurance path; each upstream class keeps sending Φ − MTU bytes after its pause. The port-level
     * PAUSE fires, insurance never exceeds Φ, nothing is dropped, and the port resumes once drained.
     */
    @Test
    void portLevelPauseBacksTheQueueLevelAndInsuranceHolds() {
        MmuConfig cfg = Configs.tomahawk("dsh").schemeParameter("dsh", "tauMode", "zero").build();
        Switch sw = new Switch(cfg);
        LedgerPropertiesTest.UpstreamLinks links = new LedgerPropertiesTest.UpstreamLinks(cfg);
        sw.also = links;
        long now = 0;
        long peakInsurance = 0;
        for (int i = 0; i < 20_000; i++) {
            int prio = 1 + i % 7;
            if (links.maySend(0, prio, 1500)) {
                assertTrue(Verdict.isAdmitted(sw.send(0, prio, 31, prio, 1500, now += 120)));
                links.sent(0, 1500);
            }
            peakInsurance = Math.max(peakInsurance, sw.mmu.ledger().portHeadroom(0));
        }
        assertTrue(sw.mmu.flowControl().isPortXoff(0));
        assertEquals(0xFF, sw.mmu.flowControl().advertisedVector(0));
        assertTrue(peakInsurance > 0 && peakInsurance <= 60_000, "peak insurance " + peakInsurance);
        assertEquals(0, sw.mmu.losslessViolations());
        sw.drain(now + 1);
        assertFalse(sw.mmu.flowControl().isPortXoff(0));
        assertEquals(0, sw.mmu.flowControl().advertisedVector(0));
    }
}

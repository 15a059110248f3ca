package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * SONiC two-view MMU steady state (Reverie App. A, Eqs. 10–11; scheme spec I.8) on the Reverie
 * evaluation leaf: B = 2,560,000 B, 20 × 25 Gb/s, 2 µs, lossless priorities 0 and 3, 1048 B frames,
 * headroom 18,456 B per lossless queue (formula value), α = 1, B_eg○ = 0.8·B_in.
 */
class SonicOracleTest {
    static MmuConfig.Builder reverieLeaf(String scheme) {
        return MmuConfig.builder().totalBytes(2_560_000).ports(20, 25_000_000_000L, 2_000).mtuBytes(1048)
                .losslessPriorityMask(1 | 1 << 3).privateBytes(0).headroomFormula("sonic").scheme(scheme);
    }

    @Test
    void poolsMatchTheSpec() {
        MmuExplanation e = MmuExplanation.of(reverieLeaf("sonic").build());
        assertEquals(738_240, e.headroomBytes());
        assertEquals(1_821_760, e.pools().stream().filter(p -> p.name().startsWith("ingress pool")).findFirst()
                .orElseThrow().bytes());
        assertEquals(1_457_408, e.pools().stream().filter(p -> p.name().startsWith("egress lossy")).findFirst()
                .orElseThrow().bytes());
    }

    @Test
    void oneLosslessAndOneLossyQueueSettleAtAppendixAShares() {
        Switch sw = new Switch(reverieLeaf("sonic").build());
        SteadyState.Flow lossless = new SteadyState.Flow(0, 3, 10);
        SteadyState.Flow lossy = new SteadyState.Flow(1, 1, 11);
        double[] avg = SteadyState.averages(sw, new SteadyState.Flow[] {lossless, lossy}, 40_000, 2, 1048, 100);
        // q_lossy = α·B_eg/(1+α) = 728,704; q_lossless = α(B_in − q_lossy)/(1+α) = 546,528 (spec I.8).
        assertEquals(728_704, avg[1], 0.01 * 728_704);
        assertEquals(546_528, avg[0], 0.01 * 546_528);
        assertEquals(0, sw.mmu.losslessViolations());
    }

    @Test
    void lossyThresholdIgnoresLosslessWhileLosslessYieldsToLossy() {
        // Issue 2: fill the ingress pool with lossless bytes; the lossy drop threshold does not move.
        Switch sw = new Switch(reverieLeaf("sonic").build());
        long emptyLossy = sw.mmu.scheme().emptyBufferThreshold(0, 1);
        long now = 0;
        while (!sw.paused(0, 3)) {
            sw.send(0, 3, 10, 3, 1048, now += 10);
        }
        // the lossy threshold Γ_eg = α(B_eg○ − eg_used○) is still its empty value
        long lossyThreshold = Thresholds.dynamic(1, 1_457_408, sw.mmu.ledger().egressUsedLossy());
        assertEquals(emptyLossy, lossyThreshold);
        // the lossless threshold shrinks when lossy bytes enter the ingress pool
        double before = Thresholds.dynamic(1, 1_821_760, sw.mmu.ledger().sharedUsed());
        for (int i = 0; i < 100; i++) {
            sw.send(1, 1, 11, 1, 1048, now += 10);
        }
        double after = Thresholds.dynamic(1, 1_821_760, sw.mmu.ledger().sharedUsed());
        assertEquals(before - 100 * 1048, after, 1.0);
    }
}

package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** Static pool sizes of the DSH paper's Tomahawk model (DSH spec A6 / M1) and the headroom formulas' worked values. */
class PoolSizeTest {
    @Test
    void sihPoolsInTheTomahawkModel() {
        MmuExplanation e = MmuExplanation.of(Configs.tomahawk("dt").build());
        assertEquals(16_777_216, e.totalBytes());
        assertEquals(688_128, e.privateBytes());          // 32 × 7 × 3072
        assertEquals(13_440_000, e.headroomBytes());      // 32 × 7 × 60,000 (Eq. 3)
        assertEquals(2_649_088, e.sharedPoolBytes());     // what remains
        assertEquals(165_568, e.thresholds().getFirst().bytes()); // α·B_s at α = 1/16
    }

    @Test
    void headroomFormulasReproduceTheSpecsWorkedValues() {
        PortConfig p100 = new PortConfig(100_000_000_000L, 2_000);
        assertEquals(56_840, HeadroomFormula.IEEE.bytes(p100, 1500, 0));              // DSH A3
        assertEquals(55_936, HeadroomFormula.IEEE.bytes(p100, 1048, 0));              // DSH A3, ns-3 MTU
        assertEquals(21_840, HeadroomFormula.IEEE.bytes(new PortConfig(40_000_000_000L, 1_500), 1500, 0));
        assertEquals(206_840, HeadroomFormula.IEEE.bytes(new PortConfig(400_000_000_000L, 2_000), 1500, 0));
        assertEquals(18_456, HeadroomFormula.SONIC.bytes(new PortConfig(25_000_000_000L, 2_000), 1048, 0));
        assertEquals(30_956, HeadroomFormula.SONIC.bytes(new PortConfig(100_000_000_000L, 1_000), 1048, 0));
        assertEquals(75_000, HeadroomFormula.HPCC.bytes(p100, 1500, 0));              // 3 × 25,000
    }

    @Test
    void trident2HeadroomIsTheShareTheDshPaperQuotes() {
        // DSH §III-A: 12 MiB, 32 × 40 G, 8 lossless classes, 1.5 µs: 5,591,040 B = 44.4 % of the buffer.
        MmuConfig cfg = MmuConfig.builder().totalBytes(12L << 20).ports(32, 40_000_000_000L, 1_500)
                .losslessPriorityMask(0xFF).privateBytes(0).headroomFormula("ieee").scheme("dt").build();
        MmuExplanation e = MmuExplanation.of(cfg);
        assertEquals(5_591_040, e.headroomBytes());
        assertEquals(44.4, 100.0 * e.headroomBytes() / e.totalBytes(), 0.05);
    }
}

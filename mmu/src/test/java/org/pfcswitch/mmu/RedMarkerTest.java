package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** RED/ECN marking with a fixed random source, and the DCQCN defaults of the HPCC/Reverie simulators. */
class RedMarkerTest {
    private static final RandomSource TENTH = () -> 0.1;

    @Test
    void marksNeverBelowKminAlwaysAboveKmaxAndLinearlyBetween() {
        RedMarker red = new RedMarker(100, 400, 0.2);
        assertFalse(red.shouldMark(100, () -> 0.0));     // q <= kmin never marks, whatever the draw
        assertEquals(0.1, red.probability(250), 1e-12);
        assertFalse(red.shouldMark(250, TENTH));          // p = 0.1, draw 0.1: not below
        assertTrue(red.shouldMark(251, TENTH));           // p slightly above 0.1
        assertEquals(0.2, red.probability(400), 1e-12);
        assertFalse(red.shouldMark(400, () -> 0.25));     // pmax at kmax
        assertTrue(red.shouldMark(401, () -> 0.999));     // above kmax always
    }

    @Test
    void dcqcnDefaultsScaleWithPortSpeed() {
        RedMarker at25 = RedMarker.dcqcnDefault(25_000_000_000L);
        assertEquals(100_000, at25.kminBytes());
        assertEquals(400_000, at25.kmaxBytes());
        assertEquals(0.2, at25.pmax());
        RedMarker at100 = RedMarker.dcqcnDefault(100_000_000_000L);
        assertEquals(400_000, at100.kminBytes());
        assertEquals(1_600_000, at100.kmaxBytes());
    }

    @Test
    void mmuMarksOnTheEgressQueueLength() {
        MmuConfig cfg = Configs.small("dt", 2, 1_000_000).ecnKminBytes(2_000).ecnKmaxBytes(4_000).build();
        Mmu mmu = Mmu.create(cfg, FlowControlListener.NONE, TENTH);
        mmu.admit(0, 1, 1, 1, 1000, 0);
        mmu.admit(0, 1, 1, 1, 1000, 0);
        assertFalse(mmu.shouldMarkEcn(1, 1));             // 2000 B = kmin
        mmu.admit(0, 1, 1, 1, 1000, 0);
        assertFalse(mmu.shouldMarkEcn(1, 1));             // 3000 B: p = 0.2 * 1000/2000 = 0.1, draw 0.1
        mmu.admit(0, 1, 1, 1, 1000, 0);
        assertTrue(mmu.shouldMarkEcn(1, 1));              // 4000 B = kmax: p = pmax = 0.2 > 0.1
    }

    @Test
    void rejectsInvertedThresholds() {
        assertThrows(IllegalArgumentException.class, () -> new RedMarker(500, 100, 0.2));
    }
}

package org.pfcswitch.mmu.scheme;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The table/polynomial decay matches e^-x (spec II.6: |error| < 1e-6 from 1 ns to 24 τ; 0 beyond). */
class LowPassFilterTest {
    @Test
    void decayMatchesTheExponential() {
        for (double x = 1e-9; x < 24; x *= 1.07) {
            assertEquals(Math.exp(-x), LowPassFilter.decay(x), 1e-6, "x = " + x);
        }
        assertEquals(0, LowPassFilter.decay(24));
        assertEquals(0, LowPassFilter.decay(1e9));
    }

    @Test
    void timeModeFollowsAStepExactlyWithZeroOrderHold() {
        double[] tau = {1000};
        LowPassFilter f = new LowPassFilter(8, LowPassFilter.TIME, 0.999, false, tau);
        f.update(0, 10_000, 0, false);             // q becomes 10,000 at t = 0
        f.update(0, 10_000, 1000, false);          // one τ later
        assertEquals(10_000 * (1 - Math.exp(-1)), f.value(0), 0.05);
        f.update(0, 0, 2000, false);               // held 10,000 for a second τ, then drops to 0
        assertEquals(10_000 * (1 - Math.exp(-2)), f.value(0), 0.05);
        LowPassFilter clamped = new LowPassFilter(8, LowPassFilter.TIME, 0.999, true, tau);
        clamped.update(0, 10_000, 0, false);
        clamped.update(0, 0, 5000, false);
        assertEquals(0, clamped.value(0));         // the clamp: never above the instantaneous length
    }
}

package org.pfcswitch.mmu;

/**
 * Where randomised decisions (RED marking, BFC's fallback queue) get their randomness. Injected so
 * tests can be deterministic and the switch core never owns a clock-seeded generator.
 */
public interface RandomSource {
    /** A uniform value in [0, 1). */
    double nextDouble();

    /** A uniform value in [0, bound). */
    default int nextInt(int bound) {
        return (int) (nextDouble() * bound);
    }

    /** A fast, allocation-free xorshift generator with a fixed seed. */
    static RandomSource seeded(long seed) {
        return new RandomSource() {
            private long s = seed == 0 ? 0x9E3779B97F4A7C15L : seed;

            @Override
            public double nextDouble() {
                s ^= s << 13;
                s ^= s >>> 7;
                s ^= s << 17;
                return (s >>> 11) * 0x1.0p-53;
            }
        };
    }
}

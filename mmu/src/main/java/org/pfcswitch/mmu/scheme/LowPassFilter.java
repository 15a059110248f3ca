package org.pfcswitch.mmu.scheme;

/**
 * Reverie's low-pass-filtered queue lengths (Eq. 5, {@code q̂ = γ·q̂ + (1−γ)·q}), one per counter key,
 * in one of three modes (Reverie spec II.5–II.6):
 * <ul>
 *   <li>{@code TIME} (default): an exact continuous-time first-order filter over the piecewise-constant
 *       queue length (zero-order hold), with time constant {@code τ = −T_ref/ln γ}, so that one MTU
 *       time at line rate weighs exactly γ. Decay {@code e^(−dt/τ)} comes from three lookup tables, so
 *       the per-packet cost is three loads and two multiplies.</li>
 *   <li>{@code EVENT}: Eq. 5 applied at every arrival and departure of the counter.</li>
 *   <li>{@code DEPARTURE}: Eq. 5 applied only at departures (the ns3-datacenter artifact).</li>
 * </ul>
 * With {@code clamp} the filter never exceeds the instantaneous length (artifact behaviour: rise
 * slowly, fall at once).
 */
final class LowPassFilter {
    static final int TIME = 0;
    static final int EVENT = 1;
    static final int DEPARTURE = 2;

    private static final double[] DECAY_WHOLE = new double[24];     // e^-i
    private static final double[] DECAY_MID = new double[1024];     // e^(-j/2^10)
    private static final double[] DECAY_FINE = new double[1024];    // e^(-j/2^20)

    static {
        for (int i = 0; i < DECAY_WHOLE.length; i++) {
            DECAY_WHOLE[i] = Math.exp(-i);
        }
        for (int j = 0; j < 1024; j++) {
            DECAY_MID[j] = Math.exp(-j / 1024.0);
            DECAY_FINE[j] = Math.exp(-j / 1048576.0);
        }
    }

    private final int mode;
    private final double gamma;
    private final boolean clamp;
    private final double[] invTauPerPort;
    private final double[] value;
    private final long[] held;
    private final long[] lastNs;

    LowPassFilter(int keys, int mode, double gamma, boolean clamp, double[] tauNsPerPort) {
        this.mode = mode;
        this.gamma = gamma;
        this.clamp = clamp;
        this.invTauPerPort = new double[tauNsPerPort.length];
        for (int p = 0; p < tauNsPerPort.length; p++) {
            invTauPerPort[p] = 1.0 / tauNsPerPort[p];
        }
        value = new double[keys];
        held = new long[keys];
        lastNs = new long[keys];
    }

    /** {@code e^(−x)} for x ≥ 0 to within about 1e-6 relative, 0 beyond x = 24. */
    static double decay(double x) {
        if (x < 0x1p-6) {
            // the common case, updates much closer than τ: Taylor to x^4 (error < x^5/120 < 1e-11), no loads
            return 1 - x * (1 - x * (0.5 - x * (1.0 / 6 - x * (1.0 / 24))));
        }
        if (x >= 24) {
            return 0;
        }
        long k = (long) (x * 1048576.0);
        return DECAY_WHOLE[(int) (k >>> 20)] * DECAY_MID[(int) (k >>> 10) & 1023] * DECAY_FINE[(int) k & 1023];
    }

    /** Feeds the counter's new length {@code q} at {@code now}; call after the counter changed. */
    void update(int key, long q, long now, boolean departure) {
        double v = value[key];
        switch (mode) {
            case TIME -> {
                long dt = now - lastNs[key];
                double d = dt <= 0 ? 1 : decay(dt * invTauPerPort[key >>> 3]);
                v = d * v + (1 - d) * held[key];
            }
            case EVENT -> v = gamma * v + (1 - gamma) * q;
            default -> {
                if (departure) {
                    v = gamma * v + (1 - gamma) * q;
                }
            }
        }
        if (clamp && v > q) {
            v = q;
        }
        value[key] = v;
        held[key] = q;
        lastNs[key] = now;
    }

    double value(int key) {
        return value[key];
    }
}

package org.pfcswitch.mmu.scheme;

/**
 * DSH's conservative estimate φ̂ of the headroom an ingress queue will need (Algorithm 2, Eqs. 4–8),
 * in the integer form of DSH spec A11.3: the queue-length gradient g = Δq/Δt in bytes/ns Q16, its EWMA
 * g_avg and mean deviation v_avg (gains 2^-wgShift, 2^-wvShift; the signed form of Eq. 5, not
 * Algorithm 3's sign-losing line 4), ĝ = g_avg + 2^kShift·v_avg, and φ̂ = ĝ·D clamped to [0, Φ].
 * The first sample of a queue only sets the anchor; same-timestamp arrivals merge into the next sample.
 */
final class HeadroomEstimator {
    private final int wgShift;
    private final int wvShift;
    private final int kShift;
    private final long[] qPrev;
    private final long[] tPrev;
    private final boolean[] hasPrev;
    private final long[] gAvg;
    private final long[] vAvg;
    private final long[] phiHat;

    HeadroomEstimator(int keys, int wgShift, int wvShift, int kShift) {
        this.wgShift = wgShift;
        this.wvShift = wvShift;
        this.kShift = kShift;
        qPrev = new long[keys];
        tPrev = new long[keys];
        hasPrev = new boolean[keys];
        gAvg = new long[keys];
        vAvg = new long[keys];
        phiHat = new long[keys];
    }

    /** One sample after an arrival was accounted: {@code q} is the queue length now. */
    void update(int key, long q, long now, long delayNs, long phiMax) {
        if (!hasPrev[key]) {
            qPrev[key] = q;
            tPrev[key] = now;
            hasPrev[key] = true;
            return;
        }
        long dt = now - tPrev[key];
        if (dt <= 0) {
            return;
        }
        // Q16 bytes/ns; a double division truncated toward zero equals the integer one here and is far cheaper
        long g = (long) ((q - qPrev[key]) * 65536.0 / dt);
        long v = Math.abs(gAvg[key] - g);                 // against the old average (Alg. 2 order)
        gAvg[key] += (g - gAvg[key]) >> wgShift;          // Eq. 5
        vAvg[key] += (v - vAvg[key]) >> wvShift;          // Eq. 6
        long gHat = gAvg[key] + (vAvg[key] << kShift);    // Eq. 7
        long estimate;
        if (gHat <= 0) {
            estimate = 0;
        } else if (gHat > (Long.MAX_VALUE >> 1) / Math.max(1, delayNs)) {
            estimate = phiMax;                             // would overflow: certainly above Φ
        } else {
            estimate = Math.min(phiMax, (gHat * delayNs) >> 16);   // Eq. 8, clamped to Φ
        }
        phiHat[key] = estimate;
        qPrev[key] = q;
        tPrev[key] = now;
    }

    long phiHat(int key) {
        return phiHat[key];
    }
}

package org.pfcswitch.mmu;

/** The threshold arithmetic every scheme shares, in one place. */
public final class Thresholds {
    private Thresholds() {}

    /**
     * Choudhury–Hahne dynamic threshold, {@code T = α·max(0, pool − used)} (DSH Eq. 2, Reverie Eq. 1,
     * SPFC Eq. 1). With n saturated queues each settles at {@code α·pool/(1 + n·α)}.
     */
    public static long dynamic(double alpha, long pool, long used) {
        long free = pool - used;
        return free <= 0 ? 0 : (long) (alpha * free);
    }

    /** The DT steady state of one of n equally loaded queues: {@code α·pool/(1 + n·α)}. */
    public static double steadyState(double alpha, long pool, int n) {
        return alpha * pool / (1 + n * alpha);
    }
}

package org.pfcswitch.mmu;

/**
 * The primitive result of {@link Mmu#admit}: a non-negative value names the buffer segment the packet
 * was charged to, a negative value names the reason it was dropped. An {@code int} rather than an enum
 * so the per-packet path neither allocates nor dereferences.
 */
public final class Verdict {
    /** Charged to the guaranteed per-queue minimum (ρ). */
    public static final int PRIVATE = 0;
    /** Charged to the shared pool (DT footroom, DSH shared headroom, SONiC ingress pool, Reverie shared pool). */
    public static final int SHARED = 1;
    /** Charged to headroom: per-queue headroom, DSH per-port insurance, or the shared headroom pool. */
    public static final int HEADROOM = 2;
    /**
     * Admitted to the private segment and gone again without a charge: a packet that leaves at once
     * ({@link Mmu#admit(int, int, int, int, int, long, boolean)}); there is nothing to release.
     */
    public static final int PASSED = 3;

    /** Lossy packet refused by its class threshold (DT/Reverie/SONiC egress check). */
    public static final int DROP_LOSSY_THRESHOLD = -1;
    /** Refused because the physical buffer (or the scheme's pool) is full. */
    public static final int DROP_BUFFER_FULL = -2;
    /** A lossless packet that found its headroom (or insurance) exhausted: the headroom was undersized. */
    public static final int DROP_LOSSLESS_VIOLATION = -3;
    /** Refused by an egress queue cap (CaPFC EG_MAX, SONiC egress pool). */
    public static final int DROP_EGRESS_LIMIT = -4;

    /** Number of drop reasons; drop counters are indexed by {@link #dropIndex(int)}. */
    public static final int DROP_REASONS = 4;

    private Verdict() {}

    public static boolean isAdmitted(int verdict) {
        return verdict >= 0;
    }

    /** Maps a drop verdict (-1..-4) to a counter index (0..3). */
    public static int dropIndex(int verdict) {
        return -verdict - 1;
    }

    /** Prometheus-style label of a verdict: "private", "shared", "headroom" or the drop reason. */
    public static String name(int verdict) {
        return switch (verdict) {
            case PRIVATE -> "private";
            case SHARED -> "shared";
            case HEADROOM -> "headroom";
            case PASSED -> "passed";
            case DROP_LOSSY_THRESHOLD -> "lossy_threshold";
            case DROP_BUFFER_FULL -> "buffer_full";
            case DROP_LOSSLESS_VIOLATION -> "lossless_violation";
            case DROP_EGRESS_LIMIT -> "egress_limit";
            default -> "unknown(" + verdict + ")";
        };
    }
}

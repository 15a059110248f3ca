package org.pfcswitch.mmu;

import java.util.List;

/**
 * One buffer-sharing scheme. A scheme decides three things only (DESIGN.md): admit or drop and into
 * which segment, when an ingress view crosses XOFF or XON, and (BFC) queue assignment and upstream
 * pausing. It never charges the ledger itself: {@link Mmu} charges and releases, then tells the
 * scheme, so every scheme sees the same bytes.
 *
 * <p>All methods run on the per-packet path and must not allocate.
 */
public interface AdmissionScheme {
    String name();

    /**
     * Where a packet of {@code bytes} (already rounded to cells) would go, without charging it.
     *
     * @return a {@link Verdict} segment (&ge; 0) or drop reason (&lt; 0)
     */
    int decide(int inPort, int priority, int outPort, int queue, long bytes, long now);

    /** Called after the ledger charged the packet to {@code segment}: flow control, estimators. */
    void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now);

    /** Called after the ledger released the packet: resume checks, rate counters, filters. */
    void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now);

    /**
     * Whether a packet this scheme puts in the private segment, and that leaves again before any
     * other packet is admitted or released, may pass without being charged ({@link Mmu#admit(int,
     * int, int, int, int, long, boolean)}): true only when nothing {@link #onAdmitted} and
     * {@link #onReleased} read depends on the private or the egress bytes, so that the two hooks,
     * called back to back on a ledger without the packet, do exactly what they do around its charge.
     */
    default boolean privatePassesUnseen() {
        return false;
    }

    /** How this scheme partitions the buffer (static sizes). */
    BufferLayout layout();

    /** The parameter table in force: name, value, paper default, source. */
    List<ParameterDoc> parameters();

    /** The shared-pool threshold of ingress queue (port, priority) with the buffer empty (for explain). */
    long emptyBufferThreshold(int port, int priority);

    /**
     * The current XOFF threshold of ingress queue (port, priority), in the units of the queue length
     * {@link BufferLedger#ingressBytes} (private + shared + headroom bytes): the length at or above
     * which the scheme asserts XOFF for this queue given the buffer as it is at {@code nowNanos}. For
     * traces and metrics, so it only reads: a scheme whose state is updated lazily (SPFC's rate
     * windows) computes what it would see at {@code nowNanos} without storing it, and calling this
     * between events never changes what the scheme decides. Schemes that pause on another quantity
     * say so (Reverie compares its threshold with the low-pass-filtered length). A lossy priority is
     * never paused; it gets {@link #emptyBufferThreshold}. Must not allocate.
     *
     * <p>Default: {@link #emptyBufferThreshold}, for schemes without a queue-level PFC threshold (BFC).
     */
    default long xoffThresholdBytes(int port, int priority, long nowNanos) {
        return emptyBufferThreshold(port, priority);
    }

    /**
     * What {@link #state} reports for this scheme, e.g. {@code "victim"} (SPFC), or null for a scheme
     * with no per-queue state worth showing. For {@code pfcswitch show scheme} and /metrics.
     */
    default String stateName() {
        return null;
    }

    /**
     * The scheme's own state of ingress queue (port, priority) at {@code nowNanos} ({@link #stateName}),
     * read without changing anything and without allocating: SPFC 1 for a VICTIM queue, Reverie its
     * low-pass-filtered length in bytes, BFC the active queues of the port's egress.
     */
    default long state(int port, int priority, long nowNanos) {
        return 0;
    }

    /** Scheme-wide thresholds with the buffer empty, e.g. "T = α·B_s" (for explain). */
    List<MmuExplanation.Threshold> emptyBufferThresholds();
}

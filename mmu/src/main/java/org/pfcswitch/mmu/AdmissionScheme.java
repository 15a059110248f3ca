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

    /** How this scheme partitions the buffer (static sizes). */
    BufferLayout layout();

    /** The parameter table in force: name, value, paper default, source. */
    List<ParameterDoc> parameters();

    /** The shared-pool threshold of ingress queue (port, priority) with the buffer empty (for explain). */
    long emptyBufferThreshold(int port, int priority);

    /**
     * The shared-pool limit of ingress queue (port, priority) now, with the buffer as it is: past
     * it a lossless queue is paused (XOFF). For show, metrics and traces, not the packet path. A
     * scheme that has no cheaper exact answer gives its empty-buffer threshold.
     */
    default long xoffThresholdBytes(int port, int priority, long now) {
        return emptyBufferThreshold(port, priority);
    }

    /** Scheme-wide thresholds with the buffer empty, e.g. "T = α·B_s" (for explain). */
    List<MmuExplanation.Threshold> emptyBufferThresholds();
}

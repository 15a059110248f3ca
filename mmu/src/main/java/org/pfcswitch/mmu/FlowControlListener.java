package org.pfcswitch.mmu;

/**
 * Receives the PFC transitions the MMU wants advertised upstream, one call per (ingress port,
 * priority) whose advertised state changed. The dataplane turns them into 802.1Qbb frames (and may
 * coalesce the calls of one instant into one frame using {@link FlowControl#advertisedVector(int)}).
 * Implementations must not call back into the MMU.
 */
public interface FlowControlListener {
    /** Ask the upstream peer on {@code port} to stop sending {@code priority}. */
    void onXoff(int port, int priority, long nowNanos);

    /** Let the upstream peer on {@code port} send {@code priority} again. */
    void onXon(int port, int priority, long nowNanos);

    /** A listener that ignores every transition. */
    FlowControlListener NONE = new FlowControlListener() {
        @Override
        public void onXoff(int port, int priority, long nowNanos) {}

        @Override
        public void onXon(int port, int priority, long nowNanos) {}
    };
}

package org.pfcswitch.mmu;

/**
 * How a scheme stops its upstream neighbours, which decides the link control and the egress queues
 * a switch runs under it. Each scheme declares it where it is registered ({@link Schemes}); nothing
 * outside the scheme classes asks for a scheme by name to find it out.
 */
public enum UpstreamPausing {

    /**
     * IEEE 802.1Qbb: the MMU raises XOFF/XON per ingress (port, priority) and the switch sends PFC
     * frames; one egress queue per priority. Such a scheme can run as a shadow and be changed live.
     */
    PFC,

    /**
     * Per-flow queues, each paused on its own upstream by the scheme's own backpressure state (BFC):
     * no PFC, no XOFF in the MMU, the hosts must speak the scheme's pause frames. It needs its own
     * queues and link control, so it can be neither a shadow nor a live change.
     */
    PER_QUEUE
}

package org.pfcswitch.core.deadlock;

/**
 * What a switch's wait-for graph reads of it at one instant: which ingress queues it pauses, which
 * of its egress queues hold bytes and are paused, and who paused them (the PFC sender's MAC). The
 * switch core implements it; the graph depends on this view only, never on the core.
 */
public interface PfcPortState {

    int ports();

    /** Whether the switch advertises XOFF for ingress {@code (port, priority)}. */
    boolean isAdvertisingXoff(int port, int priority);

    /** Bytes waiting in egress queue {@code (port, queue)}. */
    long queuedBytes(int port, int queue);

    /** Whether the downstream neighbour keeps egress queue {@code (port, queue)} from starting a frame at {@code now}. */
    boolean isPaused(int port, int queue, long now);

    /** The source MAC of the last PFC or PAUSE frame received on {@code port}, 0 for none. */
    long pfcSenderMac(int port);

    /** The MAC of the switch's own {@code port}. */
    long portMac(int port);
}

package org.pfcswitch.testbed;

/**
 * Emulated hosts that flows can be added to: what a {@link Traffic} generator installs into, so the
 * same generators drive the virtual-time {@link Testbed} and the real-time {@link LiveHosts}.
 */
public interface Hosts {

    /**
     * Adds an RDMA WRITE flow of {@code bytes} from host {@code src} to host {@code dst} on
     * {@code priority}, starting at {@code startNanos} (the driver's clock; not before now); returns
     * its id, which is also its QP number.
     */
    default int addFlow(int src, int dst, int priority, long bytes, long startNanos) {
        return addFlow(src, dst, priority, bytes, startNanos, FlowList.DEFAULT_PORT);
    }

    /**
     * The same, with the UDP source port of the flow's frames (and of its ACKs and CNPs, which
     * belong to it): {@code udpSrcPort} 1..65535, or {@link FlowList#DEFAULT_PORT} for the port the
     * hosts pick from the flow's id (49152 + id mod 16384).
     */
    int addFlow(int src, int dst, int priority, long bytes, long startNanos, int udpSrcPort);

    /** Calls {@code l} on every flow sent and received from now on. */
    void addListener(FlowListener l);

    /** Every flow added so far, by id. */
    FlowRecords records();

    RoceHost host(int i);

    /** The event loop the hosts run on (virtual or real time), for generators that act at their own times. */
    EventLoop loop();

    int hosts();
}

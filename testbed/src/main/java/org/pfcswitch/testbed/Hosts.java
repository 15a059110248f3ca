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
    int addFlow(int src, int dst, int priority, long bytes, long startNanos);

    /** Calls {@code l} on every flow sent and received from now on. */
    void addListener(FlowListener l);

    /** Every flow added so far, by id. */
    FlowRecords records();

    RoceHost host(int i);

    /** The event loop the hosts run on (virtual or real time), for generators that act at their own times. */
    EventLoop loop();

    int hosts();
}

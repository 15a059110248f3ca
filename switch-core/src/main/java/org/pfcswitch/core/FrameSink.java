package org.pfcswitch.core;

/**
 * Where the switch core puts the frames it transmits. The driver owns the wire: the DPDK driver
 * hands the mbuf to the port's TX buffer, the virtual-time driver schedules the frame's arrival
 * at the link's far end.
 *
 * <p>Ownership of {@code handle} passes to the sink. The sink must not call back into the core
 * (the core may be in the middle of a dequeue); it records or schedules, nothing more.
 */
@FunctionalInterface
public interface FrameSink {

    /**
     * Frame {@code handle} of {@code length} bytes starts to serialize on {@code port} at
     * {@code startNanos}; its last bit leaves {@link LineRate#nanos} later.
     */
    void transmit(int port, long handle, int length, long startNanos);
}

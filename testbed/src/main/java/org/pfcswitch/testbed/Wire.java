package org.pfcswitch.testbed;

import org.pfcswitch.dataplane.core.LineRate;

/**
 * One direction of a full-duplex link: a frame that starts at {@code t} arrives, last bit and
 * all, at {@code t + serialization + propagation} at the far end. The sender keeps its own line
 * busy for the serialization time (the switch core's shaper, a host's NIC), with the same
 * {@link LineRate} formula, so frames never overlap on a wire.
 */
public final class Wire {

    private final EventLoop loop;
    private final int lane;
    private final long rateBps;
    private final long delayNanos;

    Wire(EventLoop loop, int peerNode, int peerPort, long rateBps, long delayNanos) {
        this.loop = loop;
        this.lane = loop.openLane(peerNode, peerPort);     // arrivals on one wire come in time order
        this.rateBps = rateBps;
        this.delayNanos = delayNanos;
    }

    void send(long handle, int length, long start) {
        loop.scheduleOnLane(lane, start + LineRate.nanos(length, rateBps) + delayNanos, handle);
    }

    public long rateBps() {
        return rateBps;
    }

    public long delayNanos() {
        return delayNanos;
    }
}

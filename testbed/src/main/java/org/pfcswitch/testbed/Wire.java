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
    // The serialization time of the last frame length sent: most frames on a wire have one of a
    // few lengths (full-size data, ACK/CNP, PFC), and this spares a 64-bit division per frame.
    private int lastLength = -1;
    private long lastSerialization;

    Wire(EventLoop loop, int peerNode, int peerPort, long rateBps, long delayNanos) {
        this.loop = loop;
        this.lane = loop.openLane(peerNode, peerPort);     // arrivals on one wire come in time order
        this.rateBps = rateBps;
        this.delayNanos = delayNanos;
    }

    void send(long handle, int length, long start) {
        if (length != lastLength) {
            lastLength = length;
            lastSerialization = LineRate.nanos(length, rateBps);
        }
        loop.scheduleOnLane(lane, start + lastSerialization + delayNanos, handle);
    }

    public long rateBps() {
        return rateBps;
    }

    public long delayNanos() {
        return delayNanos;
    }
}

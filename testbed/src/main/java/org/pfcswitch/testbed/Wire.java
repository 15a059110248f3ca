package org.pfcswitch.testbed;

import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.core.FrameCost;
import org.pfcswitch.core.LineRate;

/**
 * One direction of a full-duplex link: a frame that starts at {@code t} arrives, last bit and
 * all, at {@code t + serialization + propagation} at the far end. The sender keeps its own line
 * busy for the serialization time (the switch core's shaper, a host's NIC), with the same
 * {@link LineRate} formula, so frames never overlap on a wire.
 */
public final class Wire implements Line {

    private final EventLoop loop;
    private final int lane;
    private final long rateBps;
    private final FrameCost cost;
    private final long delayNanos;
    // The serialization time of the last frame length sent: most frames on a wire have one of a
    // few lengths (full-size data, ACK/CNP, PFC), and this spares a 64-bit division per frame.
    private int lastLength = -1;
    private long lastSerialization;
    // Fault injection (null: none): frames the loss picks leave the line and never arrive.
    private FrameLoss loss;
    private HeapSlab slab;
    private ParsedFrame lossView;
    private long framesLost;

    /** A wire from node {@code fromNode} to {@code peerPort} of {@code peerNode}, whose frames take {@code cost}'s line time. */
    Wire(EventLoop loop, FrameCost cost, int fromNode, int peerNode, int peerPort, long rateBps, long delayNanos) {
        this.loop = loop;
        this.cost = cost;
        this.lane = loop.openLane(fromNode, peerNode, peerPort, delayNanos);     // arrivals on one wire come in time order
        this.rateBps = rateBps;
        this.delayNanos = delayNanos;
    }

    @Override
    public void send(long handle, int length, long start) {
        if (loss != null && lost(handle, length, start)) {
            return;
        }
        if (length != lastLength) {
            lastLength = length;
            lastSerialization = cost.lineNanos(length, rateBps);
        }
        loop.scheduleOnLane(lane, start + lastSerialization + delayNanos, handle);
    }

    /** From now on, frames {@code frameLoss} picks are lost on this wire (their buffers go back to {@code frames}). */
    void loseFrames(FrameLoss frameLoss, HeapSlab frames) {
        loss = frameLoss;
        slab = frames;
        lossView = new ParsedFrame();
    }

    private boolean lost(long handle, int length, long start) {
        FrameParser.parse(slab.bytes(), slab.offset(handle), length, lossView);
        if (!loss.loses(lossView, start)) {
            return false;
        }
        framesLost++;
        slab.free(handle);
        return true;
    }

    /** Frames this wire lost to an injected {@link FrameLoss}. */
    public long framesLost() {
        return framesLost;
    }

    public long rateBps() {
        return rateBps;
    }

    public long delayNanos() {
        return delayNanos;
    }
}

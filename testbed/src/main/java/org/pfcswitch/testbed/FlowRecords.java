package org.pfcswitch.testbed;

import java.util.Arrays;

/**
 * What happened to every flow of a run, indexed by flow id (which is also the destination QP
 * number its frames carry): endpoints, bytes and packets sent and received, start and completion
 * times, and packets that arrived out of order (impossible on one lossless path; counted so a
 * test can say so).
 *
 * <p>The flow completion time (FCT) runs from the flow's start to the arrival of its last byte at
 * the receiver. Its slowdown divides it by the ideal: the same flow alone on an idle network
 * ({@link #idealNanos}, set by the testbed from the path's rates and delays). The sender also
 * notes when the ACK of the last packet came back ({@link #ackedNanos}); under {@link FctEnd#LAST_ACK}
 * that is where the FCT ends and a flow is complete (ns-3's measure).
 */
public final class FlowRecords {

    private int count;
    private long[] sizeBytes = new long[16];
    private long[] startNanos = new long[16];
    private long[] endNanos = new long[16];
    private long[] sentPackets = new long[16];
    private long[] sentPayloadBytes = new long[16];
    private long[] receivedPackets = new long[16];
    private long[] receivedPayloadBytes = new long[16];
    private long[] outOfOrder = new long[16];
    private long[] missing = new long[16];
    private int[] src = new int[16];
    private int[] dst = new int[16];
    private long[] idealNanos = new long[16];
    private long[] ackedNanos = new long[16];
    /** The FCT ends at the sender's last ACK instead of the receiver's last byte ({@link FctEnd#LAST_ACK}). */
    private boolean endAtAck;

    /** Where the FCT ends; set before the run. */
    void fctEnd(FctEnd e) {
        endAtAck = e == FctEnd.LAST_ACK;
    }

    int add(long size, long start, int from, int to, long ideal) {
        if (count == sizeBytes.length) {
            int cap = count * 2;
            sizeBytes = Arrays.copyOf(sizeBytes, cap);
            startNanos = Arrays.copyOf(startNanos, cap);
            endNanos = Arrays.copyOf(endNanos, cap);
            sentPackets = Arrays.copyOf(sentPackets, cap);
            sentPayloadBytes = Arrays.copyOf(sentPayloadBytes, cap);
            receivedPackets = Arrays.copyOf(receivedPackets, cap);
            receivedPayloadBytes = Arrays.copyOf(receivedPayloadBytes, cap);
            outOfOrder = Arrays.copyOf(outOfOrder, cap);
            missing = Arrays.copyOf(missing, cap);
            src = Arrays.copyOf(src, cap);
            dst = Arrays.copyOf(dst, cap);
            idealNanos = Arrays.copyOf(idealNanos, cap);
            ackedNanos = Arrays.copyOf(ackedNanos, cap);
        }
        sizeBytes[count] = size;
        startNanos[count] = start;
        endNanos[count] = -1;
        src[count] = from;
        dst[count] = to;
        idealNanos[count] = ideal;
        ackedNanos[count] = -1;
        return count++;
    }

    void onSent(int flow, int payload) {
        sentPackets[flow]++;
        sentPayloadBytes[flow] += payload;
    }

    /**
     * A packet of {@code flow} arrived: {@code skipped} PSNs past the next expected one (0 in order),
     * or {@code late}, behind it (reordered, filling one of the PSNs skipped before).
     */
    void onReceived(int flow, int payload, int skipped, boolean late, boolean last, long now) {
        receivedPackets[flow]++;
        receivedPayloadBytes[flow] += payload;
        if (skipped > 0 || late) {
            outOfOrder[flow]++;
        }
        missing[flow] += late ? -1 : skipped;
        if (last) {
            endNanos[flow] = now;
        }
    }

    void onAcked(int flow, long now) {
        if (ackedNanos[flow] < 0) {
            ackedNanos[flow] = now;
        }
    }

    public int count() { return count; }
    public int src(int flow) { return src[flow]; }
    public int dst(int flow) { return dst[flow]; }
    /** The flow's completion time alone on an idle network: its bytes at the bottleneck rate plus the path's delays. */
    public long idealNanos(int flow) { return idealNanos[flow]; }
    /** When the sender got the ACK of the flow's last packet, or -1. */
    public long ackedNanos(int flow) { return ackedNanos[flow]; }
    /** Start to last byte received (or to the last ACK, {@link FctEnd#LAST_ACK}), or -1 while incomplete. */
    public long fctNanos(int flow) { return completed(flow) ? end(flow) - startNanos[flow] : -1; }
    /** FCT over the ideal (>= 1 up to rounding), or NaN while incomplete. */
    public double slowdown(int flow) {
        return completed(flow) ? (double) fctNanos(flow) / Math.max(1, idealNanos[flow]) : Double.NaN;
    }

    private long end(int flow) {
        return endAtAck ? ackedNanos[flow] : endNanos[flow];
    }
    public long sizeBytes(int flow) { return sizeBytes[flow]; }
    public long startNanos(int flow) { return startNanos[flow]; }
    /** When the last packet arrived, or -1 while the flow is incomplete. */
    public long endNanos(int flow) { return endNanos[flow]; }
    /** The last byte arrived (with {@link FctEnd#LAST_ACK}: and its ACK came back). */
    public boolean completed(int flow) { return end(flow) >= 0; }
    public long sentPackets(int flow) { return sentPackets[flow]; }
    public long sentPayloadBytes(int flow) { return sentPayloadBytes[flow]; }
    public long receivedPackets(int flow) { return receivedPackets[flow]; }
    public long receivedPayloadBytes(int flow) { return receivedPayloadBytes[flow]; }
    /** Packets that arrived out of PSN order: past a gap, or late (reordered on the way). */
    public long outOfOrder(int flow) { return outOfOrder[flow]; }
    /**
     * PSNs skipped and not (yet) filled by a late packet: packets lost on the way, or still in
     * flight behind a reordered one. Reordering alone leaves 0.
     */
    public long missingPackets(int flow) { return missing[flow]; }
}

package org.pfcswitch.testbed;

import java.util.Arrays;

/**
 * What happened to every flow of a run, indexed by flow id (which is also the destination QP
 * number its frames carry): bytes and packets sent and received, first send and completion
 * times, and packets that arrived out of order (impossible on one lossless path; counted so a
 * test can say so).
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

    int add(long size, long start) {
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
        }
        sizeBytes[count] = size;
        startNanos[count] = start;
        endNanos[count] = -1;
        return count++;
    }

    void onSent(int flow, int payload) {
        sentPackets[flow]++;
        sentPayloadBytes[flow] += payload;
    }

    void onReceived(int flow, int payload, boolean inOrder, boolean last, long now) {
        receivedPackets[flow]++;
        receivedPayloadBytes[flow] += payload;
        if (!inOrder) {
            outOfOrder[flow]++;
        }
        if (last) {
            endNanos[flow] = now;
        }
    }

    public int count() { return count; }
    public long sizeBytes(int flow) { return sizeBytes[flow]; }
    public long startNanos(int flow) { return startNanos[flow]; }
    /** When the last packet arrived, or -1 while the flow is incomplete. */
    public long endNanos(int flow) { return endNanos[flow]; }
    public boolean completed(int flow) { return endNanos[flow] >= 0; }
    public long sentPackets(int flow) { return sentPackets[flow]; }
    public long sentPayloadBytes(int flow) { return sentPayloadBytes[flow]; }
    public long receivedPackets(int flow) { return receivedPackets[flow]; }
    public long receivedPayloadBytes(int flow) { return receivedPayloadBytes[flow]; }
    public long outOfOrder(int flow) { return outOfOrder[flow]; }
}

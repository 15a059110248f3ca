package org.pfcswitch.core;

import java.util.Arrays;

/**
 * Per-packet metadata of every frame the core holds, in primitive arrays indexed by a slot
 * number: no object per packet. A slot is taken when a frame is admitted and given back when
 * it leaves its egress queue. The arrays double when they run out, which happens only while
 * the buffer first fills (warm-up); after that nothing here allocates.
 */
final class PacketSlots {

    /** {@link #ipv4Offset} value of a frame that must not be ECN-marked (not IPv4, or Not-ECT). */
    static final short NOT_ECN_CAPABLE = -1;

    long[] handle;
    int[] length;
    short[] inPort;
    byte[] priority;
    /** Offset of the IPv4 header from the frame's first byte, or {@link #NOT_ECN_CAPABLE}. */
    short[] ipv4Offset;
    long[] enqueuedAt;
    /** With shadow schemes only: bit i set when shadow i admitted the frame ({@link ShadowMmus#admit}). */
    byte[] shadows;
    /** BFC only: the flow's hash (its flow-table entry), the queue id it arrived from, where its shim is. */
    int[] flowHash;
    short[] upstreamQueue;
    short[] shimOffset;
    /** BFC only: the frame counts towards its upstream queue's pause. */
    boolean[] marked;

    private int[] free;      // stack of free slot numbers
    private int freeCount;
    private int capacity;

    PacketSlots(int initialCapacity) {
        capacity = Math.max(16, initialCapacity);
        handle = new long[capacity];
        length = new int[capacity];
        inPort = new short[capacity];
        priority = new byte[capacity];
        ipv4Offset = new short[capacity];
        enqueuedAt = new long[capacity];
        shadows = new byte[capacity];
        flowHash = new int[capacity];
        upstreamQueue = new short[capacity];
        shimOffset = new short[capacity];
        marked = new boolean[capacity];
        free = new int[capacity];
        for (int i = 0; i < capacity; i++) {
            free[i] = capacity - 1 - i;          // slot 0 on top: low slots are reused first
        }
        freeCount = capacity;
    }

    int take() {
        if (freeCount == 0) {
            grow();
        }
        return free[--freeCount];
    }

    void release(int slot) {
        free[freeCount++] = slot;
    }

    int inUse() {
        return capacity - freeCount;
    }

    private void grow() {
        int old = capacity;
        capacity = old * 2;
        handle = Arrays.copyOf(handle, capacity);
        length = Arrays.copyOf(length, capacity);
        inPort = Arrays.copyOf(inPort, capacity);
        priority = Arrays.copyOf(priority, capacity);
        ipv4Offset = Arrays.copyOf(ipv4Offset, capacity);
        enqueuedAt = Arrays.copyOf(enqueuedAt, capacity);
        shadows = Arrays.copyOf(shadows, capacity);
        flowHash = Arrays.copyOf(flowHash, capacity);
        upstreamQueue = Arrays.copyOf(upstreamQueue, capacity);
        shimOffset = Arrays.copyOf(shimOffset, capacity);
        marked = Arrays.copyOf(marked, capacity);
        free = new int[capacity];
        for (int i = 0; i < old; i++) {
            free[i] = capacity - 1 - i;
        }
        freeCount = old;
    }
}

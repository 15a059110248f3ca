package org.pfcswitch.core;

import java.util.Arrays;

/**
 * Per-packet metadata of every frame the core holds, in primitive arrays indexed by a slot
 * number: no object per packet. A slot is taken when a frame is admitted and given back when
 * it leaves its egress queue. The arrays double when they run out, which happens only while
 * the buffer first fills (warm-up); after that nothing here allocates.
 *
 * <p>What every frame carries is packed into one {@code long[]}, four words per slot (handle,
 * enqueue time, length with ingress port and IPv4 offset, priority with the shadows' bits): a
 * frame's enqueue and dequeue then touch one array and one cache line, where one array per field
 * cost a reference load and a bounds check per field on each side. The BFC link's per-frame
 * state stays in arrays of its own.
 */
final class PacketSlots {

    /** {@link #ipv4Offset} value of a frame that must not be ECN-marked (not IPv4, or Not-ECT). */
    static final short NOT_ECN_CAPABLE = -1;

    /** Words per slot in {@link #frames}, and their meaning. */
    private static final int STRIDE_SHIFT = 2;
    private static final int HANDLE = 0;
    private static final int ENQUEUED_AT = 1;
    private static final int LENGTH_PORT_IPV4 = 2;   // length (32 bits) | inPort (16) << 32 | ipv4Offset (16) << 48
    private static final int PRIORITY_SHADOWS = 3;   // priority (8 bits) | shadows (8) << 8

    private long[] frames;
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
        frames = new long[capacity << STRIDE_SHIFT];
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

    /**
     * Fills {@code slot} for a frame being queued.
     *
     * @param ipv4Offset  offset of the IPv4 header from the frame's first byte, or {@link #NOT_ECN_CAPABLE}
     * @param shadowsHeld with shadow schemes only: bit i set when shadow i admitted the frame ({@link ShadowMmus#admit})
     */
    void put(int slot, long handle, int length, int inPort, int priority, short ipv4Offset, long enqueuedAt,
             int shadowsHeld) {
        long[] f = frames;
        int i = slot << STRIDE_SHIFT;
        f[i + HANDLE] = handle;
        f[i + ENQUEUED_AT] = enqueuedAt;
        f[i + LENGTH_PORT_IPV4] = (length & 0xFFFF_FFFFL) | (long) (inPort & 0xFFFF) << 32 | (long) (ipv4Offset & 0xFFFF) << 48;
        f[i + PRIORITY_SHADOWS] = (priority & 0xFF) | (shadowsHeld & 0xFF) << 8;
    }

    long handle(int slot) {
        return frames[(slot << STRIDE_SHIFT) + HANDLE];
    }

    long enqueuedAt(int slot) {
        return frames[(slot << STRIDE_SHIFT) + ENQUEUED_AT];
    }

    int length(int slot) {
        return (int) frames[(slot << STRIDE_SHIFT) + LENGTH_PORT_IPV4];
    }

    int inPort(int slot) {
        return (short) (frames[(slot << STRIDE_SHIFT) + LENGTH_PORT_IPV4] >>> 32);
    }

    short ipv4Offset(int slot) {
        return (short) (frames[(slot << STRIDE_SHIFT) + LENGTH_PORT_IPV4] >>> 48);
    }

    int priority(int slot) {
        return (byte) frames[(slot << STRIDE_SHIFT) + PRIORITY_SHADOWS];
    }

    /** The shadows that admitted the frame (bit i: shadow i), 0 without shadows. */
    int shadows(int slot) {
        return (int) (frames[(slot << STRIDE_SHIFT) + PRIORITY_SHADOWS] >>> 8) & 0xFF;
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
        frames = Arrays.copyOf(frames, capacity << STRIDE_SHIFT);
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

package org.pfcswitch.core;

/**
 * The egress queues, {@code queuesPerPort} FIFOs per port (one per priority under PFC, up to 32
 * per-flow queues under BFC): ring buffers of packet slot numbers (see {@link PacketSlots}), with
 * their frame and byte counts and a per-port mask of the non-empty queues, so the scheduler finds
 * candidates with one load. A ring doubles when full (warm-up only).
 */
final class EgressQueues {

    private final int queuesPerPort;
    private final int[][] ring;
    private final int[] head;
    private final int[] count;
    private final long[] bytes;
    private final int[] nonEmpty;    // by port, bit q = queue q holds a frame

    EgressQueues(int ports, int queuesPerPort, int initialCapacity) {
        if (queuesPerPort < 1 || queuesPerPort > Integer.SIZE) {
            throw new IllegalArgumentException("egress queues per port must be 1..32, got " + queuesPerPort);
        }
        this.queuesPerPort = queuesPerPort;
        int queues = ports * queuesPerPort;
        int cap = Integer.highestOneBit(Math.max(8, initialCapacity) - 1) << 1;
        ring = new int[queues][cap];
        head = new int[queues];
        count = new int[queues];
        bytes = new long[queues];
        nonEmpty = new int[ports];
    }

    void push(int port, int queue, int slot, int frameBytes) {
        int k = port * queuesPerPort + queue;
        int[] r = ring[k];
        if (count[k] == r.length) {
            r = grow(k);
        }
        r[(head[k] + count[k]) & (r.length - 1)] = slot;
        count[k]++;
        bytes[k] += frameBytes;
        nonEmpty[port] |= 1 << queue;
    }

    /** The slot at the head of a non-empty queue. */
    int peek(int port, int queue) {
        int k = port * queuesPerPort + queue;
        return ring[k][head[k]];
    }

    /** The {@code i}-th slot from the head of a queue, {@code 0 <= i < frames(port, queue)}. */
    int at(int port, int queue, int i) {
        int k = port * queuesPerPort + queue;
        int[] r = ring[k];
        return r[(head[k] + i) & (r.length - 1)];
    }

    /** Removes and returns the head slot of a non-empty queue. */
    int pop(int port, int queue, int frameBytes) {
        int k = port * queuesPerPort + queue;
        int[] r = ring[k];
        int slot = r[head[k]];
        head[k] = (head[k] + 1) & (r.length - 1);
        bytes[k] -= frameBytes;
        if (--count[k] == 0) {
            nonEmpty[port] &= ~(1 << queue);
        }
        return slot;
    }

    int queuesPerPort() {
        return queuesPerPort;
    }

    int nonEmptyMask(int port) {
        return nonEmpty[port];
    }

    int frames(int port, int queue) {
        return count[port * queuesPerPort + queue];
    }

    long bytes(int port, int queue) {
        return bytes[port * queuesPerPort + queue];
    }

    /** Bytes waiting in all of {@code port}'s queues. */
    long portBytes(int port) {
        long sum = 0;
        for (int q = 0; q < queuesPerPort; q++) {
            sum += bytes[port * queuesPerPort + q];
        }
        return sum;
    }

    private int[] grow(int k) {
        int[] old = ring[k];
        int[] r = new int[old.length * 2];
        for (int i = 0; i < count[k]; i++) {
            r[i] = old[(head[k] + i) & (old.length - 1)];
        }
        head[k] = 0;
        ring[k] = r;
        return r;
    }
}

package org.pfcswitch.core.trace;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * The trace's ring: records of {@value #RECORD_LONGS} longs in a {@link SpscLongRing} (whose comment
 * states the memory ordering); lock-free and wait-free on both sides, and neither side allocates. The
 * producer is the thread that owns a switch core (it must never block: when the ring is full it drops
 * the record and counts it, {@link #dropped()}); the consumer is a trace thread that writes records
 * out. What the five words of a record mean is the producer's business ({@link TraceRecorder} defines
 * its records).
 */
public final class TraceRing implements TraceSource {

    /** Words per record. */
    public static final int RECORD_LONGS = 5;

    private final SpscLongRing ring;

    /**
     * @param capacity records the ring holds, a power of two from 2 to 2<sup>26</sup>
     */
    public TraceRing(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1 || capacity > 1 << 26) {
            throw new IllegalArgumentException("trace ring capacity must be a power of two from 2 to 2^26, got " + capacity);
        }
        this.ring = new SpscLongRing(capacity, RECORD_LONGS);
    }

    public int capacity() {
        return ring.capacity();
    }

    /**
     * Producer only. Appends one record, or drops it (and counts it) when the ring is full; never
     * blocks and never allocates.
     *
     * @return whether the record was stored
     */
    public boolean offer(long w0, long w1, long w2, long w3, long w4) {
        if (ring.claim(1) == 0) {
            ring.countDropped();
            return false;
        }
        int i = ring.writeIndex(0);
        long[] b = ring.buffer();
        b[i] = w0;
        b[i + 1] = w1;
        b[i + 2] = w2;
        b[i + 3] = w3;
        b[i + 4] = w4;
        ring.publish(1);
        return true;
    }

    /**
     * Consumer only. Hands at most {@code max} published records, oldest first, to {@code to}, then
     * frees their slots.
     *
     * @return records handed over
     */
    @Override
    public int drain(TraceSource.RecordConsumer to, int max) {
        int n = ring.available(max);
        long[] b = ring.buffer();
        for (int k = 0; k < n; k++) {
            int i = ring.readIndex(k);
            to.accept(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4]);
        }
        ring.consume(n);
        return n;
    }

    /**
     * Consumer only. Copies the oldest published record into {@code into[0..4]} and frees its slot.
     *
     * @return false when the ring is empty
     */
    public boolean poll(long[] into) {
        if (ring.available(1) == 0) {
            return false;
        }
        System.arraycopy(ring.buffer(), ring.readIndex(0), into, 0, RECORD_LONGS);
        ring.consume(1);
        return true;
    }

    /** Consumer only. Published records not yet consumed, at most {@code max}. */
    int available(int max) {
        return ring.available(max);
    }

    /** Consumer only. Word {@code w} (0 to 4) of the {@code k}-th unread record. */
    long word(int k, int w) {
        return ring.buffer()[ring.readIndex(k) + w];
    }

    /** Consumer only. Frees the slots of the first {@code n} unread records. */
    void consume(int n) {
        ring.consume(n);
    }

    /** Records refused because the ring was full, since it was made; any thread. */
    @Override
    public long dropped() {
        return ring.dropped();
    }

    /** Records ever published; any thread. */
    public long published() {
        return ring.published();
    }

    /** Records published and not yet consumed; any thread (a snapshot, exact on either side's own thread). */
    public int size() {
        return ring.size();
    }
}

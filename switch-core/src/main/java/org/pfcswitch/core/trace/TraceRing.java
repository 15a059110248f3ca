package org.pfcswitch.core.trace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * Padding as JCTools lays it out: HotSpot places a superclass's fields before its subclass's, so a
 * chain of classes keeps the producer's fields, the consumer's and the read-only ones on cache lines
 * of their own (128 bytes of padding on each side, against adjacent-line prefetch). Without it every
 * producer store to its index would invalidate the consumer's line and the other way round.
 */

@SuppressWarnings("unused")
abstract class TraceRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The producer's line: written by the producer thread only. */
abstract class TraceRingProducerFields extends TraceRingPad0 {
    /** Records published; the consumer reads it with acquire. */
    long producerIndex;
    /** The producer's cached {@code consumerIndex + capacity}: below it a slot is free without a look at the consumer. */
    long producerLimit;
    /** Records refused because the ring was full; other threads read it opaque. */
    long dropped;
}

@SuppressWarnings("unused")
abstract class TraceRingPad1 extends TraceRingProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** The consumer's line: written by the consumer thread only. */
abstract class TraceRingConsumerFields extends TraceRingPad1 {
    /** Records consumed; the producer reads it with acquire. */
    long consumerIndex;
}

@SuppressWarnings("unused")
abstract class TraceRingPad2 extends TraceRingConsumerFields {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * A preallocated single-producer single-consumer ring of fixed-size records, {@value #RECORD_LONGS}
 * longs each, in one {@code long[]}; lock-free and wait-free on both sides. The producer is the
 * thread that owns a switch core (it must never block: when the ring is full it drops the record and
 * counts it, {@link #dropped()}); the consumer is a trace thread that writes records out. Neither
 * side allocates. What the five words of a record mean is the producer's business
 * ({@link TraceRecorder} defines its records).
 *
 * <h2>Memory ordering</h2>
 * <ul>
 *   <li>{@link #offer}: the producer reads {@code consumerIndex} with <em>acquire</em> (only when
 *       its cached limit says the ring may be full), so the consumer's reads of a slot happen before
 *       the producer overwrites it; it writes the record's words with plain stores, then publishes
 *       with a <em>release</em> store of {@code producerIndex + 1}: the words are visible to any
 *       thread that sees the new index.</li>
 *   <li>{@link #drain} and {@link #poll}: the consumer reads {@code producerIndex} with
 *       <em>acquire</em>, so the words of every record below it are visible; it reads them with plain
 *       loads, then frees the slots with a <em>release</em> store of {@code consumerIndex}: its loads
 *       are ordered before the store, so the producer (acquire, above) never overwrites a slot still
 *       being read.</li>
 *   <li>Each index has one writer, which may read its own index plainly. {@link #dropped()},
 *       {@link #size()} and {@link #published()} may be called from any thread (opaque or acquire
 *       reads: recent, never torn).</li>
 * </ul>
 * Indexes are {@code long} and only grow; at 10<sup>9</sup> records per second they wrap after
 * 292 years.
 */
public final class TraceRing extends TraceRingPad2 {

    /** Words per record. */
    public static final int RECORD_LONGS = 5;

    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle DROPPED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER_INDEX = l.findVarHandle(TraceRingProducerFields.class, "producerIndex", long.class);
            CONSUMER_INDEX = l.findVarHandle(TraceRingConsumerFields.class, "consumerIndex", long.class);
            DROPPED = l.findVarHandle(TraceRingProducerFields.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Receives drained records, one call per record, on the consumer's thread. */
    @FunctionalInterface
    public interface RecordConsumer {
        void accept(long w0, long w1, long w2, long w3, long w4);
    }

    private final long[] buffer;
    private final int capacity;
    private final long mask;

    /**
     * @param capacity records the ring holds, a power of two from 2 to 2<sup>26</sup>
     */
    public TraceRing(int capacity) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1 || capacity > 1 << 26) {
            throw new IllegalArgumentException("trace ring capacity must be a power of two from 2 to 2^26, got " + capacity);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.buffer = new long[capacity * RECORD_LONGS];
        this.producerLimit = capacity;
    }

    public int capacity() {
        return capacity;
    }

    /**
     * Producer only. Appends one record, or drops it (and counts it) when the ring is full; never
     * blocks and never allocates.
     *
     * @return whether the record was stored
     */
    public boolean offer(long w0, long w1, long w2, long w3, long w4) {
        long p = producerIndex;                                       // plain: we are its only writer
        if (p >= producerLimit) {
            long limit = (long) CONSUMER_INDEX.getAcquire(this) + capacity;   // the consumer is done with slots below
            producerLimit = limit;
            if (p >= limit) {
                DROPPED.setOpaque(this, dropped + 1);
                return false;
            }
        }
        int i = (int) (p & mask) * RECORD_LONGS;
        long[] b = buffer;
        b[i] = w0;
        b[i + 1] = w1;
        b[i + 2] = w2;
        b[i + 3] = w3;
        b[i + 4] = w4;
        PRODUCER_INDEX.setRelease(this, p + 1);                       // publishes the five plain stores above
        return true;
    }

    /**
     * Consumer only. Hands at most {@code max} published records, oldest first, to {@code to}, then
     * frees their slots.
     *
     * @return records handed over
     */
    public int drain(RecordConsumer to, int max) {
        long c = consumerIndex;                                       // plain: we are its only writer
        long available = (long) PRODUCER_INDEX.getAcquire(this) - c;   // words below it are visible
        int n = (int) Math.min(available, max);
        long[] b = buffer;
        for (int k = 0; k < n; k++) {
            int i = (int) ((c + k) & mask) * RECORD_LONGS;
            to.accept(b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4]);
        }
        if (n > 0) {
            CONSUMER_INDEX.setRelease(this, c + n);                   // our loads above come first
        }
        return n;
    }

    /**
     * Consumer only. Copies the oldest published record into {@code into[0..4]} and frees its slot.
     *
     * @return false when the ring is empty
     */
    public boolean poll(long[] into) {
        long c = consumerIndex;
        if ((long) PRODUCER_INDEX.getAcquire(this) == c) {
            return false;
        }
        System.arraycopy(buffer, (int) (c & mask) * RECORD_LONGS, into, 0, RECORD_LONGS);
        CONSUMER_INDEX.setRelease(this, c + 1);
        return true;
    }

    /** Records refused because the ring was full, since it was made; any thread. */
    public long dropped() {
        return (long) DROPPED.getOpaque(this);
    }

    /** Records ever published; any thread. */
    public long published() {
        return (long) PRODUCER_INDEX.getAcquire(this);
    }

    /** Records published and not yet consumed; any thread (a snapshot, exact on either side's own thread). */
    public int size() {
        long c = (long) CONSUMER_INDEX.getAcquire(this);
        long p = (long) PRODUCER_INDEX.getAcquire(this);
        return (int) Math.max(0, Math.min(capacity, p - c));
    }
}

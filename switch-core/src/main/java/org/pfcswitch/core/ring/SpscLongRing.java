package org.pfcswitch.core.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/*
 * Padding as JCTools lays it out: HotSpot places a superclass's fields before its subclass's, so a
 * chain of classes keeps the producer's fields, the consumer's and the read-only ones on cache lines
 * of their own (128 bytes of padding on each side, against adjacent-line prefetch). Without it every
 * producer store to its index would invalidate the consumer's line and the other way round.
 */

@SuppressWarnings("unused")
abstract class SpscLongRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The producer's line: written by the producer thread only. */
abstract class SpscLongRingProducerFields extends SpscLongRingPad0 {
    /** Records published; the consumer reads it with acquire. */
    long producerIndex;
    /** The producer's cached {@code consumerIndex + capacity}: below it a slot is free without a look at the consumer. */
    long producerLimit;
    /** Records the producer could not store and gave up on; other threads read it opaque. */
    long dropped;
}

@SuppressWarnings("unused")
abstract class SpscLongRingPad1 extends SpscLongRingProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** The consumer's line: written by the consumer thread only. */
abstract class SpscLongRingConsumerFields extends SpscLongRingPad1 {
    /** Records consumed; the producer reads it with acquire. */
    long consumerIndex;
}

@SuppressWarnings("unused")
abstract class SpscLongRingPad2 extends SpscLongRingConsumerFields {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * A preallocated single-producer single-consumer ring of fixed-size records, {@link #recordLongs()}
 * longs each, in one {@code long[]} ({@link #buffer()}); wait-free on both sides, and neither side
 * allocates. The producer claims a burst of records, writes their words in place and publishes them
 * with one store; the consumer does the same the other way. A full ring never blocks the producer:
 * {@link #claim} grants fewer records than asked, and the caller either drops the rest and counts them
 * ({@link #countDropped}) or tries again later. JCTools' {@code SpscArrayQueue} carries object
 * references and Agrona's {@code OneToOneRingBuffer} variable-length byte messages with a header
 * each; ours carries primitive records of a fixed size, claimed and published in bursts, with no
 * boxing and no per-record header.
 *
 * <pre>
 *   producer                                      consumer
 *   int n = ring.claim(burst);                    int n = ring.available(max);
 *   long[] b = ring.buffer();                     long[] b = ring.buffer();
 *   for (int k = 0; k &lt; n; k++) {                 for (int k = 0; k &lt; n; k++) {
 *       int i = ring.writeIndex(k);                   int i = ring.readIndex(k);
 *       b[i] = handle;                                use(b[i], b[i + 1]);
 *       b[i + 1] = meta;                          }
 *   }                                             ring.consume(n);
 *   ring.publish(n);
 *   ring.countDropped(burst - n);                 // or ring.drain(reader, max)
 * </pre>
 *
 * The records of one claim follow each other in order, but a claim may wrap past the end of the
 * array: only each record is contiguous, so address every one through {@link #writeIndex} or
 * {@link #readIndex}. A caller whose payload does not fit in longs may keep it in its own
 * preallocated array indexed by {@link #writeSlot} and {@link #readSlot} (with {@code recordLongs}
 * 0 if the ring carries nothing else): the ordering below covers those writes too.
 *
 * <h2>Memory ordering</h2>
 * <ul>
 *   <li>{@link #claim}: the producer reads {@code consumerIndex} with <em>acquire</em>, and only
 *       when its cached limit says the ring may be too full for the claim. The consumer's reads of
 *       a slot come before its release store of {@code consumerIndex} (below), so they happen before
 *       the producer's writes into a slot it claims after that acquire: the producer never
 *       overwrites a slot still being read.</li>
 *   <li>{@link #publish}: the producer writes the records with plain stores, then makes them
 *       visible with a <em>release</em> store of {@code producerIndex + records}: every store before
 *       it (the words, or whatever the producer wrote for those slots) is visible to a thread that
 *       sees the new index.</li>
 *   <li>{@link #available}: the consumer reads {@code producerIndex} with <em>acquire</em>, so the
 *       records below it are visible to its plain loads; {@link #consume} frees their slots with a
 *       <em>release</em> store of {@code consumerIndex}, ordered after those loads.</li>
 *   <li>Each index has one writer, which reads it plainly. {@link #dropped()}, {@link #size()} and
 *       {@link #published()} may be called from any thread (opaque or acquire reads: recent, never
 *       torn).</li>
 * </ul>
 * Indexes are {@code long} and only grow; at 10<sup>9</sup> records per second they wrap after
 * 292 years.
 */
public final class SpscLongRing extends SpscLongRingPad2 {

    /** Longs left unused before the first record and after the last: keeps the records off cache lines shared with neighbouring objects. */
    private static final int PAD_LONGS = 16;
    /** The longest {@code long[]} HotSpot allocates. */
    private static final long MAX_ARRAY = Integer.MAX_VALUE - 8;

    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle DROPPED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER_INDEX = l.findVarHandle(SpscLongRingProducerFields.class, "producerIndex", long.class);
            CONSUMER_INDEX = l.findVarHandle(SpscLongRingConsumerFields.class, "consumerIndex", long.class);
            DROPPED = l.findVarHandle(SpscLongRingProducerFields.class, "dropped", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Receives a drained record on the consumer's thread: {@code buffer[index .. index + recordLongs - 1]}. */
    @FunctionalInterface
    public interface Reader {
        void accept(long[] buffer, int index);
    }

    private final long[] buffer;
    private final int capacity;
    private final int mask;
    private final int recordLongs;

    /**
     * @param capacity    records the ring holds, a power of two
     * @param recordLongs longs per record, 0 or more
     */
    public SpscLongRing(int capacity, int recordLongs) {
        if (capacity < 1 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two, got " + capacity);
        }
        if (recordLongs < 0 || (long) capacity * recordLongs + 2 * PAD_LONGS > MAX_ARRAY) {
            throw new IllegalArgumentException("cannot hold " + capacity + " records of " + recordLongs + " longs in one array");
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.recordLongs = recordLongs;
        this.buffer = new long[capacity * recordLongs + 2 * PAD_LONGS];
        this.producerLimit = capacity;
    }

    public int capacity() {
        return capacity;
    }

    public int recordLongs() {
        return recordLongs;
    }

    /** The array the records live in; address a record through {@link #writeIndex} or {@link #readIndex}. */
    public long[] buffer() {
        return buffer;
    }

    // ---- producer ----

    /**
     * Producer only. How many of the next {@code records} (0 or more) records the producer may write
     * now: all of them, or fewer when the ring is that full. Claiming again before {@link #publish}
     * grants the same slots again.
     */
    public int claim(int records) {
        long p = producerIndex;                                           // plain: we are its only writer
        if (p + records > producerLimit) {
            producerLimit = (long) CONSUMER_INDEX.getAcquire(this) + capacity;   // the consumer is done with slots below
        }
        return (int) Math.min(records, producerLimit - p);
    }

    /** Producer only. The slot, 0 to {@code capacity - 1}, of the {@code k}-th record of the current claim. */
    public int writeSlot(int k) {
        return (int) (producerIndex + k) & mask;
    }

    /** Producer only. Where in {@link #buffer()} the {@code k}-th record of the current claim starts. */
    public int writeIndex(int k) {
        return PAD_LONGS + writeSlot(k) * recordLongs;
    }

    /** Producer only. Hands the first {@code records} claimed records, written by now, to the consumer. */
    public void publish(int records) {
        long p = producerIndex + records;
        assert records >= 0 && p <= producerLimit : "published " + records + " records, more than claimed";
        PRODUCER_INDEX.setRelease(this, p);                               // publishes every store before it
    }

    /** Producer only. Counts one record the producer gave up on because the ring was full. */
    public void countDropped() {
        countDropped(1);
    }

    /** Producer only. Counts {@code records} records the producer gave up on because the ring was full. */
    public void countDropped(int records) {
        DROPPED.setOpaque(this, dropped + records);
    }

    // ---- consumer ----

    /** Consumer only. How many published records, at most {@code max} (0 or more), may be read now. */
    public int available(int max) {
        long n = (long) PRODUCER_INDEX.getAcquire(this) - consumerIndex;   // records below it are visible
        return (int) Math.min(n, max);
    }

    /** Consumer only. The slot, 0 to {@code capacity - 1}, of the {@code k}-th unread record. */
    public int readSlot(int k) {
        return (int) (consumerIndex + k) & mask;
    }

    /** Consumer only. Where in {@link #buffer()} the {@code k}-th unread record starts. */
    public int readIndex(int k) {
        return PAD_LONGS + readSlot(k) * recordLongs;
    }

    /** Consumer only. Frees the slots of the first {@code records} unread records, read by now. */
    public void consume(int records) {
        long c = consumerIndex + records;
        assert records >= 0 && c <= (long) PRODUCER_INDEX.getOpaque(this) : "consumed " + records + " records, more than available";
        CONSUMER_INDEX.setRelease(this, c);                               // our loads of the slots come first
    }

    /**
     * Consumer only. Hands at most {@code max} published records, oldest first, to {@code to}, then
     * frees their slots.
     *
     * @return records handed over
     */
    public int drain(Reader to, int max) {
        int n = available(max);
        long[] b = buffer;
        for (int k = 0; k < n; k++) {
            to.accept(b, readIndex(k));
        }
        consume(n);
        return n;
    }

    // ---- any thread ----

    /** Records the producer gave up on because the ring was full, since it was made; any thread. */
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

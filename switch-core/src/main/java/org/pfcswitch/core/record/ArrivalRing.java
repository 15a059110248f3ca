package org.pfcswitch.core.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/* Padding as in org.pfcswitch.core.trace.TraceRing (JCTools' layout): producer, consumer and read-only fields on lines of their own. */

@SuppressWarnings("unused")
abstract class ArrivalRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f;
}

/** The producer's line. */
abstract class ArrivalRingProducerFields extends ArrivalRingPad0 {
    long producerIndex;
    long producerLimit;
    /** Arrivals refused because the ring was full; other threads read it opaque. */
    long dropped;
    /** Arrivals not recorded because {@code max} were already; other threads read it opaque. */
    long overMax;
}

@SuppressWarnings("unused")
abstract class ArrivalRingPad1 extends ArrivalRingProducerFields {
    long p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f;
}

/** The consumer's line. */
abstract class ArrivalRingConsumerFields extends ArrivalRingPad1 {
    long consumerIndex;
}

@SuppressWarnings("unused")
abstract class ArrivalRingPad2 extends ArrivalRingConsumerFields {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

/**
 * A preallocated single-producer single-consumer ring of arrivals, {@value #RECORD_LONGS} longs each
 * (time; port, length and bytes captured; the first 64 header bytes as eight little-endian words), in
 * one {@code long[]}: the design and memory ordering of {@link org.pfcswitch.core.trace.TraceRing}
 * (release store of the producer index after plain stores of the words; acquire loads on the other
 * side). The producer is the switch's worker: {@link #offer} never blocks and never allocates; when
 * the ring is full it drops the arrival and counts it, and after {@code max} arrivals it records no
 * more (counted apart). The consumer is the recorder's writer thread.
 */
public final class ArrivalRing extends ArrivalRingPad2 {

    public static final int RECORD_LONGS = 10;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle PRODUCER_INDEX;
    private static final VarHandle CONSUMER_INDEX;
    private static final VarHandle DROPPED;
    private static final VarHandle OVER_MAX;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PRODUCER_INDEX = l.findVarHandle(ArrivalRingProducerFields.class, "producerIndex", long.class);
            CONSUMER_INDEX = l.findVarHandle(ArrivalRingConsumerFields.class, "consumerIndex", long.class);
            DROPPED = l.findVarHandle(ArrivalRingProducerFields.class, "dropped", long.class);
            OVER_MAX = l.findVarHandle(ArrivalRingProducerFields.class, "overMax", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Receives drained arrivals on the consumer's thread; {@code words[from..from+9]} is the record. */
    @FunctionalInterface
    public interface Consumer {
        void accept(long[] words, int from);
    }

    private final long[] buffer;
    private final int capacity;
    private final long mask;
    private final long max;

    /**
     * @param capacity arrivals the ring holds, a power of two from 2 to 2<sup>24</sup>
     * @param max      arrivals to record at most (then none), {@code Long.MAX_VALUE} for no bound
     */
    public ArrivalRing(int capacity, long max) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1 || capacity > 1 << 24) {
            throw new IllegalArgumentException("arrival ring capacity must be a power of two from 2 to 2^24, got " + capacity);
        }
        if (max < 0) {
            throw new IllegalArgumentException("max arrivals must be >= 0, got " + max);
        }
        this.capacity = capacity;
        this.mask = capacity - 1;
        this.max = max;
        this.buffer = new long[capacity * RECORD_LONGS];
        this.producerLimit = capacity;
    }

    /**
     * Producer only. Records the arrival of a {@code length}-byte frame whose bytes are at {@code at}
     * in {@code bytes} (at least {@code min(length, 64)} of them readable).
     *
     * @return whether it was stored
     */
    public boolean offer(long timeNanos, int port, int length, MemorySegment bytes, long at) {
        long p = producerIndex;
        if (p >= max) {
            OVER_MAX.setOpaque(this, overMax + 1);
            return false;
        }
        if (p >= producerLimit) {
            long limit = (long) CONSUMER_INDEX.getAcquire(this) + capacity;
            producerLimit = limit;
            if (p >= limit) {
                DROPPED.setOpaque(this, dropped + 1);
                return false;
            }
        }
        int captured = Math.min(Math.max(length, 0), ArrivalFormat.HEADER_BYTES);
        int i = (int) (p & mask) * RECORD_LONGS;
        long[] b = buffer;
        b[i] = timeNanos;
        b[i + 1] = (port & 0xFFFFL) | (long) (length & 0xFFFF) << 16 | (long) captured << 32;
        int whole = captured >>> 3;
        int w = 0;
        for (; w < whole; w++) {
            b[i + 2 + w] = bytes.get(WORD, at + 8L * w);
        }
        if (w < 8) {
            long tail = 0;
            int rest = captured & 7;
            for (int k = 0; k < rest; k++) {
                tail |= (bytes.get(ValueLayout.JAVA_BYTE, at + 8L * w + k) & 0xFFL) << (8 * k);
            }
            b[i + 2 + w] = tail;
            for (w++; w < 8; w++) {
                b[i + 2 + w] = 0;
            }
        }
        PRODUCER_INDEX.setRelease(this, p + 1);
        return true;
    }

    /** Consumer only. Hands at most {@code limit} arrivals, oldest first, to {@code to}, then frees their slots. */
    public int drain(Consumer to, int limit) {
        long c = consumerIndex;
        long available = (long) PRODUCER_INDEX.getAcquire(this) - c;
        int n = (int) Math.min(available, limit);
        for (int k = 0; k < n; k++) {
            to.accept(buffer, (int) ((c + k) & mask) * RECORD_LONGS);
        }
        if (n > 0) {
            CONSUMER_INDEX.setRelease(this, c + n);
        }
        return n;
    }

    public int capacity() {
        return capacity;
    }

    /** Arrivals dropped because the ring was full; any thread. */
    public long dropped() {
        return (long) DROPPED.getOpaque(this);
    }

    /** Arrivals not recorded because the maximum was reached; any thread. */
    public long overMax() {
        return (long) OVER_MAX.getOpaque(this);
    }

    /** Arrivals stored; any thread. */
    public long published() {
        return (long) PRODUCER_INDEX.getAcquire(this);
    }
}

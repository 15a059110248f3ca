package org.pfcswitch.core.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * The live recorder's ring of arrivals, {@value #RECORD_LONGS} longs each (time; port, length and
 * bytes captured; the first 64 header bytes as eight little-endian words), in a {@link SpscLongRing}
 * (whose comment states the memory ordering). The producer is the switch's worker: {@link #offer}
 * never blocks and never allocates; when the ring is full it drops the arrival and counts it, and
 * after {@code max} arrivals it records no more (counted apart). The consumer is the recorder's
 * writer thread.
 */
public final class ArrivalRing {

    public static final int RECORD_LONGS = 10;
    private static final ValueLayout.OfLong WORD = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    /** Receives drained arrivals on the consumer's thread; {@code words[from..from+9]} is the record. */
    @FunctionalInterface
    public interface Consumer extends SpscLongRing.Reader {
    }

    private final SpscLongRing ring;
    private final long max;
    /** Arrivals not recorded because {@code max} were already; written by the producer, read opaque. */
    private final AtomicLong overMax = new AtomicLong();
    /** Set by the consumer when the recording stopped (its file cannot be written); read by the producer. */
    private volatile boolean stopped;
    /** Arrivals not recorded because the recording had stopped; written by the producer, read opaque. */
    private final AtomicLong afterStop = new AtomicLong();

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
        this.ring = new SpscLongRing(capacity, RECORD_LONGS);
        this.max = max;
    }

    /**
     * Producer only. Records the arrival of a {@code length}-byte frame whose bytes are at {@code at}
     * in {@code bytes} (at least {@code min(length, 64)} of them readable).
     *
     * @return whether it was stored
     */
    public boolean offer(long timeNanos, int port, int length, MemorySegment bytes, long at) {
        if (stopped) {
            afterStop.setOpaque(afterStop.getPlain() + 1);
            return false;
        }
        if (ring.published() >= max) {
            overMax.setOpaque(overMax.getPlain() + 1);
            return false;
        }
        if (ring.claim(1) == 0) {
            ring.countDropped();
            return false;
        }
        int captured = Math.min(Math.max(length, 0), ArrivalFormat.HEADER_BYTES);
        int i = ring.writeIndex(0);
        long[] b = ring.buffer();
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
        ring.publish(1);
        return true;
    }

    /** Consumer only. Hands at most {@code limit} arrivals, oldest first, to {@code to}, then frees their slots. */
    public int drain(Consumer to, int limit) {
        return ring.drain(to, limit);
    }

    public int capacity() {
        return ring.capacity();
    }

    /** Consumer: the recording stopped; the producer stores nothing more (and counts what it is offered). */
    public void stop() {
        stopped = true;
    }

    /** Arrivals not recorded because the recording had stopped ({@link #stop}); any thread. */
    public long afterStop() {
        return afterStop.getOpaque();
    }

    /** Arrivals dropped because the ring was full; any thread. */
    public long dropped() {
        return ring.dropped();
    }

    /** Arrivals not recorded because the maximum was reached; any thread. */
    public long overMax() {
        return overMax.getOpaque();
    }

    /** Arrivals stored; any thread. */
    public long published() {
        return ring.published();
    }
}

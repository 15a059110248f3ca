package org.pfcswitch.core.record;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.util.concurrent.atomic.AtomicLong;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * The live recorder's ring of arrivals, {@value #RECORD_LONGS} longs each (time; port, length and
 * bytes captured; the first 64 header bytes as eight little-endian words), in a {@link SpscLongRing}
 * (whose comment states the memory ordering). The producer is one worker of the switch: {@link #offer}
 * never blocks and never allocates; when the ring is full it drops the arrival and counts it, and
 * after {@code max} arrivals (or once the recorder has written its maximum from all workers'
 * rings, {@link #stopAtMax}) it records no more (counted apart). The consumer is the recorder's
 * writer thread.
 *
 * <p>The producer's <em>watermark</em> ({@link #advance}) is a promise: every arrival it offers from
 * then on has a time at or after it. It is stored with release after the arrivals before it were
 * published, so a consumer that reads the watermark (acquire) and then finds the ring empty knows
 * that this worker has nothing earlier to add; the recorder merges several workers' rings on it
 * ({@link ArrivalMerge}).
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
    /** Set by the consumer once the recording holds its maximum; read by the producer. */
    private volatile boolean atMax;
    /** The producer's watermark: no arrival it offers from now on is earlier. */
    private final AtomicLong watermark = new AtomicLong(Long.MIN_VALUE);
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
        if (length <= 0) {
            return false;
        }
        if (stopped) {
            afterStop.setOpaque(afterStop.getPlain() + 1);
            return false;
        }
        if (atMax || ring.published() >= max) {
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

    /**
     * Producer only: no arrival offered after this call has a time before {@code timeNanos} (a time
     * on the clock the arrivals are stamped with, read before this call). Called once per pass of the
     * worker's loop, whether it received anything or not, so that an idle worker holds no merge up.
     */
    public void advance(long timeNanos) {
        watermark.setRelease(timeNanos);
    }

    /** The producer's last watermark ({@link Long#MIN_VALUE} before its first); any thread, acquire. */
    public long watermark() {
        return watermark.getAcquire();
    }

    /** Consumer only. Hands at most {@code limit} arrivals, oldest first, to {@code to}, then frees their slots. */
    public int drain(Consumer to, int limit) {
        return ring.drain(to, limit);
    }

    /** Consumer only. Published arrivals not yet consumed, at most {@code max}. */
    int available(int max) {
        return ring.available(max);
    }

    /** Consumer only. The time of the {@code k}-th unread arrival. */
    long time(int k) {
        return ring.buffer()[ring.readIndex(k)];
    }

    /** Consumer only. Where the {@code k}-th unread arrival starts in {@link #words()}. */
    int readIndex(int k) {
        return ring.readIndex(k);
    }

    /** The array the arrivals live in. */
    long[] words() {
        return ring.buffer();
    }

    /** Consumer only. Frees the slots of the first {@code n} unread arrivals. */
    void consume(int n) {
        ring.consume(n);
    }

    /** Consumer: the recording holds its maximum; the producer stores nothing more (counted as over the maximum). */
    public void stopAtMax() {
        atMax = true;
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

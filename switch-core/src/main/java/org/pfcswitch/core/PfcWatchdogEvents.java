package org.pfcswitch.core;

import java.util.concurrent.atomic.AtomicLong;

/**
 * The watchdog's storms and restorations, handed from the thread that owns the core to another
 * (the live switch's main thread logs them): a preallocated single-producer single-consumer ring,
 * release/acquire on its two indexes. The producer never blocks or allocates: when the ring is
 * full the event is counted in {@link #lost()} and dropped (storms are rare; 256 slots).
 */
public final class PfcWatchdogEvents implements PfcWatchdogListener {

    /** What {@link #drain} hands over per event. */
    public interface Sink {
        void event(boolean storm, int port, int priority, long durationNanos, long atNanos);
    }

    private static final int SLOTS = 256;
    private final long[] packed = new long[SLOTS];      // storm bit 32, port bits 8..31, priority bits 0..7
    private final long[] at = new long[SLOTS];
    private final long[] duration = new long[SLOTS];
    private final AtomicLong head = new AtomicLong();   // written by the producer
    private final AtomicLong tail = new AtomicLong();   // written by the consumer
    private long lost;

    @Override
    public void onStorm(int port, int priority, long pausedNanos, long now) {
        put(true, port, priority, pausedNanos, now);
    }

    @Override
    public void onRestore(int port, int priority, long stormedNanos, long now) {
        put(false, port, priority, stormedNanos, now);
    }

    private void put(boolean storm, int port, int priority, long nanos, long now) {
        long h = head.getPlain();
        if (h - tail.getAcquire() >= SLOTS) {
            lost++;
            return;
        }
        int i = (int) (h % SLOTS);
        packed[i] = (storm ? 1L << 32 : 0) | (long) port << 8 | priority;
        at[i] = now;
        duration[i] = nanos;
        head.setRelease(h + 1);
    }

    /** Hands every event published so far to {@code sink}, oldest first (the consumer's side); returns how many. */
    public int drain(Sink sink) {
        long t = tail.getPlain();
        long h = head.getAcquire();
        int n = 0;
        for (; t < h; t++, n++) {
            int i = (int) (t % SLOTS);
            long p = packed[i];
            sink.event((p >>> 32 & 1) != 0, (int) (p >>> 8 & 0xFFFFFF), (int) (p & 0xFF), duration[i], at[i]);
        }
        tail.setRelease(t);
        return n;
    }

    /** Events dropped because the ring was full (read on the producer's thread, or after it stopped). */
    public long lost() {
        return lost;
    }
}

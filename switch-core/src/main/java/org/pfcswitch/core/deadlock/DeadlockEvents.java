package org.pfcswitch.core.deadlock;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Deadlock reports handed from the thread that owns the core to another (the live switch's main
 * thread logs them): a preallocated single-producer single-consumer ring of {@link CycleRecord}s,
 * release/acquire on its two indexes. The producer never blocks or allocates: when the ring is
 * full a report is counted in {@link #lost()} and dropped (a deadlock is reported once per
 * occurrence, so the ring fills only if nobody drains it).
 */
public final class DeadlockEvents {

    private static final int SLOTS = 16;
    private final CycleRecord[] ring = new CycleRecord[SLOTS];
    private final AtomicLong head = new AtomicLong();   // written by the producer
    private final AtomicLong tail = new AtomicLong();   // written by the consumer
    private long lost;

    DeadlockEvents(int capacity) {
        for (int i = 0; i < SLOTS; i++) {
            ring[i] = new CycleRecord(capacity);
        }
    }

    void put(CycleRecord r) {
        long h = head.getPlain();
        if (h - tail.getAcquire() >= SLOTS) {
            lost++;
            return;
        }
        ring[(int) (h % SLOTS)].copyFrom(r);
        head.setRelease(h + 1);
    }

    /** Hands every report published so far to {@code sink}, oldest first (the consumer's side); returns how many. */
    public int drain(Consumer<CycleRecord> sink) {
        long t = tail.getPlain();
        long h = head.getAcquire();
        int n = 0;
        for (; t < h; t++, n++) {
            sink.accept(ring[(int) (t % SLOTS)]);
        }
        tail.setRelease(t);
        return n;
    }

    /** Reports dropped because the ring was full (read on the producer's thread, or after it stopped). */
    public long lost() {
        return lost;
    }
}

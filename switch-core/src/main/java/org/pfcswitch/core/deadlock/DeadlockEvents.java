package org.pfcswitch.core.deadlock;

import java.util.function.Consumer;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * Deadlock reports handed from the thread that owns the core to another (the live switch's main
 * thread logs them): preallocated {@link CycleRecord}s, one per slot of a {@link SpscLongRing} that
 * carries no words of its own, only the order and the release/acquire hand-off of the slots. The
 * producer never blocks or allocates: when the ring is full a report is counted in {@link #lost()}
 * and dropped (a deadlock is reported once per occurrence, so the ring fills only if nobody drains
 * it).
 */
public final class DeadlockEvents {

    private static final int SLOTS = 16;
    private final CycleRecord[] reports = new CycleRecord[SLOTS];
    private final SpscLongRing ring = new SpscLongRing(SLOTS, 0);

    DeadlockEvents(int capacity) {
        for (int i = 0; i < SLOTS; i++) {
            reports[i] = new CycleRecord(capacity);
        }
    }

    void put(CycleRecord r) {
        if (ring.claim(1) == 0) {
            ring.countDropped();
            return;
        }
        reports[ring.writeSlot(0)].copyFrom(r);
        ring.publish(1);
    }

    /**
     * Hands every report published so far to {@code sink}, oldest first (the consumer's side); returns
     * how many. A report is valid during the call only: its slot is reused after.
     */
    public int drain(Consumer<CycleRecord> sink) {
        int n = ring.available(SLOTS);
        for (int k = 0; k < n; k++) {
            sink.accept(reports[ring.readSlot(k)]);
        }
        ring.consume(n);
        return n;
    }

    /** Reports dropped because the ring was full; any thread. */
    public long lost() {
        return ring.dropped();
    }
}

package org.pfcswitch.core;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * The watchdog's storms and restorations, handed from the thread that owns the core to another
 * (the live switch's main thread logs them) through a {@link SpscLongRing} of three-long records.
 * The producer never blocks or allocates: when the ring is full the event is counted in
 * {@link #lost()} and dropped (storms are rare; 256 slots).
 */
public final class PfcWatchdogEvents {

    /** What {@link #drain} hands over per event: a storm carries the action its port took, a restoration null. */
    public interface Sink {
        void event(boolean storm, int port, int priority, long durationNanos, long atNanos, PfcWatchdogConfig.Action action);
    }

    private static final PfcWatchdogConfig.Action[] ACTIONS = PfcWatchdogConfig.Action.values();

    private static final int SLOTS = 256;
    /** A record's words: action + 1 bits 33..35 (0: a restoration), storm bit 32, port bits 8..31, priority bits 0..7; the time; the duration. */
    private static final int PACKED = 0, AT = 1, DURATION = 2, RECORD_LONGS = 3;
    private final SpscLongRing ring = new SpscLongRing(SLOTS, RECORD_LONGS);

    /** Queue {@code (port, priority)} was declared stormed at {@code now} after {@code pausedNanos}; its port takes {@code action}. */
    public void onStorm(int port, int priority, long pausedNanos, long now, PfcWatchdogConfig.Action action) {
        put(true, action.ordinal() + 1, port, priority, pausedNanos, now);
    }

    /** Queue {@code (port, priority)} was restored at {@code now} after {@code stormedNanos} stormed. */
    public void onRestore(int port, int priority, long stormedNanos, long now) {
        put(false, 0, port, priority, stormedNanos, now);
    }

    private void put(boolean storm, int action, int port, int priority, long nanos, long now) {
        if (ring.claim(1) == 0) {
            ring.countDropped();
            return;
        }
        int i = ring.writeIndex(0);
        long[] b = ring.buffer();
        b[i + PACKED] = (long) action << 33 | (storm ? 1L << 32 : 0) | (long) port << 8 | priority;
        b[i + AT] = now;
        b[i + DURATION] = nanos;
        ring.publish(1);
    }

    /** Hands every event published so far to {@code sink}, oldest first (the consumer's side); returns how many. */
    public int drain(Sink sink) {
        int n = ring.available(SLOTS);
        long[] b = ring.buffer();
        for (int k = 0; k < n; k++) {
            int i = ring.readIndex(k);
            long p = b[i + PACKED];
            int action = (int) (p >>> 33 & 0x7);
            sink.event((p >>> 32 & 1) != 0, (int) (p >>> 8 & 0xFFFFFF), (int) (p & 0xFF), b[i + DURATION], b[i + AT],
                    action == 0 ? null : ACTIONS[action - 1]);
        }
        ring.consume(n);
        return n;
    }

    /** Events dropped because the ring was full; any thread. */
    public long lost() {
        return ring.dropped();
    }
}

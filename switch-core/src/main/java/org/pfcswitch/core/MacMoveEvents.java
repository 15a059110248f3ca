package org.pfcswitch.core;

import org.pfcswitch.core.ring.SpscLongRing;

/**
 * MAC moves and denied moves for the log, rate-limited: the worker reports at most one per port per
 * {@link #QUIET_NANOS} (the first), with how many more that port saw since its last report, into a
 * {@link SpscLongRing} of four-long records that the live switch's main thread drains. The counters
 * ({@link SwitchCounters#macMoves}, {@link SwitchCounters#macMovesDenied}) count every one. Never
 * blocks or allocates: a full ring drops the report (counted in {@link #lost()}).
 */
public final class MacMoveEvents {

    /** What {@link #drain} hands over per report. */
    public interface Sink {
        /**
         * @param denied  the station stayed on {@code from} (a static entry, or {@code to} denies moves)
         * @param since   moves and denied moves on {@code to} since its previous report, this one excluded
         */
        void event(long mac, int from, int to, boolean denied, long since, long atNanos);
    }

    /** At most one report per port per second. */
    public static final long QUIET_NANOS = 1_000_000_000L;

    private static final int SLOTS = 64;
    /** A record's words: the MAC; denied bit 63, from bits 16..31, to bits 0..15; the time; the count since. */
    private static final int MAC = 0, PACKED = 1, AT = 2, SINCE = 3, RECORD_LONGS = 4;
    private final SpscLongRing ring = new SpscLongRing(SLOTS, RECORD_LONGS);
    private final long[] lastReport;
    private final long[] unreported;

    MacMoveEvents(int ports) {
        lastReport = new long[ports];
        java.util.Arrays.fill(lastReport, Long.MIN_VALUE);
        unreported = new long[ports];
    }

    /** The worker: {@code mac} was seen on {@code to}, its entry on {@code from}; it moved unless {@code denied}. */
    void report(long mac, int from, int to, boolean denied, long now) {
        if (lastReport[to] != Long.MIN_VALUE && now - lastReport[to] < QUIET_NANOS) {
            unreported[to]++;
            return;
        }
        if (ring.claim(1) == 0) {
            ring.countDropped();
            unreported[to]++;
            return;
        }
        int i = ring.writeIndex(0);
        long[] b = ring.buffer();
        b[i + MAC] = mac;
        b[i + PACKED] = (denied ? 1L << 63 : 0) | (long) (from & 0xFFFF) << 16 | (to & 0xFFFF);
        b[i + AT] = now;
        b[i + SINCE] = unreported[to];
        ring.publish(1);
        lastReport[to] = now;
        unreported[to] = 0;
    }

    /** Hands every report published so far to {@code sink}, oldest first (the consumer's side); returns how many. */
    public int drain(Sink sink) {
        int n = ring.available(SLOTS);
        long[] b = ring.buffer();
        for (int k = 0; k < n; k++) {
            int i = ring.readIndex(k);
            long p = b[i + PACKED];
            sink.event(b[i + MAC], (int) (p >>> 16 & 0xFFFF), (int) (p & 0xFFFF), p < 0, b[i + SINCE], b[i + AT]);
        }
        ring.consume(n);
        return n;
    }

    /** Reports dropped because the ring was full; any thread. */
    public long lost() {
        return ring.dropped();
    }
}

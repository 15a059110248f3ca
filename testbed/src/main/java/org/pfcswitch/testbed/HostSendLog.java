package org.pfcswitch.testbed;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * What live emulated hosts sent and when they took each pause, so a switch's lossless drop can be
 * traced to its sender ({@link DropAttribution}): every data frame by (host, flow, PSN) with the
 * host's clock and {@link System#nanoTime()} at its start, and every PFC or PAUSE frame a host
 * received that paused some priority.
 *
 * <p>The host's clock orders a host's own sends and pauses exactly (frames a late pass catches up
 * on keep their own start times, spaced at the line rate); the system clock, which a switch in
 * this JVM or another process on the machine also reads, places them against the switch's.
 *
 * <p>Preallocated: attaching it costs one hash probe and one clock read per frame sent, nothing
 * allocated. Frames past its capacity are counted in {@link #sendsNotKept}, not kept.
 */
public final class HostSendLog implements HostObserver {

    private static final long EMPTY = -1;
    private static final int DEFAULT_SEND_SLOTS = 1 << 20;
    private static final int DEFAULT_PAUSES = 1 << 16;

    private final int mask;
    private final int sendLimit;
    private final long[] sendKey;
    private final long[] sendHostAt;
    private final long[] sendSystemAt;
    private int sends;
    private long sendsNotKept;

    private final int[] pauseHost;
    private final int[] pauseMask;
    private final long[] pauseHostAt;
    private final long[] pauseSystemAt;
    private int pauses;
    private long pausesNotKept;
    private final LongSupplier systemClock;

    public HostSendLog() {
        this(DEFAULT_SEND_SLOTS, DEFAULT_PAUSES, System::nanoTime);
    }

    /** {@code sendSlots}: a power of two, three quarters of which are kept; {@code systemClock}: System::nanoTime but in tests. */
    public HostSendLog(int sendSlots, int pauseCapacity, LongSupplier systemClock) {
        if (Integer.bitCount(sendSlots) != 1 || sendSlots > 1 << 24 || pauseCapacity < 1) {
            throw new IllegalArgumentException("sendSlots must be a power of two up to 2^24 and pauseCapacity > 0, got " + sendSlots
                    + ", " + pauseCapacity);
        }
        mask = sendSlots - 1;
        sendLimit = sendSlots / 4 * 3;
        sendKey = new long[sendSlots];
        Arrays.fill(sendKey, EMPTY);
        sendHostAt = new long[sendSlots];
        sendSystemAt = new long[sendSlots];
        pauseHost = new int[pauseCapacity];
        pauseMask = new int[pauseCapacity];
        pauseHostAt = new long[pauseCapacity];
        pauseSystemAt = new long[pauseCapacity];
        this.systemClock = systemClock;
    }

    /** Attaches this log to every host of {@code hosts}. */
    public HostSendLog attach(Hosts hosts) {
        for (int i = 0; i < hosts.hosts(); i++) {
            hosts.host(i).observe(this);
        }
        return this;
    }

    private static long key(int host, int flow, int psn) {
        return (long) host << 56 | (long) (flow & 0xFFFF_FFFFL) << 24 | (psn & 0xFF_FFFF);
    }

    private int slot(long key) {
        long h = key * 0x9E37_79B9_7F4A_7C15L;      // Fibonacci hashing: the top bits mix every key bit
        return (int) (h >>> 40) & mask;
    }

    @Override
    public void onTransmit(int host, int flow, int psn, int priority, int length, long start) {
        if (sends >= sendLimit) {
            sendsNotKept++;
            return;
        }
        long k = key(host, flow, psn);
        int i = slot(k);
        while (sendKey[i] != EMPTY && sendKey[i] != k) {
            i = (i + 1) & mask;
        }
        if (sendKey[i] == EMPTY) {
            sends++;
        }
        sendKey[i] = k;                 // a retransmission keeps its latest send
        sendHostAt[i] = start;
        sendSystemAt[i] = systemClock.getAsLong();
    }

    @Override
    public void onPfc(int host, int classEnable, int[] quanta, long now) {
        int paused = 0;
        for (int p = 0; p < quanta.length; p++) {
            if ((classEnable >>> p & 1) != 0 && quanta[p] > 0) {
                paused |= 1 << p;
            }
        }
        if (paused == 0) {
            return;                     // an XON: nothing stops
        }
        if (pauses == pauseHost.length) {
            pausesNotKept++;
            return;
        }
        pauseHost[pauses] = host;
        pauseMask[pauses] = paused;
        pauseHostAt[pauses] = now;
        pauseSystemAt[pauses] = systemClock.getAsLong();
        pauses++;
    }

    /** The slot of host {@code host}'s frame of {@code flow} with {@code psn}, or -1 if it is not in the log. */
    public int sent(int host, int flow, int psn) {
        long k = key(host, flow, psn);
        for (int i = slot(k); sendKey[i] != EMPTY; i = (i + 1) & mask) {
            if (sendKey[i] == k) {
                return i;
            }
        }
        return -1;
    }

    /** When the frame in {@code slot} ({@link #sent}) started, on its host's clock. */
    public long sentHostAt(int slot) { return sendHostAt[slot]; }
    /** When the frame in {@code slot} went to its port, on {@link System#nanoTime()}. */
    public long sentSystemAt(int slot) { return sendSystemAt[slot]; }

    /**
     * The first pause of {@code priority} that host {@code host} took at or after {@code systemNanos}
     * ({@link System#nanoTime()}), as an index for {@link #pauseHostAt}, or -1 if it took none.
     */
    public int firstPauseFrom(int host, int priority, long systemNanos) {
        // The hosts run on one thread, so pauses are logged in time order: search for the first at or
        // after systemNanos, then walk forward to this host's.
        int lo = 0;
        int hi = pauses;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (pauseSystemAt[mid] < systemNanos) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < pauses; i++) {
            if (pauseHost[i] == host && (pauseMask[i] >>> priority & 1) != 0) {
                return i;
            }
        }
        return -1;
    }

    public long pauseHostAt(int i) { return pauseHostAt[i]; }
    public long pauseSystemAt(int i) { return pauseSystemAt[i]; }
    /** Frames sent once the log was full, not kept. */
    public long sendsNotKept() { return sendsNotKept; }
    /** Pauses taken once the log was full, not kept. */
    public long pausesNotKept() { return pausesNotKept; }
}

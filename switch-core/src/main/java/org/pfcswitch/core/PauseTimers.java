package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;

/**
 * What received PFC (and 802.3x PAUSE) frames ask of a transmitter: per (port, priority), the
 * time until which it must not start a new frame of that priority. A pause runs from the
 * moment the frame is received for {@code quanta × 512} bit times at the port's speed; a later
 * frame replaces the remaining time (a refresh extends it, quanta 0 ends it at once). A frame
 * already on the line is not affected: callers only ask {@link #isPaused} before starting one.
 *
 * <p>Also keeps the paused time per (port, priority) for the counters. Used by the switch core
 * for its egress ports and by emulated hosts for their NIC, so both honour PFC identically.
 * Under {@link PfcPauseMode#UNTIL_RESUME} a non-zero time pauses until a frame with time 0
 * (the pause ends at {@link DeadlineHeap#NEVER} meanwhile).
 */
public final class PauseTimers {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final long[] speedBps;     // by port
    private final long[] until;        // by port * 8 + priority: no new frame before this time
    private final long[] since;        // start of the current (or last) pause episode
    private final long[] completed;    // nanoseconds paused in episodes that ended
    /**
     * By port: no priority of it is paused at or after this time (the latest pause end ever set;
     * a resume leaves it, so it may be later than the truth, never earlier). Nearly every
     * {@link #pausedMask} asks about a port nothing pauses, and this answers that with one load.
     */
    private final long[] latestEnd;
    private final PfcPauseMode mode;

    /** Pauses of {@code quanta × 512} bit times ({@link PfcPauseMode#QUANTA}). */
    public PauseTimers(long[] speedBpsByPort) {
        this(speedBpsByPort, PfcPauseMode.QUANTA);
    }

    public PauseTimers(long[] speedBpsByPort, PfcPauseMode mode) {
        this.mode = mode;
        this.speedBps = speedBpsByPort.clone();
        int keys = speedBps.length * PRIORITIES;
        until = new long[keys];
        since = new long[keys];
        completed = new long[keys];
        latestEnd = new long[speedBps.length];
    }

    /**
     * Applies the time a PFC frame received on {@code port} at {@code now} carries for
     * {@code priority}: {@code quanta} 0 resumes at once, anything else pauses for its duration.
     *
     * @return true when this ended a pause that was in effect (the caller may transmit again)
     */
    public boolean apply(int port, int priority, int quanta, long now) {
        int k = port * PRIORITIES + priority;
        boolean wasPaused = until[k] > now;
        long end = mode.pauseEnd(quanta, speedBps[port], now);
        if (!wasPaused) {
            completed[k] += until[k] - since[k];   // close the previous episode (0 - 0 at first)
            since[k] = now;
        }
        until[k] = end;
        if (end > latestEnd[port]) {
            latestEnd[port] = end;
        }
        return wasPaused && quanta == 0;
    }

    /** Applies a PFC frame's class-enable vector and times; returns the priorities it resumed. */
    public int applyPfc(int port, int classEnable, int[] quantaByPriority, long now) {
        int resumed = 0;
        for (int v = classEnable; v != 0; v &= v - 1) {
            int p = Integer.numberOfTrailingZeros(v);
            if (apply(port, p, quantaByPriority[p], now)) {
                resumed |= 1 << p;
            }
        }
        return resumed;
    }

    public boolean isPaused(int port, int priority, long now) {
        return until[port * PRIORITIES + priority] > now;
    }

    /** The priorities among {@code candidates} that are paused at {@code now}, as a bit mask. */
    public int pausedMask(int port, int candidates, long now) {
        if (latestEnd[port] <= now) {
            return 0;
        }
        int paused = 0;
        int base = port * PRIORITIES;
        for (int v = candidates; v != 0; v &= v - 1) {
            int p = Integer.numberOfTrailingZeros(v);
            if (until[base + p] > now) {
                paused |= 1 << p;
            }
        }
        return paused;
    }

    /** When the first of the {@code priorities} (all paused) may send again. */
    public long earliestResume(int port, int priorities) {
        long first = Long.MAX_VALUE;
        int base = port * PRIORITIES;
        for (int v = priorities; v != 0; v &= v - 1) {
            first = Math.min(first, until[base + Integer.numberOfTrailingZeros(v)]);
        }
        return first;
    }

    /** Until when {@code (port, priority)} is paused; in the past when it is not. */
    public long pausedUntil(int port, int priority) {
        return until[port * PRIORITIES + priority];
    }

    /** When the current pause episode of {@code (port, priority)} began (the last one's start when it is not paused). */
    public long pausedSince(int port, int priority) {
        return since[port * PRIORITIES + priority];
    }

    /** Nanoseconds {@code (port, priority)} has spent paused up to {@code now}. */
    public long pausedNanos(int port, int priority, long now) {
        int k = port * PRIORITIES + priority;
        return completed[k] + Math.max(0, Math.min(now, until[k]) - since[k]);
    }
}

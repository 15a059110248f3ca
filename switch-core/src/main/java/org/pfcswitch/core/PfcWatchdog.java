package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;

/**
 * The PFC watchdog of the egress queues ({@link PfcWatchdogConfig}): a pause storm is a downstream
 * neighbour that keeps a queue paused for the detection time without a break (a stuck NIC that
 * pauses its switch forever); the queue is then declared stormed and stops obeying that neighbour
 * (its frames are dropped or sent anyway), until no pause frame for it has come for the restoration
 * time.
 *
 * <p>Only reads {@link PauseTimers} (when the current pause episode began, whether it still runs)
 * and is told of every pause frame received ({@link #onPauseFrame}). It looks every poll period,
 * and only while some queue is paused or stormed: an idle switch has no watchdog timer. Everything
 * is in primitive arrays; nothing allocates.
 */
final class PfcWatchdog {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final PfcWatchdogConfig config;
    private final int ports;
    private final PauseTimers pauses;
    private final DeadlineHeap timers;
    private final int timerId;
    private final SwitchCounters counters;
    /** By port: the stormed priorities. */
    final int[] stormedMask;
    /** By (port, priority): when the last pause frame (quanta &gt; 0) for it arrived; when it was declared stormed. */
    private final long[] lastPauseFrameAt;
    private final long[] stormedAt;
    /** By (port, priority): when it was last restored (a pause still running then counts from there), or Long.MIN_VALUE. */
    private final long[] restoredAt;
    /** By port: priorities whose state changed in the last {@link #poll}; {@link #stormedNow} the ones that became stormed. */
    final int[] changed;
    final int[] stormedNow;
    private boolean armed;
    private PfcWatchdogListener listener = PfcWatchdogListener.NONE;
    /** Every storm and restoration, for another thread to read ({@link SwitchCore#pfcWatchdogEvents}). */
    final PfcWatchdogEvents events = new PfcWatchdogEvents();

    PfcWatchdog(PfcWatchdogConfig config, int ports, PauseTimers pauses, DeadlineHeap timers, int timerId,
                SwitchCounters counters) {
        this.config = config;
        this.ports = ports;
        this.pauses = pauses;
        this.timers = timers;
        this.timerId = timerId;
        this.counters = counters;
        this.stormedMask = new int[ports];
        this.lastPauseFrameAt = new long[ports * PRIORITIES];
        this.stormedAt = new long[ports * PRIORITIES];
        this.restoredAt = new long[ports * PRIORITIES];
        java.util.Arrays.fill(restoredAt, Long.MIN_VALUE);
        this.changed = new int[ports];
        this.stormedNow = new int[ports];
    }

    PfcWatchdogConfig config() {
        return config;
    }

    void listener(PfcWatchdogListener l) {
        listener = l == null ? PfcWatchdogListener.NONE : l;
    }

    /** A pause frame (quanta &gt; 0) for {@code (port, priority)} arrived at {@code now} (already applied to the pause timers). */
    void onPauseFrame(int port, int priority, long now) {
        lastPauseFrameAt[port * PRIORITIES + priority] = now;
        if (!armed) {
            armed = true;
            timers.set(timerId, now + config.pollNanos());
        }
    }

    boolean isStormed(int port, int priority) {
        return (stormedMask[port] >>> priority & 1) != 0;
    }

    /** Whether frames for {@code (port, priority)} are to be dropped now (stormed, action drop). */
    boolean drops(int port, int priority) {
        return config.action() == PfcWatchdogConfig.Action.DROP && (stormedMask[port] >>> priority & 1) != 0;
    }

    /**
     * The poll: declares stormed every queue paused for the detection time without a break, restores
     * every stormed queue that got no pause frame for the restoration time, and re-arms itself while
     * anything is paused or stormed.
     *
     * @return whether any queue changed state ({@link #changed}, {@link #stormedNow} say which)
     */
    boolean poll(long now) {
        timers.cancel(timerId);
        boolean any = false;
        boolean watch = false;
        long detection = config.detectionNanos();
        long restoration = config.restorationNanos();
        for (int port = 0; port < ports; port++) {
            int changedHere = 0;
            int stormedHere = 0;
            for (int q = 0; q < PRIORITIES; q++) {
                int k = port * PRIORITIES + q;
                boolean paused = pauses.isPaused(port, q, now);
                if ((stormedMask[port] >>> q & 1) != 0) {
                    if (now - lastPauseFrameAt[k] >= restoration) {
                        stormedMask[port] &= ~(1 << q);
                        changedHere |= 1 << q;
                        counters.pfcwdRestorations[k]++;
                        restoredAt[k] = now;
                        listener.onRestore(port, q, now - stormedAt[k], now);
                        events.onRestore(port, q, now - stormedAt[k], now);
                        watch |= paused;
                    } else {
                        watch = true;
                    }
                } else if (paused) {
                    // A pause frame that arrived while not paused began the episode (PauseTimers' since);
                    // after a restoration the episode counts from the restoration.
                    long since = Math.max(pauses.pausedSince(port, q), restoredAt[k]);
                    if (now - since >= detection) {
                        stormedMask[port] |= 1 << q;
                        stormedHere |= 1 << q;
                        changedHere |= 1 << q;
                        stormedAt[k] = now;
                        counters.pfcwdStorms[k]++;
                        listener.onStorm(port, q, now - since, now);
                        events.onStorm(port, q, now - since, now);
                    }
                    watch = true;
                }
            }
            changed[port] = changedHere;
            stormedNow[port] = stormedHere;
            any |= changedHere != 0;
        }
        armed = watch;
        if (watch) {
            timers.set(timerId, now + config.pollNanos());
        }
        return any;
    }
}

package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;

/**
 * The PFC watchdog of the egress queues ({@link PfcWatchdogConfig}): a pause storm is a downstream
 * neighbour that keeps a queue paused for the detection time without a break (a stuck NIC that
 * pauses its switch forever); the queue is then declared stormed and, unless the port's action is
 * {@link PfcWatchdogConfig.Action#ALERT alert}, stops obeying that neighbour (its frames are dropped
 * or sent anyway), until no pause frame for it has come for the restoration time.
 *
 * <p>Each port has its own settings, or none (not watched), and its own set of watched priorities:
 * a {@code pfcwd:} section at start watches every port and priority alike; {@link #start} and
 * {@link #stop} change one port at run time, on the thread that owns the core.
 *
 * <p>Only reads {@link PauseTimers} (when the current pause episode began, whether it still runs)
 * and is told of every pause frame received ({@link #onPauseFrame}). It looks every poll period
 * (the shortest of the watched ports'), and only while some watched queue is paused or stormed: an
 * idle switch, or one that watches nothing, has no watchdog timer. Everything is in primitive
 * arrays; nothing allocates on the data path.
 */
final class PfcWatchdog {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;
    private final PauseTimers pauses;
    private final DeadlineHeap timers;
    private final int timerId;
    private final SwitchCounters counters;
    /** By port: its settings, or null when the port is not watched. */
    private final PfcWatchdogConfig[] settings;
    /** By port: the watched priorities (0 when the port is not watched). */
    final int[] watchedMask;
    /** By port: the stormed priorities. */
    final int[] stormedMask;
    /** By port: the stormed priorities that no longer obey the neighbour (action drop or forward). */
    final int[] ignoringMask;
    /** By port: the stormed priorities whose frames are dropped (action drop). */
    private final int[] droppingMask;
    /** By (port, priority): when the last pause frame (quanta &gt; 0) for it arrived; when it was declared stormed. */
    private final long[] lastPauseFrameAt;
    private final long[] stormedAt;
    /**
     * By (port, priority): a pause episode counts from no earlier than this: the last restoration or
     * when the port came under watch (Long.MIN_VALUE: since start).
     */
    private final long[] countFrom;
    /** By port: priorities whose state changed in the last {@link #poll}; {@link #stormedNow} the ones that became stormed. */
    final int[] changed;
    final int[] stormedNow;
    private long pollNanos;
    private boolean armed;
    private PfcWatchdogListener listener = PfcWatchdogListener.NONE;
    /** Every storm and restoration, for another thread to read ({@link SwitchCore#pfcWatchdogEvents}). */
    final PfcWatchdogEvents events = new PfcWatchdogEvents();

    /** A watchdog of {@code ports} ports; {@code atStart} (or null: none) watches every port and priority from the start. */
    PfcWatchdog(PfcWatchdogConfig atStart, int ports, PauseTimers pauses, DeadlineHeap timers, int timerId,
                SwitchCounters counters) {
        this.ports = ports;
        this.pauses = pauses;
        this.timers = timers;
        this.timerId = timerId;
        this.counters = counters;
        this.settings = new PfcWatchdogConfig[ports];
        this.watchedMask = new int[ports];
        this.stormedMask = new int[ports];
        this.ignoringMask = new int[ports];
        this.droppingMask = new int[ports];
        this.lastPauseFrameAt = new long[ports * PRIORITIES];
        this.stormedAt = new long[ports * PRIORITIES];
        this.countFrom = new long[ports * PRIORITIES];
        java.util.Arrays.fill(countFrom, Long.MIN_VALUE);
        this.changed = new int[ports];
        this.stormedNow = new int[ports];
        if (atStart != null) {
            java.util.Arrays.fill(settings, atStart);
            java.util.Arrays.fill(watchedMask, (1 << PRIORITIES) - 1);
            pollNanos = atStart.pollNanos();
        }
    }

    /** The settings of {@code port}, or null when it is not watched. */
    PfcWatchdogConfig settings(int port) {
        return settings[port];
    }

    void listener(PfcWatchdogListener l) {
        listener = l == null ? PfcWatchdogListener.NONE : l;
    }

    /** A pause frame (quanta &gt; 0) for {@code (port, priority)} arrived at {@code now} (already applied to the pause timers). */
    void onPauseFrame(int port, int priority, long now) {
        lastPauseFrameAt[port * PRIORITIES + priority] = now;
        if (!armed && (watchedMask[port] >>> priority & 1) != 0) {
            arm(now);
        }
    }

    private void arm(long now) {
        armed = true;
        timers.set(timerId, now + pollNanos);
    }

    boolean isStormed(int port, int priority) {
        return (stormedMask[port] >>> priority & 1) != 0;
    }

    /** Whether frames for {@code (port, priority)} are to be dropped now (stormed, action drop). */
    boolean drops(int port, int priority) {
        return (droppingMask[port] >>> priority & 1) != 0;
    }

    /** The priorities of {@code port} stormed in the last {@link #poll} whose queued frames are to be dropped. */
    int droppingNow(int port) {
        return stormedNow[port] & droppingMask[port];
    }

    /**
     * Watches {@code priorities} of {@code port} under {@code config} from {@code now} on, replacing
     * what it had: a queue stormed under the old settings stays stormed under the new ones (and
     * their action); a stormed priority no longer watched is restored. A pause already running
     * counts from now.
     *
     * @return the priorities restored (their queues obey the neighbour again)
     */
    int start(int port, int priorities, PfcWatchdogConfig config, long now) {
        int restored = restore(port, stormedMask[port] & ~priorities, now);
        int newlyWatched = priorities & ~watchedMask[port];
        for (int v = newlyWatched; v != 0; v &= v - 1) {
            countFrom[port * PRIORITIES + Integer.numberOfTrailingZeros(v)] = now;
        }
        settings[port] = config;
        watchedMask[port] = priorities;
        updateActionMasks(port);
        pollNanos = shortestPoll();
        if (armed) {
            timers.set(timerId, Math.min(timers.deadline(timerId), now + pollNanos));
        } else {
            arm(now);            // a pause already running is seen at the first poll, without waiting for a frame
        }
        return restored;
    }

    /**
     * Stops watching {@code port}; its stormed queues are restored first (each counted as a
     * restoration).
     *
     * @return the priorities restored
     */
    int stop(int port, long now) {
        int restored = restore(port, stormedMask[port], now);
        settings[port] = null;
        watchedMask[port] = 0;
        updateActionMasks(port);
        pollNanos = shortestPoll();
        return restored;
    }

    private int restore(int port, int priorities, long now) {
        for (int v = priorities; v != 0; v &= v - 1) {
            int q = Integer.numberOfTrailingZeros(v);
            restoreOne(port, q, port * PRIORITIES + q, now);
        }
        updateActionMasks(port);
        return priorities;
    }

    private void restoreOne(int port, int q, int k, long now) {
        stormedMask[port] &= ~(1 << q);
        counters.pfcwdRestorations[k]++;
        countFrom[k] = now;
        listener.onRestore(port, q, now - stormedAt[k], now);
        events.onRestore(port, q, now - stormedAt[k], now);
    }

    private void updateActionMasks(int port) {
        PfcWatchdogConfig c = settings[port];
        PfcWatchdogConfig.Action action = c == null ? PfcWatchdogConfig.Action.ALERT : c.action();
        ignoringMask[port] = action == PfcWatchdogConfig.Action.ALERT ? 0 : stormedMask[port];
        droppingMask[port] = action == PfcWatchdogConfig.Action.DROP ? stormedMask[port] : 0;
    }

    private long shortestPoll() {
        long shortest = Long.MAX_VALUE;
        for (PfcWatchdogConfig c : settings) {
            if (c != null) {
                shortest = Math.min(shortest, c.pollNanos());
            }
        }
        return shortest == Long.MAX_VALUE ? 0 : shortest;
    }

    /**
     * The poll: declares stormed every watched queue paused for its port's detection time without a
     * break, restores every stormed queue that got no pause frame for the restoration time, and
     * re-arms itself while any watched queue is paused or stormed.
     *
     * @return whether any queue changed state ({@link #changed}, {@link #stormedNow} say which)
     */
    boolean poll(long now) {
        timers.cancel(timerId);
        boolean any = false;
        boolean watch = false;
        for (int port = 0; port < ports; port++) {
            int changedHere = 0;
            int stormedHere = 0;
            int watched = watchedMask[port];
            if (watched != 0) {
                PfcWatchdogConfig c = settings[port];
                long detection = c.detectionNanos();
                long restoration = c.restorationNanos();
                for (int v = watched; v != 0; v &= v - 1) {
                    int q = Integer.numberOfTrailingZeros(v);
                    int k = port * PRIORITIES + q;
                    boolean paused = pauses.isPaused(port, q, now);
                    if ((stormedMask[port] >>> q & 1) != 0) {
                        if (now - lastPauseFrameAt[k] >= restoration) {
                            restoreOne(port, q, k, now);
                            changedHere |= 1 << q;
                            watch |= paused;
                        } else {
                            watch = true;
                        }
                    } else if (paused) {
                        // A pause frame that arrived while not paused began the episode (PauseTimers' since);
                        // after a restoration, or when the port came under watch, it counts from then.
                        long since = Math.max(pauses.pausedSince(port, q), countFrom[k]);
                        if (now - since >= detection) {
                            stormedMask[port] |= 1 << q;
                            stormedHere |= 1 << q;
                            changedHere |= 1 << q;
                            stormedAt[k] = now;
                            counters.pfcwdStorms[k]++;
                            listener.onStorm(port, q, now - since, now);
                            events.onStorm(port, q, now - since, now, c.action());
                        }
                        watch = true;
                    }
                }
                if (changedHere != 0) {
                    updateActionMasks(port);
                }
            }
            changed[port] = changedHere;
            stormedNow[port] = stormedHere;
            any |= changedHere != 0;
        }
        armed = watch;
        if (watch) {
            timers.set(timerId, now + pollNanos);
        }
        return any;
    }
}

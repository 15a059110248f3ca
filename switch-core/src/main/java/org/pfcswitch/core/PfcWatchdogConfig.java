package org.pfcswitch.core;

/**
 * The PFC watchdog's settings: an egress queue (port, priority) that its downstream neighbour has
 * kept paused for {@code detectionNanos} without a break is declared stormed; while stormed its
 * frames are dropped ({@link Action#DROP}) or sent as if no pause had come ({@link Action#FORWARD}),
 * or it keeps obeying and the storm is only counted and reported ({@link Action#ALERT});
 * it is restored once no pause frame for that priority has arrived for {@code restorationNanos}.
 * The watchdog checks every {@code pollNanos} (default: a tenth of the detection time), so a storm
 * is declared between {@code detection} and {@code detection + poll} after the pause began.
 *
 * @param detectionNanos   how long a queue must stay paused before it is declared stormed (&gt; 0)
 * @param restorationNanos how long without a pause frame before a stormed queue is restored (&gt; 0)
 * @param action           what happens to a stormed queue's frames
 * @param pollNanos        how often the watchdog looks (&gt; 0, at most the detection time)
 */
public record PfcWatchdogConfig(long detectionNanos, long restorationNanos, Action action, long pollNanos) {

    /** What a stormed queue does with its frames. */
    public enum Action {
        /** Drop the queued frames and every new arrival for the queue (counted as {@code pfcwd} drops). */
        DROP,
        /** Send the queue's frames ignoring the neighbour's pause. */
        FORWARD,
        /** Keep obeying the neighbour; only count and report the storm. */
        ALERT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    public PfcWatchdogConfig {
        if (detectionNanos <= 0) {
            throw new IllegalArgumentException("pfcwd.detection must be > 0, got " + detectionNanos + " ns");
        }
        if (restorationNanos <= 0) {
            throw new IllegalArgumentException("pfcwd.restoration must be > 0, got " + restorationNanos + " ns");
        }
        java.util.Objects.requireNonNull(action, "pfcwd.action");
        if (pollNanos <= 0 || pollNanos > detectionNanos) {
            throw new IllegalArgumentException("pfcwd.poll must be > 0 and at most the detection time ("
                    + detectionNanos + " ns), got " + pollNanos + " ns");
        }
    }

    /** Detection and restoration times, the poll a tenth of the detection time (at least 1 ns). */
    public PfcWatchdogConfig(long detectionNanos, long restorationNanos, Action action) {
        this(detectionNanos, restorationNanos, action, Math.max(1, detectionNanos / 10));
    }
}

package org.pfcswitch.core;

/**
 * The switch's own PFC deadlock detection ({@link org.pfcswitch.core.deadlock.DeadlockWatch}): every
 * {@code checkNanos} the core searches the wait-for graph it can see (its paused ingress queues,
 * its paused egress queues, and who pauses them); a cycle found at every check for
 * {@code persistNanos} is reported once.
 *
 * @param checkNanos   time between two checks (&gt; 0)
 * @param persistNanos how long a cycle must last to be reported (&gt;= 0)
 * @param graceNanos   how long checks may miss a cycle and still take it for the same one when it
 *                     comes back (&gt;= 0): a worker that lost its CPU for longer than a pause refresh
 *                     lets a frozen loop move for a moment (see {@link org.pfcswitch.core.deadlock.CyclePersistence})
 */
public record DeadlockConfig(long checkNanos, long persistNanos, long graceNanos) {

    /** The live switch's defaults: a check every 10 ms, a cycle reported after 100 ms, a miss of under 50 ms forgiven. */
    public static final DeadlockConfig DEFAULTS = new DeadlockConfig(10_000_000, 100_000_000, 50_000_000);

    /** No grace: a cycle a check misses is gone. */
    public DeadlockConfig(long checkNanos, long persistNanos) {
        this(checkNanos, persistNanos, 0);
    }

    public DeadlockConfig {
        if (checkNanos <= 0) {
            throw new IllegalArgumentException("deadlock.check must be > 0, got " + checkNanos + " ns");
        }
        if (persistNanos < 0) {
            throw new IllegalArgumentException("deadlock.persist must be >= 0, got " + persistNanos + " ns");
        }
        if (graceNanos < 0) {
            throw new IllegalArgumentException("deadlock.grace must be >= 0, got " + graceNanos + " ns");
        }
    }
}

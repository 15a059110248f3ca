package org.pfcswitch.core;

/**
 * The switch's own PFC deadlock detection ({@link org.pfcswitch.core.deadlock.DeadlockWatch}): every
 * {@code checkNanos} the core searches the wait-for graph it can see (its paused ingress queues,
 * its paused egress queues, and who pauses them); a cycle found at every check for
 * {@code persistNanos} is reported once.
 *
 * @param checkNanos   time between two checks (&gt; 0)
 * @param persistNanos how long a cycle must last to be reported (&gt;= 0)
 */
public record DeadlockConfig(long checkNanos, long persistNanos) {

    /** The live switch's defaults: a check every 10 ms, a cycle reported after 100 ms. */
    public static final DeadlockConfig DEFAULTS = new DeadlockConfig(10_000_000, 100_000_000);

    public DeadlockConfig {
        if (checkNanos <= 0) {
            throw new IllegalArgumentException("deadlock.check must be > 0, got " + checkNanos + " ns");
        }
        if (persistNanos < 0) {
            throw new IllegalArgumentException("deadlock.persist must be >= 0, got " + persistNanos + " ns");
        }
    }
}

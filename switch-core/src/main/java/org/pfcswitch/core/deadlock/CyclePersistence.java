package org.pfcswitch.core.deadlock;

/**
 * Whether the cycle a check finds has lasted long enough to be a deadlock: a cycle of paused
 * queues may exist for an instant while traffic still moves (a pause about to expire), a
 * deadlock does not go away. The cycle seen by consecutive checks is kept with the time it was
 * first seen; once it has been found at every check for {@code persistNanos} it is reported,
 * once; it can be reported again only after a check finds it gone (or finds another cycle).
 * Two cycles are the same when they have the same nodes in the same order (the search writes
 * them from their smallest node).
 *
 * <p>With a {@code graceNanos} &gt; 0 a cycle that checks miss for less than that is still the same
 * cycle when it comes back: a live switch whose worker lost its CPU for longer than a pause
 * refresh lets a frozen loop move for a moment, and that moment is not the end of the deadlock.
 * {@code sim} uses no grace: a cycle a check misses is gone.
 *
 * <p>Preallocated for {@code capacity} nodes; allocates nothing. One owner thread.
 */
public final class CyclePersistence {

    private final long persistNanos;
    private final long graceNanos;
    private long missingSince = -1;
    private final int[] node;
    private final int[] slot;
    private int length;
    private long since = -1;
    private boolean reported;

    public CyclePersistence(int capacity, long persistNanos) {
        this(capacity, persistNanos, 0);
    }

    public CyclePersistence(int capacity, long persistNanos, long graceNanos) {
        if (persistNanos < 0 || graceNanos < 0) {
            throw new IllegalArgumentException("persist and grace must be >= 0, got " + persistNanos + " ns and "
                    + graceNanos + " ns");
        }
        this.persistNanos = persistNanos;
        this.graceNanos = graceNanos;
        this.node = new int[capacity];
        this.slot = new int[capacity];
    }

    /**
     * The outcome of one check at {@code now}: the cycle {@code graph} found, or none.
     *
     * @return true exactly when this check makes the cycle a deadlock to report
     */
    public boolean update(BufferDependencyGraph graph, long now) {
        int n = graph.cycleLength();
        if (n == 0) {
            if (length > 0 && missingSince < 0) {
                missingSince = now;
            }
            if (length > 0 && now - missingSince < graceNanos) {
                return false;                       // missed, within the grace: still watched
            }
            length = 0;
            since = -1;
            reported = false;
            missingSince = -1;
            return false;
        }
        missingSince = -1;
        if (!same(graph)) {
            for (int i = 0; i < n; i++) {
                node[i] = graph.cycleNode(i);
                slot[i] = graph.cycleSlot(i);
            }
            length = n;
            since = now;
            reported = false;
        }
        if (!reported && now - since >= persistNanos) {
            reported = true;
            return true;
        }
        return false;
    }

    private boolean same(BufferDependencyGraph graph) {
        if (graph.cycleLength() != length) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (graph.cycleNode(i) != node[i]) {
                return false;
            }
        }
        return true;
    }

    public long persistNanos() {
        return persistNanos;
    }

    /** Nodes of the cycle being watched (0: none). */
    public int length() {
        return length;
    }

    public int node(int i) {
        return node[i];
    }

    /** The edge slot from node {@code i} to node {@code i + 1}, as the search that first saw the cycle took it. */
    public int slot(int i) {
        return slot[i];
    }

    /** When a check first saw the watched cycle (-1: none). */
    public long since() {
        return since;
    }

    /** How long a watched cycle may be missed and still be the same one (0: not at all). */
    public long graceNanos() {
        return graceNanos;
    }

    /** Whether the watched cycle has been reported: a deadlock is present now. */
    public boolean reported() {
        return reported;
    }
}

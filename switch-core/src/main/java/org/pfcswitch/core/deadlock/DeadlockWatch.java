package org.pfcswitch.core.deadlock;

import org.pfcswitch.core.DeadlockConfig;

/**
 * One switch watching itself for PFC deadlocks: the core calls {@link #check} every
 * {@link DeadlockConfig#checkNanos} from its timers (so on the thread that owns it, between two
 * frames); a check searches the switch's {@link LocalWaitFor} graph with the shared
 * {@link BufferDependencyGraph}, and a cycle that {@link CyclePersistence} says has lasted
 * {@link DeadlockConfig#persistNanos} is reported: counted, kept in a short history, and put in the
 * {@link DeadlockEvents} ring another thread logs from. A check allocates nothing.
 */
public final class DeadlockWatch {

    /** Reports kept for {@code show deadlock}, newest last. */
    public static final int HISTORY = 8;

    private final DeadlockConfig config;
    private final LocalWaitFor view;
    private final BufferDependencyGraph search;
    private final CyclePersistence persistence;
    private final CycleRecord[] history = new CycleRecord[HISTORY];
    private final DeadlockEvents events;
    private long checks;
    private long deadlocks;

    public DeadlockWatch(PfcPortState core, DeadlockConfig config) {
        this.config = config;
        this.view = new LocalWaitFor(core);
        int nodes = view.nodes();
        this.search = new BufferDependencyGraph(nodes);
        this.persistence = new CyclePersistence(nodes, config.persistNanos(), config.graceNanos());
        for (int i = 0; i < HISTORY; i++) {
            history[i] = new CycleRecord(nodes);
        }
        this.events = new DeadlockEvents(nodes);
    }

    /**
     * One check at {@code now}.
     *
     * @return true when it reported a deadlock
     */
    public boolean check(long now) {
        checks++;
        view.at(now);
        search.findCycle(view);
        if (!persistence.update(search, now)) {
            return false;
        }
        CycleRecord r = history[(int) (deadlocks % HISTORY)];
        deadlocks++;
        r.set(persistence, now);
        events.put(r);
        return true;
    }

    public DeadlockConfig config() {
        return config;
    }

    public long checks() {
        return checks;
    }

    /** Deadlocks reported since the switch started. */
    public long deadlocks() {
        return deadlocks;
    }

    /** Whether a reported cycle is still found: a deadlock is present now. */
    public boolean present() {
        return persistence.reported();
    }

    /** The cycle the last check found and is timing (reported or not yet), written into {@code into}. */
    public void watched(CycleRecord into) {
        into.set(persistence, persistence.reported() ? reportedAt() : -1);
    }

    private long reportedAt() {
        return deadlocks == 0 ? -1 : history[(int) ((deadlocks - 1) % HISTORY)].reportedNanos;
    }

    /** The {@code i}-th of the last {@code min(deadlocks, HISTORY)} reports, oldest first. */
    public CycleRecord report(int i) {
        long kept = Math.min(deadlocks, HISTORY);
        return history[(int) ((deadlocks - kept + i) % HISTORY)];
    }

    /** Reports for another thread to log. */
    public DeadlockEvents events() {
        return events;
    }
}

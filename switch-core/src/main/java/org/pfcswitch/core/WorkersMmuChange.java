package org.pfcswitch.core;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;

import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;

/**
 * A live change of scheme or parameters ({@link SwitchCore#changeMmu}) on a switch whose ports are
 * split among workers ({@link SwitchWorkers}): every worker swaps its MMU at one point, with every
 * frame in the buffer carried over, charged to the ledger of the worker it arrived at.
 *
 * <p>Each worker runs {@link #runOn} on its own thread between two passes (a {@link CoreMailbox}
 * task), and the workers go through the steps together, each step ending at a barrier:
 * <ol>
 *   <li><b>Stop.</b> The worker stops between passes and waits for the others. Until the last one
 *       arrives the change can be called off ({@link #abandon}, the control side's timeout): then
 *       every worker goes back to its loop and no worker has changed.</li>
 *   <li><b>Frames.</b> Each takes every frame the others handed it into its egress queues. Sending
 *       some of them now hands releases back to their ingress workers, published before the barrier.</li>
 *   <li><b>Releases.</b> Each takes every release sent to it into its old MMU, so nothing crosses
 *       any more, and builds its new MMU (bad parameters stop the change here, before anyone swapped).</li>
 *   <li><b>Adopt.</b> Each puts its new MMU in force and has it adopt every queued frame that arrived
 *       on its own ports, in any worker's queues (all stopped, so reading another's queues is safe:
 *       the barrier orders those writes before these reads), and publishes its new ledger.</li>
 *   <li><b>Resume.</b> Each sends XON for what its new MMU no longer pauses and the PFC frames owed,
 *       and goes back to its loop.</li>
 * </ol>
 * The adoption is exact: per-ingress-queue bytes and headroom are again kept by the one worker
 * that owns the ingress port, and the staleness reserve stays as it was ({@link SwitchWorkers#reserveBytes}).
 * No worker polls its ports during the change: it lasts as long as the slowest worker takes to
 * finish its pass, plus a walk over the queued frames.
 *
 * <p>Waits spin, then yield the CPU (a machine whose workers share cores must let the late one run).
 */
public final class WorkersMmuChange {

    private static final int WAITING = 0;
    private static final int GO = 1;
    private static final int ABANDONED = 2;
    private static final int SPINS_BEFORE_YIELD = 1_000;

    private final SwitchWorkers workers;
    private final MmuConfig next;
    private final int count;
    private final AtomicIntegerArray arrived;
    private final AtomicInteger arrivals = new AtomicInteger();
    private final AtomicInteger state = new AtomicInteger(WAITING);
    /** The step barrier: workers at it, and the number of steps every worker has passed. */
    private final AtomicInteger atBarrier = new AtomicInteger();
    private volatile int stepsPassed;
    /** Set when a worker failed mid-change, so that the others stop waiting for it. */
    private volatile RuntimeException broken;
    private final Mmu[] built;
    private final RuntimeException[] refusals;

    /**
     * @throws IllegalArgumentException the change cannot be made live (see {@link SwitchCore#changeMmu})
     */
    WorkersMmuChange(SwitchWorkers workers, MmuConfig next) {
        workers.core(0).checkLiveChange(next);
        this.workers = workers;
        this.next = next;
        this.count = workers.workers();
        this.arrived = new AtomicIntegerArray(count);
        this.built = new Mmu[count];
        this.refusals = new RuntimeException[count];
    }

    /**
     * Worker {@code worker}'s part, on its thread, between two passes ({@code core} is its core).
     * Returns once every worker has swapped, or at once if the change was abandoned.
     */
    public void runOn(int worker, SwitchCore core, long now) {
        if (core != workers.core(worker)) {
            throw new IllegalArgumentException("worker " + worker + "'s part runs on its own core");
        }
        arrived.set(worker, 1);
        if (arrivals.incrementAndGet() == count) {
            state.compareAndSet(WAITING, GO);
        }
        int s;
        for (int spins = 0; (s = state.get()) == WAITING; spins++) {
            pause(spins);
        }
        if (s == ABANDONED) {
            return;
        }
        try {
            core.takeAllCrossingFrames(now);
            step();
            core.takeAllCrossingReleases(now);
            try {
                built[worker] = core.buildMmu(next);
            } catch (RuntimeException e) {
                refusals[worker] = e;
            }
            step();
            for (RuntimeException r : refusals) {
                if (r != null) {
                    return;               // no worker installs: every one sees the same refusals after the barrier
                }
            }
            Mmu old = core.installAndAdopt(built[worker], next, cores(), workers.workerOfPorts(), worker, now);
            step();
            core.finishChange(old, now);
        } catch (RuntimeException e) {
            if (broken == null) {
                broken = e;
            }
            throw e;
        }
    }

    /**
     * Control side: waits up to {@code timeoutNanos} for every worker to stop for the change.
     *
     * @return true when all stopped (the change goes on to the end), false when the time ran out and
     *         the change was called off before any worker changed ({@link #missing} says who was late)
     */
    public boolean awaitStopped(long timeoutNanos) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        while (state.get() == WAITING) {
            if (System.nanoTime() - deadline >= 0) {
                return !abandon();
            }
            if (Thread.interrupted()) {
                if (abandon()) {
                    throw new InterruptedException();
                }
                Thread.currentThread().interrupt();
                return true;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(50_000);
        }
        return state.get() == GO;
    }

    /** Calls the change off if not every worker has stopped for it yet; true if it was called off. */
    public boolean abandon() {
        return state.compareAndSet(WAITING, ABANDONED) || state.get() == ABANDONED;
    }

    /** The workers that had not stopped for the change (after {@link #abandon}). */
    public List<Integer> missing() {
        List<Integer> late = new ArrayList<>();
        for (int w = 0; w < count; w++) {
            if (arrived.get(w) == 0) {
                late.add(w);
            }
        }
        return late;
    }

    /** Why the new MMU was refused (then no worker changed), or null: every worker changed. Read after every part returned. */
    public RuntimeException refusal() {
        for (RuntimeException r : refusals) {
            if (r != null) {
                return r;
            }
        }
        return null;
    }

    private SwitchCore[] cores() {
        SwitchCore[] cores = new SwitchCore[count];
        for (int w = 0; w < count; w++) {
            cores[w] = workers.core(w);
        }
        return cores;
    }

    /** Waits until every worker has finished the current step. */
    private void step() {
        int passed = stepsPassed;
        if (atBarrier.incrementAndGet() == count) {
            atBarrier.set(0);
            stepsPassed = passed + 1;     // volatile: publishes this step's writes to every worker that reads it
            return;
        }
        for (int spins = 0; stepsPassed == passed; spins++) {
            if (broken != null) {
                throw new IllegalStateException("another worker failed during the change of scheme", broken);
            }
            pause(spins);
        }
    }

    private static void pause(int spins) {
        if (spins < SPINS_BEFORE_YIELD) {
            Thread.onSpinWait();
        } else {
            Thread.yield();
        }
    }
}

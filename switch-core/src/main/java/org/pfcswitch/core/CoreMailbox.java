package org.pfcswitch.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * How control-plane threads act on a {@link SwitchCore} that another thread owns: a read of its
 * state ({@link CoreSnapshot#capture}) or a change ({@link SwitchCore#changeMmu}) is handed to the
 * owner as a {@link Task}, which the owner runs between two driver calls (between bursts), so the
 * core never sees two threads and a change is atomic with respect to the traffic.
 *
 * <p>One slot, one task at a time: callers queue on a lock that only control threads take; the
 * owner never blocks. The owner's side is one volatile read per loop pass ({@link #runPending}),
 * plus, when a task is there, the task itself, a release store and an unpark; it allocates nothing.
 *
 * <p>Memory ordering: the caller publishes the task with a volatile store into {@code pending}
 * (release); the owner reads it with a volatile load (acquire), runs it, then sets the task's
 * {@code done} with a volatile store, so everything the task wrote (a snapshot's arrays) is
 * visible to the caller once it reads {@code done} as true.
 */
public final class CoreMailbox {

    /** Work for the thread that owns the core. Runs on that thread; must not block. */
    @FunctionalInterface
    public interface Task {
        void run(SwitchCore core, long nowNanos);
    }

    private static final class Slot {
        final Task task;
        final Thread caller;
        volatile boolean done;
        RuntimeException failure;      // written before done, read after it

        Slot(Task task, Thread caller) {
            this.task = task;
            this.caller = caller;
        }
    }

    private static final VarHandle PENDING;

    static {
        try {
            PENDING = MethodHandles.lookup().findVarHandle(CoreMailbox.class, "pending", Slot.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // through PENDING
    private volatile Slot pending;
    private final ReentrantLock callers = new ReentrantLock();

    /**
     * Runs {@code task} on the core's owner and waits for it.
     *
     * @throws TimeoutException the owner did not run it within {@code timeoutNanos} (it is not
     *                          polling: stopped, stalled or dead); the task is withdrawn, or, if the
     *                          owner took it meanwhile, waited for until it is done
     * @throws RuntimeException what the task threw (e.g. a change the core refused)
     */
    public void call(Task task, long timeoutNanos) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        Posted posted = post(task, timeoutNanos);
        posted.await(Math.max(0, deadline - System.nanoTime()), timeoutNanos);
    }

    /**
     * Hands {@code task} to the core's owner without waiting for it, so that one control thread can
     * hand tasks to several owners that must run them together ({@link WorkersMmuChange}). The
     * mailbox takes no other task until {@link Posted#await} returned or {@link Posted#withdraw} succeeded.
     *
     * @throws TimeoutException another control request held the mailbox for {@code timeoutNanos}
     */
    public Posted post(Task task, long timeoutNanos) throws TimeoutException, InterruptedException {
        if (!callers.tryLock(timeoutNanos, java.util.concurrent.TimeUnit.NANOSECONDS)) {
            throw new TimeoutException("another control request is still running");
        }
        Slot slot = new Slot(task, Thread.currentThread());
        PENDING.setVolatile(this, slot);
        return new Posted(slot);
    }

    /** A task handed to the owner by {@link #post}; only the thread that posted it may use this. */
    public final class Posted {
        private final Slot slot;
        private boolean closed;

        private Posted(Slot slot) {
            this.slot = slot;
        }

        /**
         * Takes the task back if the owner has not taken it yet.
         *
         * @return true when withdrawn (it will not run); false when the owner has it: {@link #await} it
         */
        public boolean withdraw() {
            if (!closed && PENDING.compareAndSet(CoreMailbox.this, slot, null)) {
                close();
                return true;
            }
            return false;
        }

        /**
         * Waits for the owner to run the task, for at most {@code timeoutNanos} before withdrawing
         * it ({@code statedNanos}: the timeout the message names).
         *
         * @throws TimeoutException the owner did not take it in time; it is withdrawn and will not run
         * @throws RuntimeException what the task threw
         */
        public void await(long timeoutNanos, long statedNanos) throws TimeoutException, InterruptedException {
            long deadline = System.nanoTime() + timeoutNanos;
            try {
                while (!slot.done) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        if (PENDING.compareAndSet(CoreMailbox.this, slot, null)) {
                            throw new TimeoutException("the switch's worker did not take the request within "
                                    + statedNanos / 1_000_000 + " ms (not polling)");
                        }
                        while (!slot.done) {          // the owner has it: it finishes soon
                            Thread.onSpinWait();
                        }
                        break;
                    }
                    LockSupport.parkNanos(this, Math.min(left, 1_000_000));
                    if (Thread.interrupted()) {
                        if (PENDING.compareAndSet(CoreMailbox.this, slot, null)) {
                            throw new InterruptedException();
                        }
                    }
                }
            } finally {
                close();
            }
            if (slot.failure != null) {
                throw slot.failure;
            }
        }

        private void close() {
            if (!closed) {
                closed = true;
                callers.unlock();
            }
        }
    }

    /** Owner side: runs the waiting task, if any. Call between driver calls, once per loop pass. */
    public void runPending(SwitchCore core, long nowNanos) {
        Slot slot = (Slot) PENDING.getVolatile(this);
        if (slot == null || !PENDING.compareAndSet(this, slot, null)) {
            return;
        }
        try {
            slot.task.run(core, nowNanos);
        } catch (RuntimeException e) {
            slot.failure = e;
        }
        slot.done = true;
        LockSupport.unpark(slot.caller);
    }
}

package org.pfcswitch.dataplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Keeps every thread of this process but the poll-mode workers off the workers' CPUs: the JVM's GC
 * and JIT threads, the control thread, emulated hosts in the same process, and whatever starts
 * later. Java cannot set another thread's affinity, so this lists {@code /proc/self/task} and calls
 * {@code sched_setaffinity} on each kernel thread id it has not moved yet: once when created, then
 * every second from a daemon thread of its own ({@code pfcswitch-cpus}) for threads started since
 * (most of those already inherit the reduced set from the thread that created them).
 *
 * <p>A worker enters the reservation from its own thread ({@link #enterWorker}); the sweep and the
 * entry take one lock, so a sweep never moves a worker that has just pinned itself.
 */
public final class CpuReservation implements AutoCloseable {

    private static final Path TASKS = Path.of("/proc/self/task");
    private static final long SWEEP_EVERY_MILLIS = 1000;

    private final BitSet reserved;
    private final BitSet others;
    private final Set<Integer> workers = new HashSet<>();
    private final Set<Integer> moved = new HashSet<>();
    private final Thread sweeper;
    private volatile boolean closed;

    private CpuReservation(BitSet reserved, BitSet others) {
        this.reserved = reserved;
        this.others = others;
        this.sweeper = new Thread(this::sweepEverySecond, "pfcswitch-cpus");
        sweeper.setDaemon(true);
    }

    /**
     * Reserves {@code cpus} for the threads that {@link #enterWorker enter}: moves every other thread
     * off them now and from now on.
     *
     * @throws IllegalArgumentException when {@code cpus} leave no online CPU for the other threads
     */
    public static CpuReservation reserve(BitSet cpus) {
        BitSet others = ThreadAffinity.onlineCpus();
        others.andNot(cpus);
        if (others.isEmpty()) {
            throw new IllegalArgumentException("the workers' CPUs " + ThreadAffinity.format(cpus) + " are every CPU online ("
                    + ThreadAffinity.format(ThreadAffinity.onlineCpus()) + "): no CPU is left for the other threads");
        }
        CpuReservation r = new CpuReservation((BitSet) cpus.clone(), others);
        r.sweep();
        r.sweeper.start();
        return r;
    }

    /** The CPUs every other thread is kept on. */
    public BitSet others() {
        return (BitSet) others.clone();
    }

    /** Pins the calling worker thread to {@code cpus} (within the reservation) and exempts it from the sweep. */
    public void enterWorker(String cpus) {
        synchronized (this) {
            workers.add(ThreadAffinity.currentTid());
            ThreadAffinity.pinCurrentThread(cpus);
        }
    }

    /** The calling worker is done: its thread id may be reused by a thread that must be kept off. */
    public synchronized void leaveWorker() {
        int tid = ThreadAffinity.currentTid();
        workers.remove(tid);
        moved.remove(tid);
    }

    /**
     * Moves every thread not moved yet and not a worker onto the other CPUs.
     *
     * @return the threads moved by this sweep
     */
    public synchronized int sweep() {
        int n = 0;
        for (int tid : tasks()) {
            if (!workers.contains(tid) && !moved.contains(tid)) {
                int errno = ThreadAffinity.setAffinity(tid, others);
                if (errno == 0) {
                    moved.add(tid);
                    n++;
                }
                // else ESRCH: it exited between the listing and the call; nothing to move
            }
        }
        return n;
    }

    private void sweepEverySecond() {
        while (!closed) {
            try {
                Thread.sleep(SWEEP_EVERY_MILLIS);
            } catch (InterruptedException e) {
                return;
            }
            if (!closed) {
                sweep();
            }
        }
    }

    /** The kernel ids of this process's threads now. */
    static Set<Integer> tasks() {
        Set<Integer> tids = new HashSet<>();
        try (Stream<Path> list = Files.list(TASKS)) {
            list.forEach(t -> tids.add(Integer.parseInt(t.getFileName().toString())));
        } catch (IOException e) {
            // no /proc: nothing can be moved, the workers still pin themselves
        }
        return tids;
    }

    /** Stops the sweep and gives the threads it moved that still run every online CPU back. */
    @Override
    public void close() {
        closed = true;
        sweeper.interrupt();
        try {
            sweeper.join(SWEEP_EVERY_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        synchronized (this) {
            BitSet all = ThreadAffinity.onlineCpus();
            for (int tid : moved) {
                ThreadAffinity.setAffinity(tid, all);       // ESRCH for one that exited: nothing to give back
            }
            moved.clear();
        }
    }

    @Override
    public String toString() {
        return "CPUs " + ThreadAffinity.format(reserved) + " reserved for the workers; every other thread of this process"
                + " (control, GC, JIT, emulated hosts) kept on " + ThreadAffinity.format(others);
    }
}

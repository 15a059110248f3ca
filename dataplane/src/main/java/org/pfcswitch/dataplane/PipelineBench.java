package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mempool;

/**
 * The live switch pipeline as {@code pfcswitch bench fwd --pipeline} measures it: the same
 * {@link CoreWorker} poll loops and switch cores that {@code pfcswitch run} uses (parse and
 * classify, forwarding lookup, MMU admission and release, egress queue, scheduler, PFC state,
 * ECN check, TX buffers, bulk frees), on worker threads that can be paused while a reference runs.
 * The only bench-specific code is the egress MAC rewrite (see
 * {@link CoreWorker#CoreWorker(CoreConfig, EthPort[], CoreWorker.Clone[], long, Mempool, long, Arena, long[])}),
 * which keeps frames circulating through looped-back ports, as testpmd's mac mode does.
 *
 * <p>Workers: with N workers the ports are dealt out in turn (port p to worker p mod N), as
 * {@code run}'s {@code workers: N} does: each worker polls its ports and sends on them, so with the
 * bench's port pairs (0 to 1, 1 to 0) and two workers every frame crosses from one worker to the
 * other on the rings between them ({@link CoreWorker#group}): the switch's own price for a second
 * core. The bare forwarder is split the same way (worker w polls its ports and sends on their
 * pairs): each port's one tx queue still has one writer. Each worker thread registers as an EAL
 * thread when {@code registerEal} is set (so it uses the pools' per-lcore caches) and is pinned to
 * its CPU (the w-th of {@code cpus}) when given.
 */
public final class PipelineBench {

    private final PollLoop[] loops;
    private final Thread[] threads;
    private final CoreWorker[] group;           // the switch's workers, or null for the bare forwarder
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final boolean registerEal;
    private final AtomicInteger pausedThreads = new AtomicInteger();
    private final int[] lcores;
    private volatile boolean running = true;
    private volatile boolean pauseRequested;

    private PipelineBench(PollLoop[] loops, CoreWorker[] group, String cpus, boolean registerEal) {
        this.loops = loops;
        this.group = group;
        this.registerEal = registerEal;
        this.lcores = new int[loops.length];
        Arrays.fill(lcores, -1);
        this.threads = new Thread[loops.length];
        int[] cpu = cpus == null ? null : ThreadAffinity.parseCpuList(cpus).stream().toArray();
        for (int w = 0; w < loops.length; w++) {
            int me = w;
            String pin = cpu == null ? null : Integer.toString(cpu[w]);
            threads[w] = new Thread(() -> run(me, pin), loops.length == 1 ? "pfcswitch-pipeline-bench"
                    : "pfcswitch-pipeline-bench-" + w);
            threads[w].setDaemon(true);
        }
    }

    /** {@link #start(CoreConfig, EthPort[], Mempool, long[], int, String, boolean, Arena)} with one worker. */
    public static PipelineBench start(CoreConfig config, EthPort[] ports, Mempool pool, long[] egressMacs,
                                      String cpus, boolean registerEal, Arena arena) {
        return start(config, ports, pool, egressMacs, 1, cpus, registerEal, arena);
    }

    /**
     * Starts the pipeline on {@code workers} worker threads, paused.
     *
     * @param egressMacs per port p: the destination ({@code [2p]}) and source ({@code [2p+1]}) MAC
     *                   written into every frame that leaves port p; null: frames leave as they came
     * @param workers    worker threads, at most one per port; each port must have
     *                   {@link #rxQueuesPerPort} rx and {@link #txQueuesPerPort} tx queues set up
     * @param cpus       one CPU per worker, in worker order (e.g. {@code 1} or {@code 0,1}), or null: not pinned
     */
    public static PipelineBench start(CoreConfig config, EthPort[] ports, Mempool pool, long[] egressMacs, int workers,
                                      String cpus, boolean registerEal, Arena arena) {
        if (egressMacs != null && egressMacs.length != 2 * ports.length) {
            throw new IllegalArgumentException("egressMacs needs a destination and a source MAC per port");
        }
        checkWorkers(workers, ports.length, cpus);
        CoreWorker.Clone[] noClones = new CoreWorker.Clone[ports.length];
        if (workers == 1) {
            return start(new PollLoop[] {new CoreWorker(config, ports, noClones, 0, pool, 1, arena, egressMacs)}, null, cpus,
                    registerEal);
        }
        CoreWorker[] group = CoreWorker.group(config, dealtOut(ports.length, workers), ports, noClones, 0, pool, 1, arena,
                egressMacs, pool.size()).workers();
        return start(group, group, cpus, registerEal);
    }

    /** {@link #startBareForwarder(EthPort[], long[], int, String, boolean, Arena)} with one worker. */
    public static PipelineBench startBareForwarder(EthPort[] ports, long[] egressMacs, String cpus, boolean registerEal,
                                                   Arena arena) {
        return startBareForwarder(ports, egressMacs, 1, cpus, registerEal, arena);
    }

    /**
     * Starts the {@link BareForwarder} reference on port pairs, paused: rx, MAC rewrite, tx to the
     * paired port, nothing else. Workers and CPUs as for {@link #start(CoreConfig, EthPort[], Mempool,
     * long[], int, String, boolean, Arena)}.
     */
    public static PipelineBench startBareForwarder(EthPort[] ports, long[] egressMacs, int workers, String cpus,
                                                   boolean registerEal, Arena arena) {
        checkWorkers(workers, ports.length, cpus);
        int[] workerOf = dealtOut(ports.length, workers);
        PollLoop[] loops = new PollLoop[workers];
        for (int w = 0; w < workers; w++) {
            boolean[] polled = new boolean[ports.length];
            for (int p = 0; p < ports.length; p++) {
                polled[p] = workerOf[p] == w;
            }
            loops[w] = new BareForwarder(ports, egressMacs, arena, polled);
        }
        return start(loops, null, cpus, registerEal);
    }

    /** Rx queues each port needs for {@code workers} workers: one, since a port belongs to one worker. */
    public static int rxQueuesPerPort(int workers) {
        return 1;
    }

    /** Tx queues each port needs for {@code workers} workers: one, since only the port's worker sends on it. */
    public static int txQueuesPerPort(int workers) {
        return 1;
    }

    /** Port p to worker p mod {@code workers}, as {@code run}'s {@code workers: N}. */
    private static int[] dealtOut(int ports, int workers) {
        int[] workerOf = new int[ports];
        for (int p = 0; p < ports; p++) {
            workerOf[p] = p % workers;
        }
        return workerOf;
    }

    private static void checkWorkers(int workers, int ports, String cpus) {
        if (workers < 1 || workers > ports) {
            throw new IllegalArgumentException("workers must be 1 to " + ports + " (one port each at least), got " + workers);
        }
        if (cpus != null) {
            BitSet set = ThreadAffinity.parseCpuList(cpus);
            if (set.cardinality() != workers) {
                throw new IllegalArgumentException("give one CPU per worker: " + workers + " workers, CPUs '" + cpus + "'");
            }
        }
    }

    private static PipelineBench start(PollLoop[] loops, CoreWorker[] group, String cpus, boolean registerEal) {
        PipelineBench b = new PipelineBench(loops, group, cpus, registerEal);
        b.pauseRequested = true;
        for (Thread t : b.threads) {
            t.start();
        }
        while (b.pausedThreads.get() < loops.length && b.failure.get() == null) {
            Thread.onSpinWait();
        }
        return b;
    }

    private void run(int w, String cpu) {
        try {
            if (cpu != null) {
                ThreadAffinity.pinCurrentThread(cpu);
            }
            if (registerEal) {
                lcores[w] = Eal.registerThread();
            }
            PollLoop loop = loops[w];
            while (running) {
                if (pauseRequested) {
                    pauseHere();
                } else {
                    loop.poll();
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        } finally {
            pausedThreads.incrementAndGet();        // a dead thread counts as parked: pause() must not wait for it
            if (registerEal) {
                Eal.unregisterThread();
            }
        }
    }

    private void pauseHere() {
        pausedThreads.incrementAndGet();
        while (pauseRequested && running) {
            LockSupport.parkNanos(1_000_000);
        }
        pausedThreads.decrementAndGet();
    }

    /**
     * Stops polling (the TX buffers were sent at the end of each worker's last pass) and waits until
     * every worker sits parked. Frames between two workers stay in their rings until {@link #resume}.
     */
    public void pause() {
        pauseRequested = true;
        while (pausedThreads.get() < loops.length && anyAlive()) {
            Thread.onSpinWait();
        }
    }

    public void resume() {
        pauseRequested = false;
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
    }

    private boolean anyAlive() {
        for (Thread t : threads) {
            if (t.isAlive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops the threads, releases what the cores still queue (and what is still between workers)
     * and gives back the allocators' mbufs. Frames in the ports' rings stay there.
     *
     * @return frames that were still queued in the cores
     */
    public int stop() throws InterruptedException {
        running = false;
        for (Thread t : threads) {
            LockSupport.unpark(t);
        }
        for (Thread t : threads) {
            t.join(10_000);
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within 10 s");
            }
        }
        if (group != null) {
            return CoreWorker.finishAll(group);
        }
        int held = 0;
        for (PollLoop loop : loops) {
            held += loop.finish();
        }
        return held;
    }

    /** Frames received on every port, all priorities (recent value while running). */
    public long framesReceived() {
        long n = 0;
        for (PollLoop loop : loops) {
            n += loop.framesReceived();
        }
        return n;
    }

    /** Worker 0's switch core, or null for the bare forwarder. */
    public SwitchCore core() {
        return loops[0] instanceof CoreWorker w ? w.core() : null;
    }

    /** Worker 0's thread. */
    public Thread thread() {
        return threads[0];
    }

    /** Every worker thread, in worker order. */
    public List<Thread> threads() {
        return List.of(threads);
    }

    /** Worker 0's EAL lcore id once it registered, else -1. */
    public int lcore() {
        return lcores[0];
    }

    public Throwable failure() {
        return failure.get();
    }
}

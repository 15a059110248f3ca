package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mempool;

/**
 * The live switch pipeline as {@code pfcswitch bench fwd --pipeline} measures it: the same
 * {@link CoreWorker} poll loop and {@link SwitchCore} that {@code pfcswitch run} uses (parse and
 * classify, forwarding lookup, MMU admission and release, egress queue, scheduler, PFC state,
 * ECN check, TX buffers, bulk frees), on one thread that can be paused while the reference runs.
 * The only bench-specific code is the egress MAC rewrite (see
 * {@link CoreWorker#CoreWorker(CoreConfig, EthPort[], Mempool, long, Arena, long[])}), which keeps
 * frames circulating through looped-back ports, as testpmd's mac mode does.
 *
 * <p>The worker thread registers as an EAL thread when {@code registerEal} is set (so it uses
 * the pools' per-lcore caches) and is pinned to {@code cpus} when given.
 */
public final class PipelineBench {

    private final PollLoop worker;
    private final Thread thread;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final boolean registerEal;
    private volatile boolean running = true;
    private volatile boolean pauseRequested;
    private volatile boolean paused;
    private volatile int lcore = -1;

    private PipelineBench(PollLoop worker, String cpus, boolean registerEal) {
        this.worker = worker;
        this.registerEal = registerEal;
        this.thread = new Thread(() -> run(cpus), "pfcswitch-pipeline-bench");
        this.thread.setDaemon(true);
    }

    /**
     * Starts the worker, paused.
     *
     * @param egressMacs per port p: the destination ({@code [2p]}) and source ({@code [2p+1]}) MAC
     *                   written into every frame that leaves port p
     */
    public static PipelineBench start(CoreConfig config, EthPort[] ports, Mempool pool, long[] egressMacs,
                                      String cpus, boolean registerEal, Arena arena) {
        if (egressMacs.length != 2 * ports.length) {
            throw new IllegalArgumentException("egressMacs needs a destination and a source MAC per port");
        }
        return start(new CoreWorker(config, ports, new CoreWorker.Clone[ports.length], 0, pool, 1, arena, egressMacs), cpus,
                registerEal);
    }

    /**
     * Starts the {@link BareForwarder} reference on port pairs, paused: rx, MAC rewrite, tx to the
     * paired port, nothing else.
     */
    public static PipelineBench startBareForwarder(EthPort[] ports, long[] egressMacs, String cpus, boolean registerEal,
                                                   Arena arena) {
        return start(new BareForwarder(ports, egressMacs, arena), cpus, registerEal);
    }

    private static PipelineBench start(PollLoop loop, String cpus, boolean registerEal) {
        PipelineBench b = new PipelineBench(loop, cpus, registerEal);
        b.pauseRequested = true;
        b.thread.start();
        while (!b.paused && b.failure.get() == null) {
            Thread.onSpinWait();
        }
        return b;
    }

    private void run(String cpus) {
        try {
            if (cpus != null) {
                ThreadAffinity.pinCurrentThread(cpus);
            }
            if (registerEal) {
                lcore = Eal.registerThread();
            }
            while (running) {
                if (pauseRequested) {
                    pauseHere();
                } else {
                    worker.poll();
                }
            }
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        } finally {
            paused = true;
            if (registerEal) {
                Eal.unregisterThread();
            }
        }
    }

    private void pauseHere() {
        paused = true;
        while (pauseRequested && running) {
            LockSupport.parkNanos(1_000_000);
        }
        paused = false;
    }

    /** Stops polling (the TX buffers were sent at the end of the last pass) and waits until the worker sits parked. */
    public void pause() {
        pauseRequested = true;
        while (!paused && thread.isAlive()) {
            Thread.onSpinWait();
        }
    }

    public void resume() {
        pauseRequested = false;
        LockSupport.unpark(thread);
    }

    /**
     * Stops the thread, releases what the core still queues and gives back the allocator's
     * mbufs. Frames in the ports' rings stay there.
     *
     * @return frames that were still queued in the core
     */
    public int stop() throws InterruptedException {
        running = false;
        LockSupport.unpark(thread);
        thread.join(10_000);
        if (thread.isAlive()) {
            throw new IllegalStateException(thread.getName() + " did not stop within 10 s");
        }
        return worker.finish();
    }

    /** Frames received on every port, all priorities (recent value while running). */
    public long framesReceived() {
        return worker.framesReceived();
    }

    /** The switch core, or null for the bare forwarder. */
    public SwitchCore core() {
        return worker instanceof CoreWorker w ? w.core() : null;
    }

    public Thread thread() {
        return thread;
    }

    /** The worker's EAL lcore id once it registered, else -1. */
    public int lcore() {
        return lcore;
    }

    public Throwable failure() {
        return failure.get();
    }

}

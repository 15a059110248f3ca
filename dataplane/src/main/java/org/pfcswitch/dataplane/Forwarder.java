package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Tsc;

/**
 * The poll-mode forwarder: starts one {@link Worker} thread per worker plan, each owning its
 * ports, and stops them cleanly. Ports must be started before and are left started after
 * ({@link DpdkPorts} owns their life cycle), so a forwarder can be replaced without touching them.
 *
 * <p>Stopping: every worker leaves its loop, the threads are joined, then the stopping thread
 * sends or frees what the TX buffers and hand-over rings still hold. After {@link #stop} no mbuf
 * is held by the forwarder.
 */
public final class Forwarder implements AutoCloseable {

    /** The default drain period: a frame alone in a TX buffer waits at most this long. */
    public static final long DEFAULT_DRAIN_NANOS = 100_000;
    private static final int HANDOFF_RING_SIZE = 4096;

    /**
     * What a forwarder runs.
     *
     * @param ports      switch port i is {@code ports.get(i)}, started, with rx and tx queue 0
     * @param workers    which ports each worker owns (every port exactly once) and its CPUs
     * @param table      the forwarding decision, shared by the workers
     * @param classifier PCP or DSCP trust
     * @param drainNanos how long a frame may wait in a TX buffer for company
     * @param reflect    benchmark only: swap MACs on egress so looped-back ports keep frames circulating
     */
    public record Plan(List<EthPort> ports, List<WorkerPlan> workers, ForwardingTable table,
                       PriorityClassifier classifier, long drainNanos, boolean reflect) {
        public Plan {
            ports = List.copyOf(ports);
            workers = List.copyOf(workers);
        }
    }

    /**
     * @param ports switch port numbers this worker owns
     * @param cpus  CPU list to pin the thread to ({@code "1"}, {@code "2-3"}, {@code "1,3"}), or null for no pinning
     */
    public record WorkerPlan(List<Integer> ports, String cpus) {
        public WorkerPlan {
            ports = List.copyOf(ports);
        }
    }

    private final Arena arena = Arena.ofShared();
    private final List<Worker> workers = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final int portCount;
    private boolean stopped;

    private Forwarder(Plan plan, PacketMemory memory) {
        this.portCount = plan.ports().size();
        int[] ownerOf = ownersOf(plan);
        int w = plan.workers().size();
        HandoffRing[][] rings = new HandoffRing[w][w];        // rings[from][to]
        for (int from = 0; from < w; from++) {
            for (int to = 0; to < w; to++) {
                rings[from][to] = from == to ? null : new HandoffRing(HANDOFF_RING_SIZE);
            }
        }
        EthPort[] ethPorts = plan.ports().toArray(EthPort[]::new);
        long drainTicks = Math.max(1, (long) (Tsc.hz() * (plan.drainNanos() / 1e9)));
        for (int i = 0; i < w; i++) {
            HandoffRing[] in = new HandoffRing[w];
            for (int from = 0; from < w; from++) {
                in[from] = rings[from][i];
            }
            int[] owned = plan.workers().get(i).ports().stream().mapToInt(Integer::intValue).toArray();
            workers.add(new Worker(i, owned, ethPorts, ownerOf, rings[i], in, plan.table(), plan.classifier(),
                    memory, drainTicks, plan.reflect(), arena));
        }
    }

    /** Starts the workers' threads ({@code pfcswitch-worker-N}). */
    public static Forwarder start(Plan plan, PacketMemory memory) {
        Forwarder f = new Forwarder(plan, memory);
        for (int i = 0; i < f.workers.size(); i++) {
            Worker worker = f.workers.get(i);
            String cpus = plan.workers().get(i).cpus();
            Thread t = new Thread(() -> f.runWorker(worker, cpus), "pfcswitch-worker-" + i);
            t.setDaemon(true);
            f.threads.add(t);
        }
        f.threads.forEach(Thread::start);
        return f;
    }

    private void runWorker(Worker worker, String cpus) {
        try {
            if (cpus != null) {
                ThreadAffinity.pinCurrentThread(cpus);
            }
            if (Eal.isRunning()) {
                Eal.registerThread();      // an lcore id: pools created with a cache serve this thread from it
            }
            worker.run();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
            workers.forEach(Worker::requestStop);    // one worker down stops the switch, loudly
        } finally {
            Eal.unregisterThread();
        }
    }

    private static int[] ownersOf(Plan plan) {
        int[] owner = new int[plan.ports().size()];
        java.util.Arrays.fill(owner, -1);
        for (int w = 0; w < plan.workers().size(); w++) {
            for (int p : plan.workers().get(w).ports()) {
                if (p < 0 || p >= owner.length) {
                    throw new IllegalArgumentException("worker " + w + " owns port " + p + ", which does not exist");
                }
                if (owner[p] >= 0) {
                    throw new IllegalArgumentException("port " + p + " is owned by workers " + owner[p] + " and " + w);
                }
                owner[p] = w;
            }
        }
        for (int p = 0; p < owner.length; p++) {
            if (owner[p] < 0) {
                throw new IllegalArgumentException("port " + p + " is owned by no worker");
            }
        }
        if (plan.table().ports() != owner.length) {
            throw new IllegalArgumentException("forwarding table has " + plan.table().ports() + " ports, plan has " + owner.length);
        }
        return owner;
    }

    /**
     * Stops and joins the workers, then sends what they buffered (freeing what the ports refuse)
     * and frees frames left in hand-over rings. Idempotent.
     *
     * @throws IllegalStateException if a worker does not stop within 10 s (its buffers are then
     *                               left alone: freeing under a running thread would corrupt them)
     */
    public synchronized void stop() {
        if (stopped) {
            return;
        }
        workers.forEach(Worker::requestStop);
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within 10 s");
            }
        }
        workers.forEach(Worker::finish);
        stopped = true;
        arena.close();
    }

    /**
     * Pauses the workers and waits until each has sent its TX buffers and parked: they then touch
     * no port and use no CPU, and keep their compiled loop for {@link #resume}. A benchmark
     * measures a reference on the same core in between; a control plane could reconfigure.
     *
     * @throws IllegalStateException if a worker does not pause within 10 s
     */
    public synchronized void pause() {
        workers.forEach(Worker::requestPause);
        long deadline = System.nanoTime() + 10_000_000_000L;
        for (Worker w : workers) {
            while (!w.isPaused() && failure.get() == null) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("worker " + w.id() + " did not pause within 10 s");
                }
                Thread.onSpinWait();
            }
        }
    }

    /** Lets paused workers poll again. */
    public synchronized void resume() {
        workers.forEach(Worker::requestResume);
    }

    @Override
    public void close() {
        stop();
    }

    /** The first exception a worker died of, or null. A dead worker stops all of them. */
    public Throwable failure() {
        return failure.get();
    }

    public boolean isRunning() {
        return !stopped && failure.get() == null;
    }

    public int portCount() {
        return portCount;
    }

    /** Each worker's counters (single writer each); sum over them for totals. */
    public List<PortCounters> counters() {
        return workers.stream().map(Worker::counters).toList();
    }

    /** The worker threads, e.g. to read their allocated bytes. */
    public List<Thread> threads() {
        return List.copyOf(threads);
    }

    /** Sum of {@code pick(counters)[index]} over the workers, read opaquely. */
    public long total(java.util.function.Function<PortCounters, long[]> pick, int index) {
        long sum = 0;
        for (Worker w : workers) {
            sum += PortCounters.get(pick.apply(w.counters()), index);
        }
        return sum;
    }
}

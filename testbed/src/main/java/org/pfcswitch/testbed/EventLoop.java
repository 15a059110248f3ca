package org.pfcswitch.testbed;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;

/**
 * The discrete-event loop of a virtual-time run, split into partitions that may run on threads of
 * their own, with the same events in the same order for any number of partitions.
 *
 * <p><b>The order.</b> Events run by (time, key). The key is the node that scheduled the event
 * (the one whose event was running, or {@link #OUTSIDE} the run, before every node) and then that
 * node's own count of the events it has scheduled. A node's count depends only on the events the
 * node itself ran, so the key is known where the event is made, without asking any other
 * partition, and two events at one nanosecond always run in the same order.
 *
 * <p><b>Partitions.</b> Each switch and the hosts cabled to it belong to one partition
 * ({@link #register(Node, int)}), which keeps its events in an {@link EventQueue} of its own.
 * Nodes registered without one (traffic generators that add flows as the run goes, the deadlock
 * detector, PFC storms) belong to the global queue: they may read or drive any node, so their
 * events run alone, between windows. The partitions run in windows of virtual time: a window starts
 * at the earliest pending event and is shorter than the lookahead, the smallest delay of a wire
 * between two partitions, so whatever a partition sends another during a window arrives after
 * it; a window also ends at the next global event. Every partition runs its window's events
 * (in parallel on {@link #EventLoop(int, int) several threads}, a thread's partitions one after
 * another); then frames sent across partitions
 * are handed over, each wire's in its order, and due global events run. Within a partition the
 * events run in the order one loop of all of them would give them, so the run is the same.
 *
 * <p>Frames that cross a partition boundary are copied into the receiving partition's slab when
 * they are handed over ({@link #frames}): each partition allocates and frees only in its own.
 *
 * <p>Every dispatched event is folded into its node's fingerprint, and {@link #traceDigest()}
 * folds those in node order: a 64-bit fingerprint of the whole run that the determinism tests
 * compare, whatever the partitioning.
 */
public final class EventLoop implements AutoCloseable {

    /** A frame's last bit arrived at {@code port}; {@code arg} is its handle. */
    public static final int FRAME = 0;
    /** A node asked to be woken (line free, pause over, timer due). */
    public static final int WAKE = 1;
    /** A flow starts; {@code arg} is its id. */
    public static final int FLOW_START = 2;

    /** The source of events scheduled while no node's event runs (building, between runs). */
    static final int OUTSIDE = -1;
    /** Bits of a key below the source node: a node may schedule 2^40 events. */
    private static final int KEY_NODE_SHIFT = 40;
    private static final long FNV_OFFSET = 0xCBF2_9CE4_8422_2325L;
    private static final long FNV_PRIME = 0x0100_0000_01B3L;
    /** The lookahead of one partition: no window ends but the run's and the global events'. */
    private static final long UNBOUNDED = Long.MAX_VALUE / 4;

    private final EventQueue[] partitions;
    private final EventQueue global;
    private final int threads;
    private Node[] byId = new Node[0];
    private int[] queueOf = new int[0];
    private long[] digests = new long[0];
    /** By node id + 1 (0: {@link #OUTSIDE}): the events the node has scheduled so far. */
    private long[] scheduled = new long[1];
    private LaneRoute[] lanes = new LaneRoute[0];
    private long lookahead = UNBOUNDED;
    private HeapSlab[] slabs;
    private long now;
    private Workers workers;
    /** True while the partitions run a window on several threads; read by whoever must not run then. */
    private boolean parallelWindow;

    /** A loop of one partition. */
    public EventLoop() {
        this(1);
    }

    /** A loop of {@code partitions} partitions, each run on a thread of its own when there are several. */
    public EventLoop(int partitions) {
        this(partitions, partitions);
    }

    /**
     * A loop of {@code partitions} partitions run by {@code threads} threads, thread t running
     * partitions t, t + threads, ... one after the other in each window.
     */
    public EventLoop(int partitions, int threads) {
        if (partitions < 1) {
            throw new IllegalArgumentException("an event loop needs >= 1 partition, got " + partitions);
        }
        if (threads < 1 || threads > partitions) {
            throw new IllegalArgumentException("an event loop of " + partitions + " partitions runs on 1.." + partitions
                    + " threads, got " + threads);
        }
        this.partitions = new EventQueue[partitions];
        for (int i = 0; i < partitions; i++) {
            this.partitions[i] = new EventQueue(this, i);
        }
        this.threads = threads;
        this.global = new EventQueue(this, partitions);
        global.lead(this.partitions);
    }

    public int partitions() {
        return partitions.length;
    }

    /** The thread that runs partition {@code partition}: thread t runs partitions t, t + threads, ... */
    int threadOf(int partition) {
        return partition % threads;
    }

    /** Adds a node to the global queue (it runs between windows and may act on any node) and returns its id. */
    public int register(Node n) {
        return register(n, partitions.length);
    }

    /** Adds a node to partition {@code partition} and returns its id. */
    int register(Node n, int partition) {
        if (partition < 0 || partition > partitions.length) {
            throw new IllegalArgumentException("no partition " + partition + " of " + partitions.length);
        }
        int id = byId.length;
        byId = Arrays.copyOf(byId, id + 1);
        byId[id] = n;
        queueOf = Arrays.copyOf(queueOf, id + 1);
        queueOf[id] = partition;
        digests = Arrays.copyOf(digests, id + 1);
        digests[id] = FNV_OFFSET;
        scheduled = Arrays.copyOf(scheduled, id + 2);
        return id;
    }

    /** The partitions' frame slabs, by partition: a frame crossing partitions is copied from one to the other. */
    void frames(HeapSlab[] perPartition) {
        slabs = perPartition.clone();
    }

    Node[] nodes() {
        return byId;
    }

    long[] nodeDigests() {
        return digests;
    }

    public long now() {
        return now;
    }

    /** Events run so far. */
    public long eventsDispatched() {
        long n = global.dispatched;
        for (EventQueue q : partitions) {
            n += q.dispatched;
        }
        return n;
    }

    /**
     * With {@code -Dpfcswitch.sim.eventCounts=true}: the events run so far by the class of the node
     * and the kind, such as {@code "RoceHost WAKE"}; otherwise empty.
     */
    public SortedMap<String, Long> eventCounts() {
        SortedMap<String, Long> byClassAndKind = new TreeMap<>();
        if (!EventQueue.COUNTING) {
            return byClassAndKind;
        }
        String[] kindNames = {"FRAME", "WAKE", "FLOW_START"};
        for (int n = 0; n < byId.length; n++) {
            for (int k = 0; k < kindNames.length; k++) {
                long c = global.count(n, k);
                for (EventQueue q : partitions) {
                    c += q.count(n, k);
                }
                if (c > 0) {
                    byClassAndKind.merge(byId[n].getClass().getSimpleName() + " " + kindNames[k], c, Long::sum);
                }
            }
        }
        return byClassAndKind;
    }

    public int pendingEvents() {
        int n = global.pendingEvents();
        for (EventQueue q : partitions) {
            n += q.pendingEvents();
        }
        for (LaneRoute lane : lanes) {
            n += lane.outbox == null ? 0 : lane.outbox.count;
        }
        return n;
    }

    /** Slots the queues order: at most one per lane, plus the events scheduled outside lanes. */
    int queuedSlots() {
        int n = global.queuedSlots();
        for (EventQueue q : partitions) {
            n += q.queuedSlots();
        }
        return n;
    }

    /** The smallest delay of a wire between two partitions (the windows are shorter), or none with one partition. */
    long lookaheadNanos() {
        return lookahead == UNBOUNDED ? -1 : lookahead;
    }

    /** Whether the partitions are running a window on several threads now. */
    boolean inParallelWindow() {
        return parallelWindow;
    }

    /** A fingerprint of every event run so far: per node its events' time, kind and port in order, the nodes in id order. */
    public long traceDigest() {
        long d = FNV_OFFSET;
        for (long nodeDigest : digests) {
            d = (d ^ nodeDigest) * FNV_PRIME;
        }
        return d;
    }

    /** The next key of the node running on {@code q} now: its id, then its count of events scheduled. */
    private long nextKey(EventQueue q) {
        int slot = q.source + 1;
        return (long) slot << KEY_NODE_SHIFT | scheduled[slot]++;
    }

    /**
     * Schedules an event; {@code at} must not be in the past. The node running now schedules for
     * itself or for a node of its partition; a global node for any.
     */
    public void schedule(long at, int nodeId, int eventKind, int eventPort, long eventArg) {
        EventQueue q = queueOf[nodeId] == partitions.length ? global : partitions[queueOf[nodeId]];
        q.schedule(at, nextKey(q), nodeId, eventKind, eventPort, eventArg);
    }

    /** {@link #openLane(int, int, int, long)} for a sender in the receiver's partition. */
    int openLane(int nodeId, int eventPort) {
        return openLane(nodeId, nodeId, eventPort, 0);
    }

    /**
     * Opens a lane: the FIFO of FRAME events of a wire from node {@code fromNode} to port
     * {@code eventPort} of node {@code toNode}, whose frames arrive in time order at least
     * {@code delayNanos} after they start. Between two partitions it sets the lookahead.
     */
    int openLane(int fromNode, int toNode, int eventPort, long delayNanos) {
        EventQueue from = queueOf[fromNode] == partitions.length ? global : partitions[queueOf[fromNode]];
        EventQueue to = queueOf[toNode] == partitions.length ? global : partitions[queueOf[toNode]];
        LaneRoute lane = new LaneRoute(from, to, to.openLane(toNode, eventPort), from == to ? null : new Outbox());
        if (from != to) {
            // A frame takes at least 1 ns on its line (serialization rounds up), so even a 0 ns wire looks ahead 1 ns.
            lookahead = Math.min(lookahead, Math.max(1, delayNanos));
        }
        lanes = Arrays.copyOf(lanes, lanes.length + 1);
        lanes[lanes.length - 1] = lane;
        return lanes.length - 1;
    }

    /** Schedules a frame with handle {@code eventArg} on lane {@code laneId}, arriving at {@code at}. */
    void scheduleOnLane(int laneId, long at, long eventArg) {
        LaneRoute lane = lanes[laneId];
        long key = nextKey(lane.from);
        if (lane.outbox == null) {
            lane.to.scheduleOnLane(lane.local, at, key, eventArg);
        } else {
            lane.outbox.add(at, key, eventArg);
        }
    }

    /** Runs events until none is left at or before {@code until}; the clock then reads {@code until}. */
    public void runUntil(long until) {
        while (true) {
            long g = global.nextTime();
            long start = g;
            for (EventQueue q : partitions) {
                start = Math.min(start, q.nextTime());
            }
            if (start > until || start == Long.MAX_VALUE) {      // MAX_VALUE: nothing is pending
                break;
            }
            long end = Math.min(Math.min(until, g), start > Long.MAX_VALUE - lookahead ? Long.MAX_VALUE : start + lookahead - 1);
            runPartitions(end);
            handOver(end);
            if (g == end) {
                now = end;
                global.runUntil(end);
            }
        }
        now = Math.max(now, until);
        global.advanceTo(now);
        for (EventQueue q : partitions) {
            q.advanceTo(now);
        }
    }

    private void runPartitions(long end) {
        if (partitions.length == 1) {
            partitions[0].runUntil(end);
            return;
        }
        parallelWindow = true;
        if (threads == 1) {
            try {
                for (EventQueue q : partitions) {
                    q.runUntil(end);
                }
            } finally {
                parallelWindow = false;
            }
            return;
        }
        if (workers == null) {
            workers = new Workers();
        }
        try {
            workers.run(end);
        } finally {
            parallelWindow = false;
        }
    }

    /** Delivers the frames sent across partitions in the window that ended at {@code end}, lane by lane. */
    private void handOver(long end) {
        for (LaneRoute lane : lanes) {
            Outbox o = lane.outbox;
            if (o == null || o.count == 0) {
                continue;
            }
            for (int i = 0; i < o.count; i++) {
                if (o.time[i] <= end) {
                    throw new IllegalStateException("a frame between partitions arrives at " + o.time[i]
                            + " ns, inside the window that ended at " + end + " ns: the lookahead is wrong");
                }
                lane.to.scheduleOnLane(lane.local, o.time[i], o.key[i], moveFrame(o.arg[i], lane));
            }
            o.count = 0;
        }
    }

    /** The frame {@code handle} of the sender's slab, copied into a slot of the receiver's (the sender's freed). */
    private long moveFrame(long handle, LaneRoute lane) {
        if (slabs == null) {
            return handle;
        }
        HeapSlab from = slabs[lane.from.partition];
        HeapSlab to = slabs[lane.to.partition];
        if (from == to) {
            return handle;                  // partitions of one thread share its slab
        }
        int length = from.length(handle);
        long copy = to.allocateOrFail(length);
        MemorySegment.copy(from.bytes(), from.offset(handle), to.bytes(), to.offset(copy), length);
        from.free(handle);
        return copy;
    }

    /** Stops the partitions' threads, if any ran. */
    @Override
    public void close() {
        if (workers != null) {
            workers.stop();
            workers = null;
        }
    }

    /** Where a lane's frames go: straight into the receiver's queue, or through an outbox between partitions. */
    private record LaneRoute(EventQueue from, EventQueue to, int local, Outbox outbox) {}

    /** The frames one wire sent across partitions in the current window, in the order sent. */
    private static final class Outbox {
        long[] time = new long[64];
        long[] key = new long[64];
        long[] arg = new long[64];
        int count;

        void add(long at, long k, long a) {
            if (count == time.length) {
                time = Arrays.copyOf(time, count * 2);
                key = Arrays.copyOf(key, count * 2);
                arg = Arrays.copyOf(arg, count * 2);
            }
            time[count] = at;
            key[count] = k;
            arg[count] = a;
            count++;
        }
    }

    /**
     * The threads but the first, which is the caller's: all meet at a barrier before a window and
     * after it; thread t runs partitions t, t + threads, ...
     */
    private final class Workers {
        private final CyclicBarrier barrier = new CyclicBarrier(threads);
        private long end;
        private boolean stopping;
        private final Throwable[] failures = new Throwable[threads];

        Workers() {
            for (int p = 1; p < threads; p++) {
                int thread = p;
                Thread t = new Thread(() -> work(thread), "sim-partition-" + p);
                t.setDaemon(true);
                t.start();
            }
        }

        private void work(int thread) {
            while (true) {
                await();
                if (stopping) {
                    return;
                }
                try {
                    runShare(thread, end);
                } catch (Throwable t) {
                    failures[thread] = t;
                }
                await();
            }
        }

        /** Runs the partitions of {@code thread} ({@link #threadOf}) up to the window's end. */
        private void runShare(int thread, long windowEnd) {
            for (int p = thread; p < partitions.length; p += threads) {
                partitions[p].runUntil(windowEnd);
            }
        }

        void run(long windowEnd) {
            end = windowEnd;
            await();
            try {
                runShare(0, windowEnd);
            } catch (Throwable t) {
                failures[0] = t;
            }
            await();
            for (int p = 0; p < failures.length; p++) {
                Throwable t = failures[p];
                if (t != null) {
                    failures[p] = null;
                    stop();
                    workers = null;
                    if (t instanceof RuntimeException r) {
                        throw r;
                    }
                    if (t instanceof Error e) {
                        throw e;
                    }
                    throw new IllegalStateException(t);
                }
            }
        }

        void stop() {
            stopping = true;
            await();
        }

        private void await() {
            try {
                barrier.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("the simulation was interrupted", e);
            } catch (BrokenBarrierException e) {
                throw new IllegalStateException("a partition's thread stopped", e);
            }
        }
    }
}

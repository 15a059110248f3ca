package org.pfcswitch.mmu.scheme;

import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;

/**
 * BFC's per-hop, per-flow backpressure state (Goyal et al., NSDI'22 §3.3; scheme spec III.2–III.5),
 * whose dataplane half (the upstreamQ shim, the control frames, the queues) is the switch core's
 * {@code BfcLink}:
 * <ul>
 *   <li>Dynamic queue assignment: a flow-table entry per (egress port, hash of the flow id) maps a
 *       flow to one of the port's physical queues. An entry with no packets in the switch that has
 *       been idle for STICKY = 2·HRTT (or was never used) is reassigned to an empty queue, or to a
 *       random one when none is empty; otherwise the flow keeps its queue, which preserves order.</li>
 *   <li>Pause counters per (ingress port, upstream queue): a packet that finds its queue above
 *       {@code Th = HRTT·μ/N_active} is marked and counted; the upstream queue is paused on the
 *       0→1 transition and resumed on 1→0, i.e. once every marked packet has left.</li>
 * </ul>
 * Queue 0 of every port is the control queue and is never assigned. Queue lengths are bytes, flow
 * and pause counters are packets. Nothing allocates after construction.
 */
public final class BfcBackpressure {
    /** Receives pause and resume requests for upstream queues. */
    public interface Listener {
        void onPauseUpstream(int inPort, int upstreamQueue, long nowNanos);

        void onResumeUpstream(int inPort, int upstreamQueue, long nowNanos);
    }

    /**
     * How flows map to a port's physical queues (spec III.3): the paper's dynamic assignment, and
     * the two variants it compares it with (§6, App. A.10): stochastic (SFQ-style, the flow hash
     * picks the queue) and single (every flow in one FIFO, as under PFC).
     */
    public enum Assignment {
        DYNAMIC, STOCHASTIC, SINGLE
    }

    /** {@code upstreamQueue} of a packet whose sender is not BFC-capable: never counted. */
    public static final int NO_UPSTREAM = -1;

    private final int queuesPerPort;
    private final int upstreamQueues;
    private final int flowTablePerPort;
    private final long stickyNs;
    private final long thresholdMinBytes;
    private final boolean preferUnpaused;
    private final RandomSource random;
    private final Assignment assignment;
    private final int classes;
    private final int flowTablePerClass;
    private final int[] classOfPriority;       // by priority 0..7
    private final int[] classFirstQueue;       // by class
    private final int[] classQueues;           // by class
    private final long[] bdpBytes;            // per egress port: HRTT_max · μ
    private final int[] ftQueue;
    private final int[] ftPackets;
    private final long[] ftTouched;
    private final boolean[] ftValid;
    private final long[] queueBytes;
    private final boolean[] pausedByDownstream;
    private final boolean[] active;
    private final int[] activeCount;
    private final int[] rotatingStart;        // by port * classes + class
    private final int[] pauseCounter;
    private Listener listener = new Listener() {
        @Override
        public void onPauseUpstream(int inPort, int upstreamQueue, long nowNanos) {}

        @Override
        public void onResumeUpstream(int inPort, int upstreamQueue, long nowNanos) {}
    };

    BfcBackpressure(MmuConfig cfg, int queuesPerPort, int upstreamQueues, int flowTableFactor, long hrttNs,
            long stickyNs, long thresholdMinBytes, boolean preferUnpaused, Assignment assignment, int classes,
            RandomSource random) {
        if (classes < 1 || classes > queuesPerPort - 1) {
            throw new IllegalArgumentException("bfc classes must be 1.." + (queuesPerPort - 1)
                    + " (each needs a data queue), got " + classes);
        }
        this.assignment = assignment;
        this.classes = classes;
        // Priorities split evenly into classes, the highest priorities in the highest class; the data
        // queues 1..N-1 split into contiguous blocks, the highest class on the highest queue numbers.
        classOfPriority = new int[MmuConfig.PRIORITIES];
        for (int p = 0; p < MmuConfig.PRIORITIES; p++) {
            classOfPriority[p] = p * classes / MmuConfig.PRIORITIES;
        }
        classFirstQueue = new int[classes];
        classQueues = new int[classes];
        int data = queuesPerPort - 1;
        for (int c = 0, first = 1; c < classes; c++) {
            classFirstQueue[c] = first;
            classQueues[c] = data / classes + (c < data % classes ? 1 : 0);
            first += classQueues[c];
        }
        int ports = cfg.portCount();
        this.queuesPerPort = queuesPerPort;
        this.upstreamQueues = upstreamQueues;
        this.flowTablePerPort = flowTableFactor * queuesPerPort;
        this.flowTablePerClass = flowTablePerPort / classes;
        this.stickyNs = stickyNs;
        this.thresholdMinBytes = thresholdMinBytes;
        this.preferUnpaused = preferUnpaused;
        this.random = random;
        bdpBytes = new long[ports];
        for (int p = 0; p < ports; p++) {
            bdpBytes[p] = cfg.port(p).bytesIn(hrttNs);
        }
        int entries = ports * flowTablePerPort;
        ftQueue = new int[entries];
        ftPackets = new int[entries];
        ftTouched = new long[entries];
        ftValid = new boolean[entries];
        queueBytes = new long[ports * queuesPerPort];
        pausedByDownstream = new boolean[ports * queuesPerPort];
        active = new boolean[ports * queuesPerPort];
        activeCount = new int[ports];
        rotatingStart = new int[ports * classes];
        pauseCounter = new int[ports * upstreamQueues];
    }

    public void setListener(Listener listener) {
        this.listener = listener;
    }

    /** The flow-table entry of a flow: each class has its own part of the port's table, so classes never share one. */
    private int entry(int egressPort, int flowHash, int priority) {
        return egressPort * flowTablePerPort + classOfPriority[priority] * flowTablePerClass
                + Math.floorMod(flowHash, flowTablePerClass);
    }

    /**
     * The physical queue (1..queuesPerPort−1) of egress port {@code egressPort} a packet of this
     * flow goes to: one of the queues of its priority's class (spec III.9; one class by default).
     */
    public int assignQueue(int egressPort, int flowHash, int priority, long now) {
        int c = classOfPriority[priority];
        return switch (assignment) {
            case DYNAMIC -> dynamicQueue(egressPort, flowHash, priority, c, now);
            case STOCHASTIC -> classFirstQueue[c] + Math.floorMod(flowHash, classQueues[c]);
            case SINGLE -> classFirstQueue[c];
        };
    }

    /** Dynamic assignment: an empty queue for a new or idle flow, the same queue while it has packets queued. */
    private int dynamicQueue(int egressPort, int flowHash, int priority, int c, long now) {
        int ent = entry(egressPort, flowHash, priority);
        if (ftPackets[ent] == 0 && (!ftValid[ent] || now - ftTouched[ent] >= stickyNs)) {
            int q = emptyQueue(egressPort, c);
            ftQueue[ent] = q > 0 ? q : classFirstQueue[c] + random.nextInt(classQueues[c]);
            ftValid[ent] = true;
        }
        return ftQueue[ent];
    }

    /** The first empty queue of class {@code c} after a rotating start (0 if none); unpaused ones first if configured. */
    private int emptyQueue(int egressPort, int c) {
        int data = classQueues[c];
        int startAt = egressPort * classes + c;
        int start = rotatingStart[startAt];
        int fallback = 0;
        for (int i = 0; i < data; i++) {
            int q = classFirstQueue[c] + (start + i) % data;
            int k = egressPort * queuesPerPort + q;
            if (queueBytes[k] == 0) {
                if (!preferUnpaused || !pausedByDownstream[k]) {
                    rotatingStart[startAt] = (start + i + 1) % data;
                    return q;
                }
                if (fallback == 0) {
                    fallback = q;
                }
            }
        }
        return fallback;
    }

    /**
     * Records an admitted packet in queue {@code (egressPort, queue)}.
     *
     * @return whether the packet was marked (it counts towards its upstream queue's pause); the
     *         caller keeps this bit with the packet and passes it back to {@link #onDequeue}
     */
    public boolean onEnqueue(int inPort, int upstreamQueue, int egressPort, int queue, int flowHash, int priority,
            long bytes, long now) {
        int ent = entry(egressPort, flowHash, priority);
        ftPackets[ent]++;
        ftTouched[ent] = now;
        int k = egressPort * queuesPerPort + queue;
        boolean marked = upstreamQueue != NO_UPSTREAM && queueBytes[k] > threshold(egressPort);
        if (marked && pauseCounter[inPort * upstreamQueues + upstreamQueue]++ == 0) {
            listener.onPauseUpstream(inPort, upstreamQueue, now);
        }
        queueBytes[k] += bytes;
        refreshActive(egressPort, k);
        return marked;
    }

    /** Records the departure of a packet recorded by {@link #onEnqueue}. */
    public void onDequeue(int inPort, int upstreamQueue, int egressPort, int queue, int flowHash, int priority,
            long bytes, boolean marked, long now) {
        int k = egressPort * queuesPerPort + queue;
        queueBytes[k] -= bytes;
        refreshActive(egressPort, k);
        int ent = entry(egressPort, flowHash, priority);
        ftPackets[ent]--;
        ftTouched[ent] = now;
        if (marked && --pauseCounter[inPort * upstreamQueues + upstreamQueue] == 0) {
            listener.onResumeUpstream(inPort, upstreamQueue, now);
        }
    }

    /** A PAUSE or RESUME from the downstream neighbour for one of our egress queues. */
    public void onDownstreamPause(int egressPort, int queue, boolean paused) {
        int k = egressPort * queuesPerPort + queue;
        pausedByDownstream[k] = paused;
        refreshActive(egressPort, k);
    }

    public boolean isPausedByDownstream(int egressPort, int queue) {
        return pausedByDownstream[egressPort * queuesPerPort + queue];
    }

    private void refreshActive(int egressPort, int k) {
        boolean now = queueBytes[k] > 0 && !pausedByDownstream[k];
        if (now != active[k]) {
            active[k] = now;
            activeCount[egressPort] += now ? 1 : -1;
        }
    }

    /** Th = max(Th_min, HRTT·μ/max(1, N_active)): one hop's BDP at the fair per-queue drain rate. */
    public long threshold(int egressPort) {
        return Math.max(thresholdMinBytes, bdpBytes[egressPort] / Math.max(1, activeCount[egressPort]));
    }

    public int activeQueues(int egressPort) {
        return activeCount[egressPort];
    }

    public long queueBytes(int egressPort, int queue) {
        return queueBytes[egressPort * queuesPerPort + queue];
    }

    /** Marked packets from this upstream queue still in the switch. */
    public int pauseCounter(int inPort, int upstreamQueue) {
        return pauseCounter[inPort * upstreamQueues + upstreamQueue];
    }

    public int queuesPerPort() {
        return queuesPerPort;
    }

    /** Priority classes: their queues are served in strict priority, the highest class first. */
    public int classes() {
        return classes;
    }

    /** The data queues of class {@code c} as a bit mask (queue q = bit q; at most 64 queues). */
    public long classQueueMask(int c) {
        long block = classQueues[c] >= 64 ? -1L : (1L << classQueues[c]) - 1;
        return block << classFirstQueue[c];
    }

    /** Pause counters per ingress port: upstream queue ids 0..upstreamQueues−1 are backpressured. */
    public int upstreamQueues() {
        return upstreamQueues;
    }
}

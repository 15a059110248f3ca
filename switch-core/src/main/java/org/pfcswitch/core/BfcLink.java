package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/**
 * Backpressure Flow Control (Goyal et al., NSDI'22) on every port, the dataplane half of the
 * {@code bfc} scheme (scheme spec III.3–III.5, wire format IV.2):
 * <ul>
 *   <li>A frame joins the physical queue its flow's flow-table entry holds
 *       ({@link BfcBackpressure#assignQueue}); queue 0 is left to control, so data uses 1..N−1 and
 *       the core's scheduler serves them by DRR (with priority classes configured, each class has
 *       its own block of queues, served in strict priority between classes, DRR within).</li>
 *   <li>A frame that finds its queue over the threshold counts towards the upstream queue it came
 *       from (the {@code upstreamQ} of its shim); the first such frame makes this port owe the
 *       upstream neighbour a PAUSE for that queue, the departure of the last one a RESUME. On the
 *       way out the shim's {@code upstreamQ} is rewritten to our queue id, which is what the next
 *       hop will pause.</li>
 *   <li>PAUSE, RESUME and BITMAP frames from the downstream neighbour pause and resume our egress
 *       queues; they never expire. While any upstream queue of a port is paused, the port repeats
 *       its whole pause state in a BITMAP every {@code bitmapPeriodNanos}, and once more after the
 *       last resume, so a lost PAUSE or RESUME heals within a period.</li>
 * </ul>
 * Transitions are coalesced per upstream queue: the frame sent says the state at the moment the
 * line is free (a PAUSE undone before it left becomes a RESUME, harmless and idempotent).
 * Frames from senders without a shim are never backpressured (BFC − NIC).
 *
 * <p>With the ports split among workers ({@link SwitchWorkers}) each worker's link runs the
 * per-flow state of its own ports' egress (flow table, queue lengths, pauses received: a BFC frame
 * from downstream arrives on the port whose egress it pauses, so on its owner) and the pauses
 * sent upstream from its own ports. A frame from another worker's port is assigned its queue and
 * counted here, at its egress, from the {@link #flowWord} it crossed with; the 0→1 and 1→0
 * transitions of its upstream queue's count go back to the ingress port's worker on a ring
 * ({@link WorkerCrossings#sendUpstreamPause}). There each upstream queue is paused while any
 * worker's queues hold a marked frame from it: the count of workers asking, this one included.
 */
final class BfcLink implements LinkControl, BfcBackpressure.Listener {

    /** The core keeps a 32-bit mask of a port's queues; upstream pause state is a 64-bit mask. */
    private static final int MAX_QUEUES = Integer.SIZE;
    private static final int MAX_UPSTREAM_QUEUES = Long.SIZE;

    private final BfcBackpressure backpressure;
    private final int queuesPerPort;
    private final int upstreamQueues;
    private final long bitmapPeriodNanos;
    private final SwitchCounters counters;
    private final DeadlineHeap timers;
    private final int timerBase;

    // Towards the upstream neighbour of each port (we are its downstream).
    private final long[] pausedUpstream;      // by port: bit u = our PAUSE of its queue u is in force
    private final long[] changedUpstream;     // by port: queues whose state changed since the last frame
    private final boolean[] bitmapOwed;       // by port
    private final boolean[] bitmapTimerOn;    // by port
    private final int[] sequence;             // by port: the next control frame's seq
    private final int[] pauseRequests;        // by port * upstreamQueues + u: workers whose queues hold a marked frame from it
    private final boolean[] listed;           // by port: in the work list
    private final int[] work;
    private int workCount;

    // From the downstream neighbour of each port (we are its upstream).
    private final int[] pausedByDownstream;   // by port: bit q = egress queue q is paused
    private final int[] lastSequenceSeen;     // by port, -1 before the first frame
    private final long[] pausedSince;         // by port * queues + q
    private final long[] pausedCompleted;     // by port * queues + q

    /** The rings to the other workers, or null when this link runs every port. */
    private WorkerCrossings crossings;

    /** The link control of an MMU whose scheme pauses per queue: it runs on the scheme's own backpressure state. */
    static BfcLink of(Mmu mmu, long bitmapPeriodNanos, SwitchCounters counters, DeadlineHeap timers, int timerBase) {
        return new BfcLink(((org.pfcswitch.mmu.scheme.Bfc) mmu.scheme()).backpressure(), bitmapPeriodNanos, counters, timers, timerBase);
    }

    BfcLink(BfcBackpressure backpressure, long bitmapPeriodNanos, SwitchCounters counters, DeadlineHeap timers,
            int timerBase) {
        if (backpressure.queuesPerPort() > MAX_QUEUES) {
            throw new IllegalArgumentException("bfc queuesPerPort must be 2.." + MAX_QUEUES
                    + " in the switch core, got " + backpressure.queuesPerPort());
        }
        if (backpressure.upstreamQueues() > MAX_UPSTREAM_QUEUES) {
            throw new IllegalArgumentException("bfc upstreamQueues must be 1.." + MAX_UPSTREAM_QUEUES
                    + " in the switch core, got " + backpressure.upstreamQueues());
        }
        this.backpressure = backpressure;
        this.queuesPerPort = backpressure.queuesPerPort();
        this.upstreamQueues = backpressure.upstreamQueues();
        this.bitmapPeriodNanos = bitmapPeriodNanos;
        this.counters = counters;
        this.timers = timers;
        this.timerBase = timerBase;
        int ports = counters.ports();
        pausedUpstream = new long[ports];
        changedUpstream = new long[ports];
        bitmapOwed = new boolean[ports];
        bitmapTimerOn = new boolean[ports];
        sequence = new int[ports];
        pauseRequests = new int[ports * upstreamQueues];
        listed = new boolean[ports];
        work = new int[ports];
        pausedByDownstream = new int[ports];
        lastSequenceSeen = new int[ports];
        Arrays.fill(lastSequenceSeen, -1);
        pausedSince = new long[ports * queuesPerPort];
        pausedCompleted = new long[ports * queuesPerPort];
        backpressure.setListener(this);
    }

    /** The rings to the other workers (null with one worker); wiring, once, before the first frame. */
    void connect(WorkerCrossings crossings) {
        this.crossings = crossings;
    }

    @Override
    public int queuesPerPort() {
        return queuesPerPort;
    }

    /** The queue masks of the priority classes, highest class first: served in strict priority, DRR within. */
    int[] classBands() {
        int[] bands = new int[backpressure.classes()];
        for (int c = 0; c < bands.length; c++) {
            bands[c] = (int) backpressure.classQueueMask(bands.length - 1 - c);
        }
        return bands;
    }

    // ------------------------------------------------------------------ data path

    /**
     * A frame's flow as its egress needs it: the flow hash (low 32 bits), the shim's upstreamQ
     * as received (16 bits, {@link Bfc#NO_UPSTREAM_QUEUE} without a shim) and the shim's offset
     * from the frame's start (high 16 bits, -1 without a shim).
     */
    @Override
    public long flowWord(ParsedFrame frame) {
        long shim = frame.hasBfcShim() ? frame.bfcShimOffset() - frame.frameOffset() : -1;
        return (frame.flowHash() & 0xFFFF_FFFFL) | (long) (frame.upstreamQueue() & 0xFFFF) << 32 | shim << 48;
    }

    @Override
    public int queueFor(long flowWord, int priority, int outPort, long now) {
        return backpressure.assignQueue(outPort, (int) flowWord, priority, now);
    }

    /** Per-flow queue state and the upstream queue each frame counts towards. */
    @Override
    public boolean tracksQueuedFrames() {
        return true;
    }

    @Override
    public void onEnqueued(PacketSlots slots, int slot, long flowWord, int inPort, int outPort, int queue, long now) {
        int hash = (int) flowWord;
        int upstream = (int) (flowWord >>> 32 & 0xFFFF);
        if (upstream == Bfc.NO_UPSTREAM_QUEUE) {
            upstream = BfcBackpressure.NO_UPSTREAM;
        } else if (upstream >= upstreamQueues) {
            counters.bfcBadUpstreamQueue[inPort]++;    // a queue id we keep no counter for: not backpressured
            upstream = BfcBackpressure.NO_UPSTREAM;
        }
        slots.flowHash[slot] = hash;
        slots.upstreamQueue[slot] = (short) upstream;
        slots.shimOffset[slot] = (short) (flowWord >>> 48);
        slots.marked[slot] = backpressure.onEnqueue(inPort, upstream, outPort, queue, hash, slots.priority(slot),
                slots.length(slot), now);
    }

    @Override
    public void onDequeued(PacketSlots slots, int slot, int outPort, int queue, MemorySegment bytes, long frameOffset,
                           long now) {
        backpressure.onDequeue(slots.inPort(slot), slots.upstreamQueue[slot], outPort, queue, slots.flowHash[slot],
                slots.priority(slot), slots.length(slot), slots.marked[slot], now);
        if (slots.shimOffset[slot] >= 0) {
            Bfc.setUpstreamQueue(bytes, frameOffset + slots.shimOffset[slot], queue);   // what the next hop pauses
        }
    }

    // ------------------------------------------------------------------ pauses we send upstream

    /**
     * This worker's queues came to hold a marked frame from {@code (inPort, upstreamQueue)}: asked
     * of the ingress port's worker, this one or, on a ring, another. The other workers' requests
     * come back in here on the ingress worker ({@link WorkerCrossings#takeUpstreamPauses}).
     */
    @Override
    public void onPauseUpstream(int inPort, int upstreamQueue, long nowNanos) {
        if (crossings != null && !crossings.owns(inPort)) {
            sendToIngressWorker(inPort, upstreamQueue, true);
        } else if (pauseRequests[inPort * upstreamQueues + upstreamQueue]++ == 0) {
            pauseUpstream(inPort, upstreamQueue, nowNanos);
        }
    }

    /** The last marked frame from {@code (inPort, upstreamQueue)} left this worker's queues: as {@link #onPauseUpstream}. */
    @Override
    public void onResumeUpstream(int inPort, int upstreamQueue, long nowNanos) {
        if (crossings != null && !crossings.owns(inPort)) {
            sendToIngressWorker(inPort, upstreamQueue, false);
        } else if (--pauseRequests[inPort * upstreamQueues + upstreamQueue] == 0) {
            resumeUpstream(inPort, upstreamQueue);
        }
    }

    private void sendToIngressWorker(int inPort, int upstreamQueue, boolean pause) {
        if (!crossings.sendUpstreamPause(inPort, upstreamQueue, pause)) {
            counters.crossingRingFull++;            // cannot happen with the ring sized to the switch's frames
        }
    }

    private void pauseUpstream(int inPort, int upstreamQueue, long nowNanos) {
        boolean firstOfPort = pausedUpstream[inPort] == 0;
        pausedUpstream[inPort] |= 1L << upstreamQueue;
        changed(inPort, upstreamQueue);
        if (firstOfPort && bitmapPeriodNanos > 0 && !bitmapTimerOn[inPort]) {
            bitmapTimerOn[inPort] = true;
            timers.set(timerBase + inPort, nowNanos + bitmapPeriodNanos);
        }
    }

    private void resumeUpstream(int inPort, int upstreamQueue) {
        pausedUpstream[inPort] &= ~(1L << upstreamQueue);
        changed(inPort, upstreamQueue);
    }

    private void changed(int port, int upstreamQueue) {
        changedUpstream[port] |= 1L << upstreamQueue;
        list(port);
    }

    private void list(int port) {
        if (!listed[port]) {
            listed[port] = true;
            work[workCount++] = port;
        }
    }

    @Override
    public boolean owesFrame(int port) {
        return changedUpstream[port] != 0 || bitmapOwed[port];
    }

    @Override
    public int nextOwingPort() {
        if (workCount == 0) {
            return -1;
        }
        int port = work[--workCount];
        listed[port] = false;
        return port;
    }

    @Override
    public int writeOwedFrame(int port, MemorySegment bytes, long offset, long srcMac, long now) {
        int seq = sequence[port];
        sequence[port] = (seq + 1) & 0xFFFF;
        long changed = changedUpstream[port];
        if (changed != 0) {
            int u = Long.numberOfTrailingZeros(changed);
            changedUpstream[port] = changed & (changed - 1);
            if ((pausedUpstream[port] >>> u & 1) != 0) {
                counters.bfcPauseTx[port]++;
                return Bfc.writePause(bytes, offset, Bfc.NEAREST_BRIDGE, srcMac, seq, u);
            }
            counters.bfcResumeTx[port]++;
            return Bfc.writeResume(bytes, offset, Bfc.NEAREST_BRIDGE, srcMac, seq, u);
        }
        bitmapOwed[port] = false;
        counters.bfcBitmapTx[port]++;
        return Bfc.writeBitmap(bytes, offset, Bfc.NEAREST_BRIDGE, srcMac, seq, upstreamQueues, pausedUpstream[port], 0);
    }

    /** The bitmap timer: repeat the pause state while anything is paused, and once after. */
    @Override
    public void onTimer(int port, long now) {
        bitmapOwed[port] = true;
        list(port);
        if (pausedUpstream[port] != 0) {
            timers.set(timerBase + port, now + bitmapPeriodNanos);
        } else {
            bitmapTimerOn[port] = false;
        }
    }

    @Override
    public long pauseFramesSent(int port) {
        return counters.bfcPauseTx[port];
    }

    // ------------------------------------------------------------------ pauses we receive from downstream

    @Override
    public int receive(int port, ParsedFrame frame, long now) {
        int type = frame.etherType();
        if (type == Ethernet.TYPE_MAC_CONTROL) {
            counters.foreignControl[port]++;            // PFC on a BFC port: never forwarded, not obeyed
            return CONSUMED;
        }
        if (type != Bfc.TYPE_CONTROL) {
            return NOT_CONTROL;
        }
        if (!frame.isBfcControl()) {
            counters.malformedDropped[port]++;                 // truncated or bad version/op: dropped
            return CONSUMED;
        }
        if (Bfc.isStale(frame.bfcSeq(), lastSequenceSeen[port])) {
            counters.bfcControlIgnored[port]++;
            return CONSUMED;
        }
        int paused;
        switch (frame.bfcOp()) {
            case Bfc.OP_PAUSE, Bfc.OP_RESUME -> {
                int q = frame.bfcQueue();
                if (q >= queuesPerPort) {
                    counters.bfcControlIgnored[port]++;
                    return CONSUMED;
                }
                int bit = 1 << q;
                paused = frame.bfcOp() == Bfc.OP_PAUSE ? pausedByDownstream[port] | bit : pausedByDownstream[port] & ~bit;
            }
            default -> paused = (int) Bfc.pausedInBitmap(frame, queuesPerPort);   // BITMAP: the whole state
        }
        counters.bfcControlRx[port]++;
        lastSequenceSeen[port] = frame.bfcSeq();
        int resumed = pausedByDownstream[port] & ~paused;
        applyDownstreamState(port, paused, now);
        return resumed != 0 ? RESUMED : CONSUMED;
    }

    private void applyDownstreamState(int port, int paused, long now) {
        int changed = pausedByDownstream[port] ^ paused;
        for (int v = changed; v != 0; v &= v - 1) {
            int q = Integer.numberOfTrailingZeros(v);
            int k = port * queuesPerPort + q;
            boolean nowPaused = (paused >>> q & 1) != 0;
            if (nowPaused) {
                pausedSince[k] = now;
            } else {
                pausedCompleted[k] += now - pausedSince[k];
            }
            backpressure.onDownstreamPause(port, q, nowPaused);
        }
        pausedByDownstream[port] = paused;
    }

    @Override
    public int pausedMask(int port, int candidates, long now) {
        return pausedByDownstream[port] & candidates;
    }

    @Override
    public long earliestResume(int port, int queues) {
        return DeadlineHeap.NEVER;                      // BFC pauses last until the downstream resumes them
    }

    @Override
    public long pausedNanos(int port, int queue, long now) {
        int k = port * queuesPerPort + queue;
        return pausedCompleted[k] + ((pausedByDownstream[port] >>> queue & 1) != 0 ? now - pausedSince[k] : 0);
    }
}

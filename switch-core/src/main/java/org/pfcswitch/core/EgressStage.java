package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.mmu.Mmu;

/**
 * The egress stage: every admitted frame from the moment it joins an egress queue until it is on
 * the line. Each port has a shaper at its line rate; when the line is free the port sends an owed
 * control frame first, else the head of the queue its scheduler picks among those the downstream
 * neighbour has not paused; a frame on the line always finishes. A leaving frame is ECN-marked at
 * the {@link EcnStage}'s point and released from the buffer ({@link AdmissionStage#release}).
 *
 * <p><b>Owns</b>: the per-frame metadata ({@link PacketSlots}), the egress queues, the scheduler's
 * state, each port's shaper ({@code lineFreeAt}) and its line timer (timer id {@code port}), and the
 * tx counters. <b>Reads</b>: the link control's pauses and owed frames. Only the worker that owns
 * the core's egress ports touches it.
 */
final class EgressStage {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;
    private final PacketMemory memory;
    private final MemorySegment bytes;
    private final FrameAllocator allocator;
    private final FrameSink sink;
    private final LinkControl link;
    private final AdmissionStage admission;
    private final EcnStage ecnStage;
    private final FrameCost frameCost;
    private final SwitchCounters counters;
    /** Timer {@code port} is the port's line wake-up; the other ids are not this stage's. */
    private final DeadlineHeap timers;
    private final PacketSlots slots = new PacketSlots(1024);
    private final EgressQueues queues;
    private final EgressScheduler scheduler;
    private final long[] speedBps;
    private final long[] portMac;
    private final long[] lineFreeAt;
    // lineNanos(): per port, the last frame length sent and its LineRate time (spares a division per frame)
    private final int[] lastLength;
    private final long[] lastLineNanos;
    /** {@link CoreConfig#shaped}: false = every line is always free and a port sends all it may at once. */
    private final boolean shaped;
    /** Whether an admitted frame may skip the queue of an idle port ({@link #admitted}): the link keeps no per-frame state. */
    private final boolean cutThrough;
    /** The rings to the other workers, or null when one worker runs every port. */
    private WorkerCrossings crossings;

    /**
     * @param speedBps each port's line rate
     * @param portMac  each port's MAC, the source of the control frames it sends
     */
    EgressStage(CoreConfig config, long[] speedBps, long[] portMac, EcnStage ecnStage, FrameCost frameCost,
                PacketMemory memory, FrameAllocator allocator, FrameSink sink, LinkControl link,
                EgressScheduler scheduler, AdmissionStage admission, SwitchCounters counters, DeadlineHeap timers) {
        this.ports = config.ports();
        this.memory = memory;
        this.bytes = memory.bytes();
        this.allocator = allocator;
        this.sink = sink;
        this.link = link;
        this.scheduler = scheduler;
        this.admission = admission;
        this.ecnStage = ecnStage;
        this.frameCost = frameCost;
        this.counters = counters;
        this.timers = timers;
        this.queues = new EgressQueues(ports, link.queuesPerPort(), 64);
        this.speedBps = speedBps;
        this.portMac = portMac;
        this.lineFreeAt = new long[ports];
        this.lastLength = new int[ports];
        this.lastLineNanos = new long[ports];
        Arrays.fill(lastLength, -1);
        this.shaped = config.shaped();
        this.cutThrough = !link.tracksQueuedFrames();
    }

    // ------------------------------------------------------------------ enqueue

    /**
     * A frame this worker admitted for one of its own ports: queued and the port served, or, when
     * that would send it at once anyway, sent without the queue (cut-through). That is the case
     * when the port is idle: its line is free, it owes no control frame, all its queues are empty
     * (so the scheduler's only candidate is this frame's queue), the queue is strict (its pick and
     * dequeue touch no scheduler state) and not paused, and the link control keeps no per-frame
     * state ({@link LinkControl#tracksQueuedFrames}). The frame then leaves exactly as
     * {@link #serve} would send it after {@link #enqueue}: the same ECN decisions, release,
     * counters (a queueing delay of 0), line time, transmission and timer, in the same order;
     * only the queue and slot bookkeeping, which would be undone at once, is skipped. On an idle
     * fabric nearly every frame goes this way.
     */
    void admitted(long flowWord, int inPort, int priority, int outPort, int queue, long handle, int length,
                  short ipv4Offset, int shadowsHeld, long now) {
        if (sendsAtOnce(outPort, queue, now)) {
            depart(outPort, priority, handle, length, inPort, shadowsHeld, ipv4Offset, now);
            sendAtOnce(outPort, priority, queue, handle, length, now);
            return;
        }
        enqueue(flowWord, inPort, priority, outPort, queue, handle, length, ipv4Offset, shadowsHeld, now);
        serve(outPort, now);
    }

    /**
     * A frame another worker admitted for one of this worker's ports: it joins the queue this
     * worker's link control picks for its flow, then goes on as {@link #admitted}.
     */
    void crossedIn(long flowWord, int inPort, int priority, int outPort, long handle, int length, short ipv4Offset,
                   int shadowsHeld, long now) {
        admitted(flowWord, inPort, priority, outPort, link.queueFor(flowWord, priority, outPort, now), handle, length,
                ipv4Offset, shadowsHeld, now);
    }

    /** Whether a frame admitted now for {@code (outPort, queue)} would leave at once, without the queue ({@link #admitted}). */
    boolean sendsAtOnce(int outPort, int queue, long now) {
        return cutThrough && lineFreeAt[outPort] <= now && queues.nonEmptyMask(outPort) == 0
                && !link.owesFrame(outPort) && scheduler.isStrict(outPort, queue)
                && link.pausedMask(outPort, 1 << queue, now) == 0;
    }

    /**
     * A frame that {@link #sendsAtOnce} and has left the buffer ({@link #depart}, or never charged:
     * {@link AdmissionStage#admit}) goes on the line as {@link #serve} would send it: a queueing
     * delay of 0, its line time, and the port's timer.
     */
    void sendAtOnce(int outPort, int priority, int queue, long handle, int length, long now) {
        scheduler.onDequeued(outPort, queue, length, true);         // a strict queue: keeps no state
        int key = outPort * PRIORITIES + priority;
        counters.txFrames[key]++;                   // countTransmitted with no wait: the delay sum and maximum stay
        counters.txBytes[key] += length;
        startOnLine(outPort, handle, length, now);
        // What serve does next with its queues empty: nothing waits for the line, unless the
        // release made the port owe a control frame (shaped: wake when the line frees; else send it).
        if (!link.owesFrame(outPort)) {
            timers.cancel(outPort);
        } else if (shaped) {
            timers.set(outPort, lineFreeAt[outPort]);
        } else {
            serve(outPort, now);
        }
    }

    /**
     * Queues an admitted frame at {@code (outPort, queue)} with what the stage needs when it leaves.
     * {@link #admitted} serves the port afterwards. {@code flowWord} is what the link control keeps
     * of the frame's flow ({@link LinkControl#flowWord}).
     *
     * @param shadowsHeld the shadow schemes that admitted it ({@link ShadowMmus#admit})
     */
    private void enqueue(long flowWord, int inPort, int priority, int outPort, int queue, long handle, int length,
                 short ipv4Offset, int shadowsHeld, long now) {
        int slot = slots.take();
        slots.put(slot, handle, length, inPort, priority, ipv4Offset, now, shadowsHeld);
        link.onEnqueued(slots, slot, flowWord, inPort, outPort, queue, now);
        queues.push(outPort, queue, slot, length);
    }

    // ------------------------------------------------------------------ transmit

    /**
     * Starts the next frame on {@code port} if its line is free, and sets the port's wake-up for
     * when it can do something next (line free, a pause running out, a control-frame retry), if ever.
     * Every path ends by setting or cancelling timer {@code port} ({@link SwitchCore#onTimer} relies on it).
     *
     * <p>With the shaper off the line is free again as soon as a frame started, so the port goes on
     * (the loop) until it has nothing it may send: owed control frames first, then what the
     * scheduler picks, each decided exactly as a fresh call would. A loop rather than a call back
     * into this method: a recursive method is not inlined into its caller, and the frame path goes
     * through here once per frame.
     */
    void serve(int port, long now) {
        while (true) {
            if (lineFreeAt[port] > now) {
                timers.set(port, lineFreeAt[port]);
                return;
            }
            long wake = DeadlineHeap.NEVER;
            if (link.owesFrame(port)) {
                if (sendControl(port, now)) {
                    if (shaped) {
                        wakeWhenLineFrees(port);
                        return;
                    }
                    continue;                               // unshaped: the line is free again at once
                }
                if (link.owesFrame(port)) {                 // no buffer: data may go, retry after one frame time
                    wake = now + frameCost.lineNanos(Ethernet.MIN_FRAME_BYTES, speedBps[port]);
                }
            }
            int nonEmpty = queues.nonEmptyMask(port);
            if (nonEmpty != 0) {
                int paused = link.pausedMask(port, nonEmpty, now);
                int eligible = nonEmpty & ~paused;
                if (eligible != 0) {
                    transmitHead(port, scheduler.pick(port, eligible, queues, slots), now);
                    if (shaped) {
                        wakeWhenLineFrees(port);
                        return;
                    }
                    continue;                               // unshaped: the line is free again at once
                }
                wake = Math.min(wake, link.earliestResume(port, paused));
            }
            if (wake == DeadlineHeap.NEVER) {
                timers.cancel(port);
            } else {
                timers.set(port, wake);
            }
            return;
        }
    }

    /**
     * A frame just went on {@code port}'s line: wake up when it frees if something waits for it (a
     * queued frame, paused or not, or a control frame owed). If nothing does, no wake-up: whatever
     * comes next (an arrival, a control frame) calls {@link #serve}, which sends at once if the
     * line is free by then and sets the wake-up if not. When a port's queues are empty after a
     * frame, as on an idle fabric nearly always, that saves a timer per frame (in {@code sim}, an
     * event per frame and hop) and changes no frame's time.
     */
    private void wakeWhenLineFrees(int port) {
        if (queues.nonEmptyMask(port) == 0 && !link.owesFrame(port)) {
            timers.cancel(port);
        } else {
            timers.set(port, lineFreeAt[port]);
        }
    }

    private void transmitHead(int port, int queue, long now) {
        int slot = queues.peek(port, queue);
        int length = slots.length(slot);
        queues.pop(port, queue, length);
        scheduler.onDequeued(port, queue, length, (queues.nonEmptyMask(port) >>> queue & 1) == 0);
        long handle = slots.handle(slot);
        int priority = slots.priority(slot);
        depart(port, priority, handle, length, slots.inPort(slot), slots.shadows(slot), slots.ipv4Offset(slot), now);
        link.onDequeued(slots, slot, port, queue, bytes, memory.offset(handle), now);
        countTransmitted(port * PRIORITIES + priority, length, now - slots.enqueuedAt(slot));
        slots.release(slot);
        startOnLine(port, handle, length, now);
    }

    /** A frame leaves egress {@code (port, priority)}: ECN-marked at the {@link EcnStage}'s point and released. */
    private void depart(int port, int priority, long handle, int length, int inPort, int held, short ipv4Offset,
                        long now) {
        long ipv4At = ipv4Offset >= 0 ? memory.offset(handle) + ipv4Offset : -1;
        if (ipv4Offset >= 0) {
            ecnStage.leaving(admission, port, priority, ipv4At);
        }
        release(port, priority, length, inPort, held, now);
        if (ipv4Offset >= 0) {
            ecnStage.released(admission, port, priority, ipv4At);
        }
    }

    /**
     * A frame of {@code length} bytes from {@code inPort} left egress {@code (port, priority)}:
     * released from the buffer by the worker whose ledger charged it (this one's admission stage,
     * or the ingress port's worker).
     */
    private void release(int port, int priority, int length, int inPort, int held, long now) {
        if (crossings == null || crossings.owns(inPort)) {
            admission.release(inPort, priority, port, length, held, now);
        } else if (!crossings.sendRelease(inPort, priority, port, length, held)) {
            counters.crossingRingFull++;            // cannot happen with rings sized to the switch's frames
        }
    }

    /** The frame goes on {@code port}'s line at {@code now}: busy for its line time (shaper on), and to the driver. */
    private void startOnLine(int port, long handle, int length, long now) {
        lineFreeAt[port] = shaped ? now + lineNanos(port, length) : now;
        sink.transmit(port, handle, length, now);
    }

    /** The rings to the other workers (null with one worker); wiring, once, before the first frame. */
    void connect(WorkerCrossings crossings) {
        this.crossings = crossings;
    }

    /** The tx counters of a frame leaving queue {@code key} after {@code waited} ns. (Its own method: keeps {@link #transmitHead} inlinable.) */
    private void countTransmitted(int key, int length, long waited) {
        counters.queueDelaySumNanos[key] += waited;
        counters.queueDelayMaxNanos[key] = Math.max(counters.queueDelayMaxNanos[key], waited);
        counters.txFrames[key]++;
        counters.txBytes[key] += length;
    }

    /** {@link LineRate#nanos} of {@code length} bytes on {@code port}, remembered for the port's last length. */
    private long lineNanos(int port, int length) {
        if (lastLength[port] != length) {
            lastLength[port] = length;
            lastLineNanos[port] = frameCost.lineNanos(length, speedBps[port]);
        }
        return lastLineNanos[port];
    }

    /**
     * Sends the control frame {@code port} owes, if it still says something.
     *
     * @return true when a frame went on the line
     */
    private boolean sendControl(int port, long now) {
        long handle = allocator.allocate(Ethernet.MIN_FRAME_BYTES);
        if (handle == FrameAllocator.NO_HANDLE) {
            counters.controlNoBuffer[port]++;
            return false;
        }
        int length = link.writeOwedFrame(port, bytes, memory.offset(handle), portMac[port], now);
        if (length == 0) {
            allocator.free(handle);
            return false;
        }
        lineFreeAt[port] = shaped ? now + lineNanos(port, length) : now;
        sink.transmit(port, handle, length, now);
        return true;
    }

    /** Serves the ports that came to owe a control frame during the last event (the MMU calls back mid-operation). */
    void sendOwedControlFrames(long now) {
        for (int port = link.nextOwingPort(); port >= 0; port = link.nextOwingPort()) {
            serve(port, now);
        }
    }

    // ------------------------------------------------------------------ emptying queues

    /** Drops every frame of egress queue {@code (port, queue)} (a stormed queue under action drop), released from the buffer. */
    void dropQueue(int port, int queue, long now) {
        counters.pfcwdDrops[port * PRIORITIES + queue] += emptyQueue(port, queue, now);
    }

    /**
     * Shutdown: takes every frame out of the egress queues, releases it from the buffer and gives its
     * handle back to the allocator.
     *
     * @return frames discarded
     */
    int discardQueuedFrames(long now) {
        int discarded = 0;
        for (int port = 0; port < ports; port++) {
            for (int queue = 0; queue < queues.queuesPerPort(); queue++) {
                discarded += emptyQueue(port, queue, now);
            }
        }
        return discarded;
    }

    /**
     * Frees every frame of egress queue {@code (port, queue)}, released from the buffer and the link
     * control as if it had left: a stormed queue under action drop, or shutdown.
     *
     * @return frames freed
     */
    private int emptyQueue(int port, int queue, long now) {
        int n = 0;
        while (queues.frames(port, queue) > 0) {
            int slot = queues.peek(port, queue);
            int length = slots.length(slot);
            queues.pop(port, queue, length);
            scheduler.onDequeued(port, queue, length, queues.frames(port, queue) == 0);
            release(port, slots.priority(slot), length, slots.inPort(slot), slots.shadows(slot), now);
            long handle = slots.handle(slot);
            link.onDequeued(slots, slot, port, queue, bytes, memory.offset(handle), now);
            slots.release(slot);
            allocator.free(handle);
            n++;
        }
        return n;
    }

    /** Hands every queued frame, in queue order, to a new MMU, charged as at its admission ({@link SwitchCore#changeMmu}). */
    void adoptQueuedFrames(Mmu fresh, long now) {
        adoptQueuedFrames(fresh, now, null, 0);
    }

    /**
     * As {@link #adoptQueuedFrames(Mmu, long)}, only the frames that arrived on a port of worker
     * {@code worker} ({@code workerOf} by port; null: every frame). With several workers each
     * ingress worker's MMU takes its own frames from every worker's queues
     * ({@link WorkersMmuChange}); this queue's owner is then stopped, so another thread may read it.
     */
    void adoptQueuedFrames(Mmu fresh, long now, int[] workerOf, int worker) {
        for (int port = 0; port < ports; port++) {
            for (int queue = 0; queue < queues.queuesPerPort(); queue++) {
                int n = queues.frames(port, queue);
                for (int i = 0; i < n; i++) {
                    int slot = queues.at(port, queue, i);
                    if (workerOf != null && workerOf[slots.inPort(slot)] != worker) {
                        continue;
                    }
                    fresh.adopt(slots.inPort(slot), slots.priority(slot), port, queue, frameCost.bufferBytes(slots.length(slot)),
                            now);
                }
            }
        }
    }

    // ------------------------------------------------------------------ observation

    int queuedFrames(int port, int queue) {
        return queues.frames(port, queue);
    }

    long queuedBytes(int port, int queue) {
        return queues.bytes(port, queue);
    }

    long queuedBytes(int port) {
        return queues.portBytes(port);
    }

    int queuesPerPort() {
        return queues.queuesPerPort();
    }

    int framesHeld() {
        return slots.inUse();
    }

    long speedBps(int port) {
        return speedBps[port];
    }

    long portMac(int port) {
        return portMac[port];
    }

    long lineFreeAt(int port) {
        return lineFreeAt[port];
    }
}

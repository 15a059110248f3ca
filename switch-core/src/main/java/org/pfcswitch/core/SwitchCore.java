package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.core.deadlock.DeadlockWatch;
import org.pfcswitch.mmu.FlowControlListener;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.Verdict;
import org.pfcswitch.mmu.scheme.Bfc;

/**
 * The switch: frames in, frames out, time passed in. One instance is owned by one thread and
 * reads no clock; every driver (virtual time, DPDK poll loop, a test) feeds it three things:
 *
 * <pre>
 *   core.onFrame(port, handle, now);      // a frame arrived; the core owns the handle from now on
 *   core.onTimer(now);                    // whenever now >= core.nextTimerDue()
 *   sink.transmit(port, handle, len, t)   // the core's output: a frame starts on the line at t
 * </pre>
 *
 * A received frame is parsed in place, classified to a priority, forwarded by MAC (an ECMP
 * group chosen by flow hash, else static, learned, or flooded), admitted by the MMU and queued at
 * its egress port in the queue the {@link LinkControl} picks (the priority under PFC, the flow's
 * queue under BFC). Each port has a shaper at its line rate: when the line is free, the port sends
 * an owed control frame first, else the head of the queue its scheduler picks among those the
 * downstream neighbour has not paused; a frame on the line always finishes. Leaving frames are
 * ECN-marked when the MMU says so (at the {@link SwitchModel}'s {@link EcnPoint}) and released from the MMU. Pauses towards the upstream
 * neighbours (PFC frames from the MMU's XOFF/XON, or BFC pauses from over-threshold arrivals) are
 * the link control's business; the core only gives them the line first. Shadow schemes
 * ({@link ShadowMmus}, {@link CoreConfig#shadows}) see every admission and release too, and only count.
 *
 * <p>Per-packet state lives in primitive arrays indexed by slot; after warm-up (the first time
 * queues reach their depth) the per-frame path allocates nothing.
 */
public final class SwitchCore {

    /** What {@link #nextTimerDue} returns when no timer is set. */
    public static final long NO_TIMER = DeadlineHeap.NEVER;

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;
    private final PacketMemory memory;
    private final MemorySegment bytes;
    private final FrameAllocator allocator;
    private final FrameSink sink;
    /** Shadow schemes ({@link CoreConfig#shadows}), or null when there are none: one test per packet. */
    private final ShadowMmus shadows;
    /** Replaced only by {@link #changeMmu}, between two driver calls, on the thread that owns the core. */
    private Mmu mmu;
    private final LinkControl link;
    private final PfcLink pfcLink;          // null under bfc
    private final RandomSource random;
    private final PriorityClassifier classifier;
    private final ForwardingTable table;
    private final EcmpRoutes ecmp;
    private final PacketSlots slots = new PacketSlots(1024);
    private final EgressQueues queues;
    private final EgressScheduler scheduler;
    /**
     * Timer ids: {@code port} = the port's line wake-up, {@code ports + port} = its link timer,
     * {@code 2 * ports} the watchdog's poll, {@code 2 * ports + 1} the deadlock check.
     */
    private final DeadlineHeap timers;
    private final SwitchCounters counters;
    private final LosslessDropLog dropLog;
    private final long[] speedBps;
    private final long[] portMac;
    private final long[] lineFreeAt;
    // lineNanos(): per port, the last frame length sent and its LineRate time (spares a division per frame)
    private final int[] lastLength;
    private final long[] lastLineNanos;
    /** {@link CoreConfig#shaped}: false = every line is always free and a port sends all it may at once. */
    private final boolean shaped;
    private final ParsedFrame parsed = new ParsedFrame();
    /** The PFC watchdog, or null (off, or under bfc, which runs no PFC). */
    private PfcWatchdog watchdog;
    /** The MMU's lossless priorities (follows {@link #changeMmu}). */
    private int losslessMask;
    /** By ingress port: the sender there does not obey PFC ({@link CoreConfig#senderIgnoresPfc}). */
    private final boolean[] senderIgnoresPfc;
    /** The switch's own deadlock detection, or null (off, or under bfc, which runs no PFC). */
    private final DeadlockWatch deadlock;
    /** Where ECN-capable frames get their RED/ECN decision ({@link SwitchModel#ecnAt}). */
    private final EcnStage ecnStage;
    private final FrameCost frameCost;        // what a frame is charged in the MMU and takes on the line
    /** How ECMP groups pick a member ({@link SwitchModel#ecmpHash}), with its seed. */
    private final EcmpHash ecmpHash;
    private final int ecmpSeed;

    /**
     * @param memory    turns the driver's handles into bytes
     * @param allocator buffers for the frames the core builds, and where consumed or dropped frames go
     * @param sink      where transmitted frames go
     * @param random    the MMU's randomness (ECN marking); seed it for reproducible runs
     */
    public SwitchCore(CoreConfig config, PacketMemory memory, FrameAllocator allocator, FrameSink sink,
                      RandomSource random) {
        this(config, SwitchModel.DEFAULT, memory, allocator, sink, random);
    }

    /**
     * A core under the model choices of {@code model} (a simulated switch that behaves as another
     * simulator's does; the live switch runs {@link SwitchModel#DEFAULT}).
     */
    public SwitchCore(CoreConfig config, SwitchModel model, PacketMemory memory, FrameAllocator allocator,
                      FrameSink sink, RandomSource random) {
        this.ports = config.ports();
        this.ecnStage = EcnStage.of(model.ecnAt());
        this.frameCost = model.frameCost();
        this.ecmpHash = model.ecmpHash();
        this.ecmpSeed = model.ecmpSeed();
        this.memory = memory;
        this.bytes = memory.bytes();
        this.allocator = allocator;
        this.sink = sink;
        this.speedBps = new long[ports];
        this.portMac = new long[ports];
        for (int p = 0; p < ports; p++) {
            speedBps[p] = config.speedBps(p);
            portMac[p] = config.portMac(p);
        }
        this.timers = new DeadlineHeap(2 * ports + 2);
        this.counters = new SwitchCounters(ports);
        this.dropLog = new LosslessDropLog(ports * PRIORITIES);
        // The MMU reports XOFF/XON to the PFC link. The scheme decides which link control the ports
        // run: bfc raises no XOFF and brings its own backpressure state, every other scheme is PFC.
        PfcLink pfcLink = new PfcLink(speedBps, config.pauseQuanta(), model.pfc(), counters, timers, ports);
        this.random = random;
        this.mmu = Mmu.create(config.mmu(), pfcLink.mmuListener(), random);
        this.shadows = config.shadows().isEmpty() ? null : ShadowMmus.create(config.mmu(), config.shadows());
        if (mmu.scheme() instanceof Bfc bfc) {
            this.pfcLink = null;
            BfcLink bfcLink = new BfcLink(bfc.backpressure(), config.bfcBitmapPeriodNanos(), counters, timers, ports);
            this.link = bfcLink;
            this.scheduler = EgressScheduler.fairQueuing(ports, bfcLink.queuesPerPort(), config.mmu().mtuBytes(),
                    bfcLink.classBands());
        } else {
            this.pfcLink = pfcLink;
            this.link = pfcLink.attach(mmu.flowControl());
            if (config.pfcwd() != null) {
                watchdog = new PfcWatchdog(config.pfcwd(), ports, pfcLink.pauses(), timers, 2 * ports, counters);
                pfcLink.watchdog(watchdog);
            }
            this.scheduler = model.scheduling().create(config.schedulers().toArray(SchedulerPolicy[]::new));
        }
        this.classifier = config.classifier();
        this.table = new ForwardingTable(ports, config.tableCapacity(), config.learning());
        for (CoreConfig.StaticMac s : config.staticMacs()) {
            table.addStatic(s.mac(), s.port());
        }
        this.ecmp = new EcmpRoutes(config.ecmpGroups());
        this.queues = new EgressQueues(ports, link.queuesPerPort(), 64);
        this.lineFreeAt = new long[ports];
        this.lastLength = new int[ports];
        this.lastLineNanos = new long[ports];
        Arrays.fill(lastLength, -1);
        this.shaped = config.shaped();
        this.losslessMask = config.mmu().losslessPriorityMask();
        this.senderIgnoresPfc = config.senderIgnoresPfc();
        if (config.deadlock() != null && pfcLink != null) {
            deadlock = new DeadlockWatch(this, config.deadlock());
            timers.set(deadlockTimer(), config.deadlock().checkNanos());
        } else {
            deadlock = null;
        }
    }

    private int deadlockTimer() {
        return 2 * ports + 1;
    }

    // ------------------------------------------------------------------ driver entry points

    /** A frame arrived (its last bit was received) on {@code port} at {@code now}. */
    public void onFrame(int port, long handle, long now) {
        int length = memory.length(handle);
        long offset = memory.offset(handle);
        ParseError error = FrameParser.parse(bytes, offset, length, parsed);
        if (error != ParseError.NONE) {
            counters.countParseError(port, error);
        }
        if (error == ParseError.RUNT || error == ParseError.OUTSIDE_BUFFER) {
            counters.malformed[port]++;
            allocator.free(handle);
        } else {
            int control = link.receive(port, parsed, now);
            if (control == LinkControl.NOT_CONTROL) {
                forward(port, handle, offset, length, now);
            } else {
                allocator.free(handle);                 // link-local: never forwarded
                if (control == LinkControl.RESUMED) {
                    serve(port, now);
                }
            }
        }
        sendOwedControlFrames(now);
    }

    /** Runs every timer due at or before {@code now}: line wake-ups, pause expiries, link timers. */
    public void onTimer(long now) {
        while (timers.earliest() <= now) {
            int id = timers.earliestId();
            if (id < ports) {
                // No cancel first: serve always ends by setting or cancelling this port's line timer,
                // and moving it down from the top is one sift where cancel-then-set is three.
                serve(id, now);
            } else if (id < 2 * ports) {
                timers.cancel(id);
                link.onTimer(id - ports, now);
            } else if (id == 2 * ports) {
                pollWatchdog(now);
            } else {
                // from now, not from the due time: after a stall the checks do not come in a burst
                timers.set(id, now + deadlock.config().checkNanos());
                deadlock.check(now);
            }
        }
        sendOwedControlFrames(now);
    }

    /** When the core next needs {@link #onTimer}, or {@link #NO_TIMER}. */
    public long nextTimerDue() {
        return timers.earliest();
    }

    // ------------------------------------------------------------------ receive path

    private void forward(int inPort, long handle, long offset, int length, long now) {
        int priority = classifier.classify(parsed);
        int key = inPort * PRIORITIES + priority;
        counters.rxFrames[key]++;
        counters.rxBytes[key] += length;
        if (watchdog != null && watchdog.drops(inPort, priority)) {
            // SONiC's drop action: the stormed neighbour's own traffic of that priority goes too, so
            // a stuck NIC cannot fill the buffer (and pause others) with frames it sends meanwhile
            counters.pfcwdIngressDrops[key]++;
            allocator.free(handle);
            return;
        }
        long dst = parsed.dstMac();
        if (table.learning()) {
            table.learn(parsed.srcMac(), inPort);
        }
        int outPort = MacAddress.isMulticast(dst) ? -1 : route(dst);
        short ipv4Offset = parsed.hasIpv4() && parsed.ecn() != Ipv4.ECN_NOT_ECT
                ? (short) (parsed.ipv4Offset() - offset) : PacketSlots.NOT_ECN_CAPABLE;
        if (outPort == inPort) {
            counters.filtered[inPort]++;
            allocator.free(handle);
        } else if (outPort >= 0) {
            admit(inPort, priority, outPort, handle, length, ipv4Offset, now);
        } else {
            flood(inPort, priority, handle, offset, length, ipv4Offset, now);
        }
    }

    /**
     * The egress port for unicast {@code dst}: its ECMP group's member for this frame's flow hash
     * when it has a group, else the forwarding table's port, or -1 (flood). A switch without
     * groups never computes the hash.
     */
    private int route(long dst) {
        if (!ecmp.isEmpty()) {
            int port = ecmp.lookup(dst, ecmpHash.hash(parsed, ecmpSeed));
            if (port != EcmpRoutes.NO_ROUTE) {
                return port;
            }
        }
        return table.lookup(dst);
    }

    private void flood(int inPort, int priority, long handle, long offset, int length, short ipv4Offset, long now) {
        counters.flooded[inPort]++;
        for (int out = 0; out < ports; out++) {
            if (out == inPort) {
                continue;
            }
            long copy = allocator.allocate(length);
            if (copy == FrameAllocator.NO_HANDLE) {
                counters.floodNoBuffer[inPort]++;
                continue;
            }
            MemorySegment.copy(bytes, offset, bytes, memory.offset(copy), length);
            admit(inPort, priority, out, copy, length, ipv4Offset, now);
        }
        allocator.free(handle);
    }

    /**
     * MMU admission, then the egress queue the link control picks; a refused frame is dropped and
     * counted. The MMU accounts egress bytes per (port, priority) whatever the physical queue.
     */
    private void admit(int inPort, int priority, int outPort, long handle, int length, short ipv4Offset, long now) {
        if (watchdog != null && watchdog.drops(outPort, priority)) {
            counters.pfcwdDrops[outPort * PRIORITIES + priority]++;     // a stormed queue, action drop
            allocator.free(handle);
            return;
        }
        int queue = link.queueFor(parsed, priority, outPort, now);
        int charged = frameCost.bufferBytes(length);
        int verdict = mmu.admit(inPort, priority, outPort, priority, charged, now);
        int shadowsHeld = shadows == null ? 0 : shadows.admit(inPort, priority, outPort, priority, charged, now, verdict);
        if (!Verdict.isAdmitted(verdict)) {
            counters.drops[(inPort * PRIORITIES + priority) * Verdict.DROP_REASONS + Verdict.dropIndex(verdict)]++;
            if ((losslessMask >>> priority & 1) != 0) {
                recordLosslessDrop(inPort, priority, verdict, now);
            }
            allocator.free(handle);
            return;
        }
        if (verdict == Verdict.HEADROOM && mmu.ledger().ingressHeadroom(inPort * PRIORITIES + priority) == charged) {
            // the first frame since this queue's headroom was last empty: what its overflow is judged from
            dropLog.headroomAdmitted(inPort * PRIORITIES + priority, parsed.destQp(), parsed.psn(), now);
        }
        int slot = slots.take();
        slots.handle[slot] = handle;
        slots.length[slot] = length;
        slots.inPort[slot] = (short) inPort;
        slots.priority[slot] = (byte) priority;
        slots.ipv4Offset[slot] = ipv4Offset;
        slots.enqueuedAt[slot] = now;
        slots.shadows[slot] = (byte) shadowsHeld;
        link.onEnqueued(slots, slot, parsed, inPort, outPort, queue, now);
        queues.push(outPort, queue, slot, length);
        if (ipv4Offset >= 0) {
            ecnStage.admitted(this, outPort, priority, memory.offset(handle) + ipv4Offset);
        }
        int q = outPort * PRIORITIES + priority;
        counters.maxQueueBytes[q] = Math.max(counters.maxQueueBytes[q], mmu.ledger().egressBytes(q));
        counters.maxBufferBytes = Math.max(counters.maxBufferBytes, mmu.ledger().totalUsed());
        serve(outPort, now);
    }

    /** A lossless frame from {@code (inPort, priority)} was dropped: counted, and what the drop says about its cause kept. */
    private void recordLosslessDrop(int inPort, int priority, int verdict, long now) {
        int k = inPort * PRIORITIES + priority;
        counters.losslessDrops[k]++;
        long since = counters.xoffSentSince[k];
        long after = since < 0 ? -1 : now - since;
        if (!senderIgnoresPfc[inPort]) {
            if (since < 0) {
                counters.obeyingDropsBeforeXoffSent++;
            } else if (counters.obeyingDropMinNanosAfterXoff < 0 || after < counters.obeyingDropMinNanosAfterXoff) {
                counters.obeyingDropMinNanosAfterXoff = after;
            }
        }
        if (since < 0) {
            counters.losslessDropsBeforeXoffSent++;
        } else {
            counters.losslessDropMaxNanosAfterXoff = Math.max(counters.losslessDropMaxNanosAfterXoff, after);
        }
        counters.lastLosslessDropPort = inPort;
        counters.lastLosslessDropPriority = priority;
        counters.lastLosslessDropVerdict = verdict;
        counters.lastLosslessDropAt = now;
        counters.lastLosslessDropIngressBytes = mmu.ledger().ingressBytes(k);
        counters.lastLosslessDropHeadroomBytes = mmu.ledger().ingressHeadroom(k);
        counters.lastLosslessDropNanosAfterXoff = after;
        if (!senderIgnoresPfc[inPort] && pfcLink != null) {
            dropLog.dropped(k, parsed.destQp(), parsed.psn(), now, since, mmu.ledger().ingressHeadroom(k));
        }
    }

    // ------------------------------------------------------------------ PFC watchdog

    /** The watchdog's poll: a queue newly stormed under action drop loses what it holds; every changed port is served. */
    private void pollWatchdog(long now) {
        if (!watchdog.poll(now)) {
            return;
        }
        boolean drop = watchdog.config().action() == PfcWatchdogConfig.Action.DROP;
        for (int port = 0; port < ports; port++) {
            if (watchdog.changed[port] == 0) {
                continue;
            }
            if (drop) {
                for (int v = watchdog.stormedNow[port]; v != 0; v &= v - 1) {
                    dropQueue(port, Integer.numberOfTrailingZeros(v), now);
                }
            }
            serve(port, now);
        }
    }

    /** Drops every frame of egress queue {@code (port, queue)} (a stormed queue under action drop), released from the MMU. */
    private void dropQueue(int port, int queue, long now) {
        counters.pfcwdDrops[port * PRIORITIES + queue] += emptyQueue(port, queue, now);
    }

    /**
     * Frees every frame of egress queue {@code (port, queue)}, released from the MMU and the link
     * control as if it had left: a stormed queue under action drop, or shutdown.
     *
     * @return frames freed
     */
    private int emptyQueue(int port, int queue, long now) {
        int n = 0;
        while (queues.frames(port, queue) > 0) {
            int slot = queues.peek(port, queue);
            int length = slots.length[slot];
            queues.pop(port, queue, length);
            scheduler.onDequeued(port, queue, length, queues.frames(port, queue) == 0);
            int priority = slots.priority[slot];
            releaseMmus(slot, port, priority, length, now);
            long handle = slots.handle[slot];
            link.onDequeued(slots, slot, port, queue, bytes, memory.offset(handle), now);
            slots.release(slot);
            allocator.free(handle);
            n++;
        }
        return n;
    }

    /** Where the watchdog reports storms and restorations (on the thread that owns the core); null for none. */
    public void pfcWatchdogListener(PfcWatchdogListener listener) {
        if (watchdog != null) {
            watchdog.listener(listener);
        }
    }

    /**
     * The watchdog's storms and restorations as a ring another thread drains (the live switch logs
     * them from its main thread), or null when the watchdog is off.
     */
    public PfcWatchdogEvents pfcWatchdogEvents() {
        return watchdog == null ? null : watchdog.events;
    }

    /** The watchdog's settings, or null when it is off. */
    public PfcWatchdogConfig pfcWatchdog() {
        return watchdog == null ? null : watchdog.config();
    }

    /** Whether the watchdog has declared egress queue {@code (port, priority)} stormed. */
    public boolean isStormed(int port, int priority) {
        return watchdog != null && watchdog.isStormed(port, priority);
    }

    // ------------------------------------------------------------------ transmit path

    /**
     * Starts the next frame on {@code port} if its line is free, and sets the port's wake-up for
     * when it can do something next (line free, a pause running out, a control-frame retry), if ever.
     * Every path ends by setting or cancelling timer {@code port} ({@link #onTimer} relies on it).
     */
    private void serve(int port, long now) {
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
                serve(port, now);                       // unshaped: the line is free again at once
                return;
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
                serveUnshaped(port, now);
                return;
            }
            wake = Math.min(wake, link.earliestResume(port, paused));
        }
        if (wake == DeadlineHeap.NEVER) {
            timers.cancel(port);
        } else {
            timers.set(port, wake);
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

    /**
     * Shaper off, after a frame left: the line is free again at once, so the port goes on sending
     * what its scheduler picks until nothing is eligible, then sets or cancels its timer as
     * {@link #serve} does. Control frames owed meanwhile go first, as in {@code serve}.
     */
    private void serveUnshaped(int port, long now) {
        while (!link.owesFrame(port)) {
            int nonEmpty = queues.nonEmptyMask(port);
            if (nonEmpty == 0) {
                break;
            }
            int eligible = nonEmpty & ~link.pausedMask(port, nonEmpty, now);
            if (eligible == 0) {
                break;
            }
            transmitHead(port, scheduler.pick(port, eligible, queues, slots), now);
        }
        serve(port, now);
    }

    private void transmitHead(int port, int queue, long now) {
        int slot = queues.peek(port, queue);
        int length = slots.length[slot];
        queues.pop(port, queue, length);
        scheduler.onDequeued(port, queue, length, (queues.nonEmptyMask(port) >>> queue & 1) == 0);
        long handle = slots.handle[slot];
        long frameOffset = memory.offset(handle);
        int priority = slots.priority[slot];
        int key = port * PRIORITIES + priority;
        short ipv4Offset = slots.ipv4Offset[slot];
        if (ipv4Offset >= 0) {
            ecnStage.leaving(this, port, priority, frameOffset + ipv4Offset);
        }
        releaseMmus(slot, port, priority, length, now);
        if (ipv4Offset >= 0) {
            ecnStage.released(this, port, priority, frameOffset + ipv4Offset);
        }
        link.onDequeued(slots, slot, port, queue, bytes, frameOffset, now);
        countTransmitted(key, length, now - slots.enqueuedAt[slot]);
        slots.release(slot);
        lineFreeAt[port] = shaped ? now + lineNanos(port, length) : now;
        sink.transmit(port, handle, length, now);
    }

    /** The frame in {@code slot} left egress {@code (port, priority)}: released from the MMU and the shadows that hold it. */
    private void releaseMmus(int slot, int port, int priority, int length, long now) {
        int inPort = slots.inPort[slot];
        int charged = frameCost.bufferBytes(length);
        mmu.release(inPort, priority, port, priority, charged, now);
        if (shadows != null) {
            shadows.release(slots.shadows[slot] & 0xFF, inPort, priority, port, priority, charged, now);
        }
    }

    /** ECN for an ECN-capable frame, when its {@link EcnStage} says: CE when the MMU's RED says so. */
    void markEcn(int port, int priority, long ipv4At) {
        if (mmu.shouldMarkEcn(port, priority) && Ipv4.markCongestionExperienced(bytes, ipv4At)) {
            counters.ecnMarked[port * PRIORITIES + priority]++;
        }
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
    private void sendOwedControlFrames(long now) {
        for (int port = link.nextOwingPort(); port >= 0; port = link.nextOwingPort()) {
            serve(port, now);
        }
    }

    /**
     * Shutdown: takes every frame out of the egress queues, releases it from the MMU and gives its
     * buffer back to the allocator, so the driver can check that no buffer is missing. The core
     * sends nothing more for these frames; call it once the driver has stopped feeding the core.
     *
     * @return frames discarded
     */
    public int discardQueuedFrames(long now) {
        int discarded = 0;
        for (int port = 0; port < ports; port++) {
            for (int queue = 0; queue < queues.queuesPerPort(); queue++) {
                discarded += emptyQueue(port, queue, now);
            }
        }
        return discarded;
    }

    /**
     * Puts the buffer under another MMU configuration (a scheme or parameter change) at {@code now},
     * keeping every frame: what a lab does between runs without restarting the switch.
     *
     * <ul>
     * <li>Frames already queued stay queued, in order. The new MMU takes each over with
     *     {@link Mmu#adopt} (charged where the new scheme puts it; never dropped), so its ledger
     *     holds exactly the bytes in the buffer, and they are released from it as they leave.</li>
     * <li>PFC follows the new scheme at once: an ingress queue the adoption puts over the new XOFF
     *     threshold is paused (a PFC frame goes out), and one the old MMU held paused but the new
     *     one does not is resumed (XON). Pauses received from neighbours are kept.</li>
     * <li>The MMU's own counters (drops, lossless violations, admitted) start again from 0; the
     *     core's counters go on.</li>
     * <li>Shadow schemes are not touched: they never depended on the active MMU, so their ledgers
     *     (the queued frames they admitted), counters and parameters go on.</li>
     * </ul>
     *
     * @throws IllegalArgumentException the port count differs, or either scheme is bfc (its link
     *                                  control and queue structure differ: restart the core instead)
     */
    public void changeMmu(MmuConfig next, long now) {
        if (next.portCount() != ports) {
            throw new IllegalArgumentException("the new MMU has " + next.portCount() + " ports, the switch " + ports);
        }
        if (pfcLink == null || next.scheme().equals("bfc")) {
            throw new IllegalArgumentException("bfc runs its own link control and queues: a change to or from bfc"
                    + " needs a new core (restart the switch with --scheme), not a live change");
        }
        Mmu old = mmu;
        Mmu fresh = Mmu.create(next, pfcLink.mmuListener(), random);   // throws on bad parameters: nothing changed yet
        pfcLink.attach(fresh.flowControl());
        mmu = fresh;
        losslessMask = next.losslessPriorityMask();
        for (int port = 0; port < ports; port++) {
            for (int queue = 0; queue < queues.queuesPerPort(); queue++) {
                int n = queues.frames(port, queue);
                for (int i = 0; i < n; i++) {
                    int slot = queues.at(port, queue, i);
                    fresh.adopt(slots.inPort[slot], slots.priority[slot], port, queue, slots.length[slot], now);
                }
            }
        }
        FlowControlListener emitter = pfcLink.mmuListener();
        for (int port = 0; port < ports; port++) {
            for (int priority = 0; priority < PRIORITIES; priority++) {
                if (old.flowControl().isAdvertisedXoff(port, priority) && !fresh.flowControl().isAdvertisedXoff(port, priority)) {
                    emitter.onXon(port, priority, now);
                }
            }
        }
        sendOwedControlFrames(now);
    }

    // ------------------------------------------------------------------ observation

    public int ports() {
        return ports;
    }

    public Mmu mmu() {
        return mmu;
    }

    /** The shadow schemes, or null when there are none. */
    public ShadowMmus shadows() {
        return shadows;
    }

    public SwitchCounters counters() {
        return counters;
    }

    /** The lossless drops frame by frame, with what each episode's headroom was filled from. */
    public LosslessDropLog losslessDropLog() {
        return dropLog;
    }

    public ForwardingTable forwardingTable() {
        return table;
    }

    public long speedBps(int port) {
        return speedBps[port];
    }

    /** Frames waiting in egress queue {@code (port, queue)} (the queue is the priority under PFC). */
    public int queuedFrames(int port, int queue) {
        return queues.frames(port, queue);
    }

    /** Bytes waiting in egress queue {@code (port, queue)} (the queue is the priority under PFC). */
    public long queuedBytes(int port, int queue) {
        return queues.bytes(port, queue);
    }

    /** Bytes waiting in all of {@code port}'s egress queues. */
    public long queuedBytes(int port) {
        return queues.portBytes(port);
    }

    /** Egress queues per port: 8 priorities under PFC, the per-flow queues under BFC. */
    public int queuesPerPort() {
        return queues.queuesPerPort();
    }

    /** Frames the core holds in its egress queues. */
    public int framesHeld() {
        return slots.inUse();
    }

    /** Whether the downstream neighbour keeps egress queue {@code (port, queue)} from starting a frame at {@code now}. */
    public boolean isPaused(int port, int queue, long now) {
        return link.pausedMask(port, 1 << queue, now) != 0;
    }

    /**
     * Whether the switch currently advertises XOFF for ingress {@code (port, priority)}: it is pausing
     * the upstream neighbour behind {@code port} on that priority (read-only, allocation-free).
     */
    public boolean isAdvertisingXoff(int port, int priority) {
        return mmu.flowControl().isAdvertisedXoff(port, priority);
    }

    /** Time egress queue {@code (port, queue)} has spent paused by its downstream neighbour, up to {@code now}. */
    public long pausedNanos(int port, int queue, long now) {
        return link.pausedNanos(port, queue, now);
    }

    /** Control frames {@code port} sent that paused its upstream neighbour (PFC XOFF or BFC PAUSE frames). */
    public long pauseFramesSent(int port) {
        return link.pauseFramesSent(port);
    }

    /** Whether the sender behind {@code port} ignores the PFC frames the switch sends it ({@link CoreConfig#senderIgnoresPfc}). */
    public boolean senderIgnoresPfc(int port) {
        return senderIgnoresPfc[port];
    }

    /**
     * Lossless frames dropped at admission since the core started (across MMU changes, unlike
     * {@link Mmu#losslessViolations}), from senders that ignore PFC ({@code ignoring}) or from
     * senders that obey it. A violation of an obeying sender's frame is the switch's fault (headroom
     * too small, a scheme that pauses too late); one of an ignoring sender's is not.
     */
    public long losslessViolations(boolean ignoring) {
        long n = 0;
        for (int port = 0; port < ports; port++) {
            if (senderIgnoresPfc[port] == ignoring) {
                for (int q = 0; q < PRIORITIES; q++) {
                    n += counters.losslessDrops[port * PRIORITIES + q];
                }
            }
        }
        return n;
    }

    /** The source MAC of the PFC frames {@code port} sends (its own MAC). */
    public long portMac(int port) {
        return portMac[port];
    }

    /**
     * The source MAC of the last PFC or PAUSE frame received on {@code port} (0: none yet, or under
     * bfc): the MAC of the neighbour's port that pauses this port's egress.
     */
    public long pfcSenderMac(int port) {
        return pfcLink == null ? 0 : pfcLink.senderMac(port);
    }

    /** Whether this switch pauses its neighbours with PFC (every scheme but bfc, whose pauses are per upstream queue). */
    public boolean pausesWithPfc() {
        return pfcLink != null;
    }

    /** The switch's deadlock detection, or null when it is off. */
    public DeadlockWatch deadlockWatch() {
        return deadlock;
    }

    /** When the frame now on {@code port}'s line has left it (in the past when the line is idle). */
    public long lineFreeAt(int port) {
        return lineFreeAt[port];
    }
}

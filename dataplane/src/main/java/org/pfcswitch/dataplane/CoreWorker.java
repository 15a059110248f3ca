package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.CoreMailbox;
import org.pfcswitch.core.FrameAllocator;
import org.pfcswitch.core.FrameSink;
import org.pfcswitch.core.PauseTimers;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.core.SwitchWorkers;
import org.pfcswitch.core.record.ArrivalRing;
import org.pfcswitch.core.trace.TraceRecorder;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mbuf;
import org.pfcswitch.dpdk.Mempool;
import org.pfcswitch.dpdk.Tsc;
import org.pfcswitch.mmu.RandomSource;

/**
 * The poll-mode driver of the {@link SwitchCore}: one busy-polling thread that owns the core and
 * every port, and feeds the core DPDK bursts in real time, l2fwd-style:
 *
 * <pre>
 * loop:
 *   now = TSC in nanoseconds
 *   timers due by now    → core.onTimer(due)       (line wake-ups = the shaper, pause expiry, PFC refresh)
 *   rx burst (32) from every port → now = TSC
 *   PFC and PAUSE frames of every burst → core.onFrame(port, mbuf, now)   (pauses act before any forwarding)
 *   the other frames, port by port      → core.onFrames(port, mbufs, 0, n, now)   (one rx burst)
 *   frames the core transmitted → per-port TX buffers → one tx burst per port with frames
 *   frames the core consumed or dropped → one bulk free
 * </pre>
 *
 * <p><b>Handles.</b> A handle is an mbuf address; {@link DpdkPacketMemory} turns it into bytes.
 * After {@code onFrame} the core owns the mbuf: it queues it, transmits it (the TX buffer, then
 * the port, own it from there) or gives it back through {@link MbufAllocator#free}. Frames the
 * core builds (PFC, flood copies) come from the same allocator.
 *
 * <p><b>Time and the shaper.</b> The core paces each port at its configured speed by asking for a
 * wake-up when the line frees. A pass of this loop takes longer than one frame's time at 10 Gb/s,
 * so timers are run at their own deadlines rather than at {@code now}: the port then starts frames
 * back to back as a real line would, instead of one per pass. A stall (the OS took the core away)
 * is caught up for at most {@link #CATCH_UP_NANOS}; beyond that the line is taken to have idled.
 * The core never sees time go backwards: every timer it set is at or after the last time it was given.
 *
 * <p><b>TX drain.</b> TX buffers are sent at the end of every pass. The shaper already paces the
 * frames; holding them for company, as l2fwd's 100 us drain does, would delay every PFC frame by
 * as much and grow the headroom the upstream port needs.
 *
 * <p><b>Clone ports</b> (no device): each data frame read from a port with clones is copied onto
 * every clone, as if it had also arrived there; what the core sends out of a clone is freed.
 *
 * <p>One native call per burst (rx, tx, bulk free, bulk alloc), one TSC read per pass and per
 * non-empty rx burst; nothing
 * is allocated once the loop runs.
 */
final class CoreWorker implements Runnable, PollLoop {

    /** Frames per rx and tx burst, as l2fwd's MAX_PKT_BURST. */
    static final int BURST = 32;
    /** How long before the next timer an idle sleep ends (the OS wakes a parked thread tens of us late). */
    static final long IDLE_WAKE_MARGIN_NANOS = 10_000;
    /** The longest stall the shaper makes up for with back-to-back frames. */
    static final long CATCH_UP_NANOS = 50_000;

    /**
     * A clone port: the switch port whose data frames it copies, what a PAUSE sent to it does, and
     * its station MAC (the source MAC of its copies, so learning keeps the source's MAC where it is).
     */
    record Clone(int source, ClonePfc pfc, long stationMac) {}

    /** Set before the thread starts (the thread's start publishes it). */
    private SwitchCore core;
    private final EthPort[] ports;           // by switch port; null for a clone port or another worker's port
    private final int[] devicePorts;         // the switch ports with a device, polled in this order
    private final TxBuffer[] tx;             // by switch port; null for a clone port
    private final MbufAllocator allocator;
    private final MemorySegment[] rx;        // one burst array per port
    private final long[] rxAddress;
    private final int[] rxCount;
    private final long tscStart;
    private final long systemNanosAtStart;  // System.nanoTime() when tscStart was read: the core's clock on the JVM's
    private final double nanosPerTick;

    // Clone ports: by source port, its clones; by clone port, its mode, MAC and counters.
    private final int[][] clonesOf;
    private final ClonePfc[] clonePfc;
    private final long[] stationMac;
    private final PauseTimers clonePauses;
    private final PriorityClassifier classifier;
    private final ParsedFrame sent = new ParsedFrame();
    private final ParsedFrame copied = new ParsedFrame();
    private final int[] quanta = new int[MacControl.PRIORITIES];
    private final long[] copies;             // one receiveWithCopies: each clone's copy
    private final long[] dataFrames = new long[BURST];   // one port's rx burst without its MAC-control frames
    private final long[] cloneSkipped;
    private final long[] cloneNoBuffer;

    private volatile boolean running = true;
    /** Control-plane requests (show, set, metrics); set before the thread starts, or null. */
    private CoreMailbox mailbox;
    /** A live trace being recorded, or null; set and cleared by mailbox tasks (on this thread). */
    private TraceRecorder trace;
    /** Every arrival on this worker's device ports goes here ({@code run --record}), or null; set before the thread starts. */
    private ArrivalRing arrivals;
    /** Lower bounds of the stall buckets: passes that started this long or longer after the previous one. */
    static final long[] STALL_BOUNDS_NANOS = {100_000, 1_000_000, 10_000_000, 100_000_000};

    // Written by the worker only; other threads read recent values.
    private long passes;
    private long lastPassAt;
    private long longestPassNanos;
    private long longestHeldPastSleepNanos;  // the longest stall that began in an idle sleep
    private boolean slept;                   // the last pass ended in an idle sleep
    private final long[] stalls = new long[STALL_BOUNDS_NANOS.length];
    private final long idleSleepNanos;
    private final long[] egressMacs;         // benchmarks only: MACs written on egress, null in the switch
    private long idleSleeps;

    /**
     * @param ports  by switch port: its DPDK port, or null for a clone port
     * @param clones by switch port: what the clone port copies, or null for a port with a device
     * @param idleSleepNanos 0 to poll without pause (a dedicated core), else the longest sleep after an idle pass
     */
    CoreWorker(CoreConfig config, EthPort[] ports, Clone[] clones, long idleSleepNanos, Mempool pool, long randomSeed,
               Arena arena) {
        this(config, ports, clones, idleSleepNanos, pool, randomSeed, arena, null);
    }

    /**
     * As the switch's worker, but every frame the core transmits on a port with a device gets its
     * destination and source MACs rewritten on the way to the TX buffer (frames leaving port
     * {@code p} get {@code egressMacs[2p]} and {@code egressMacs[2p + 1]}), as testpmd's mac mode
     * does: the benchmarks' way to keep frames circulating through looped-back ports. Null: no rewrite.
     */
    CoreWorker(CoreConfig config, EthPort[] ports, Clone[] clones, long idleSleepNanos, Mempool pool, long randomSeed,
               Arena arena, long[] egressMacs) {
        this(config, ports, clones, idleSleepNanos, pool, arena, egressMacs, Tsc.read(), System.nanoTime());
        this.core = new SwitchCore(config, DpdkPacketMemory.INSTANCE, allocator, this::transmit,
                RandomSource.seeded(randomSeed));
    }

    /**
     * The workers of one switch whose ports are split among threads ({@link SwitchWorkers}): worker
     * w polls and sends on the ports {@code workerOf} gives it (and their clone ports); frames for
     * another worker's ports cross on the rings the cores share. They read one clock.
     *
     * @param ringCapacity records a ring between two workers holds: at least the frames the pool holds
     */
    static Group group(CoreConfig config, int[] workerOf, EthPort[] ports, Clone[] clones, long idleSleepNanos,
                              Mempool pool, long randomSeed, Arena arena, long[] egressMacs, int ringCapacity) {
        int n = java.util.Arrays.stream(workerOf).max().orElse(0) + 1;
        long tscStart = Tsc.read();
        long systemNanosAtStart = System.nanoTime();
        CoreWorker[] workers = new CoreWorker[n];
        FrameAllocator[] allocators = new FrameAllocator[n];
        FrameSink[] sinks = new FrameSink[n];
        RandomSource[] randoms = new RandomSource[n];
        for (int w = 0; w < n; w++) {
            EthPort[] mine = new EthPort[ports.length];
            for (int p = 0; p < ports.length; p++) {
                mine[p] = workerOf[p] == w ? ports[p] : null;
            }
            workers[w] = new CoreWorker(config, mine, clones, idleSleepNanos, pool, arena, egressMacs, tscStart,
                    systemNanosAtStart);
            allocators[w] = workers[w].allocator;
            sinks[w] = workers[w]::transmit;
            randoms[w] = RandomSource.seeded(randomSeed + w);
        }
        SwitchWorkers cores = SwitchWorkers.create(config, SwitchModel.DEFAULT, workerOf, DpdkPacketMemory.INSTANCE,
                allocators, sinks, randoms, ringCapacity, SwitchWorkers.passNanos(idleSleepNanos));
        for (int w = 0; w < n; w++) {
            workers[w].core = cores.core(w);
        }
        return new Group(workers, cores);
    }

    /** The workers of one switch and their cores (index w of each is worker w). */
    record Group(CoreWorker[] workers, SwitchWorkers cores) {}

    /** Everything but the core, which the caller attaches before the thread starts. */
    private CoreWorker(CoreConfig config, EthPort[] ports, Clone[] clones, long idleSleepNanos, Mempool pool,
                       Arena arena, long[] egressMacs, long tscStart, long systemNanosAtStart) {
        int n = ports.length;
        this.idleSleepNanos = idleSleepNanos;
        this.egressMacs = egressMacs == null ? null : egressMacs.clone();
        this.ports = ports.clone();
        this.devicePorts = java.util.stream.IntStream.range(0, n).filter(p -> ports[p] != null).toArray();
        this.tx = new TxBuffer[n];
        for (int p : devicePorts) {
            tx[p] = new TxBuffer(arena, ports[p], p, BURST);
        }
        this.clonesOf = new int[n][];
        this.clonePfc = new ClonePfc[n];
        this.stationMac = new long[n];
        long[] speeds = new long[n];
        for (int p = 0; p < n; p++) {
            final int port = p;
            clonesOf[p] = java.util.stream.IntStream.range(0, n)
                    .filter(c -> clones[c] != null && clones[c].source() == port).toArray();
            if (clones[p] != null) {
                clonePfc[p] = clones[p].pfc();
                stationMac[p] = clones[p].stationMac();
            }
            speeds[p] = config.speedBps(p);
        }
        this.copies = new long[java.util.Arrays.stream(clonesOf).mapToInt(c -> c.length).max().orElse(0)];
        this.clonePauses = new PauseTimers(speeds);
        this.classifier = config.classifier();
        this.cloneSkipped = new long[n];
        this.cloneNoBuffer = new long[n];
        this.allocator = new MbufAllocator(pool, arena);
        this.rx = new MemorySegment[ports.length];
        this.rxAddress = new long[ports.length];
        this.rxCount = new int[ports.length];
        for (int p = 0; p < ports.length; p++) {
            rx[p] = NativeArrays.unscoped(Mbuf.pointerArray(arena, BURST));
            rxAddress[p] = rx[p].address();
        }
        this.tscStart = tscStart;
        this.systemNanosAtStart = systemNanosAtStart;
        this.nanosPerTick = 1e9 / Tsc.hz();
    }

    @Override
    public void run() {
        while (running) {
            poll();
        }
    }

    /** One pass: timers, every port's rx burst, TX buffers out, frees back. */
    @Override
    public void poll() {
        long now = nanos();
        if (now - lastPassAt >= STALL_BOUNDS_NANOS[0] && passes > 0) {
            noteStall(now - lastPassAt);
            if (slept) {
                longestHeldPastSleepNanos = Math.max(longestHeldPastSleepNanos, now - lastPassAt);
            }
        }
        lastPassAt = now;
        slept = false;
        boolean worked = core.onCrossings(now) > 0;       // other workers' releases and frames first
        worked |= runTimers(now);
        worked |= receive() > 0;
        ArrivalRing a = arrivals;
        if (a != null) {
            a.advance(now);                   // every later arrival is stamped after: the recorder may merge up to here
        }
        core.publishToPeers(now);                         // what this pass handed on, and the ledger
        flushTx();
        allocator.flush();
        TraceRecorder t = trace;
        if (t != null) {
            t.sample(core, now);              // self-throttled to its period: a compare per pass otherwise
        }
        CoreMailbox m = mailbox;
        if (m != null) {
            m.runPending(core, now);          // between bursts: control reads and changes see no half pass
        }
        passes++;
        if (!worked && idleSleepNanos > 0) {
            idle(now);
        }
    }

    /**
     * A pass found nothing to do: with {@code poll.idleSleep} set, give the CPU away until shortly
     * before the core's next timer, at most {@code idleSleepNanos}. On a machine whose cores are
     * shared (the emulated lab: switch, hosts and the kernel's veth work on 2 cores) a busy loop
     * would take the CPU the hosts and the kernel need and be preempted for milliseconds in
     * return; a dedicated lab core polls (the default). The sleep asked for is not a stall, but the
     * time the OS takes beyond it to run the thread again is: the rings fill meanwhile as in any
     * other stall, so the next pass's gap is counted less the sleep asked for.
     */
    private void idle(long now) {
        long gap = core.nextTimerDue() - now;
        if (gap > 2 * IDLE_WAKE_MARGIN_NANOS) {
            long sleep = Math.min(idleSleepNanos, gap - IDLE_WAKE_MARGIN_NANOS);
            LockSupport.parkNanos(sleep);
            idleSleeps++;
            lastPassAt = now + sleep;
            slept = true;
        }
    }

    private void noteStall(long gap) {
        longestPassNanos = Math.max(longestPassNanos, gap);
        for (int b = 0; b < STALL_BOUNDS_NANOS.length && gap >= STALL_BOUNDS_NANOS[b]; b++) {
            stalls[b]++;
        }
    }

    /** Runs the timers due by {@code now}; true if there were any. */
    private boolean runTimers(long now) {
        long floor = now - CATCH_UP_NANOS;
        boolean ran = false;
        for (long due = core.nextTimerDue(); due <= now; due = core.nextTimerDue()) {
            core.onTimer(Math.max(due, floor));
            ran = true;
        }
        return ran;
    }

    /**
     * One rx burst from every port into the core, MAC-control frames (PFC, PAUSE) first: a NIC's MAC
     * acts on a PAUSE as it arrives, and so does this switch for every frame it read in the same
     * pass. Otherwise, after a stall, data read from port 0 would leave through a port whose PAUSE
     * is still waiting in port 2's burst.
     *
     * <p>The bursts are stamped with the clock read after they arrived, not with the pass's start:
     * if the thread lost its CPU in between, a PFC frame stamped too early would end its pause too early.
     */
    private int receive() {
        int received = 0;
        for (int port : devicePorts) {
            received += rxCount[port] = ports[port].rxBurst(0, rx[port], BURST);
        }
        if (received == 0) {
            return 0;
        }
        long now = nanos();
        MemorySegment memory = Mbuf.memory();
        ArrivalRing rec = arrivals;
        if (rec != null) {
            for (int port : devicePorts) {
                for (int i = 0; i < rxCount[port]; i++) {
                    long m = memory.get(JAVA_LONG, rxAddress[port] + (long) i * Long.BYTES);
                    rec.offer(now, port, Mbuf.dataLength(m), memory, Mbuf.dataAddress(m));
                }
            }
        }
        for (int port : devicePorts) {
            for (int i = 0; i < rxCount[port]; i++) {
                long slot = rxAddress[port] + (long) i * Long.BYTES;
                long m = memory.get(JAVA_LONG, slot);
                if (isMacControl(m)) {
                    core.onFrame(port, m, now);
                    memory.set(JAVA_LONG, slot, 0L);
                }
            }
        }
        for (int port : devicePorts) {
            int[] clones = clonesOf[port];
            int data = 0;
            for (int i = 0; i < rxCount[port]; i++) {
                long m = memory.get(JAVA_LONG, rxAddress[port] + (long) i * Long.BYTES);
                if (m == 0) {
                    continue;
                }
                if (clones.length == 0) {
                    dataFrames[data++] = m;
                } else {
                    receiveWithCopies(port, clones, m, now);
                }
            }
            if (data > 0) {
                core.onFrames(port, dataFrames, 0, data, now);     // the burst is parsed before it is forwarded
            }
        }
        return received;
    }

    /**
     * A data frame from a port that has clone ports: the copies are made before the original goes
     * into the core (which may send or free it at once) and arrive after it, each with its clone's
     * station MAC as source and, for RoCEv2, its own destination QP ({@link #cloneQp}). A clone in {@code pfc: skip} mode makes no copy of a priority the
     * switch has paused it for.
     */
    private void receiveWithCopies(int port, int[] clones, long m, long now) {
        MemorySegment bytes = Mbuf.memory();
        long at = Mbuf.dataAddress(m);
        int length = Mbuf.dataLength(m);
        int priority = -1;
        int made = 0;
        FrameParser.parse(bytes, at, length, copied);
        long bthDelta = copied.isRoce() ? copied.bthOffset() - at : -1;
        for (int k = 0; k < clones.length; k++) {
            int c = clones[k];
            if (clonePfc[c] == ClonePfc.SKIP) {
                if (priority < 0) {
                    priority = classifier.classifyRaw(bytes, at, length) & PriorityClassifier.RAW_PRIORITY_MASK;
                }
                if (clonePauses.isPaused(c, priority, now)) {
                    cloneSkipped[c]++;
                    copies[made++] = FrameAllocator.NO_HANDLE;
                    continue;
                }
            }
            long copy = allocator.allocate(length);
            if (copy != FrameAllocator.NO_HANDLE) {
                long to = Mbuf.dataAddress(copy);
                MemorySegment.copy(bytes, at, bytes, to, length);
                if (length >= Ethernet.HEADER_BYTES) {
                    NetOrder.put48(bytes, to + 6, stationMac[c]);
                }
                if (bthDelta >= 0) {
                    Roce.setDestQp(bytes, to + bthDelta, cloneQp(copied.destQp(), k));
                }
            } else {
                cloneNoBuffer[c]++;
            }
            copies[made++] = copy;
        }
        core.onFrame(port, m, now);
        for (int k = 0; k < made; k++) {
            if (copies[k] != FrameAllocator.NO_HANDLE) {
                core.onFrame(clones[k], copies[k], now);
            }
        }
    }

    /**
     * The destination QP of clone {@code k}'s copy of a frame for {@code qp}: in 0x80_0000 + k << 16,
     * a range no emulated host uses, so the receiver sees the copies as frames of flows it does not
     * know (counted as foreign, as a real NIC drops them) rather than as duplicates of the source's.
     */
    static int cloneQp(int qp, int k) {
        return 0x80_0000 | (k & 0x7F) << 16 | (qp & 0xFFFF);
    }

    /**
     * The core's output: into the port's TX buffer (ownership passes with it), or, for a clone
     * port, nowhere: the frame is freed, and a PFC or PAUSE frame first pauses the clone's copies
     * if it is in {@code pfc: skip} mode. The core may be mid-dequeue: nothing here calls it back.
     */
    private void transmit(int port, long handle, int length, long start) {
        TxBuffer b = tx[port];
        if (b != null) {
            if (egressMacs != null) {
                long at = Mbuf.dataAddress(handle);
                NetOrder.put64(Mbuf.memory(), at, egressMacs[2 * port] << 16 | egressMacs[2 * port + 1] >>> 32);
                NetOrder.put32(Mbuf.memory(), at + 8, (int) egressMacs[2 * port + 1]);
            }
            b.add(handle, length);
            return;
        }
        if (clonePfc[port] == ClonePfc.SKIP && isMacControl(handle)) {
            FrameParser.parse(Mbuf.memory(), Mbuf.dataAddress(handle), length, sent);
            if (sent.isPfc()) {
                for (int p = 0; p < MacControl.PRIORITIES; p++) {
                    quanta[p] = sent.quanta(p);
                }
                clonePauses.applyPfc(port, sent.classEnable(), quanta, start);
            }
        }
        allocator.free(handle);
    }

    private void flushTx() {
        for (int port : devicePorts) {
            if (!tx[port].isEmpty()) {
                tx[port].flush();
            }
        }
    }

    /** EtherType 0x8808 (PFC, PAUSE): never VLAN-tagged on the wire. */
    private static boolean isMacControl(long mbuf) {
        return Mbuf.dataLength(mbuf) >= Ethernet.HEADER_BYTES
                && Ethernet.etherType(Mbuf.memory(), Mbuf.dataAddress(mbuf)) == Ethernet.TYPE_MAC_CONTROL;
    }

    /** Nanoseconds since this worker was built, from the TSC. */
    private long nanos() {
        return (long) ((Tsc.read() - tscStart) * nanosPerTick);
    }

    // ---------------------------------------------------------------- other threads

    /**
     * A time on the core's clock as {@link System#nanoTime()} read it. The TSC's rate as DPDK
     * measured it at start-up can be off by a fraction of a percent (seconds of run make
     * milliseconds), so the conversion uses the rate the two clocks showed between the core's start
     * and this call. Any thread may call it.
     */
    long systemNanos(long coreNanos) {
        long tscNow = Tsc.read();
        long systemNow = System.nanoTime();
        if (tscNow <= tscStart) {
            return systemNanosAtStart + coreNanos;
        }
        double systemNanosPerTick = (double) (systemNow - systemNanosAtStart) / (tscNow - tscStart);
        return systemNanosAtStart + (long) (coreNanos / nanosPerTick * systemNanosPerTick);
    }

    /** Where control-plane threads hand their requests; call before the worker thread starts. */
    void useMailbox(CoreMailbox mailbox) {
        this.mailbox = mailbox;
    }

    /** Records every arrival on this worker's ports into {@code ring} (null: none); call before the worker thread starts. */
    void recordInto(ArrivalRing ring) {
        this.arrivals = ring;
    }

    /** Starts or (null) stops sampling into {@code recorder}; call on the worker thread (a mailbox task). */
    void traceInto(TraceRecorder recorder) {
        this.trace = recorder;
    }

    void requestStop() {
        running = false;
    }

    /**
     * After the thread ended: frees what the core still queues (released from the MMU), sends what
     * the TX buffers hold (freeing what the ports refuse) and gives the allocator's mbufs back.
     *
     * @return frames that were still queued in the core
     */
    @Override
    public int finish() {
        int discarded = core.discardQueuedFrames(nanos());
        flushTx();
        allocator.close();
        return discarded;
    }

    /**
     * After every worker's thread of a group ended: frees what each core still queues and what
     * still crosses between them (frames in a ring are taken into their egress queue first, so no
     * mbuf stays in a ring), sends what the TX buffers hold and gives the allocators' mbufs back.
     *
     * @return frames that were still queued or crossing
     */
    static int finishAll(CoreWorker[] workers) {
        int discarded = 0;
        for (int round = 0, taken = 1; taken > 0 || round < 2; round++) {
            taken = 0;
            for (CoreWorker w : workers) {
                w.core.publishToPeers();
            }
            for (CoreWorker w : workers) {
                taken += w.core.onCrossings(w.nanos());
                discarded += w.core.discardQueuedFrames(w.nanos());
            }
        }
        for (CoreWorker w : workers) {
            w.flushTx();
            w.allocator.close();
        }
        return discarded;
    }

    @Override
    public long framesReceived() {
        long sum = 0;
        for (long v : core.counters().rxFrames) {
            sum += v;
        }
        return sum;
    }

    /** The switch. Its counters and state are written by the worker thread: other threads see recent, unordered values. */
    SwitchCore core() {
        return core;
    }

    /**
     * Frames the core sent on {@code port} that its TX queue still refused after the retries (freed,
     * lost on the wire side; 0 for a clone port). Recent value on other threads.
     */
    long txRefused(int port) {
        return tx[port] == null ? 0 : tx[port].refused();
    }

    /** By switch port: the DPDK port, or null for a clone port. */
    EthPort[] ethPorts() {
        return ports.clone();
    }

    long cloneSkipped(int port) {
        return cloneSkipped[port];
    }

    long cloneNoBuffer(int port) {
        return cloneNoBuffer[port];
    }

    /** Times the core found the mbuf pool empty. */
    long allocationFailures() {
        return allocator.allocationFailures();
    }

    /**
     * The longest time between the starts of two passes: how long the switch was deaf at worst (JIT,
     * GC, or the OS giving the core to another thread). Pauses it sends are refreshed late by as much.
     */
    long longestPassNanos() {
        return longestPassNanos;
    }

    /** The longest stall that began in an idle sleep: the time the OS took past the sleep to run the worker again. */
    long longestHeldPastSleepNanos() {
        return longestHeldPastSleepNanos;
    }

    /** Passes that began at least {@code STALL_BOUNDS_NANOS[bucket]} after the previous one (cumulative buckets). */
    long stalls(int bucket) {
        return stalls[bucket];
    }

    /** Idle sleeps so far ({@code poll.idleSleep}). */
    long idleSleeps() {
        return idleSleeps;
    }

    /** Loop passes so far: a liveness and load indicator. */
    long passes() {
        return passes;
    }
}

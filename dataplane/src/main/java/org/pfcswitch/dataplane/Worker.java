package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.locks.LockSupport;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mbuf;
import org.pfcswitch.dpdk.Tsc;

/**
 * One busy-polling forwarding thread, l2fwd-style, owning a set of ports end to end: it alone
 * receives from them (rx queue 0) and transmits to them (tx queue 0). A frame for a port another
 * worker owns goes to that worker through a {@link HandoffRing}.
 *
 * <pre>
 * loop:
 *   for each owned port:  rx burst (32) → read + classify headers → count by (port, priority)
 *                          → forwarding decision for the burst → per-destination TX buffers
 *   frames handed over by other workers → TX buffers
 *   every ~100 µs (TSC): send every non-empty TX buffer
 * </pre>
 *
 * One native call per burst (rx, tx, free, refcount), never one per packet; per-packet data
 * lives in preallocated primitive arrays; nothing is allocated once the loop runs.
 */
final class Worker implements Runnable {

    static final int BURST = 32;
    /** Most hand-over entries taken per loop, so one busy peer cannot starve this worker's rx. */
    private static final int HANDOFF_BUDGET = 4 * BURST;

    private final int id;
    private final int[] ownedPorts;
    private final EthPort[] ethPorts;
    private final TxBuffer[] txBuffers;      // by switch port; null where another worker owns the port
    private final int[] ownerOf;             // by switch port
    private final HandoffRing[] toWorker;    // by worker; null for this worker
    private final HandoffRing[] fromWorker;  // by worker; null for this worker
    private final ForwardingTable table;
    private final PriorityClassifier classifier;
    private final PacketMemory memory;
    private final PortCounters counters;
    private final long drainTicks;
    private final boolean reflect;

    // Per-burst scratch: filled and used within one receive() call.
    private final MemorySegment rx;
    private final MemorySegment drops;
    private final MemorySegment floods;
    private final ParsedFrame frame = new ParsedFrame();
    private final long rxAddress;
    private final long[] handle = new long[BURST];
    private final long[] offset = new long[BURST];
    private final int[] length = new int[BURST];
    private final int[] cls = new int[BURST];          // classifyRaw results
    private final long[] src = new long[BURST];
    private final long[] dst = new long[BURST];
    private final int[] egress = new int[BURST];
    private final long[] burstFrames = new long[PortCounters.PRIORITIES];
    private final long[] burstBytes = new long[PortCounters.PRIORITIES];
    private int dropCount;

    /** classifyRaw bits that send a frame to {@link #keepUnusual}. */
    private static final int UNUSUAL =
            PriorityClassifier.RAW_RUNT | PriorityClassifier.RAW_MAC_CONTROL | PriorityClassifier.RAW_BFC_CONTROL
                    | PriorityClassifier.RAW_MALFORMED;

    private long lastDrain;

    private volatile boolean running = true;
    private volatile boolean pauseRequested;
    private volatile boolean paused;
    private volatile Thread thread;        // the worker's own, to unpark it

    Worker(int id, int[] ownedPorts, EthPort[] ethPorts, int[] ownerOf, HandoffRing[] toWorker,
           HandoffRing[] fromWorker, ForwardingTable table, PriorityClassifier classifier, PacketMemory memory,
           long drainTicks, boolean reflect, Arena arena) {
        this.id = id;
        this.ownedPorts = ownedPorts.clone();
        this.ethPorts = ethPorts.clone();
        this.ownerOf = ownerOf.clone();
        this.toWorker = toWorker;
        this.fromWorker = fromWorker;
        this.table = table;
        this.classifier = classifier;
        this.memory = memory;
        this.counters = new PortCounters(ethPorts.length);
        this.drainTicks = drainTicks;
        this.reflect = reflect;
        this.txBuffers = new TxBuffer[ethPorts.length];
        for (int p : ownedPorts) {
            txBuffers[p] = new TxBuffer(arena, ethPorts[p], p, BURST);
        }
        this.rx = unscoped(Mbuf.pointerArray(arena, BURST));
        this.rxAddress = rx.address();
        this.floods = unscoped(Mbuf.pointerArray(arena, BURST));
        // A burst drops at most every frame once per egress port (flood copies refused by hand-over rings).
        this.drops = unscoped(Mbuf.pointerArray(arena, BURST * ethPorts.length));
    }

    /**
     * The memory of {@code s} as a segment without an arena (global scope). A downcall that takes
     * a segment of a shared arena updates the arena's acquire count atomically twice, a burst
     * array's accessors check the arena on every access; these arrays need neither, because
     * {@link Forwarder} closes its arena only after the workers stopped and were drained.
     */
    static MemorySegment unscoped(MemorySegment s) {
        return MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize());
    }

    @Override
    public void run() {
        thread = Thread.currentThread();
        lastDrain = Tsc.read();
        while (running) {
            if (pauseRequested) {
                pauseHere();
            } else {
                poll();
            }
        }
    }

    /**
     * One pass over the owned ports, the hand-overs and the drain timer. Its own method, not the
     * body of {@link #run}'s loop, so that it is compiled as an ordinary method: when the rarely
     * taken pause or stop branch of the loop deoptimizes {@code run}, this compiled code stays.
     */
    private void poll() {
        for (int port : ownedPorts) {
            receive(port);
        }
        takeHandoffs();
        long now = Tsc.read();
        if (now - lastDrain >= drainTicks) {
            drainTxBuffers();
            lastDrain = now;
        }
    }

    /**
     * One rx burst from {@code port}, l2fwd-style in stages over the whole burst: read and
     * classify the headers, count and set aside what is not forwarded, decide, forward.
     * Small stages keep each loop short enough for the JIT to inline all of them here.
     */
    private void receive(int port) {
        int n = ethPorts[port].rxBurst(0, rx, BURST);
        if (n == 0) {
            return;
        }
        dropCount = 0;
        readHeaders(n);
        int kept = countAndFilter(port, n);
        table.decide(port, src, dst, kept, egress);    // stage 3, per burst
        forward(port, kept);
        if (dropCount > 0) {
            Mbuf.freeBulk(drops, dropCount);
        }
    }

    /**
     * Stage 1: handle, length, MACs and classification of each frame of the burst. The lean
     * {@link PriorityClassifier#classifyRaw} reads only what the forwarder decides on (VLAN PCP,
     * IPv4 DSCP, MAC-control EtherType); the full pfc-codec parse is for the frames that need
     * it ({@link #keepUnusual}).
     */
    private void readHeaders(int n) {
        // memory.bytes() at the use site, not cached in a field: inlined, it is a constant segment
        // and the JIT folds its bounds and liveness checks (a field read is 30 % slower here).
        MemorySegment bytes = memory.bytes();
        // The per-frame arrays in locals (here and in the other stages): the JIT does not trust
        // instance final fields and would load them again after every opaque access or call.
        long[] handle = this.handle;
        long[] offset = this.offset;
        int[] length = this.length;
        int[] cls = this.cls;
        long[] dst = this.dst;
        long[] src = this.src;
        for (int i = 0; i < n; i++) {
            // The burst array through the same constant all-memory segment: rx is a field, so
            // its own accessor would check rx's type and bounds on every read.
            long m = Mbuf.memory().get(JAVA_LONG, rxAddress + (long) i * Long.BYTES);
            long at = memory.offset(m);
            int len = memory.length(m);
            handle[i] = m;
            offset[i] = at;
            length[i] = len;
            cls[i] = classifier.classifyRaw(bytes, at, len);
            if (len >= Ethernet.HEADER_BYTES) {
                // The 12 MAC bytes in two loads, as FrameParser reads them.
                long dstAndSrcHigh = NetOrder.u64(bytes, at);
                dst[i] = dstAndSrcHigh >>> 16;
                src[i] = (dstAndSrcHigh & 0xFFFF) << 32 | (NetOrder.u32(bytes, at + 8) & 0xFFFF_FFFFL);
            } else {
                dst[i] = 0;
                src[i] = 0;
            }
        }
    }

    /**
     * Stage 2: counts each frame by (port, priority) and moves the frames that are not forwarded
     * (runts, MAC control) to {@link #drops}, closing the gap in the per-frame arrays.
     *
     * @return how many frames are kept, now at indices [0, kept)
     */
    private int countAndFilter(int port, int n) {
        long[] handle = this.handle;
        long[] offset = this.offset;
        int[] length = this.length;
        int[] cls = this.cls;
        long[] dst = this.dst;
        long[] src = this.src;
        int kept = 0;
        // Frames of one priority come in runs: count a run in registers and add it to the
        // per-burst tally when the priority changes, rather than a memory increment per frame.
        int runPriority = cls[0] & PriorityClassifier.RAW_PRIORITY_MASK;
        long runFrames = 0;
        long runBytes = 0;
        for (int i = 0; i < n; i++) {
            int c = cls[i];
            int priority = c & PriorityClassifier.RAW_PRIORITY_MASK;
            if (priority != runPriority) {
                burstFrames[runPriority] += runFrames;
                burstBytes[runPriority] += runBytes;
                runPriority = priority;
                runFrames = 0;
                runBytes = 0;
            }
            runFrames++;
            runBytes += length[i];
            if ((c & UNUSUAL) != 0 && !keepUnusual(port, i, c)) {
                drops.setAtIndex(JAVA_LONG, dropCount++, handle[i]);
                continue;
            }
            if (kept != i) {
                handle[kept] = handle[i];
                offset[kept] = offset[i];
                length[kept] = length[i];
                src[kept] = src[i];
                dst[kept] = dst[i];
            }
            kept++;
        }
        burstFrames[runPriority] += runFrames;
        burstBytes[runPriority] += runBytes;
        addBurstCounts(port);
        return kept;
    }

    /**
     * The burst's tally into the shared counters. Opaque stores are ordered among themselves, so
     * the JIT cannot batch them: one per priority per burst rather than two per frame. Its own
     * method so that {@link #countAndFilter} stays under the JIT's hot-method inlining limit.
     */
    private void addBurstCounts(int port) {
        for (int p = 0; p < PortCounters.PRIORITIES; p++) {
            if (burstFrames[p] != 0) {
                PortCounters.add(counters.rxFrames, port * PortCounters.PRIORITIES + p, burstFrames[p]);
                PortCounters.add(counters.rxBytes, port * PortCounters.PRIORITIES + p, burstBytes[p]);
                burstFrames[p] = 0;
                burstBytes[p] = 0;
            }
        }
    }

    /**
     * Runts, MAC-control frames, BFC control frames and malformed headers: counted, and only the
     * malformed ones are forwarded. MAC-control and BFC control frames are link-local (the
     * forwarder runs no BFC: they are counted with the other MAC-control frames); a full parse
     * reads a MAC-control frame's opcode and class-enable vector.
     */
    private boolean keepUnusual(int port, int i, int c) {
        if ((c & PriorityClassifier.RAW_RUNT) != 0) {
            PortCounters.add(counters.runtRx, port, 1);
            return false;
        }
        if ((c & PriorityClassifier.RAW_BFC_CONTROL) != 0) {
            PortCounters.add(counters.macControlOtherRx, port, 1);
            return false;
        }
        if ((c & PriorityClassifier.RAW_MAC_CONTROL) != 0) {
            FrameParser.parse(memory.bytes(), offset[i], length[i], frame);
            countMacControl(port);
            return false;
        }
        PortCounters.add(counters.malformedRx, port, 1);
        return true;
    }

    private void countMacControl(int port) {
        if (frame.isPfc()) {
            int enabled = frame.classEnable();
            for (int p = 0; p < PortCounters.PRIORITIES; p++) {
                if ((enabled & 1 << p) != 0) {
                    PortCounters.add(counters.pfcRx, port * PortCounters.PRIORITIES + p, 1);
                }
            }
        } else if (frame.isMacControl()) {
            PortCounters.add(counters.pauseRx, port, 1);
        } else {
            PortCounters.add(counters.macControlOtherRx, port, 1);
        }
    }

    /** Stage 4: puts the {@code kept} frames of a burst from {@code inPort} where {@link #egress} says. */
    private void forward(int inPort, int kept) {
        if (kept == 0) {
            return;
        }
        int[] egress = this.egress;
        int first = egress[0];
        boolean oneEgress = true;
        boolean anyFlood = false;
        for (int i = 0; i < kept; i++) {
            int out = egress[i];
            oneEgress &= out == first;
            anyFlood |= out == ForwardingTable.FLOOD;
        }
        if (anyFlood) {
            prepareFloods(inPort, kept);
        }
        if (reflect) {
            swapMacs(kept);
        }
        // The usual burst has one destination, a port this worker owns: hand it over whole.
        if (oneEgress && first >= 0 && txBuffers[first] != null) {
            txBuffers[first].addAll(handle, length, kept, counters);
            return;
        }
        forwardEach(inPort, kept);
    }

    /** Flooded frames get one reference per extra copy before any copy can leave: one call per burst. */
    private void prepareFloods(int inPort, int kept) {
        int ports = ethPorts.length;
        int floodCount = 0;
        for (int i = 0; i < kept; i++) {
            if (egress[i] == ForwardingTable.FLOOD) {
                floods.setAtIndex(JAVA_LONG, floodCount++, handle[i]);
            }
        }
        PortCounters.add(counters.floodedRx, inPort, floodCount);
        if (ports > 2) {
            Mbuf.refcntUpdateBulk(floods, floodCount, ports - 2);
        }
    }

    /** Stage 4 for a burst with several destinations: frame by frame. */
    private void forwardEach(int inPort, int kept) {
        int ports = ethPorts.length;
        long[] handle = this.handle;
        int[] length = this.length;
        int[] egress = this.egress;
        for (int i = 0; i < kept; i++) {
            long m = handle[i];
            int out = egress[i];
            if (out >= 0) {
                send(out, m, length[i]);
            } else if (out == ForwardingTable.FLOOD && ports > 1) {
                for (int p = 0; p < ports; p++) {
                    if (p != inPort) {
                        send(p, m, length[i]);
                    }
                }
            } else {
                if (out == ForwardingTable.FILTER) {
                    PortCounters.add(counters.filteredRx, inPort, 1);
                }
                drops.setAtIndex(JAVA_LONG, dropCount++, m);
            }
        }
    }

    private void send(int port, long m, int len) {
        TxBuffer own = txBuffers[port];
        if (own != null) {
            own.add(m, len, counters);
        } else if (!toWorker[ownerOf[port]].offer(HandoffRing.entry(m, port))) {
            PortCounters.add(counters.handoffDrop, port, 1);
            drops.setAtIndex(JAVA_LONG, dropCount++, m);
        }
    }

    /** Frames other workers received for this worker's ports. */
    private void takeHandoffs() {
        for (HandoffRing ring : fromWorker) {
            if (ring == null) {
                continue;
            }
            for (int budget = HANDOFF_BUDGET; budget > 0; budget--) {
                long e = ring.poll();
                if (e == -1) {
                    break;
                }
                long m = e & HandoffRing.HANDLE_MASK;
                txBuffers[(int) (e >>> HandoffRing.PORT_SHIFT)].add(m, memory.length(m), counters);
            }
        }
    }

    private void drainTxBuffers() {
        for (int port : ownedPorts) {
            TxBuffer b = txBuffers[port];
            if (!b.isEmpty()) {
                b.flush(counters);
            }
        }
    }

    /**
     * Benchmark reflector: swaps the source and destination MACs of the first {@code kept}
     * frames, so that a port wired back onto itself (a net_ring vdev) answers every frame like a
     * host would, and the frames keep circulating. The same 12-byte header write as testpmd's
     * mac forwarding mode, as two stores of the MACs stage 1 read. Filtered frames are swapped
     * too; they are freed anyway.
     */
    private void swapMacs(int kept) {
        MemorySegment bytes = memory.bytes();
        long[] offset = this.offset;
        long[] dst = this.dst;
        long[] src = this.src;
        for (int i = 0; i < kept; i++) {
            long at = offset[i];
            long d = dst[i];
            NetOrder.put64(bytes, at, src[i] << 16 | d >>> 32);
            NetOrder.put32(bytes, at + 8, (int) d);
        }
    }

    // ---------------------------------------------------------------- life cycle (other threads)

    void requestStop() {
        running = false;
        LockSupport.unpark(thread);
    }

    /** Asks the worker to pause; {@link #isPaused} says when it has. */
    void requestPause() {
        pauseRequested = true;
    }

    void requestResume() {
        pauseRequested = false;
        LockSupport.unpark(thread);
    }

    /** True while the worker sits paused, its TX buffers sent, touching no port. */
    boolean isPaused() {
        return paused;
    }

    /**
     * Sends what the TX buffers hold, then parks until resumed or stopped: a paused worker
     * leaves its CPU to others and holds no frame in a buffer.
     */
    private void pauseHere() {
        drainTxBuffers();
        paused = true;
        while (pauseRequested && running) {
            LockSupport.parkNanos(1_000_000);
        }
        paused = false;
        lastDrain = Tsc.read();
    }

    /**
     * After the thread ended: sends what the TX buffers hold (or frees what the ports refuse) and
     * frees frames still in the hand-over rings addressed to this worker. Called by the thread
     * that joined the workers.
     */
    void finish() {
        takeAllHandoffs();
        drainTxBuffers();
    }

    private void takeAllHandoffs() {
        for (HandoffRing ring : fromWorker) {
            if (ring == null) {
                continue;
            }
            for (long e = ring.poll(); e != -1; e = ring.poll()) {
                long m = e & HandoffRing.HANDLE_MASK;
                txBuffers[(int) (e >>> HandoffRing.PORT_SHIFT)].add(m, memory.length(m), counters);
            }
        }
    }

    int id() {
        return id;
    }

    int[] ownedPorts() {
        return ownedPorts.clone();
    }

    PortCounters counters() {
        return counters;
    }
}

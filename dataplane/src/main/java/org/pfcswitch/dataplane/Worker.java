package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameParser;
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
 *   for each owned port:  rx burst (32) → parse + classify + count each frame
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
    private final long[] handle = new long[BURST];
    private final int[] length = new int[BURST];
    private final long[] src = new long[BURST];
    private final long[] dst = new long[BURST];
    private final int[] egress = new int[BURST];
    private int dropCount;

    private volatile boolean running = true;

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
        this.rx = Mbuf.pointerArray(arena, BURST);
        this.floods = Mbuf.pointerArray(arena, BURST);
        // A burst drops at most every frame once per egress port (flood copies refused by hand-over rings).
        this.drops = Mbuf.pointerArray(arena, BURST * ethPorts.length);
    }

    @Override
    public void run() {
        long lastDrain = Tsc.read();
        while (running) {
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
    }

    /** One rx burst from {@code port}, classified, decided and buffered for transmission. */
    private void receive(int port) {
        int n = ethPorts[port].rxBurst(0, rx, BURST);
        if (n == 0) {
            return;
        }
        dropCount = 0;
        int kept = 0;
        for (int i = 0; i < n; i++) {
            long m = rx.getAtIndex(JAVA_LONG, i);
            int len = memory.length(m);
            if (classifyAndCount(port, m, len)) {
                handle[kept] = m;
                length[kept] = len;
                src[kept] = frame.srcMac();
                dst[kept] = frame.dstMac();
                kept++;
            } else {
                drops.setAtIndex(JAVA_LONG, dropCount++, m);
            }
        }
        table.decide(port, src, dst, kept, egress);
        forward(port, kept);
        if (dropCount > 0) {
            Mbuf.freeBulk(drops, dropCount);
        }
    }

    /**
     * Parses the frame with pfc-codec, counts it by (port, priority) and says whether it may be
     * forwarded: MAC-control frames (PFC, PAUSE) are link-local and runts unusable, so those stay.
     */
    private boolean classifyAndCount(int port, long m, int len) {
        // memory.bytes() at the use site, not cached in a field: inlined, it is a constant segment
        // and the JIT folds its bounds and liveness checks (a field read is 30 % slower here).
        FrameParser.parse(memory.bytes(), memory.offset(m), len, frame);
        int priority = classifier.classify(frame);
        int slot = port * PortCounters.PRIORITIES + priority;
        PortCounters.add(counters.rxFrames, slot, 1);
        PortCounters.add(counters.rxBytes, slot, len);
        if (len < Ethernet.HEADER_BYTES) {
            PortCounters.add(counters.runtRx, port, 1);
            return false;
        }
        if (frame.etherType() == Ethernet.TYPE_MAC_CONTROL) {
            countMacControl(port);
            return false;
        }
        if (frame.isMalformed()) {
            PortCounters.add(counters.malformedRx, port, 1);
        }
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

    /** Puts the {@code kept} frames of a burst from {@code inPort} where {@link #egress} says. */
    private void forward(int inPort, int kept) {
        int ports = ethPorts.length;
        // Flooded frames get one reference per extra copy before any copy can leave: one call per burst.
        int floodCount = 0;
        for (int i = 0; i < kept; i++) {
            if (egress[i] == ForwardingTable.FLOOD) {
                floods.setAtIndex(JAVA_LONG, floodCount++, handle[i]);
            }
        }
        if (floodCount > 0) {
            PortCounters.add(counters.floodedRx, inPort, floodCount);
            if (ports > 2) {
                Mbuf.refcntUpdateBulk(floods, floodCount, ports - 2);
            }
        }
        for (int i = 0; i < kept; i++) {
            long m = handle[i];
            int out = egress[i];
            if (reflect) {
                swapMacs(m);
            }
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
     * Benchmark reflector: swaps the frame's source and destination MACs, so that a port wired
     * back onto itself (a net_ring vdev) answers every frame like a host would, and the frames
     * keep circulating. The same 12-byte header write as testpmd's mac forwarding mode.
     */
    private void swapMacs(long m) {
        long at = memory.offset(m);
        MemorySegment bytes = memory.bytes();
        int d0 = bytes.get(JAVA_INT_UNALIGNED, at);
        short d1 = bytes.get(JAVA_SHORT_UNALIGNED, at + 4);
        int s0 = bytes.get(JAVA_INT_UNALIGNED, at + 6);
        short s1 = bytes.get(JAVA_SHORT_UNALIGNED, at + 10);
        bytes.set(JAVA_INT_UNALIGNED, at, s0);
        bytes.set(JAVA_SHORT_UNALIGNED, at + 4, s1);
        bytes.set(JAVA_INT_UNALIGNED, at + 6, d0);
        bytes.set(JAVA_SHORT_UNALIGNED, at + 10, d1);
    }

    // ---------------------------------------------------------------- life cycle (other threads)

    void requestStop() {
        running = false;
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

package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.dataplane.core.CoreConfig;
import org.pfcswitch.dataplane.core.FrameSink;
import org.pfcswitch.dataplane.core.SwitchCore;
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
 *   the other frames, port by port      → core.onFrame(port, mbuf, now)
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
 * <p>One native call per burst (rx, tx, bulk free, bulk alloc), one TSC read per pass and per
 * non-empty rx burst; nothing
 * is allocated once the loop runs.
 */
final class CoreWorker implements Runnable {

    static final int BURST = Worker.BURST;
    /** The longest stall the shaper makes up for with back-to-back frames. */
    static final long CATCH_UP_NANOS = 50_000;

    private final SwitchCore core;
    private final EthPort[] ports;
    private final TxBuffer[] tx;
    private final MbufAllocator allocator;
    private final PortCounters driverCounters;
    private final MemorySegment[] rx;        // one burst array per port
    private final long[] rxAddress;
    private final int[] rxCount;
    private final long tscStart;
    private final double nanosPerTick;

    private volatile boolean running = true;
    /** Lower bounds of the stall buckets: passes that started this long or longer after the previous one. */
    static final long[] STALL_BOUNDS_NANOS = {100_000, 1_000_000, 10_000_000, 100_000_000};

    // Written by the worker only; other threads read recent values.
    private long passes;
    private long lastPassAt;
    private long longestPassNanos;
    private final long[] stalls = new long[STALL_BOUNDS_NANOS.length];

    CoreWorker(CoreConfig config, EthPort[] ports, Mempool pool, long randomSeed, Arena arena) {
        this(config, ports, pool, randomSeed, arena, null);
    }

    /**
     * As the switch's worker, but every frame the core transmits gets its destination and source
     * MACs rewritten on the way to the TX buffer (frames leaving port {@code p} get
     * {@code egressMacs[2p]} and {@code egressMacs[2p + 1]}), as testpmd's mac mode does: the
     * benchmarks' way to keep frames circulating through looped-back ports. Null: no rewrite.
     */
    CoreWorker(CoreConfig config, EthPort[] ports, Mempool pool, long randomSeed, Arena arena, long[] egressMacs) {
        this.ports = ports.clone();
        this.driverCounters = new PortCounters(ports.length);
        this.tx = new TxBuffer[ports.length];
        for (int p = 0; p < ports.length; p++) {
            tx[p] = new TxBuffer(arena, ports[p], p, BURST);
        }
        this.allocator = new MbufAllocator(pool, arena);
        this.rx = new MemorySegment[ports.length];
        this.rxAddress = new long[ports.length];
        this.rxCount = new int[ports.length];
        for (int p = 0; p < ports.length; p++) {
            rx[p] = Worker.unscoped(Mbuf.pointerArray(arena, BURST));
            rxAddress[p] = rx[p].address();
        }
        // The core's output goes straight into the port's TX buffer: ownership passes with it.
        TxBuffer[] buffers = tx;
        PortCounters counters = driverCounters;
        FrameSink sink = (port, handle, length, start) -> buffers[port].add(handle, length, counters);
        if (egressMacs != null) {
            long[] macs = egressMacs.clone();
            sink = (port, handle, length, start) -> {
                long at = Mbuf.dataAddress(handle);
                NetOrder.put64(Mbuf.memory(), at, macs[2 * port] << 16 | macs[2 * port + 1] >>> 32);
                NetOrder.put32(Mbuf.memory(), at + 8, (int) macs[2 * port + 1]);
                buffers[port].add(handle, length, counters);
            };
        }
        this.core = new SwitchCore(config, DpdkPacketMemory.INSTANCE, allocator, sink, RandomSource.seeded(randomSeed));
        this.tscStart = Tsc.read();
        this.nanosPerTick = 1e9 / Tsc.hz();
    }

    @Override
    public void run() {
        while (running) {
            poll();
        }
    }

    /** One pass: timers, every port's rx burst, TX buffers out, frees back. */
    void poll() {
        long now = nanos();
        if (now - lastPassAt >= STALL_BOUNDS_NANOS[0] && passes > 0) {
            noteStall(now - lastPassAt);
        }
        lastPassAt = now;
        runTimers(now);
        receive();
        for (TxBuffer b : tx) {
            if (!b.isEmpty()) {
                b.flush(driverCounters);
            }
        }
        allocator.flush();
        passes++;
    }

    private void noteStall(long gap) {
        longestPassNanos = Math.max(longestPassNanos, gap);
        for (int b = 0; b < STALL_BOUNDS_NANOS.length && gap >= STALL_BOUNDS_NANOS[b]; b++) {
            stalls[b]++;
        }
    }

    private void runTimers(long now) {
        long floor = now - CATCH_UP_NANOS;
        for (long due = core.nextTimerDue(); due <= now; due = core.nextTimerDue()) {
            core.onTimer(Math.max(due, floor));
        }
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
    private void receive() {
        int received = 0;
        for (int port = 0; port < ports.length; port++) {
            received += rxCount[port] = ports[port].rxBurst(0, rx[port], BURST);
        }
        if (received == 0) {
            return;
        }
        long now = nanos();
        MemorySegment memory = Mbuf.memory();
        for (int port = 0; port < ports.length; port++) {
            for (int i = 0; i < rxCount[port]; i++) {
                long slot = rxAddress[port] + (long) i * Long.BYTES;
                long m = memory.get(JAVA_LONG, slot);
                if (isMacControl(m)) {
                    core.onFrame(port, m, now);
                    memory.set(JAVA_LONG, slot, 0L);
                }
            }
        }
        for (int port = 0; port < ports.length; port++) {
            for (int i = 0; i < rxCount[port]; i++) {
                long m = memory.get(JAVA_LONG, rxAddress[port] + (long) i * Long.BYTES);
                if (m != 0) {
                    core.onFrame(port, m, now);
                }
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

    void requestStop() {
        running = false;
    }

    /**
     * After the thread ended: frees what the core still queues (released from the MMU), sends what
     * the TX buffers hold (freeing what the ports refuse) and gives the allocator's mbufs back.
     *
     * @return frames that were still queued in the core
     */
    int finish() {
        int discarded = core.discardQueuedFrames(nanos());
        for (TxBuffer b : tx) {
            if (!b.isEmpty()) {
                b.flush(driverCounters);
            }
        }
        allocator.close();
        return discarded;
    }

    /** The switch. Its counters and state are written by the worker thread: other threads see recent, unordered values. */
    SwitchCore core() {
        return core;
    }

    /** What the ports' TX queues took and refused (frames the core sent but the port dropped: {@code txDropFull}). */
    PortCounters driverCounters() {
        return driverCounters;
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

    /** Passes that began at least {@code STALL_BOUNDS_NANOS[bucket]} after the previous one (cumulative buckets). */
    long stalls(int bucket) {
        return stalls[bucket];
    }

    /** Loop passes so far: a liveness and load indicator. */
    long passes() {
        return passes;
    }
}

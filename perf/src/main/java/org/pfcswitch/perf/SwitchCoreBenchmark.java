package org.pfcswitch.perf;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dataplane.Frames;
import org.pfcswitch.core.PacketMemory;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.FrameAllocator;
import org.pfcswitch.core.FrameSink;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;

/**
 * The switch core's cost per frame against its number of ports (1, 4, 9), fed directly in
 * virtual time, as the live pipeline runs it (dt, priority 3 lossless with PFC, shaper off, DSCP 26
 * -> 3, static MACs, learning on): {@code onFrame} parses, classifies, learns, looks up, admits,
 * queues, and the port dequeues, releases and transmits the frame at once. Frames arrive round
 * robin on the {@code ports} receiving ports, each addressed to the next port; with one receiving
 * port the core has a second port that only transmits (a frame never goes back out of the port it
 * came in on). Frames are 64 B UDP in a heap slab of 1024 slots that are fed again and again; the
 * sink just counts. Virtual time advances 5 ns per frame.
 *
 * <p>The reference, {@code onFrameReference}, runs the same frames through what any switch must
 * do with them at least: the same full parse, and a forwarding decision from a plain array
 * indexed by the destination MAC's last byte. Its ratio is the price of the rest of the core
 * (classification, learning, the forwarding table, the MMU, queues, scheduler, PFC state).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class SwitchCoreBenchmark {

    private static final int BATCH = 1024;
    private static final int SLOT = 2048;

    @Param({"1", "4", "9"})
    public int ports;

    @Param({"64"})
    public int frameBytes;

    /**
     * The PFC watchdog: off, or on with action drop (idle: nothing pauses these ports, so this is the
     * cost of its checks on the frame path). Compare with {@code -p pfcwd=off,drop}.
     */
    @Param({"off"})
    public String pfcwd;

    /** Shadow schemes beside the active dt, joined by '+' ({@code none}: off). Compare with {@code -p shadows=none,dsh}. */
    @Param({"none"})
    public String shadows;

    private SwitchCore core;
    private Memory memory;
    private int[] inPort;
    private long[] handle;
    private long now;
    // the reference's state
    private final ParsedFrame parsed = new ParsedFrame();
    private final int[] portOfHost = new int[256];
    private long[] sentPerPort;

    /** A heap slab of 2 KiB slots, one per frame; the handle is the slot number. */
    static final class Memory implements PacketMemory, FrameAllocator, FrameSink {
        final MemorySegment slab;
        final int[] length;
        long sent;

        Memory(int slots) {
            slab = MemorySegment.ofArray(new long[slots * SLOT / 8]);
            length = new int[slots];
        }

        @Override public MemorySegment bytes() { return slab; }
        @Override public long offset(long h) { return h * SLOT; }
        @Override public int length(long h) { return length[(int) h]; }
        @Override public long allocate(int len) { return NO_HANDLE; }     // the benchmark's frames never flood
        @Override public void free(long h) { }
        @Override public void transmit(int port, long h, int len, long start) { sent++; }
    }

    static long host(int p) {
        return 0x0200_0000_0000L | (p + 1);
    }

    @Setup
    public void setUp() {
        // One port cannot forward to itself: the 1-port switch is given a second port that only receives.
        int corePorts = Math.max(ports, 2);
        MmuConfig mmu = MmuConfig.builder().ports(corePorts, 100_000_000_000L, 1_000).scheme("dt").build();
        CoreConfig.Builder b = CoreConfig.builder(mmu)
                .classifier(PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0))
                .learning(true).shaper(false)
                .pfcwd(pfcwd.equals("off") ? null : new org.pfcswitch.core.PfcWatchdogConfig(200_000_000L, 400_000_000L,
                        org.pfcswitch.core.PfcWatchdogConfig.Action.DROP))
                .shadows(shadows.equals("none") ? java.util.List.of() : java.util.List.of(shadows.split("\\+")));
        for (int p = 0; p < corePorts; p++) {
            b.staticMac(host(p), p);
            portOfHost[p + 1] = p;
        }
        memory = new Memory(BATCH);
        ring = new org.pfcswitch.core.record.ArrivalRing(1 << ringBits, Long.MAX_VALUE);
        core = new SwitchCore(b.build(), memory, memory, memory, RandomSource.seeded(1));
        inPort = new int[BATCH];
        handle = new long[BATCH];
        sentPerPort = new long[corePorts];
        for (int i = 0; i < BATCH; i++) {
            int in = i % ports;
            int out = (in + 1) % corePorts;
            byte[] f = Frames.udp(host(out), host(in), 26, frameBytes, i);
            MemorySegment.copy(MemorySegment.ofArray(f), 0, memory.slab, (long) i * SLOT, f.length);
            memory.length[i] = f.length;
            inPort[i] = in;
            handle[i] = i;
        }
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long onFrame() {
        long t = now;
        for (int i = 0; i < BATCH; i++) {
            core.onFrame(inPort[i], handle[i], t);
            t += 5;
        }
        now = t;
        return memory.sent;
    }

    /** log2 of the recording ring's size: 16 is what {@code run --record} uses (5 MiB). */
    @Param({"16"})
    public int ringBits;

    /** {@code run --record}'s part on the worker: each frame's arrival copied into an ArrivalRing first. */
    private org.pfcswitch.core.record.ArrivalRing ring;
    private long drained;
    private final org.pfcswitch.core.record.ArrivalRing.Consumer noWrite = (w, from) -> drained++;

    /**
     * {@link #onFrame} with recording: the worker's copy of each arrival into the ring (time, port,
     * length, 64 header bytes). The ring is emptied once per batch on this thread without reading the
     * records (in {@code run} another thread reads them); compare with {@code onFrame}.
     */
    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long onFrameRecorded() {
        long t = now;
        MemorySegment s = memory.slab;
        for (int i = 0; i < BATCH; i++) {
            long h = handle[i];
            ring.offer(t, inPort[i], memory.length[(int) h], s, h * SLOT);
            core.onFrame(inPort[i], h, t);
            t += 5;
        }
        now = t;
        ring.drain(noWrite, BATCH);
        return memory.sent + drained;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long onFrameReference() {
        MemorySegment s = memory.slab;
        for (int i = 0; i < BATCH; i++) {
            long off = (long) i * SLOT;
            FrameParser.parse(s, off, memory.length[i], parsed);
            int out = portOfHost[(int) parsed.dstMac() & 0xFF];
            sentPerPort[out] += NetOrder.u8(s, off) + 1;
        }
        return sentPerPort[0];
    }
}

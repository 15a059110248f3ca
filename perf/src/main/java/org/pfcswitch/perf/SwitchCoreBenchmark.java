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
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.core.SwitchWorkers;
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
 * <p>{@code -p egress=queued} measures the path of frames that wait in egress queues: the shaper is
 * on (100 Gb/s, 6.7 ns per 64 B frame on the line), frames arrive in bursts of {@value #BURST} at
 * one instant, as a poll-mode rx burst hands them over, and the ports' line timers send the rest
 * before the next burst, 10 ns per frame later (the driver runs every timer due, at its due time,
 * as the virtual-time driver does). The first frame of a burst for a port goes straight to its
 * idle line; the others queue (31 of 32 with one receiving port, about 7 of 8 with 4, 5 of 7
 * with 9), so this is mostly enqueue, the scheduler, dequeue and the line timers.
 *
 * <p>{@code -p workers=2} measures what a frame costs that crosses workers ({@link SwitchWorkers}):
 * the receiving ports belong to worker 0, each frame goes to a port of worker 1 (the switch has
 * twice {@code ports} ports), so every frame is admitted and charged by worker 0, written to the
 * frame ring, read and sent by worker 1, and released through the release ring back into worker
 * 0's ledger. Both workers' cores run on the benchmark's one thread, a pass of each after every
 * {@value #BURST} frames (worker 0 publishes, worker 1 takes and sends, publishes its releases,
 * worker 0 takes them), as each live worker does once per poll pass: this is the CPU work of a
 * crossing, not the cache-line transfers between two cores, which come on top live.
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
    private static final int BURST = 32;
    /** Virtual time per frame of the queued variant: the 100 Gb/s line is busy 6.7 ns of it. */
    private static final long QUEUED_NANOS_PER_FRAME = 10;

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

    /**
     * {@code idle}: the live pipeline's shaper off, every frame finds its port idle. {@code queued}:
     * shaper on, bursts that wait in the egress queues (see the class comment).
     */
    @Param({"idle"})
    public String egress;
    private boolean queued;

    /**
     * {@code frame}: {@code onFrame} per frame, the ports' frames interleaved. {@code burst}: each
     * run of {@value #BURST} frames comes from one port and goes in as one rx burst
     * ({@code onFrames}, parsed before the first is forwarded), as the poll-mode driver hands them
     * over; the burst's frames arrive at one instant (the idle variant's clock still advances
     * 5 ns per frame, between bursts).
     */
    @Param({"frame"})
    public String feed;
    private boolean bursts;

    /**
     * {@code 1}: one core runs every port. {@code 2}: every frame crosses from worker 0's port to
     * worker 1's (see the class comment).
     */
    @Param({"1"})
    public int workers;
    /** With two workers, worker 1's core (the frames' egress); null with one. */
    private SwitchCore far;

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
        if (workers != 1 && workers != 2) {
            throw new IllegalArgumentException("workers must be 1 or 2, got " + workers);
        }
        // One port cannot forward to itself: the 1-port switch is given a second port that only
        // receives. With two workers, worker 1 has as many ports as worker 0, each the egress of one.
        int corePorts = workers == 2 ? 2 * ports : Math.max(ports, 2);
        queued = switch (egress) {
            case "idle" -> false;
            case "queued" -> true;
            default -> throw new IllegalArgumentException("egress must be idle or queued, got " + egress);
        };
        bursts = switch (feed) {
            case "frame" -> false;
            case "burst" -> true;
            default -> throw new IllegalArgumentException("feed must be frame or burst, got " + feed);
        };
        MmuConfig mmu = MmuConfig.builder().ports(corePorts, 100_000_000_000L, 1_000).scheme("dt").build();
        CoreConfig.Builder b = CoreConfig.builder(mmu)
                .classifier(PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0))
                .learning(true).shaper(queued)
                .pfcwd(pfcwd.equals("off") ? null : new org.pfcswitch.core.PfcWatchdogConfig(200_000_000L, 400_000_000L,
                        org.pfcswitch.core.PfcWatchdogConfig.Action.DROP))
                .shadows(shadows.equals("none") ? java.util.List.of() : java.util.List.of(shadows.split("\\+")));
        for (int p = 0; p < corePorts; p++) {
            b.staticMac(host(p), p);
            portOfHost[p + 1] = p;
        }
        memory = new Memory(BATCH);
        ring = new org.pfcswitch.core.record.ArrivalRing(1 << ringBits, Long.MAX_VALUE);
        if (workers == 2) {
            int[] workerOf = new int[corePorts];
            for (int p = ports; p < corePorts; p++) {
                workerOf[p] = 1;
            }
            SwitchWorkers split = SwitchWorkers.create(b.build(), SwitchModel.DEFAULT, workerOf, memory,
                    new FrameAllocator[] {memory, memory}, new FrameSink[] {memory, memory},
                    new RandomSource[] {RandomSource.seeded(1), RandomSource.seeded(2)}, 2 * BATCH,
                    SwitchWorkers.BUSY_PASS_NANOS);
            core = split.core(0);
            far = split.core(1);
        } else {
            core = new SwitchCore(b.build(), memory, memory, memory, RandomSource.seeded(1));
        }
        inPort = new int[BATCH];
        handle = new long[BATCH];
        sentPerPort = new long[corePorts];
        for (int i = 0; i < BATCH; i++) {
            int in = bursts ? i / BURST % ports : i % ports;
            int out = workers == 2 ? in + ports : (in + 1) % corePorts;
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
        if (queued) {
            return queuedBursts();
        }
        long t = now;
        if (bursts) {
            for (int i = 0; i < BATCH; i += BURST) {
                core.onFrames(inPort[i], handle, i, BURST, t);
                t += BURST * 5;
                crossWorkers(t);
            }
            now = t;
            return memory.sent;
        }
        for (int i = 0; i < BATCH; i++) {
            core.onFrame(inPort[i], handle[i], t);
            t += 5;
            if ((i & BURST - 1) == BURST - 1) {
                crossWorkers(t);
            }
        }
        now = t;
        return memory.sent;
    }

    /**
     * With two workers, the end of a poll pass of each: worker 0 publishes what it handed over,
     * worker 1 takes the frames and sends them, then publishes their releases, which worker 0 takes.
     */
    private void crossWorkers(long t) {
        if (far == null) {
            return;
        }
        core.publishToPeers(t);
        while (far.onCrossings(t) > 0) {
            // a bounded number per call
        }
        far.publishToPeers(t);
        while (core.onCrossings(t) > 0) {
            // a bounded number per call
        }
    }

    /** The queued variant: bursts at one instant each, the line timers run at their due times in between. */
    private long queuedBursts() {
        long t = now;
        for (int i = 0; i < BATCH; i += BURST) {
            for (long due; (due = core.nextTimerDue()) <= t; ) {
                core.onTimer(due);
            }
            for (long due; far != null && (due = far.nextTimerDue()) <= t; ) {
                far.onTimer(due);
            }
            if (bursts) {
                core.onFrames(inPort[i], handle, i, BURST, t);
            } else {
                for (int j = i; j < i + BURST; j++) {
                    core.onFrame(inPort[j], handle[j], t);
                }
            }
            crossWorkers(t);                // in the same pass: worker 1's line timers run until the next burst
            t += BURST * QUEUED_NANOS_PER_FRAME;
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
            if ((i & BURST - 1) == BURST - 1) {
                crossWorkers(t);
            }
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

    /**
     * The same benchmark timed in thread CPU time rather than by JMH's wall clock, for a machine
     * that other work keeps busy (time the OS gives to other threads is not counted; caches shared
     * with them still are). For each {@code ports} and {@code egress} variant: a warm-up, then
     * rounds that alternate {@code onFrame} and {@code onFrameReference}; prints the median CPU ns
     * per frame of each and their ratio.
     *
     * <pre>java -cp perf/target/classes:perf/target/lib/* org.pfcswitch.perf.SwitchCoreBenchmark [rounds] [ports,...] [egress,...] [feed,...] [workers,...]</pre>
     */
    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        String[] portList = (args.length > 1 ? args[1] : "1,4,9").split(",");
        String[] egressList = (args.length > 2 ? args[2] : "idle,queued").split(",");
        String[] feedList = (args.length > 3 ? args[3] : "frame,burst").split(",");
        String[] workerList = (args.length > 4 ? args[4] : "1").split(",");
        for (String w : workerList) {
            for (String e : egressList) {
                for (String f : feedList) {
                    for (String p : portList) {
                        SwitchCoreBenchmark b = new SwitchCoreBenchmark();
                        b.ports = Integer.parseInt(p);
                        b.frameBytes = 64;
                        b.pfcwd = "off";
                        b.shadows = "none";
                        b.egress = e;
                        b.feed = f;
                        b.ringBits = 16;
                        b.workers = Integer.parseInt(w);
                        b.setUp();
                        System.out.printf("workers=%s egress=%-6s feed=%-5s ports=%s  %s%n", w, e, f, p,
                                b.cpuTimes(rounds));
                    }
                }
            }
        }
    }

    /** Median thread CPU ns per frame of {@code onFrame} and of the reference over {@code rounds} rounds, after a warm-up. */
    private String cpuTimes(int rounds) {
        java.lang.management.ThreadMXBean cpu = java.lang.management.ManagementFactory.getThreadMXBean();
        int calls = 2000;                       // 2 M frames a round
        long sink = 0;
        for (int w = 0; w < 20; w++) {
            for (int c = 0; c < calls; c++) {
                sink += onFrame() + onFrameReference();
            }
        }
        double[] core = new double[rounds];
        double[] ref = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            long t0 = cpu.getCurrentThreadCpuTime();
            for (int c = 0; c < calls; c++) {
                sink += onFrame();
            }
            long t1 = cpu.getCurrentThreadCpuTime();
            for (int c = 0; c < calls; c++) {
                sink += onFrameReference();
            }
            long t2 = cpu.getCurrentThreadCpuTime();
            core[r] = (double) (t1 - t0) / ((long) calls * BATCH);
            ref[r] = (double) (t2 - t1) / ((long) calls * BATCH);
        }
        java.util.Arrays.sort(core);
        java.util.Arrays.sort(ref);
        return String.format("onFrame %6.1f ns (min %5.1f, max %5.1f)  reference %5.1f ns  ratio %.2f%s",
                core[rounds / 2], core[0], core[rounds - 1], ref[rounds / 2], core[rounds / 2] / ref[rounds / 2],
                sink == 42 ? " " : "");
    }
}

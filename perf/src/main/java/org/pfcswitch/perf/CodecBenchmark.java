package org.pfcswitch.perf;

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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.pfcswitch.codec.FlowHash;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.concurrent.TimeUnit;

/**
 * The codec's per-packet costs on native memory, as in the DPDK driver:
 * <ul>
 *   <li>{@code classifyRoce}: parse a tagged RoCEv2 WRITE (Ethernet, 802.1Q, IPv4, UDP, BTH) with
 *   every length check, classify its priority (trust DSCP) and compute its flow hash;</li>
 *   <li>{@code encodePfc}: write a PFC frame with eight times, padded to 60 bytes;</li>
 *   <li>the {@code *Reference} methods do the same work with fixed offsets and no checks, the
 *   least a hand-written classifier or encoder can do; run-jmh.sh prints each benchmark's ratio
 *   to its reference, which is the price of the parser's safety.</li>
 * </ul>
 * Frames rotate over a small ring so the JIT cannot fold the parse into a constant.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED"})
public class CodecBenchmark {
    private static final int FRAMES = 64;
    private static final int SLOT = 2048;

    private Arena arena;
    private MemorySegment frames;
    private int[] lengths;
    private MemorySegment pfcOut;
    private final ParsedFrame parsed = new ParsedFrame();
    private final PriorityClassifier classifier = PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0);
    private final int[] quanta = {0, 0, 0, 65535, 65535, 0, 0, 0};
    private int next;

    /**
     * How the frames are reached. {@code address}: through one segment over all memory at
     * absolute addresses, as the DPDK driver reads mbuf data; {@code native}: an off-heap
     * segment at offsets; {@code heap}: a byte[] slab, as tests and tools use.
     */
    @Param({"address", "native", "heap"})
    public String memory;

    private static final MemorySegment ALL_MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    /** Where frame i starts in {@link #view}: its address, or its offset in {@link #frames}. */
    private long base;
    private MemorySegment view;

    @Setup
    public void setUp() {
        arena = Arena.ofShared();
        frames = memory.equals("heap")
                ? MemorySegment.ofArray(new byte[FRAMES * SLOT])
                : arena.allocate((long) FRAMES * SLOT, 64);
        lengths = new int[FRAMES];
        RoceFrameBuilder b = new RoceFrameBuilder().macs(0x0200_0000_0002L, 0x0200_0000_0001L)
                .vlan(3, 100).dscp(26).opcode(Roce.OP_RC_WRITE_MIDDLE).payloadBytes(1024);
        for (int i = 0; i < FRAMES; i++) {
            b.ips(0x0A00_0001 + i, 0x0A00_0101).udpSrcPort(49152 + i).destQp(100 + i).psn(i);
            lengths[i] = b.write(frames, (long) i * SLOT);
        }
        view = memory.equals("address") ? ALL_MEMORY : frames;
        base = memory.equals("address") ? frames.address() : 0;
        pfcOut = arena.allocate(64, 64);
    }

    @TearDown
    public void tearDown() {
        arena.close();
    }

    /** The poll loop's view: a burst of 32 frames classified back to back; reported per frame. */
    @Benchmark
    @OperationsPerInvocation(32)
    public long classifyRoceBurst() {
        long acc = 0;
        for (int k = 0; k < 32; k++) {
            int i = next++ & (FRAMES - 1);
            FrameParser.parse(view, base + (long) i * SLOT, lengths[i], parsed);
            acc += classifier.classify(parsed) ^ parsed.flowHash();
        }
        return acc;
    }

    @Benchmark
    public long classifyRoce() {
        int i = next++ & (FRAMES - 1);
        FrameParser.parse(view, base + (long) i * SLOT, lengths[i], parsed);
        return classifier.classify(parsed) ^ parsed.flowHash();
    }

    /** Fixed offsets for a tagged RoCE frame, no checks: DSCP byte and 5-tuple + QP, same hash. */
    @Benchmark
    public long classifyRoceReference() {
        int i = next++ & (FRAMES - 1);
        MemorySegment m = view;
        long f = base + (long) i * SLOT;
        int dscp = NetOrder.u8(m, f + 19) >>> 2;
        int src = NetOrder.u32(m, f + 30);
        int dst = NetOrder.u32(m, f + 34);
        int sport = NetOrder.u16(m, f + 38);
        int dport = NetOrder.u16(m, f + 40);
        int qp = NetOrder.u24(m, f + 46 + 5);
        return classifier.priorityOfDscp(dscp) ^ FlowHash.hash(src, dst, 17, sport, dport, qp);
    }

    @Benchmark
    public int encodePfc() {
        quanta[3] = next++ & 0xFFFF;
        return MacControl.writePfc(pfcOut, 0, 0x0200_0000_0001L, 0x18, quanta);
    }

    /** The same 60 bytes as eight long stores of precomputed words: the floor for any encoder. */
    @Benchmark
    public int encodePfcReference() {
        long t = next++ & 0xFFFF;
        pfcOut.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, 0x0000_01C2_8001_0000L ^ t);
        for (int off = 8; off < 56; off += 8) {
            pfcOut.set(ValueLayout.JAVA_LONG_UNALIGNED, off, t << off);
        }
        pfcOut.set(ValueLayout.JAVA_INT_UNALIGNED, 56, 0);
        return 60;
    }
}

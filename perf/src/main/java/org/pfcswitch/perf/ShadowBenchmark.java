package org.pfcswitch.perf;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.List;
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
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.dataplane.Frames;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;

/**
 * The cost per frame of shadow schemes ({@code run --shadow}): {@code onFrame} runs the switch core of
 * {@link SwitchCoreBenchmark} (dt active, priority 3 lossless with PFC, shaper off, 64 B UDP round
 * robin over {@code ports} ports, each frame admitted, queued, dequeued and released at once) with
 * the shadow schemes {@code shadows} beside it; {@code onFrameReference} runs the same frames through
 * the same core without shadows. Both in one JMH run, so the report's ratio is the price of the
 * shadows: per frame one more admit (and its release) per shadow scheme, on the shadow's own ledger.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ShadowBenchmark {

    private static final int BATCH = 1024;
    private static final int SLOT = 2048;

    @Param({"4"})
    public int ports;

    /** The shadow schemes, joined by '+' (JMH splits parameter values at commas): {@code -p shadows=dsh,dsh+spfc}. */
    @Param({"dsh"})
    public String shadows;

    private SwitchCore shadowed;
    private SwitchCore plain;
    private SwitchCoreBenchmark.Memory shadowedMemory;
    private SwitchCoreBenchmark.Memory plainMemory;
    private int[] inPort;
    private long now;
    private long nowPlain;

    @Setup
    public void setUp() {
        List<String> schemes = Arrays.asList(shadows.split("\\+"));
        shadowedMemory = frames();
        plainMemory = frames();
        shadowed = new SwitchCore(config().shadows(schemes).build(), shadowedMemory, shadowedMemory, shadowedMemory,
                RandomSource.seeded(1));
        plain = new SwitchCore(config().build(), plainMemory, plainMemory, plainMemory, RandomSource.seeded(1));
        inPort = new int[BATCH];
        for (int i = 0; i < BATCH; i++) {
            inPort[i] = i % ports;
        }
    }

    private CoreConfig.Builder config() {
        MmuConfig mmu = MmuConfig.builder().ports(ports, 100_000_000_000L, 1_000).scheme("dt").build();
        CoreConfig.Builder b = CoreConfig.builder(mmu)
                .classifier(PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0))
                .learning(true).shaper(false);
        for (int p = 0; p < ports; p++) {
            b.staticMac(SwitchCoreBenchmark.host(p), p);
        }
        return b;
    }

    /** A slab of BATCH frames, frame i from port i mod ports to the next port. */
    private SwitchCoreBenchmark.Memory frames() {
        SwitchCoreBenchmark.Memory m = new SwitchCoreBenchmark.Memory(BATCH);
        for (int i = 0; i < BATCH; i++) {
            int in = i % ports;
            byte[] f = Frames.udp(SwitchCoreBenchmark.host((in + 1) % ports), SwitchCoreBenchmark.host(in), 26, 64, i);
            MemorySegment.copy(MemorySegment.ofArray(f), 0, m.slab, (long) i * SLOT, f.length);
            m.length[i] = f.length;
        }
        return m;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long onFrame() {
        long t = now;
        for (int i = 0; i < BATCH; i++) {
            shadowed.onFrame(inPort[i], i, t);
            t += 5;
        }
        now = t;
        return shadowedMemory.sent;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    public long onFrameReference() {
        long t = nowPlain;
        for (int i = 0; i < BATCH; i++) {
            plain.onFrame(inPort[i], i, t);
            t += 5;
        }
        nowPlain = t;
        return plainMemory.sent;
    }
}

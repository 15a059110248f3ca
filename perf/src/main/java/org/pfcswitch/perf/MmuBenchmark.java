package org.pfcswitch.perf;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.pfcswitch.mmu.FlowControlListener;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Verdict;

/**
 * Cost of the MMU per packet: one {@code admit} plus one {@code release}, for every scheme, on the
 * 9-port lab switch (9 × 10 Gb/s, 8 priorities, 3 and 4 lossless, 2.5 MiB as in the SPFC testbed).
 * Traffic is random (ports, priorities, 64–1500 B) and pre-generated; a sliding window of 4096
 * packets in flight keeps the buffer occupied, so thresholds, XOFF/XON and drops all happen.
 * Targets (issue "mmu"): ≤ 25 ns per packet for every scheme, ≤ 10 ns for dt.
 *
 * <p>{@code admitAndReleaseReference} runs the same traffic through the least a DT switch can
 * do: one counter per (port, priority), one shared counter, the DT test {@code q < α(B − used)}
 * and nothing else (no private or headroom segments, no pools, no flow control). Its ratio is
 * the price of the full ledger and the scheme's state.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Thread)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class MmuBenchmark {
    private static final int PORTS = 9;
    private static final int PACKETS = 1 << 16;
    private static final int IN_FLIGHT = 4096;

    @Param({"st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc", "bfc"})
    public String scheme;

    private Mmu mmu;
    private final int[] inPort = new int[PACKETS];
    private final int[] priority = new int[PACKETS];
    private final int[] outPort = new int[PACKETS];
    private final int[] bytes = new int[PACKETS];
    private final boolean[] admitted = new boolean[PACKETS];
    private long op;

    // The reference's whole state.
    private final long[] refQueue = new long[PORTS * 8];
    private long refUsed;

    @Setup
    public void setUp() {
        MmuConfig cfg = MmuConfig.builder().totalBytes(2_621_440).ports(PORTS, 10_000_000_000L, 1_000)
                .mtuBytes(1500).losslessPriorityMask(1 << 3 | 1 << 4).privateBytes(3072).headroomFormula("ieee")
                .scheme(scheme).build();
        mmu = Mmu.create(cfg, FlowControlListener.NONE);
        SplittableRandom rnd = new SplittableRandom(42);
        for (int i = 0; i < PACKETS; i++) {
            inPort[i] = rnd.nextInt(PORTS);
            priority[i] = rnd.nextInt(8);
            outPort[i] = rnd.nextInt(PORTS);
            bytes[i] = 64 + rnd.nextInt(1437);
        }
    }

    /** Releases the packet admitted IN_FLIGHT packets ago (if it was) and admits the next one. */
    @Benchmark
    public int admitAndRelease() {
        long n = op++;
        int i = (int) n & (PACKETS - 1);
        int old = (int) (n - IN_FLIGHT) & (PACKETS - 1);
        long now = n * 120;                          // ≈ one 150 B packet per port at 10 Gb/s
        if (admitted[old]) {
            mmu.release(inPort[old], priority[old], outPort[old], priority[old], bytes[old], now);
            admitted[old] = false;
        }
        int v = mmu.admit(inPort[i], priority[i], outPort[i], priority[i], bytes[i], now);
        admitted[i] = Verdict.isAdmitted(v);
        return v;
    }

    /** The same loop against a bare dynamic threshold (alpha = 1/16 of the free buffer). */
    @Benchmark
    public int admitAndReleaseReference() {
        long n = op++;
        int i = (int) n & (PACKETS - 1);
        int old = (int) (n - IN_FLIGHT) & (PACKETS - 1);
        if (admitted[old]) {
            refQueue[inPort[old] << 3 | priority[old]] -= bytes[old];
            refUsed -= bytes[old];
            admitted[old] = false;
        }
        int k = inPort[i] << 3 | priority[i];
        boolean admit = refQueue[k] + bytes[i] <= (2_621_440 - refUsed) >> 4;
        if (admit) {
            refQueue[k] += bytes[i];
            refUsed += bytes[i];
        }
        admitted[i] = admit;
        return admit ? 1 : -1;
    }
}

package org.pfcswitch.perf;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * What each optional feature of the live pipeline costs per frame, against the same pipeline
 * without it, in one run: {@link SwitchCoreBenchmark}'s core (dt, 64 B frames, shaper off) plain,
 * with the PFC watchdog on (action drop; nothing pauses, so this is its check on the frame path),
 * with {@code run --record}'s copy of each arrival into the ring, and with one shadow scheme. The
 * four are measured round after round in one thread, in an order that rotates every round, each
 * on the thread's CPU clock, so they see the same machine at nearly the same time (on a shared
 * 2-core machine the load changes between JMH's one-after-the-other runs). Prints medians of ns per
 * frame and of the per-round ratio to the plain core.
 *
 * <pre>perf/feature-cost.sh [PORTS] [ROUNDS] [SHADOW]     e.g. perf/feature-cost.sh 4 40 dsh</pre>
 */
public final class FeatureCost {
    private static final int BATCHES = 200;
    private static final int FRAMES = 1024 * BATCHES;

    private FeatureCost() {}

    public static void main(String[] args) {
        int ports = args.length > 0 ? Integer.parseInt(args[0]) : 4;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 40;
        String shadow = args.length > 2 ? args[2] : "dsh";
        SwitchCoreBenchmark plain = core(ports, "off", "none");
        SwitchCoreBenchmark watchdog = core(ports, "drop", "none");
        SwitchCoreBenchmark recorded = core(ports, "off", "none");
        SwitchCoreBenchmark shadowed = core(ports, "off", shadow);
        String[] names = {"plain", "pfcwd (drop, idle)", "record", "shadow " + shadow};
        LongSupplier[] runs = {plain::onFrame, watchdog::onFrame, recorded::onFrameRecorded, shadowed::onFrame};
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20; i++) {                      // warm-up: JIT, slots
            for (LongSupplier r : runs) {
                cpuNanos(r, threads);
            }
        }
        double[][] perFrame = new double[runs.length][rounds];
        double[][] ratio = new double[runs.length][rounds];
        for (int round = 0; round < rounds; round++) {
            for (int k = 0; k < runs.length; k++) {
                int which = (round + k) % runs.length;
                perFrame[which][round] = (double) cpuNanos(runs[which], threads) / FRAMES;
            }
            for (int w = 0; w < runs.length; w++) {
                ratio[w][round] = perFrame[w][round] / perFrame[0][round];
            }
        }
        System.out.printf(Locale.ROOT, "ports=%d rounds=%d x %d frames each (dt active, 64 B, shaper off), thread CPU time%n",
                ports, rounds, FRAMES);
        for (int w = 0; w < runs.length; w++) {
            System.out.printf(Locale.ROOT, "  %-20s %6.1f ns/frame  %+6.1f ns  ratio %.2fx (p25 %.2fx, p75 %.2fx)%n", names[w],
                    median(perFrame[w]), median(perFrame[w]) - median(perFrame[0]), median(ratio[w]),
                    quantile(ratio[w], 0.25), quantile(ratio[w], 0.75));
        }
    }

    private static SwitchCoreBenchmark core(int ports, String pfcwd, String shadows) {
        SwitchCoreBenchmark b = new SwitchCoreBenchmark();
        b.ports = ports;
        b.frameBytes = 64;
        b.pfcwd = pfcwd;
        b.shadows = shadows;
        b.ringBits = 16;
        b.setUp();
        return b;
    }

    private static long cpuNanos(LongSupplier batch, com.sun.management.ThreadMXBean threads) {
        long cpu0 = threads.getCurrentThreadCpuTime();
        long sink = 0;
        for (int i = 0; i < BATCHES; i++) {
            sink += batch.getAsLong();
        }
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        if (sink == 42) {
            System.out.print("");                            // keeps the results alive
        }
        return cpu;
    }

    private static double median(double[] v) {
        return quantile(v, 0.5);
    }

    private static double quantile(double[] v, double q) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s[(int) Math.round(q * (s.length - 1))];
    }
}

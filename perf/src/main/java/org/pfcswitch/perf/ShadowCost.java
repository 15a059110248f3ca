package org.pfcswitch.perf;

import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;

/**
 * The price of shadow schemes per frame on a busy machine: {@link ShadowBenchmark}'s two cores (with
 * and without the shadows) measured in alternation, round after round, in one thread, so both see
 * the same machine at nearly the same time (JMH measures one after the other, and on a shared 2-core
 * machine the load changes between them). Each round runs {@code BATCHES} batches of 1024 frames on
 * one core, then on the other (the order alternates every round), timed by the thread's CPU clock
 * and by the wall clock; prints the medians over the rounds of ns per frame and of the per-round
 * ratio.
 *
 * <pre>perf/run-shadow-cost.sh [SHADOWS] [PORTS] [ROUNDS]     e.g. perf/run-shadow-cost.sh dsh 4 40</pre>
 */
public final class ShadowCost {
    private static final int BATCHES = 200;
    private static final int FRAMES = 1024 * BATCHES;

    private ShadowCost() {}

    public static void main(String[] args) {
        ShadowBenchmark b = new ShadowBenchmark();
        b.shadows = args.length > 0 ? args[0] : "dsh";
        b.ports = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 40;
        b.setUp();
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        for (int i = 0; i < 20; i++) {                     // warm-up: JIT, slots
            measure(b, true, threads);
            measure(b, false, threads);
        }
        double[][] cpu = new double[2][rounds];
        double[][] wall = new double[2][rounds];
        double[] ratioCpu = new double[rounds];
        double[] ratioWall = new double[rounds];
        for (int r = 0; r < rounds; r++) {
            boolean shadowFirst = r % 2 == 0;
            for (int k = 0; k < 2; k++) {
                boolean shadowed = shadowFirst == (k == 0);
                long[] t = measure(b, shadowed, threads);
                cpu[shadowed ? 1 : 0][r] = (double) t[0] / FRAMES;
                wall[shadowed ? 1 : 0][r] = (double) t[1] / FRAMES;
            }
            ratioCpu[r] = cpu[1][r] / cpu[0][r];
            ratioWall[r] = wall[1][r] / wall[0][r];
        }
        System.out.printf(Locale.ROOT, "shadows=%s ports=%d rounds=%d x %d frames each side (dt active, 64 B, shaper off)%n",
                b.shadows, b.ports, rounds, FRAMES);
        System.out.printf(Locale.ROOT, "  cpu:  without %.1f ns/frame, with %.1f ns/frame, +%.1f ns, ratio %.2fx (median of per-round ratios; p25 %.2fx, p75 %.2fx)%n",
                median(cpu[0]), median(cpu[1]), median(cpu[1]) - median(cpu[0]), median(ratioCpu),
                quantile(ratioCpu, 0.25), quantile(ratioCpu, 0.75));
        System.out.printf(Locale.ROOT, "  wall: without %.1f ns/frame, with %.1f ns/frame, +%.1f ns, ratio %.2fx%n",
                median(wall[0]), median(wall[1]), median(wall[1]) - median(wall[0]), median(ratioWall));
    }

    /** {@code BATCHES} batches on one core: {thread CPU ns, wall ns}. */
    private static long[] measure(ShadowBenchmark b, boolean shadowed, com.sun.management.ThreadMXBean threads) {
        long cpu0 = threads.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        long sink = 0;
        for (int i = 0; i < BATCHES; i++) {
            sink += shadowed ? b.onFrame() : b.onFrameReference();
        }
        long wall = System.nanoTime() - wall0;
        long cpu = threads.getCurrentThreadCpuTime() - cpu0;
        if (sink == 42) {
            System.out.print("");                           // keeps the results alive
        }
        return new long[] {cpu, wall};
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

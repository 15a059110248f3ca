package org.pfcswitch.testbed;

import java.util.Locale;

import org.pfcswitch.mmu.MmuConfig;

/**
 * How fast the virtual-time testbed runs on one core: a 32-port 100 Gb/s switch with 16 MB of
 * buffer (dt), eight line-rate pairs and an 8-to-1 incast on the lossless priority, so PFC, pause
 * timers and full queues are all on the path. Prints events and switched frames per wall-clock
 * second for each of a few repetitions (the first includes JIT warm-up).
 *
 * <pre>
 *   java -cp testbed/target/classes:... org.pfcswitch.testbed.SpeedProbe [virtualMillis] [repetitions] [scheme]
 * </pre>
 */
public final class SpeedProbe {

    private SpeedProbe() {}

    public static void main(String[] args) {
        long virtualNanos = (args.length > 0 ? Long.parseLong(args[0]) : 5) * 1_000_000L;
        int repetitions = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        String scheme = args.length > 2 ? args[2] : "dt";
        for (int r = 0; r < repetitions; r++) {
            Testbed tb = Testbed.singleSwitch(32).links(100_000_000_000L, 1_000).seed(r)
                    .mmu(MmuConfig.builder().totalBytes(16L << 20).scheme(scheme)).build();
            for (int i = 0; i < 8; i++) {
                tb.addFlow(i, i + 16, 3, 1L << 40, 0);
            }
            for (int i = 8; i < 16; i++) {
                tb.addFlow(i, 24, 3, 1L << 40, 10_000);
            }
            long t0 = System.nanoTime();
            tb.runUntil(virtualNanos);
            double seconds = (System.nanoTime() - t0) / 1e9;
            long events = tb.loop().eventsDispatched();
            long switched = tb.core().counters().txFrames(0);
            for (int p = 1; p < tb.hosts(); p++) {
                switched += tb.core().counters().txFrames(p);
            }
            System.out.printf(Locale.ROOT, "run %d (%s, %d ms virtual): %,d events in %.3f s = %,.0f events/s; "
                            + "%,d frames switched = %,.0f frames/s; PFC frames sent %,d; lossless violations %d%n",
                    r, scheme, virtualNanos / 1_000_000, events, seconds, events / seconds, switched,
                    switched / seconds, sumPfc(tb), tb.core().mmu().losslessViolations());
        }
    }

    private static long sumPfc(Testbed tb) {
        long s = 0;
        for (int p = 0; p < tb.hosts(); p++) {
            s += tb.core().counters().pfcFramesTx[p];
        }
        return s;
    }
}

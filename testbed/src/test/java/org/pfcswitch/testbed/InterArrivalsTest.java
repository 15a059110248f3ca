package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Log-normal arrivals keep the load: their mean gap is 1 / rate, within a tolerance derived from
 * the sample size and the distribution's own spread; and they are burstier than Poisson ones.
 */
class InterArrivalsTest {

    /** Coefficient of variation of a log-normal of shape sigma: sqrt(exp(sigma²) - 1). */
    private static double cv(double sigma) {
        return Math.sqrt(Math.exp(sigma * sigma) - 1);
    }

    @Test
    void theLogNormalMeanGapIsOneOverTheRate() {
        double sigma = 2;                                  // BFC's
        double perNano = 1e-4;                             // one arrival per 10 us
        int n = 2_000_000;
        SplittableRandom random = new SplittableRandom(7);
        InterArrivals gaps = InterArrivals.logNormal(sigma);
        double sum = 0;
        double sumSquares = 0;
        for (int i = 0; i < n; i++) {
            double g = gaps.gapNanos(random, perNano);
            sum += g;
            sumSquares += g * g;
        }
        double mean = sum / n;
        double expected = 1 / perNano;
        double tolerance = 5 * cv(sigma) * expected / Math.sqrt(n);   // five standard errors of the mean
        assertEquals(expected, mean, tolerance);
        double sampleCv = Math.sqrt(sumSquares / n - mean * mean) / mean;
        assertTrue(sampleCv > 3, "far burstier than Poisson's coefficient of variation of 1: " + sampleCv);
    }

    @Test
    void aLogNormalPoissonFlowsOffersItsLoad() {
        // 16 senders at 100 G, fixed 10 KB flows at load 0.4 for 20 ms: 16 x 0.4 x 100e9 x 0.02 / 8e4 = 16,000 flows.
        Testbed tb = Testbed.singleSwitch(17).seed(3).mmu(MmuConfig.builder().totalBytes(4L << 20)).build();
        int[] senders = java.util.stream.IntStream.range(0, 16).toArray();
        FlowSizeCdf tenKb = FlowSizeCdf.parse("10KB", List.of("10000 0", "10000 100"));
        double load = 0.4;
        long stop = 20_000_000;
        PoissonFlows flows = new PoissonFlows("bg", senders, new int[] {16}, 3, tenKb, load, 0, stop,
                InterArrivals.logNormal(2));
        flows.install(tb, new SplittableRandom(11));
        double expectedFlows = senders.length * load * 100e9 * stop / 1e9 / (8 * 10_000);
        // Each sender's count over [0, stop) is a renewal count: variance about expected x cv² for many arrivals.
        double tolerance = 5 * Math.sqrt(expectedFlows) * cv(2);
        assertEquals(expectedFlows, flows.flowIds().size(), tolerance);
    }

    @Test
    void anIncastLoadOffersItsShareOfTheSendersCapacity() {
        Testbed tb = Testbed.singleSwitch(32).seed(3).mmu(MmuConfig.builder().totalBytes(4L << 20)).build();
        int[] all = java.util.stream.IntStream.range(0, 32).toArray();
        long stop = 50_000_000;
        IncastLoad incasts = new IncastLoad("fanin", all, all, 16, 3, 64_000, 0.05, 0, stop, InterArrivals.POISSON);
        incasts.install(tb, new SplittableRandom(5));
        double events = 0.05 * 32 * 100e9 * stop / 1e9 / (8.0 * 16 * 64_000);   // about 977
        assertEquals(events * 16, incasts.flowIds().size(), 5 * Math.sqrt(events) * 16);
        FlowRecords rec = tb.records();
        for (int k = 0; k < incasts.flowIds().size(); k += 16) {     // each event: 16 distinct senders, one receiver
            int dst = rec.dst(incasts.flowIds().get(k));
            java.util.Set<Integer> senders = new java.util.HashSet<>();
            for (int j = k; j < k + 16; j++) {
                assertEquals(dst, rec.dst(incasts.flowIds().get(j)));
                senders.add(rec.src(incasts.flowIds().get(j)));
            }
            assertEquals(16, senders.size());
            assertTrue(!senders.contains(dst));
        }
    }
}

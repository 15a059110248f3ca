package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The shared arrival process of a synchronised sender group (SPFC §VII-C's burst hosts): its rate
 * makes the group offer {@code load} of the receivers' line rate, its gaps are exponential, and
 * every arrival starts one flow per sender at the same instant, of the same size, to the same receiver.
 */
class SynchronizedPoissonFlowsTest {

    private static final FlowSizeCdf WEBSEARCH = FlowSizeCdf.load(FlowSizeCdfTest.workload("websearch.cdf"));
    private static final double GBPS_100 = 100e9;

    @Test
    void theGroupOffersItsLoadOfTheReceiversLinkWithExponentialGaps() {
        int[] senders = range(1, 29);          // H1..H29 of the paper
        double load = 0.2;
        // 20,000 arrivals expected: 50 arrivals/s at 0.2 of 100 Gb/s with 29 × 1.71 MB per arrival.
        double perSecond = load * GBPS_100 / (8 * WEBSEARCH.meanBytes() * senders.length);
        long window = (long) (20_000 / perSecond * 1e9);
        SynchronizedPoissonFlows g = new SynchronizedPoissonFlows("bursts", senders, new int[] {31}, 3, WEBSEARCH, load,
                0, window);
        assertEquals(perSecond / 1e9, g.arrivalsPerNano(GBPS_100), 1e-15);

        List<SynchronizedPoissonFlows.Arrival> arrivals = g.arrivals(new SplittableRandom(11), GBPS_100);
        assertEquals(20_000, arrivals.size(), 20_000 * 0.03, "arrivals within 3 % of rate × window");
        double bytes = 0;
        double sumGap = 0;
        double sumGap2 = 0;
        long prev = 0;
        for (SynchronizedPoissonFlows.Arrival a : arrivals) {
            assertTrue(a.at() >= prev && a.at() < window, "in time order inside [start, stop)");
            assertEquals(31, a.dst());
            bytes += a.bytes();
            double gap = a.at() - prev;
            sumGap += gap;
            sumGap2 += gap * gap;
            prev = a.at();
        }
        double offered = bytes * senders.length * 8 / (window / 1e9) / GBPS_100;
        assertEquals(load, offered, load * 0.05, "the group offers its load of R2's link within 5 %");
        double mean = sumGap / arrivals.size();
        double cv = Math.sqrt(sumGap2 / arrivals.size() - mean * mean) / mean;
        assertEquals(1.0, cv, 0.05, "exponential gaps have a coefficient of variation of 1");

        assertEquals(arrivals, g.arrivals(new SplittableRandom(11), GBPS_100), "the same seed draws the same arrivals");
    }

    @Test
    void everyArrivalStartsOneFlowPerSenderAtOnceWithOneSizeAndOneReceiver() {
        Testbed tb = Testbed.singleSwitch(7).seed(3).build();
        int[] senders = {1, 2, 3, 4};
        int[] receivers = {5, 6};
        FlowSizeCdf cdf = FlowSizeCdf.parse("t", List.of("1000 0", "200000 100"));
        // 0.5 of two 100 G links: 4 × 100.5 KB per arrival, about one arrival per 32 us, 620 in the window.
        SynchronizedPoissonFlows g = new SynchronizedPoissonFlows("g", senders, receivers, 3, cdf, 0.5, 10_000, 20_000_000);
        g.install(tb, new SplittableRandom(5));
        FlowRecords rec = tb.records();
        List<Integer> ids = g.flowIds();
        assertEquals(rec.count(), ids.size());
        assertEquals(0, ids.size() % senders.length);
        int groups = ids.size() / senders.length;
        double expected = 0.5 * 2 * GBPS_100 / (8 * cdf.meanBytes() * senders.length) * (20_000_000 - 10_000) / 1e9;
        assertEquals(expected, groups, expected * 0.1, "about rate × window arrivals");
        Set<Integer> dsts = new HashSet<>();
        Set<Long> sizes = new HashSet<>();
        long prevStart = -1;
        for (int k = 0; k < groups; k++) {
            int first = ids.get(k * senders.length);
            assertTrue(rec.startNanos(first) >= 10_000 && rec.startNanos(first) < 20_000_000);
            assertTrue(rec.startNanos(first) >= prevStart, "flow ids follow start times");
            prevStart = rec.startNanos(first);
            for (int i = 0; i < senders.length; i++) {
                int f = ids.get(k * senders.length + i);
                assertEquals(senders[i], rec.src(f), "one flow from every sender, in sender order");
                assertEquals(rec.startNanos(first), rec.startNanos(f), "all at the same instant");
                assertEquals(rec.sizeBytes(first), rec.sizeBytes(f), "one size per arrival");
                assertEquals(rec.dst(first), rec.dst(f), "one receiver per arrival");
            }
            dsts.add(rec.dst(first));
            sizes.add(rec.sizeBytes(first));
        }
        assertEquals(Set.of(5, 6), dsts, "receivers drawn per arrival from the list");
        assertTrue(sizes.size() > groups / 2, "sizes differ between arrivals");
    }

    @Test
    void aReceiverThatIsAlsoASenderIsRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new SynchronizedPoissonFlows("g", new int[] {1, 2}, new int[] {2}, 3, WEBSEARCH, 0.2, 0, 1_000));
        assertTrue(e.getMessage().contains("both a sender and a receiver"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> new SynchronizedPoissonFlows("g", new int[] {1}, new int[] {2}, 3, WEBSEARCH, 0, 0, 1_000));
    }

    private static int[] range(int from, int to) {
        int[] out = new int[to - from + 1];
        for (int i = 0; i < out.length; i++) {
            out[i] = from + i;
        }
        return out;
    }
}

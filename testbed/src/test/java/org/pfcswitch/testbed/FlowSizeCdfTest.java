package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The flow-size sampler against the papers' workload files and hand-made CDFs. */
class FlowSizeCdfTest {

    /** The repository's copy of the papers' workloads; tests run in the module directory. */
    static Path workload(String name) {
        return Path.of("..", "testbed-configs", "workloads", name);
    }

    @Test
    void webSearchMeanIsAbout1_71MbAnalyticallyAndBySampling() {
        FlowSizeCdf cdf = FlowSizeCdf.load(workload("websearch.cdf"));
        assertEquals(1.71e6, cdf.meanBytes(), 0.02e6);
        SplittableRandom r = new SplittableRandom(7);
        double sum = 0;
        int n = 200_000;
        for (int i = 0; i < n; i++) {
            sum += cdf.sample(r);
        }
        assertEquals(cdf.meanBytes(), sum / n, cdf.meanBytes() * 0.03, "sample mean within 3%");
    }

    @Test
    void hadoopMeanIsAbout120Kb() {
        assertEquals(120e3, FlowSizeCdf.load(workload("fb-hadoop.cdf")).meanBytes(), 10e3);
    }

    @Test
    void interpolatesLinearlyBetweenRows() {
        FlowSizeCdf cdf = FlowSizeCdf.parse("t", List.of("1000 0", "3000 100"));
        assertEquals(2000, cdf.meanBytes(), 1e-9);
        SplittableRandom r = new SplittableRandom(1);
        for (int i = 0; i < 1000; i++) {
            long s = cdf.sample(r);
            assertTrue(s >= 1000 && s <= 3000, "got " + s);
        }
    }

    @Test
    void badFilesAreRejectedWithTheLine() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> FlowSizeCdf.parse("w.cdf", List.of("10 0", "5 50", "20 100")));
        assertTrue(e.getMessage().startsWith("w.cdf: line 2:"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> FlowSizeCdf.parse("w.cdf", List.of("10 0", "20 90")));
    }

    @Test
    void sizesAndPercentsMustBeFinite() {
        for (List<String> rows : List.of(List.of("10 0", "NaN 50", "20 100"), List.of("10 0", "Infinity 100"),
                List.of("10 NaN", "20 100"))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FlowSizeCdf.parse("w.cdf", rows));
            assertTrue(e.getMessage().contains("must be finite numbers"), e.getMessage());
        }
    }
}

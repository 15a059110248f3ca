package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.CoreSnapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** A clear's arithmetic: each family reads relative to its own clear, maxima are never subtracted, watermarks since start survive a reset. */
class CounterClearsTest {

    private static final List<String> NAMES = List.of("h0", "h1");
    private static final int K = 1 * CoreSnapshot.PRIORITIES + 3;       // h1, priority 3

    /** A driver whose counts the test sets. */
    private static final class Counts implements SwitchMetrics.Driver {
        long txRefused;

        @Override
        public long txRefused(int port) {
            return port == 1 ? txRefused : 0;
        }

        @Override
        public long rxMissed(int port) {
            return 0;
        }

        @Override
        public long stalls(int bucket) {
            return 0;
        }
    }

    private static CoreSnapshot snapshot() {
        CoreSnapshot s = new CoreSnapshot(2);
        s.scheme = "dt";
        return s;
    }

    @Test
    void eachFamilyCountsFromItsOwnClearAndMaximaAreLeftAlone() {
        CoreSnapshot s = snapshot();
        Counts driver = new Counts();
        CounterClears clears = new CounterClears(2);
        s.counters.rxFrames[K] = 10;
        s.counters.pfcXoffTx[K] = 4;
        s.egressPausedNanos[K] = 2_000;
        s.counters.maxQueueBytes[K] = 6_000;
        driver.txRefused = 3;
        assertEquals(10, clears.counters("ports", s).rxFrames[K], "nothing cleared: since start");

        clears.clear(CounterClears.Family.COUNTERS, s, driver, 1_000);
        clears.clear(CounterClears.Family.PFC, s, driver, 2_000);
        s.counters.rxFrames[K] = 15;
        s.counters.pfcXoffTx[K] = 9;
        s.egressPausedNanos[K] = 2_500;
        driver.txRefused = 7;

        assertEquals(5, clears.counters("ports", s).rxFrames[K]);
        assertEquals(15, clears.counters("queues", s).rxFrames[K], "queues were not cleared");
        assertEquals(5, clears.counters("pfc", s).pfcXoffTx[K]);
        assertEquals(500, clears.pausedNanos(s, K));
        assertEquals(4, clears.driverSinceClear(driver).txRefused(1));
        assertEquals(6_000, clears.counters("ports", s).maxQueueBytes[K], "a maximum is not a count");
        assertEquals(15, s.counters.rxFrames[K], "the snapshot itself (what /metrics reads) is untouched");
        assertEquals(1_000, clears.clearedAtMillis(CounterClears.Family.COUNTERS));
        assertEquals(0, clears.clearedAtMillis(CounterClears.Family.QUEUES));
    }

    @Test
    void theWatermarkSinceStartIsTheLargestOfEveryCopyAcrossResets() {
        CoreSnapshot s = snapshot();
        CounterClears clears = new CounterClears(2);
        s.counters.maxIngressBytes[K] = 9_000;
        s.counters.maxQueueBytes[K] = 8_000;
        clears.observe(s);                                      // the copy taken with the worker's reset
        clears.clear(CounterClears.Family.WATERMARKS, s, null, 5_000);
        s.counters.maxIngressBytes[K] = 1_000;                  // after the reset
        s.counters.maxQueueBytes[K] = 12_000;
        clears.observe(s);
        assertEquals(9_000, clears.pgWatermarkSinceStart(K));
        assertEquals(12_000, clears.queueWatermarkSinceStart(K));

        JsonNode view = json(new StatusViews(s, NAMES, null, null, clears, null).json("watermark"));
        JsonNode h1 = view.path("priority_groups").path(1);
        assertEquals(1_000, h1.path("since_clear_bytes").path(3).asLong());
        assertEquals(9_000, h1.path("since_start_bytes").path(3).asLong());
        assertEquals(12_000, view.path("queues").path(1).path("since_start_bytes").path(3).asLong());
        assertTrue(view.path("since").asText().startsWith("1970-01-01T00:00:05"), view.toString());
    }

    @Test
    void theViewsSayFromWhenTheyCountAndShowOnlyTheChosenPorts() {
        CoreSnapshot s = snapshot();
        CounterClears clears = new CounterClears(2);
        StatusViews all = new StatusViews(s, NAMES, new Counts(), null, clears, null);
        assertTrue(all.text("ports").startsWith("counters since start\n"), all.text("ports"));
        clears.clear(CounterClears.Family.COUNTERS, s, new Counts(), System.currentTimeMillis());
        assertTrue(all.text("ports").startsWith("counters since clear at "), all.text("ports"));
        assertTrue(all.text("queues").startsWith("counters since start\n"));

        int[] h1 = StatusViews.portFilter("h1", NAMES);
        JsonNode ports = json(new StatusViews(s, NAMES, new Counts(), null, clears, h1).json("ports")).path("ports");
        assertEquals(1, ports.size());
        assertEquals("h1", ports.path(0).path("port").asText());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> StatusViews.portFilter("h0,h9", NAMES));
        assertEquals("no port 'h9' (ports: h0, h1)", e.getMessage());
        assertEquals("nothing called 'all' to clear (allowed: counters, queues, pfc, watermarks)",
                assertThrows(IllegalArgumentException.class, () -> CounterClears.Family.of("all")).getMessage());
    }

    private static JsonNode json(String text) {
        try {
            return new ObjectMapper().readTree(text);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}

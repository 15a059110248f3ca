package org.pfcswitch.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Rates from two answers: over the switch's clock, n/a the first time and where a counter went back. */
class CounterRatesTest {

    private static JsonNode ports(long coreNanos, long rxH0, long rxH1) throws Exception {
        return new ObjectMapper().readTree("{\"view\":\"ports\",\"core_nanos\":" + coreNanos + ",\"since\":\"start\",\"ports\":["
                + "{\"port\":\"h0\",\"rx_frames\":" + rxH0 + "},{\"port\":\"h1\",\"rx_frames\":" + rxH1 + "}]}");
    }

    @Test
    void aRateIsTheDeltaOverTheSwitchsIntervalAndNotAvailableWithoutAnEarlierAnswerOrAfterAClear() throws Exception {
        JsonNode first = ports(1_000_000_000L, 100, 500);
        JsonNode second = ports(3_000_000_000L, 700, 20);            // 2 s later; h1 cleared in between
        CounterRates none = new CounterRates("ports", null, first);
        assertTrue(Double.isNaN(none.rate(List.of("h0"), 0)));
        assertTrue(none.text().contains("rates n/a until the next snapshot"), none.text());

        CounterRates r = new CounterRates("ports", first, second);
        assertEquals(300.0, r.rate(List.of("h0"), 0));
        assertTrue(Double.isNaN(r.rate(List.of("h1"), 0)), "a counter that went back has no rate");
        JsonNode json = new ObjectMapper().readTree(r.json());
        assertEquals(2.0, json.path("rate_interval_seconds").asDouble());
        assertEquals(300.0, json.path("ports").path(0).path("rx_frames_per_s").asDouble());
        assertTrue(json.path("ports").path(1).path("rx_frames_per_s").isNull());
        String h0 = r.text().lines().filter(l -> l.startsWith("h0 ")).findFirst().orElseThrow();
        assertTrue(h0.matches("h0\\s+700\\s+300\\.0\\b.*"), h0);
    }

    /** A rate table heads each counter as the view's own table does, each followed by its rate. */
    @Test
    void columnsAreNamedAsInTheViewsOwnTable() throws Exception {
        JsonNode ports = new ObjectMapper().readTree("{\"view\":\"ports\",\"core_nanos\":1,\"ports\":[{\"port\":\"h0\"}]}");
        assertEquals(List.of("PORT", "RX_FRAMES", "RX_FRAMES/S", "RX_BYTES", "RX_BYTES/S", "TX_FRAMES", "TX_FRAMES/S", "TX_BYTES",
                "TX_BYTES/S", "DROPS", "DROPS/S", "PFC_TX", "PFC_TX/S", "PFC_RX", "PFC_RX/S"), heading(new CounterRates("ports", null, ports)));
        JsonNode queues = new ObjectMapper().readTree("{\"view\":\"queues\",\"core_nanos\":1,\"queues\":[{\"port\":\"h0\","
                + "\"priority\":3}]}");
        assertEquals(List.of("PORT", "PRIO", "RX", "RX/S", "TX", "TX/S", "DROPS", "DROPS/S", "ECN", "ECN/S"),
                heading(new CounterRates("queues", null, queues)));
    }

    private static List<String> heading(CounterRates r) {
        return List.of(r.text().lines().skip(1).findFirst().orElseThrow().trim().split("\\s+"));
    }

    @Test
    void pfcRatesArePerPriorityAndPausedTimeBecomesAShare() throws Exception {
        ObjectMapper m = new ObjectMapper();
        JsonNode a = m.readTree("{\"core_nanos\":0,\"ports\":[{\"port\":\"h0\",\"pause_sent\":[0,0,0,10,0,0,0,0],"
                + "\"pause_received\":[0,0,0,0,0,0,0,0],\"paused_seconds\":[0,0,0,0.25,0,0,0,0]}]}");
        JsonNode b = m.readTree("{\"core_nanos\":500000000,\"ports\":[{\"port\":\"h0\",\"pause_sent\":[0,0,0,30,0,0,0,0],"
                + "\"pause_received\":[0,0,0,0,0,0,0,0],\"paused_seconds\":[0,0,0,0.5,0,0,0,0]}]}");
        CounterRates r = new CounterRates("pfc", a, b);
        assertEquals(40.0, r.rate(List.of("h0", "3"), 0));
        assertEquals(0.5, r.rate(List.of("h0", "3"), 2), 1e-9, "paused half of the interval");
        JsonNode json = m.readTree(r.json());
        assertEquals(40.0, json.path("ports").path(0).path("pause_sent_per_s").path(3).asDouble());
    }
}

package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.deadlock.CycleRecord;
import org.pfcswitch.core.deadlock.DeadlockSnapshot;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** {@code show deadlock} from a snapshot filled by hand: a loop cable between h1 and h2 deadlocked on priority 3. */
class DeadlockViewTest {

    private static final List<String> NAMES = List.of("h0", "h1", "h2");

    private static CoreSnapshot deadlocked() {
        CoreSnapshot s = new CoreSnapshot(3);
        s.scheme = "dt";
        s.nanos = 2_500_000_000L;
        s.xoffAdvertised[2 * 8 + 3] = true;
        DeadlockSnapshot d = s.deadlock;
        d.enabled = true;
        d.checkNanos = 10_000_000;
        d.persistNanos = 100_000_000;
        d.checks = 250;
        d.deadlocks = 1;
        d.present = true;
        for (int p = 0; p < 3; p++) {
            d.portMac[p] = 0x02fc_0000_0001L + p;
            d.pfcSenderPort[p] = -1;
        }
        d.pfcSenderMac[1] = d.portMac[2];
        d.pfcSenderPort[1] = 2;
        fill(d.watched, 1_000_000_000L, 1_100_000_000L);
        fill(d.reports[0], 1_000_000_000L, 1_100_000_000L);
        d.reportCount = 1;
        d.edgeCount = 1;
        d.edgeIngress[0] = 2;
        d.edgePriority[0] = 3;
        d.edgeEgress[0] = 1;
        d.edgeTarget[0] = 2;
        return s;
    }

    private static void fill(CycleRecord r, long since, long reported) {
        r.length = 1;
        r.ingress[0] = 2;
        r.egress[0] = 1;
        r.priority = 3;
        r.sinceNanos = since;
        r.reportedNanos = reported;
    }

    @Test
    void jsonNamesTheCycleTheEdgesAndTheSenders() throws Exception {
        JsonNode j = new ObjectMapper().readTree(new StatusViews(deadlocked(), NAMES, null, null).json("deadlock"));
        assertEquals("deadlock", j.get("view").asText());
        assertTrue(j.get("present").asBoolean());
        assertEquals(1, j.get("deadlocks").asLong());
        assertEquals("h2/3 -> out h1 -> h2/3", j.get("cycle").get("description").asText());
        assertEquals("h2", j.get("cycle").get("hops").get(0).get("ingress").asText());
        assertEquals("h1", j.get("cycle").get("hops").get(0).get("egress").asText());
        assertEquals(1, j.get("reports").size());
        assertEquals("02:fc:00:00:00:03", j.get("ports").get(1).get("pfc_sender_mac").asText());
        assertEquals("h2", j.get("ports").get(1).get("pfc_sender_port").asText());
        assertTrue(j.get("ports").get(0).get("pfc_sender_mac").isNull());
        assertEquals("h2", j.get("xoff").get(0).get("port").asText());
        JsonNode e = j.get("edges").get(0);
        assertEquals("h2 3 h1 h2", e.get("ingress").asText() + " " + e.get("priority").asInt() + " " + e.get("egress").asText()
                + " " + e.get("neighbour_port").asText());
    }

    @Test
    void textShowsTheSameAndNoneWhenQuiet() {
        String t = new StatusViews(deadlocked(), NAMES, null, null).text("deadlock");
        assertTrue(t.contains("cycle now: h2/3 -> out h1 -> h2/3, for 1.500 s (DEADLOCK, reported)"), t);
        assertTrue(t.contains("h2 (this switch)"), t);
        assertTrue(t.contains("1 deadlock(s) reported"), t);
        CoreSnapshot quiet = new CoreSnapshot(3);
        quiet.scheme = "dt";
        String q = new StatusViews(quiet, NAMES, null, null).text("deadlock");
        assertTrue(q.contains("deadlock detection: off") && q.contains("cycle now: none") && q.contains("wait-for edges now: none")
                && q.contains("reports: none"), q);
        System.out.println(t);
    }
}

package org.pfcswitch.cli.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.control.StatusViews;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.DeadlockConfig;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.DeadlockDetector;
import org.pfcswitch.testbed.Testbed;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The fabric view against {@code sim}: three switches in a ring, each with its own port MACs and its
 * own deadlock detection on, every host sending to the host two switches on. Routed one way round
 * the ring deadlocks: no switch sees a cycle in itself (it runs through all three), but their
 * {@code show deadlock} answers joined find exactly the cycle sim's DeadlockDetector reports.
 * Routed the short way there is none.
 */
public class FabricDeadlockTest {

    private static final long GBPS_100 = 100_000_000_000L;
    public static final List<String> SWITCHES = List.of("sw0", "sw1", "sw2");
    private static final List<String> PORTS = List.of("p0", "p1", "p2");

    public record Ring(Testbed tb, DeadlockDetector detector) {}

    public static Ring ring(boolean oneWay) {
        int[] next = {0};
        Testbed tb = Testbed.ring(3, oneWay).links(GBPS_100, 1_000).fabricLinks(GBPS_100, 1_000).seed(1)
                .mmu(MmuConfig.builder().totalBytes(1L << 20).scheme("dt"))
                .core(b -> {
                    int s = next[0]++;
                    for (int p = 0; p < 3; p++) {
                        b.portMac(p, 0x02fc_0000_0000L | (long) s << 8 | p);
                    }
                    b.deadlock(new DeadlockConfig(100_000, 1_000_000));
                }).build();
        for (int h = 0; h < 3; h++) {
            tb.addFlow(h, (h + 2) % 3, 3, 200_000_000L, 0);
        }
        DeadlockDetector d = new DeadlockDetector(tb, SWITCHES, 100_000, 1_000_000, null);
        tb.runUntil(5_000_000);
        return new Ring(tb, d);
    }

    /** Each switch's {@code show deadlock} JSON, as its control API would answer now. */
    public static List<JsonNode> views(Testbed tb) throws Exception {
        List<JsonNode> out = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            CoreSnapshot snap = new CoreSnapshot(3);
            snap.capture(tb.core(s), tb.now());
            out.add(new ObjectMapper().readTree(new StatusViews(snap, PORTS, null, null).json("deadlock")));
        }
        return out;
    }

    @Test
    void theJoinedAnswersFindTheCycleSimFindsWhichNoSwitchSeesAlone() throws Exception {
        Ring r = ring(true);
        assertEquals(1, r.detector().deadlocks());
        List<JsonNode> views = views(r.tb());
        for (JsonNode v : views) {
            assertEquals(0, v.get("deadlocks").asLong(), "no switch sees the ring in itself: " + v);
            assertTrue(v.get("cycle").isNull());
            assertTrue(v.get("edges").size() >= 1, "but each has its edge out: " + v);
        }
        FabricDeadlock f = new FabricDeadlock(SWITCHES, views);
        assertTrue(f.hasCycle());
        assertEquals(r.detector().reports().get(0).cycle(), f.cycle());
        assertEquals("sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3", f.cycle());
        JsonNode j = new ObjectMapper().readTree(f.json());
        assertEquals("p1", j.get("cycle").get("hops").get(0).get("egress").asText(), "sw0's ring ingress waits on its clockwise port");
        String text = f.text();
        assertTrue(text.contains("fabric cycle: sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3"), text);
        assertTrue(text.contains("sw0:p2/3  sw0:p1"), text);
        System.out.println(text);
    }

    @Test
    void theShortWayRoundHasNoCycle() throws Exception {
        Ring r = ring(false);
        assertEquals(0, r.detector().deadlocks());
        FabricDeadlock f = new FabricDeadlock(SWITCHES, views(r.tb()));
        assertFalse(f.hasCycle());
        assertNull(f.cycle());
        assertTrue(f.text().endsWith("fabric cycle: none"), f.text());
    }

    @Test
    void theSameSwitchTwiceIsRefused() throws Exception {
        List<JsonNode> v = views(ring(false).tb());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new FabricDeadlock(List.of("a", "b"), List.of(v.get(0), v.get(0))));
        assertTrue(e.getMessage().contains("the same switch given twice?"), e.getMessage());
    }
}

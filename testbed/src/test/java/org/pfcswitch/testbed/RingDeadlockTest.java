package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Three switches in a ring, one host each, every host sending a long lossless flow at line rate
 * to the host two switches on. Routed one way round, each flow crosses a transit switch and the
 * ring's buffers wait on each other (a PFC deadlock): the detector names the cycle within
 * check + persist of its forming. Routed the short way, no flow transits and there is none.
 */
class RingDeadlockTest {

    private static final long GBPS_100 = 100_000_000_000L;
    private static final long CHECK = 100_000;        // 100 µs
    private static final long PERSIST = 1_000_000;    // 1 ms

    private static Testbed ring(boolean oneWay) {
        Testbed tb = Testbed.ring(3, oneWay).links(GBPS_100, 1_000).fabricLinks(GBPS_100, 1_000).seed(1)
                .mmu(MmuConfig.builder().totalBytes(1L << 20).scheme("dt")).build();
        for (int h = 0; h < 3; h++) {
            tb.addFlow(h, (h + 2) % 3, 3, 200_000_000L, 0);
        }
        return tb;
    }

    static List<String> names() {
        return List.of("sw0", "sw1", "sw2");
    }

    @Test
    void oneWayRoutesDeadlockAndTheCycleIsNamed() {
        Testbed tb = ring(true);
        List<String> lines = new ArrayList<>();
        DeadlockDetector d = new DeadlockDetector(tb, names(), CHECK, PERSIST, lines::add);
        tb.runUntil(5_000_000);
        assertEquals(1, d.deadlocks(), "one deadlock, reported once: " + lines);
        DeadlockDetector.Report r = d.reports().get(0);
        // every ring ingress (port 2 faces the switch counter-clockwise) pauses on priority 3
        assertEquals("sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3", r.cycle());
        assertTrue(r.reportedNs() - r.firstSeenNs() >= PERSIST, r.toString());
        assertTrue(r.reportedNs() - r.firstSeenNs() <= PERSIST + CHECK, r.toString());
        assertTrue(lines.get(0).startsWith("deadlock: sw0:p2/3 -> sw1:p2/3"), lines.get(0));
        // it really is frozen: no host receives anything more over the last 2 ms
        long before = delivered(tb);
        tb.runUntil(7_000_000);
        assertEquals(before, delivered(tb), "a deadlocked ring delivers nothing");
        System.out.println("ring deadlock: " + r);
    }

    @Test
    void shortestRoutesNeverDeadlock() {
        Testbed tb = ring(false);
        DeadlockDetector d = new DeadlockDetector(tb, names(), CHECK, PERSIST, null);
        tb.runUntil(5_000_000);
        assertEquals(0, d.deadlocks(), d.reports().toString());
        assertTrue(d.checks() >= 49, "checked every 100 µs: " + d.checks());
        assertTrue(delivered(tb) > 0);
    }

    @Test
    void aPersistLongerThanTheRunReportsNothing() {
        Testbed tb = ring(true);
        DeadlockDetector d = new DeadlockDetector(tb, names(), CHECK, 10_000_000, null);
        tb.runUntil(5_000_000);
        assertEquals(0, d.deadlocks());
    }

    /** A check allocates nothing, on a ring in deadlock (the DFS walks the cycle) and on one without. */
    @Test
    void aCheckAllocatesNothing() {
        for (boolean oneWay : new boolean[] {true, false}) {
            Testbed tb = ring(oneWay);
            DeadlockDetector d = new DeadlockDetector(tb, names(), CHECK, PERSIST, null);
            tb.runUntil(2_000_000);                            // reported already (one way round)
            long now = tb.now();
            for (int i = 0; i < 20_000; i++) {                // warm-up
                d.check(now);
            }
            com.sun.management.ThreadMXBean mx =
                    (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            // The least of five rounds: on a loaded machine the JIT may still be swapping in compiled
            // code during one (a deoptimisation allocates); a check that allocates does so in every round.
            long allocated = Long.MAX_VALUE;
            for (int round = 0; round < 5 && allocated > 0; round++) {
                long before = mx.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 10_000; i++) {
                    d.check(now);
                }
                allocated = Math.min(allocated, mx.getCurrentThreadAllocatedBytes() - before);
            }
            long t0 = System.nanoTime();
            for (int i = 0; i < 100_000; i++) {
                d.check(now);
            }
            System.out.printf("deadlock check, oneWay=%s: %.0f ns%n", oneWay, (System.nanoTime() - t0) / 100_000.0);
            assertEquals(0, allocated, "bytes allocated by 10,000 checks, oneWay=" + oneWay);
            assertEquals(oneWay ? 1 : 0, d.deadlocks());
        }
    }

    private static long delivered(Testbed tb) {
        long n = 0;
        for (int s = 0; s < tb.switches(); s++) {
            n += tb.core(s).counters().txFrames(0);
        }
        return n;
    }
}

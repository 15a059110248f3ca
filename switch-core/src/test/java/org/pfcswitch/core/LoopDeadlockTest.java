package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.deadlock.CycleRecord;
import org.pfcswitch.core.deadlock.DeadlockSnapshot;
import org.pfcswitch.core.deadlock.DeadlockWatch;

/**
 * The switch finds a PFC deadlock in itself. Ports 1 and 2 of one core are cabled to each other (a
 * loop cable: what leaves port 1 arrives on port 2 and back), host H0 is on port 0. A static entry
 * sends MAC X out of port 1; a frame for X comes back in on port 2 and goes out of port 1 again (a
 * forwarding loop, the bounce path). H0 sends lossless frames to X at line rate while the switch
 * lets it: the loop fills, ingress port 2 pauses port 1's egress through the cable (its PFC frames
 * arrive on port 1 with port 2's MAC), and nothing moves again. The detector names the cycle: port
 * 2's ingress waits on port 1's egress, which port 2 pauses. Traffic to a host that pauses the
 * switch makes a wait-for edge out of the switch, and no cycle.
 */
class LoopDeadlockTest {

    private static final long X = 0x0200_0000_0BADL;
    private static final long CHECK = 100_000;          // 100 us
    private static final long PERSIST = 1_000_000;      // 1 ms
    private static final int PRIO = 3;

    private static CabledRig loop(long xPort) {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).staticMac(X, (int) xPort)
                .deadlock(new DeadlockConfig(CHECK, PERSIST)).build();
        return new CabledRig(config, new int[] {-1, 2, 1, -1}, 1 << 14);
    }

    /** H0 sends to {@code dst} back to back at 100 Gb/s while the switch does not pause it, until {@code until}. */
    private static void hostSends(CabledRig rig, long dst, long until) {
        int payload = 1000;
        long gap = LineRate.nanos(1082, Configs.GBPS_100);
        for (long t = rig.now(); t < until; t += gap) {
            rig.runUntil(t);
            if (!rig.core.isAdvertisingXoff(0, PRIO)) {        // H0 obeys PFC at once
                rig.receiveRoce(0, dst, Configs.host(0), payload);
            }
        }
        rig.runUntil(until);
    }

    @Test
    void aForwardingLoopOverALoopCableDeadlocksAndTheCycleNamesBothPorts() {
        CabledRig rig = loop(1);
        List<String> logged = new ArrayList<>();
        DeadlockWatch w = rig.core.deadlockWatch();
        hostSends(rig, X, 3_000_000);
        rig.runUntil(5_000_000);
        w.events().drain(r -> logged.add(r.describe(List.of("p0", "p1", "p2", "p3"))));
        assertEquals(1, w.deadlocks(), "reported once: " + logged);
        assertTrue(w.present());
        assertEquals(List.of("p2/3 -> out p1 -> p2/3"), logged);
        CycleRecord r = w.report(0);
        assertEquals(1, r.length);
        assertEquals(2, r.ingress[0]);
        assertEquals(1, r.egress[0]);
        assertEquals(PRIO, r.priority);
        assertTrue(r.reportedNanos - r.sinceNanos >= PERSIST && r.reportedNanos - r.sinceNanos <= PERSIST + CHECK, r.sinceNanos
                + " .. " + r.reportedNanos);
        // the neighbour behind port 1 is port 2 itself: it sent the pauses port 1 obeys
        assertEquals(rig.core.portMac(2), rig.core.pfcSenderMac(1));
        // frozen: nothing more crosses the cable
        long sent = rig.core.counters().txFrames[1 * MacControl.PRIORITIES + PRIO];
        rig.runUntil(8_000_000);
        assertEquals(sent, rig.core.counters().txFrames[1 * MacControl.PRIORITIES + PRIO], "a deadlocked loop moves nothing");
        assertEquals(1, w.deadlocks(), "still the same deadlock, not a new one");

        DeadlockSnapshot s = new DeadlockSnapshot(4);
        s.capture(rig.core, rig.core.deadlockWatch(), rig.now());
        assertTrue(s.enabled && s.present);
        assertEquals(1, s.reportCount);
        assertEquals(2, s.pfcSenderPort[1]);
        assertEquals(-1, s.pfcSenderPort[0], "no PFC from H0");
        boolean loopEdge = false;
        for (int i = 0; i < s.edgeCount; i++) {
            loopEdge |= s.edgeIngress[i] == 2 && s.edgeEgress[i] == 1 && s.edgeTarget[i] == 2 && s.edgePriority[i] == PRIO;
        }
        assertTrue(loopEdge, "the edge p2/3 -> out p1 -> p2 is listed");
        assertEquals(1, s.watched.length);
        System.out.println("loop deadlock: since " + r.sinceNanos + " ns, reported " + r.reportedNanos + " ns, "
                + w.checks() + " checks, " + rig.core.framesHeld() + " frames held");
    }

    /**
     * The same loop with the switch split between two workers, the cable between them: port 1 is
     * worker 0's, port 2 worker 1's, so the frozen cycle is worker 1's ingress pausing worker 0's
     * egress. Worker 0 finds it in every port's PFC state as each worker published it, at most a
     * check interval late, and the merged snapshot shows it as one switch's.
     */
    @Test
    void aLoopAcrossTwoWorkersIsFoundByTheSearchingWorker() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).staticMac(X, 1)
                .deadlock(new DeadlockConfig(CHECK, PERSIST)).build();
        int[] workerOf = {0, 0, 1, 1};
        CabledRig rig = new CabledRig(config, new int[] {-1, 2, 1, -1}, workerOf, 1 << 14);
        List<String> logged = new ArrayList<>();
        DeadlockWatch w = rig.core.deadlockWatch();
        assertEquals(null, rig.workers.core(1).deadlockWatch(), "one worker searches");
        hostSends(rig, X, 3_000_000);
        rig.runUntil(5_000_000);
        w.events().drain(r -> logged.add(r.describe(List.of("p0", "p1", "p2", "p3"))));
        assertEquals(List.of("p2/3 -> out p1 -> p2/3"), logged);
        assertTrue(w.present());
        CycleRecord r = w.report(0);
        assertTrue(r.reportedNanos - r.sinceNanos >= PERSIST && r.reportedNanos - r.sinceNanos <= PERSIST + CHECK,
                r.sinceNanos + " .. " + r.reportedNanos);
        assertTrue(rig.workers.core(1).isAdvertisingXoff(2, PRIO), "worker 1's ingress pauses");
        assertEquals(rig.workers.core(1).portMac(2), rig.core.pfcSenderMac(1), "worker 0's egress obeys it");

        CoreSnapshot[] parts = {new CoreSnapshot(4), new CoreSnapshot(4)};
        parts[0].capture(rig.workers.core(0), rig.now());
        parts[1].capture(rig.workers.core(1), rig.now());
        CoreSnapshot merged = new CoreSnapshot(4);
        merged.merge(parts, workerOf);
        DeadlockSnapshot s = merged.deadlock;
        assertTrue(s.enabled && s.present);
        assertEquals(1, s.reportCount);
        assertEquals(2, s.pfcSenderPort[1]);
        boolean loopEdge = false;
        for (int i = 0; i < s.edgeCount; i++) {
            loopEdge |= s.edgeIngress[i] == 2 && s.edgeEgress[i] == 1 && s.edgeTarget[i] == 2 && s.edgePriority[i] == PRIO;
        }
        assertTrue(loopEdge, "the edge p2/3 -> out p1 -> p2 crosses the workers and is listed");
    }

    @Test
    void aHostThatPausesTheSwitchIsAnEdgeOutOfTheSwitchAndNoCycle() {
        CabledRig rig = loop(1);
        // H3 pauses priority 3 from the start and keeps doing so
        for (long t = 0; t < 5_000_000; t += 100_000) {
            rig.runUntil(t);
            receivePfc(rig, 3, Configs.host(3), t);
            hostSends(rig, Configs.host(3), t + 100_000);
        }
        DeadlockWatch w = rig.core.deadlockWatch();
        assertEquals(0, w.deadlocks());
        assertFalse(w.present());
        assertTrue(w.checks() >= 49, "checked every 100 us: " + w.checks());
        DeadlockSnapshot s = new DeadlockSnapshot(4);
        s.capture(rig.core, rig.core.deadlockWatch(), rig.now());
        assertEquals(Configs.host(3), s.pfcSenderMac[3]);
        assertEquals(-1, s.pfcSenderPort[3]);
        assertEquals(1, s.edgeCount, "0/3 waits on out 3");
        assertEquals(0, s.edgeIngress[0]);
        assertEquals(3, s.edgeEgress[0]);
        assertEquals(-1, s.edgeTarget[0], "it leaves the switch");
        assertEquals(0, s.watched.length);
    }

    @Test
    void withoutTheSectionThereIsNoWatch() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).build();
        assertEquals(null, new CabledRig(config, new int[] {-1, 2, 1, -1}, 64).core.deadlockWatch());
    }

    @Test
    void aCheckOnTheDeadlockedLoopAllocatesNothing() {
        CabledRig rig = loop(1);
        hostSends(rig, X, 3_000_000);
        rig.runUntil(5_000_000);
        DeadlockWatch w = rig.core.deadlockWatch();
        long now = rig.now();
        DeadlockSnapshot s = new DeadlockSnapshot(4);
        assertEquals(0, allocated(() -> w.check(now)), "bytes allocated by 10,000 checks");
        assertEquals(0, allocated(() -> s.capture(rig.core, rig.core.deadlockWatch(), now)), "bytes allocated by 10,000 captures");
        long t0 = System.nanoTime();
        for (int i = 0; i < 100_000; i++) {
            w.check(now);
        }
        System.out.printf("live deadlock check, 4 ports, deadlocked loop: %.0f ns%n", (System.nanoTime() - t0) / 100_000.0);
        assertEquals(1, w.deadlocks());
    }

    /**
     * Bytes {@code r} allocates over 10,000 runs after 20,000 of warm-up, the least of three tries:
     * a one-off allocation of the JVM's own (the first call of the allocation counter, a compilation
     * landing mid-loop on a loaded machine) is not the code's.
     */
    private static long allocated(Runnable r) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long least = Long.MAX_VALUE;
        for (int attempt = 0; attempt < 3; attempt++) {
            for (int i = 0; i < 20_000; i++) {
                r.run();
            }
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 10_000; i++) {
                r.run();
            }
            least = Math.min(least, mx.getCurrentThreadAllocatedBytes() - before);
        }
        return least;
    }

    private static void receivePfc(CabledRig rig, int port, long srcMac, long now) {
        long h = rig.allocate(60);
        MacControl.writePfc(rig.bytes(), rig.offset(h), srcMac, 1 << PRIO, 65535);
        rig.core.onFrame(port, h, now);
    }
}

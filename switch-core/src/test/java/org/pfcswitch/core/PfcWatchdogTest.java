package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The PFC watchdog in the core, driven by hand: a neighbour behind port 2 that pauses priority 3
 * every 100 us (each pause 335 us at 100 Gb/s, so without a break) is declared stormed within
 * detection + one poll of its first pause; under action drop its queued and later frames are
 * dropped and counted while the other ports keep forwarding; once it stops pausing the queue is
 * restored after the restoration time and forwards again. A pause shorter than the detection time,
 * however often it comes, never trips it; under action forward a stormed queue sends through the
 * neighbour's pauses. Under action drop the stormed neighbour's own frames of that priority are
 * dropped on arrival too (SONiC's pfcwd), its other priorities forwarded.
 */
class PfcWatchdogTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int DSCP_PRIO_1 = 10;
    private static final int OUT = 2;
    private static final long MS = 1_000_000;
    private static final long DETECTION = 10 * MS;
    private static final long RESTORATION = 20 * MS;
    private static final long POLL = MS;

    record Event(String kind, int port, int priority, long at) {}

    private static CoreRig rig(PfcWatchdogConfig.Action action, List<Event> events) {
        CoreRig rig = new CoreRig(Configs.core(Configs.mmu(3, "dt").build())
                .pfcwd(new PfcWatchdogConfig(DETECTION, RESTORATION, action, POLL)).build());
        rig.core.pfcWatchdogListener(new PfcWatchdogListener() {
            @Override
            public void onStorm(int port, int priority, long pausedNanos, long now) {
                events.add(new Event("storm", port, priority, now));
            }

            @Override
            public void onRestore(int port, int priority, long stormedNanos, long now) {
                events.add(new Event("restore", port, priority, now));
            }
        });
        return rig;
    }

    /** From {@code from} to {@code to}: a PFC pause of priority 3 on OUT every 100 us (when {@code pausing}), a frame 0 -> OUT and 1 -> 0 every 10 us. */
    private static void run(CoreRig rig, long from, long to, boolean pausing) {
        for (long t = from; t < to; t += 10_000) {
            rig.runUntil(t);
            if (pausing && t % 100_000 == 0) {
                rig.receivePfc(OUT, 1 << 3, 65535, t);
            }
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, t);
            rig.receiveRoce(1, Configs.host(0), Configs.host(1), DSCP_PRIO_3, 1000, t);
        }
        rig.runUntil(to);
    }

    @Test
    void aNeighbourThatNeverStopsPausingIsStormedDroppedAndRestoredAfterItStops() {
        List<Event> events = new ArrayList<>();
        CoreRig rig = rig(PfcWatchdogConfig.Action.DROP, events);
        long stormStart = 5 * MS;
        run(rig, 0, stormStart, false);
        assertEquals(List.of(), events);
        assertEquals(rig.sentOn(OUT).size(), 500, "healthy before the storm");

        run(rig, stormStart, 100 * MS, true);
        assertEquals(1, events.size(), events.toString());
        Event storm = events.getFirst();
        assertEquals(new Event("storm", OUT, 3, storm.at()), storm);
        assertTrue(storm.at() >= stormStart + DETECTION && storm.at() <= stormStart + DETECTION + POLL,
                "detected at " + storm.at() + " for a storm from " + stormStart);
        assertTrue(rig.core.isStormed(OUT, 3));
        SwitchCounters c = rig.core.counters();
        assertEquals(1, c.pfcwdStorms[OUT * 8 + 3]);
        long dropped = c.pfcwdDrops[OUT * 8 + 3];
        // every frame for OUT from the storm's start is lost: those the MMU refused before detection (this test's
        // sender ignores the switch's XOFF), those queued at detection and all later ones
        long mmuDrops = c.totalDrops();
        assertTrue(dropped > 8000, "dropped " + dropped);
        assertEquals((100 * MS - stormStart) / 10_000, dropped + mmuDrops, "frames sent into the storm");
        assertEquals(0, rig.core.queuedFrames(OUT, 3));
        assertEquals(0, rig.core.mmu().ledger().egressBytes(OUT * 8 + 3), "dropped frames were released from the MMU");
        assertEquals(10_000, rig.sentOn(0).stream().filter(f -> f.length() > 64).count(),
                "port 0 kept forwarding throughout (its PFC frames aside)");

        long stopped = 100 * MS - 100_000;                  // the last pause frame
        run(rig, 100 * MS, 200 * MS, false);
        assertEquals(2, events.size(), events.toString());
        Event restore = events.get(1);
        assertEquals("restore", restore.kind());
        assertTrue(restore.at() >= stopped + RESTORATION && restore.at() <= stopped + RESTORATION + POLL,
                "restored at " + restore.at() + " after the last pause at " + stopped);
        assertFalse(rig.core.isStormed(OUT, 3));
        assertEquals(1, c.pfcwdRestorations[OUT * 8 + 3]);
        long sentAfter = rig.sentOn(OUT).stream().filter(s -> s.start() > restore.at()).count();
        assertTrue(sentAfter >= (200 * MS - restore.at()) / 10_000 - 1, "forwarding again after the restoration: " + sentAfter);
        rig.runUntil(300 * MS);
        assertEquals(SwitchCore.NO_TIMER, rig.core.nextTimerDue(), "no watchdog poll once nothing is paused or stormed");
    }

    @Test
    void underActionDropTheStormedNeighboursOwnFramesOfThatPriorityAreDroppedOnArrival() {
        CoreRig rig = rig(PfcWatchdogConfig.Action.DROP, new ArrayList<>());
        run(rig, 0, 30 * MS, true);
        assertTrue(rig.core.isStormed(OUT, 3));
        int toPort0Before = rig.sentOn(0).size();
        SwitchCounters c = rig.core.counters();
        // the stuck neighbour behind OUT also sends: priority 3 (its stormed priority) and priority 1
        for (int i = 0; i < 100; i++) {
            long t = 30 * MS + i * 10_000L;
            rig.runUntil(t);
            rig.receivePfc(OUT, 1 << 3, 65535, t);
            rig.receiveRoce(OUT, Configs.host(0), Configs.host(OUT), DSCP_PRIO_3, 1000, t);
            rig.receiveRoce(OUT, Configs.host(0), Configs.host(OUT), DSCP_PRIO_1, 1000, t);
        }
        rig.runUntil(32 * MS);
        assertEquals(100, c.pfcwdIngressDrops[OUT * 8 + 3], "its priority-3 frames dropped on arrival");
        assertEquals(0, c.pfcwdIngressDrops[OUT * 8 + 1]);
        assertEquals(100, rig.sentOn(0).size() - toPort0Before, "its priority-1 frames forwarded, nothing else reached port 0");
        assertEquals(0, c.pfcwdIngressDrops[0 * 8 + 3], "the healthy ports' frames are not the watchdog's");
    }

    @Test
    void aHealthyPauseShorterThanDetectionNeverTripsIt() {
        List<Event> events = new ArrayList<>();
        CoreRig rig = rig(PfcWatchdogConfig.Action.DROP, events);
        // 9 ms of pauses (just under detection), 1 ms of silence so the pause runs out, 50 times over
        for (int round = 0; round < 50; round++) {
            long start = round * 10 * MS;
            run(rig, start, start + 9 * MS - 100_000 - 335_545 + 100_000, true);   // the last pause ends by start + 9 ms
            run(rig, start + 9 * MS - 335_545, start + 10 * MS, false);
        }
        assertEquals(List.of(), events);
        assertEquals(0, rig.core.counters().pfcwdStorms[OUT * 8 + 3]);
        assertEquals(0, rig.core.counters().pfcwdDrops[OUT * 8 + 3]);
        assertTrue(rig.core.pausedNanos(OUT, 3, 500 * MS) > 400 * MS, "it was paused most of the time");
    }

    @Test
    void actionForwardSendsThroughTheStormAndCountsNoDrop() {
        List<Event> events = new ArrayList<>();
        CoreRig rig = rig(PfcWatchdogConfig.Action.FORWARD, events);
        run(rig, 0, 50 * MS, true);
        assertEquals(1, events.size(), events.toString());
        long detected = events.getFirst().at();
        assertTrue(detected >= DETECTION && detected <= DETECTION + POLL, "detected at " + detected);
        long sentInStorm = rig.sentOn(OUT).stream().filter(s -> s.start() >= detected).count();
        assertTrue(sentInStorm >= (50 * MS - detected) / 10_000, "sent while the neighbour pauses: " + sentInStorm);
        assertEquals(0, rig.core.counters().pfcwdDrops[OUT * 8 + 3]);
        assertEquals(0, rig.core.queuedFrames(OUT, 3), "the stormed queue drained");
    }
}

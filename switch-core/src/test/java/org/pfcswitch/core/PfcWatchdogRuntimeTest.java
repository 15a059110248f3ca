package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The PFC watchdog started, changed and stopped on a running core (no {@code pfcwd:} at start):
 * a core that watches nothing ignores a pause storm and sets no watchdog timer; started on the
 * stormed port it declares the storm one detection time after the start (a pause already running
 * counts from the start); a longer detection time set while it runs is the one that counts; a
 * stop while the queue is stormed restores it at once (counted), and the queue obeys the pauses
 * again; stopped, a storm is no longer seen.
 */
class PfcWatchdogRuntimeTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int OUT = 2;
    private static final int P3 = 1 << 3;
    private static final long MS = 1_000_000;

    private static CoreRig rig() {
        return new CoreRig(Configs.core(Configs.mmu(3, "dt").build()).build());
    }

    /** From {@code from} to {@code to}: a PFC pause of priority 3 on OUT every 100 us, a frame 0 -> OUT every 10 us. */
    private static void storm(CoreRig rig, long from, long to) {
        for (long t = from; t < to; t += 10_000) {
            rig.runUntil(t);
            if (t % 100_000 == 0) {
                rig.receivePfc(OUT, P3, 65535, t);
            }
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, t);
        }
        rig.runUntil(to);
    }

    private static PfcWatchdogConfig drop(long detection) {
        return new PfcWatchdogConfig(detection, 2 * detection, PfcWatchdogConfig.Action.DROP, MS);
    }

    @Test
    void unwatchedCoreIgnoresAStormAndKeepsNoTimer() {
        CoreRig rig = rig();
        assertNull(rig.core.pfcWatchdog(OUT));
        storm(rig, 0, 30 * MS);
        assertFalse(rig.core.isStormed(OUT, 3));
        assertEquals(0, rig.core.counters().pfcwdStorms[OUT * 8 + 3]);
    }

    @Test
    void startedAtRunTimeTheStormIsDeclaredOneDetectionAfterTheStart() {
        CoreRig rig = rig();
        storm(rig, 0, 20 * MS);                                  // paused for 20 ms, unwatched
        long started = 20 * MS;
        assertEquals(0, rig.core.startPfcWatchdog(OUT, P3, drop(10 * MS), started));
        assertEquals(drop(10 * MS), rig.core.pfcWatchdog(OUT));
        assertEquals(P3, rig.core.pfcWatchdogPriorities(OUT));
        storm(rig, started, started + 9 * MS);
        assertFalse(rig.core.isStormed(OUT, 3), "the pause counts from the start, not from its beginning");
        storm(rig, started + 9 * MS, started + 12 * MS);
        assertTrue(rig.core.isStormed(OUT, 3));
        assertEquals(1, rig.core.counters().pfcwdStorms[OUT * 8 + 3]);
        assertFalse(rig.core.isStormed(0, 3), "only the started port is watched");
    }

    @Test
    void aLongerDetectionTimeSetWhileRunningIsTheOneThatCounts() {
        CoreRig rig = rig();
        rig.core.startPfcWatchdog(OUT, P3, drop(10 * MS), 0);
        rig.core.startPfcWatchdog(OUT, P3, drop(40 * MS), MS);
        storm(rig, 2 * MS, 30 * MS);
        assertFalse(rig.core.isStormed(OUT, 3), "10 ms no longer trips it");
        storm(rig, 30 * MS, 45 * MS);
        assertTrue(rig.core.isStormed(OUT, 3), "40 ms does");
    }

    @Test
    void aStopWhileStormedRestoresTheQueueWhichObeysThePausesAgain() {
        CoreRig rig = rig();
        rig.core.startPfcWatchdog(OUT, P3, new PfcWatchdogConfig(10 * MS, 20 * MS, PfcWatchdogConfig.Action.FORWARD, MS), 0);
        storm(rig, 0, 20 * MS);
        assertTrue(rig.core.isStormed(OUT, 3));
        int sentBefore = rig.sentOn(OUT).size();
        storm(rig, 20 * MS, 21 * MS);
        assertTrue(rig.sentOn(OUT).size() > sentBefore, "stormed under forward: sent through the pauses");

        assertEquals(P3, rig.core.stopPfcWatchdog(OUT, 21 * MS));
        assertFalse(rig.core.isStormed(OUT, 3));
        assertNull(rig.core.pfcWatchdog(OUT));
        assertEquals(1, rig.core.counters().pfcwdRestorations[OUT * 8 + 3], "the stop's restoration is counted");
        int sentAtStop = rig.sentOn(OUT).size();
        storm(rig, 21 * MS, 60 * MS);
        assertEquals(sentAtStop, rig.sentOn(OUT).size(), "restored: it obeys the neighbour's pauses again");
        assertFalse(rig.core.isStormed(OUT, 3), "stopped: the storm is no longer seen");
        assertEquals(1, rig.core.counters().pfcwdStorms[OUT * 8 + 3]);
    }

    @Test
    void underAlertAStormIsCountedButTheQueueKeepsObeying() {
        CoreRig rig = rig();
        rig.core.startPfcWatchdog(OUT, P3, new PfcWatchdogConfig(10 * MS, 20 * MS, PfcWatchdogConfig.Action.ALERT, MS), 0);
        storm(rig, 0, 20 * MS);
        assertTrue(rig.core.isStormed(OUT, 3));
        int sent = rig.sentOn(OUT).size();
        storm(rig, 20 * MS, 40 * MS);
        assertEquals(sent, rig.sentOn(OUT).size(), "alert only: still paused");
        assertEquals(0, rig.core.counters().pfcwdDrops[OUT * 8 + 3]);
    }

    @Test
    void aStartWithNoPriorityIsRefused() {
        CoreRig rig = rig();
        assertThrows(IllegalArgumentException.class, () -> rig.core.startPfcWatchdog(OUT, 0, drop(10 * MS), 0));
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.LineRate;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.HostPfcLog.Entry;

/**
 * PFC as a host experiences it: hosts 0-2 send priority 3 into host 3 (3:1, so the switch pauses
 * them), and host 0 also sends priority 1 to host 2 over an idle port. Replaying host 0's own log
 * of received PFC frames and transmissions, in the order they happened: no priority-3 frame
 * starts while priority 3 is paused, priority 1 keeps going meanwhile, and priority 3 resumes
 * within one frame time of the pause ending (by XON or expiry).
 */
class PauseEndToEndTest {

    private static final long RATE = 100_000_000_000L;

    @Test
    void aPausedPrioritySendsNothingNewOthersFlowAndItResumesPromptly() {
        Testbed tb = Testbed.singleSwitch(4).links(RATE, 2_000)
                .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                .core(c -> c.pauseQuanta(2_000))         // 10.24 us pauses, refreshed every 5.12 us
                .build();
        List<Entry> log = HostPfcLog.attach(tb.host(0), 3);
        int lossless = tb.addFlow(0, 3, 3, 4_000_000, 0);
        tb.addFlow(1, 3, 3, 4_000_000, 0);
        tb.addFlow(2, 3, 3, 4_000_000, 0);
        tb.addFlow(0, 2, 1, 4_000_000, 0);
        tb.runUntil(3_000_000);

        long maxFrameTime = LineRate.nanos(1024 + 96, RATE);
        long pausedUntil = Long.MIN_VALUE;
        boolean inEpisode = false;            // a pause began and its end has not been seen yet
        long pauseEnd = Long.MIN_VALUE;       // end of the last episode, while no priority-3 frame followed it
        int pauses = 0;
        int xons = 0;
        int priority1WhilePaused = 0;
        for (Entry e : log) {
            boolean paused = e.time() < pausedUntil;
            if (inEpisode && !paused) {                           // the pause ran out by itself
                inEpisode = false;
                pauseEnd = pausedUntil;
            }
            if (e.quanta() >= 0) {                                  // a PFC frame for priority 3
                if (!paused && e.quanta() > 0) {
                    pauses++;
                    inEpisode = true;
                    pauseEnd = Long.MIN_VALUE;
                } else if (paused && e.quanta() == 0) {
                    xons++;
                    inEpisode = false;
                    pauseEnd = e.time();
                }
                pausedUntil = e.time() + MacControl.quantaToNanos(e.quanta(), RATE);
            } else if (e.priority() == 3) {
                if (paused) {
                    fail("priority 3 started a frame at " + e.time() + " ns, paused until " + pausedUntil);
                }
                if (pauseEnd != Long.MIN_VALUE) {
                    assertTrue(e.time() - pauseEnd <= maxFrameTime, "priority 3 resumed " + (e.time() - pauseEnd)
                            + " ns after its pause ended at " + pauseEnd);
                    pauseEnd = Long.MIN_VALUE;
                }
            } else if (paused) {
                priority1WhilePaused++;
            }
        }
        assertTrue(pauses >= 1, "host 0 was never paused: the scenario tests nothing");
        assertTrue(xons >= 1, "no pause ended by XON");
        assertTrue(priority1WhilePaused > 100, "priority 1 must keep flowing while 3 is paused, sent "
                + priority1WhilePaused);
        assertTrue(tb.host(0).pausedNanos(3, tb.now()) > 0);
        assertEquals(0, tb.host(0).pausedNanos(1, tb.now()));
        assertEquals(0, tb.core().mmu().losslessViolations());
        assertTrue(tb.records().completed(lossless));
    }
}

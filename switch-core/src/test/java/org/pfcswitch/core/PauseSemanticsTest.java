package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;

/** Received PFC at an egress port of the core: what stops, what finishes, what keeps going, and when it resumes. */
class PauseSemanticsTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int DSCP_PRIO_1 = 8;
    private static final int OUT = 2;

    @Test
    void aFrameOnTheLineFinishesThePausedPriorityWaitsForExpiryOthersKeepFlowing() {
        CoreRig rig = new CoreRig(Configs.core(3));
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 0);   // on the line at 0
        int quanta = 1000;
        rig.receivePfc(OUT, 1 << 3, quanta, 10);                                        // mid-frame
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 20);
        rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_1, 1000, 20);
        rig.receiveRoce(1, Configs.host(OUT), Configs.host(1), DSCP_PRIO_1, 1000, 20);
        rig.runUntil(1_000_000);

        List<CoreRig.Sent> out = rig.sentOn(OUT);
        assertEquals(4, out.size());
        long frameTime = LineRate.nanos(out.get(0).length(), Configs.GBPS_100);
        long resume = 10 + MacControl.quantaToNanos(quanta, Configs.GBPS_100);     // 10 + 5120 ns
        assertEquals(0, out.get(0).start(), "the frame already started is not cut");
        assertEquals(frameTime, out.get(1).start(), "priority 1 goes as soon as the line is free");
        assertEquals(2 * frameTime, out.get(2).start());
        assertEquals(1, priorityOf(out.get(1)));
        assertEquals(1, priorityOf(out.get(2)));
        assertEquals(resume, out.get(3).start(), "priority 3 waits exactly quanta x 512 bit times");
        assertEquals(3, priorityOf(out.get(3)));
        assertEquals(resume - 10, rig.core.pausedNanos(OUT, 3, 1_000_000));
        assertEquals(0, rig.core.pausedNanos(OUT, 1, 1_000_000));
        assertEquals(1, rig.core.counters().pfcXoffRx[OUT * 8 + 3]);
        assertEquals(0, rig.core.counters().txFrames(0), "a received PFC frame is consumed, never forwarded");
    }

    @Test
    void quantaZeroResumesAtOnceAndARefreshExtendsThePause() {
        CoreRig rig = new CoreRig(Configs.core(3));
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 500, 100);
        rig.runUntil(50_000);
        assertTrue(rig.sent.isEmpty());
        assertTrue(rig.core.isPaused(OUT, 3, 50_000));
        rig.receivePfc(OUT, 1 << 3, 0, 50_000);                                          // XON
        assertEquals(1, rig.sent.size());
        assertEquals(50_000, rig.sent.get(0).start());
        assertFalse(rig.core.isPaused(OUT, 3, 50_000));
        assertEquals(1, rig.core.counters().pfcXonRx[OUT * 8 + 3]);

        rig.sent.clear();
        rig.receivePfc(OUT, 1 << 3, 1000, 100_000);                                      // 5120 ns
        rig.receivePfc(OUT, 1 << 3, 1000, 103_000);                                      // refresh: until 108,120
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 500, 104_000);
        rig.runUntil(200_000);
        assertEquals(103_000 + MacControl.quantaToNanos(1000, Configs.GBPS_100), rig.sent.get(0).start());
        assertEquals(50_000 + 8_120, rig.core.pausedNanos(OUT, 3, 200_000));
    }

    @Test
    void an8023xPausePausesEveryPriority() {
        CoreRig rig = new CoreRig(Configs.core(3));
        long h = rig.allocate(60);
        MacControl.writePause(rig.bytes(), rig.offset(h), 0x0200_0000_00EEL, 200);
        rig.core.onFrame(OUT, h, 0);
        rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_1, 500, 10);
        rig.runUntil(100_000);
        assertEquals(MacControl.quantaToNanos(200, Configs.GBPS_100), rig.sent.get(0).start());
        assertEquals(1, rig.core.counters().pauseFramesRx[OUT]);
    }

    private static int priorityOf(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(java.lang.foreign.MemorySegment.ofArray(s.bytes()), f);
        return f.dscp() / 8;
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.PfcPauseMode;

/**
 * A host's pause time is the time any of its priorities was paused: PFC frames are handed to a
 * host's NIC at chosen instants and its time is read back, so pauses of several priorities that
 * overlap count once and pauses apart add.
 */
class HostPauseTimeTest {

    private static final long RATE = 100_000_000_000L;
    private static final long SWITCH_MAC = 0x02_00_00_00_00_FEL;
    private static final int QUANTA = 1_000;
    private static final long PAUSE = MacControl.quantaToNanos(QUANTA, RATE);   // 5.12 us at 100 Gb/s

    private final Testbed quantaTb = Testbed.singleSwitch(2).links(RATE, 1_000).build();
    private final RoceHost host = quantaTb.host(0);

    private static void pfc(Testbed tb, RoceHost h, int classEnable, int quanta, long now) {
        long handle = tb.slab().allocate(Ethernet.MIN_FRAME_BYTES);
        MacControl.writePfc(tb.slab().bytes(), tb.slab().offset(handle), SWITCH_MAC, classEnable, quanta);
        h.onEvent(EventLoop.FRAME, 0, handle, now);
    }

    private static void pause8023x(Testbed tb, RoceHost h, int quanta, long now) {
        long handle = tb.slab().allocate(Ethernet.MIN_FRAME_BYTES);
        MacControl.writePause(tb.slab().bytes(), tb.slab().offset(handle), SWITCH_MAC, quanta);
        h.onEvent(EventLoop.FRAME, 0, handle, now);
    }

    @Test
    void twoPrioritiesPausedOverOverlappingIntervalsCountOnce() {
        pfc(quantaTb, host, 1 << 3, QUANTA, 0);
        pfc(quantaTb, host, 1 << 5, QUANTA, 2_000);
        assertEquals(PAUSE + 2_000, host.pausedNanos(100_000), "from 0 to the end of priority 5's pause");
        assertEquals(PAUSE, host.pausedNanos(3, 100_000), "per priority time stays available");
        assertEquals(PAUSE, host.pausedNanos(5, 100_000));
    }

    @Test
    void aPortLevelPauseCountsItsDurationOnce() {
        pfc(quantaTb, host, 0xFF, QUANTA, 1_000);
        assertEquals(PAUSE, host.pausedNanos(100_000));
        assertEquals(3_000, host.pausedNanos(4_000), "part way through");
    }

    @Test
    void an8023xPauseCountsItsDurationOnce() {
        pause8023x(quantaTb, host, QUANTA, 0);
        assertEquals(PAUSE, host.pausedNanos(100_000));
    }

    @Test
    void disjointPausesAdd() {
        pfc(quantaTb, host, 1 << 3, QUANTA, 0);
        pfc(quantaTb, host, 1 << 5, QUANTA, 10_000);
        assertEquals(PAUSE + 2_000, host.pausedNanos(12_000), "the first pause and the second so far");
        pfc(quantaTb, host, 1 << 3, QUANTA, 30_000);
        assertEquals(3 * PAUSE, host.pausedNanos(100_000));
    }

    @Test
    void aRefreshExtendsTheSpell() {
        pfc(quantaTb, host, 1 << 3, QUANTA, 0);
        pfc(quantaTb, host, 1 << 3, QUANTA, 4_000);
        assertEquals(4_000 + PAUSE, host.pausedNanos(100_000));
    }

    @Test
    void resumingOnePriorityWhileAnotherStaysPausedKeepsTheSpell() {
        pfc(quantaTb, host, 1 << 3 | 1 << 5, QUANTA, 0);
        pfc(quantaTb, host, 1 << 3, 0, 1_000);
        assertTrue(host.isPaused(2_000));
        assertEquals(2_000, host.pausedNanos(2_000));
        pfc(quantaTb, host, 1 << 5, 0, 3_000);
        assertEquals(3_000, host.pausedNanos(100_000), "from the pause to the second resume");
        assertEquals(1_000, host.pausedNanos(3, 100_000));
    }

    @Test
    void aResumeOfAnIdleHostAddsNothing() {
        pfc(quantaTb, host, 1 << 3, QUANTA, 0);
        pfc(quantaTb, host, 0xFF, 0, 50_000);
        assertEquals(PAUSE, host.pausedNanos(100_000));
    }

    @Test
    void untilResumeCountsTheUnionUntilTheLastResume() {
        Testbed tb = Testbed.singleSwitch(2).links(RATE, 1_000)
                .hostModel(HostModel.DEFAULT.withPfc(PfcPauseMode.UNTIL_RESUME)).build();
        RoceHost h = tb.host(0);
        pfc(tb, h, 1 << 3, 1, 0);
        pfc(tb, h, 1 << 5, 1, 1_000);
        assertEquals(50_000, h.pausedNanos(50_000), "paused until a resume, however long");
        pfc(tb, h, 1 << 3, 0, 60_000);
        assertEquals(70_000, h.pausedNanos(70_000), "priority 5 still paused");
        pfc(tb, h, 1 << 5, 0, 80_000);
        assertEquals(80_000, h.pausedNanos(100_000));
        pfc(tb, h, 0xFF, 1, 90_000);
        assertEquals(90_000, h.pausedNanos(100_000), "a new spell after the resume adds");
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;

/** The shaper off ({@link CoreConfig#shaped} false): lines are always free, pauses still hold. */
class UnshapedTest {

    private static final int DSCP_PRIO_3 = 26;
    private static final int OUT = 2;

    private static CoreConfig unshaped(int ports) {
        return Configs.core(Configs.mmu(ports, "dt").build()).shaper(false).build();
    }

    @Test
    void framesLeaveAtTheirArrivalTimeBackToBackAndNothingStaysQueued() {
        CoreRig rig = new CoreRig(unshaped(3));
        for (int i = 0; i < 10; i++) {
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 100);
        }
        assertEquals(10, rig.sentOn(OUT).size(), "every frame left when it was admitted, with no timer run");
        rig.sentOn(OUT).forEach(s -> assertEquals(100, s.start()));
        assertEquals(0, rig.core.framesHeld());
        assertEquals(0, rig.core.mmu().ledger().totalUsed(), "admitted and released");
        assertEquals(SwitchCore.NO_TIMER, rig.core.nextTimerDue(), "an idle unshaped port sets no wake-up");
    }

    @Test
    void aReceivedPauseStillHoldsItsPriorityForQuantaAtThePortSpeed() {
        CoreRig rig = new CoreRig(unshaped(3));
        int quanta = 1000;
        rig.receivePfc(OUT, 1 << 3, quanta, 0);
        for (int i = 0; i < 3; i++) {
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 10);
        }
        assertTrue(rig.sent.isEmpty());
        assertEquals(3, rig.core.framesHeld());
        rig.runUntil(1_000_000);
        long resume = MacControl.quantaToNanos(quanta, Configs.GBPS_100);
        assertEquals(3, rig.sentOn(OUT).size());
        rig.sentOn(OUT).forEach(s -> assertEquals(resume, s.start(), "all three go at once when the pause ends"));
        assertEquals(0, rig.core.framesHeld());
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;

class ForwardingTest {

    private static final long STRANGER = 0x0200_0000_0B00L;

    @Test
    void staticEntryForwardsAtOnceAndTheShaperSpacesFramesAtLineRate() {
        CoreRig rig = new CoreRig(Configs.core(4));
        rig.receiveRoce(0, Configs.host(2), Configs.host(0), 26, 1000, 100);
        rig.receiveRoce(1, Configs.host(2), Configs.host(1), 26, 1000, 100);
        rig.runUntil(1_000_000);

        List<CoreRig.Sent> out = rig.sentOn(2);
        assertEquals(2, out.size());
        assertEquals(100, out.get(0).start());
        long frameTime = LineRate.nanos(out.get(0).length(), Configs.GBPS_100);
        assertEquals(100 + frameTime, out.get(1).start(), "the second frame waits for the first to leave the line");
        assertEquals(2, rig.sent.size());
        SwitchCounters c = rig.core.counters();
        assertEquals(1, c.rxFrames[0 * 8 + 3]);
        assertEquals(2, c.txFrames[2 * 8 + 3]);
        assertEquals(2L * out.get(0).length(), c.txBytes(2));
        assertEquals(0, rig.buffersInUse());
        assertEquals(0, rig.core.mmu().ledger().totalUsed());
    }

    @Test
    void unknownDestinationFloodsLearnedOneIsUnicastAndOwnPortIsFiltered() {
        MmuConfig mmu = Configs.mmu(4, "dt").build();
        CoreRig rig = new CoreRig(CoreConfig.builder(mmu).build());     // no static entries: learning only
        rig.receiveRoce(1, Configs.host(0), STRANGER, 26, 200, 0);     // nobody known yet: flood
        rig.runUntil(10_000);
        assertEquals(List.of(0, 2, 3), rig.sent.stream().map(CoreRig.Sent::port).toList());
        assertEquals(1, rig.core.counters().flooded[1]);

        rig.sent.clear();
        rig.receiveRoce(3, STRANGER, Configs.host(3), 26, 200, 20_000); // STRANGER was learned on port 1
        rig.runUntil(30_000);
        assertEquals(List.of(1), rig.sent.stream().map(CoreRig.Sent::port).toList());

        rig.sent.clear();
        rig.receiveRoce(1, STRANGER, Configs.host(1), 26, 200, 40_000); // destination behind its own port
        rig.runUntil(50_000);
        assertTrue(rig.sent.isEmpty());
        assertEquals(1, rig.core.counters().filtered[1]);
        assertEquals(0, rig.buffersInUse());
    }
}

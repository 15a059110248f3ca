package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.BufferLedger;

/**
 * A frame that goes straight to an idle line and lands in the MMU's private segment passes the
 * buffer uncharged (dt, st): the switch reports it as one that was charged and released at once.
 */
class PassingFrameTest {

    private static final int OUT = 1;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dt", "st", "spfc"})
    void aFrameToAnIdleLineIsCountedAsChargedAndReleased(String scheme) {
        CoreRig rig = new CoreRig(Configs.core(Configs.mmu(2, scheme).build()).build());
        long frame = rig.roceFrame(Configs.host(OUT), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, 0);
        long charged = rig.core.mmu().config().chargedBytes(rig.length(frame));
        rig.core.onFrame(0, frame, 0);
        rig.runUntil(100_000);

        assertEquals(1, rig.sentOn(OUT).size());
        BufferLedger ledger = rig.core.mmu().ledger();
        assertEquals(0, ledger.totalUsed());
        assertNull(ledger.checkConsistency());
        assertEquals(1, rig.core.mmu().admittedPackets());
        assertEquals(1, rig.core.mmu().releasedPackets());
        assertEquals(charged, rig.core.counters().maxQueueBytes[OUT * 8 + 3], "the queue held the frame");
        assertEquals(charged, rig.core.counters().maxBufferBytes, "the buffer held the frame");
        assertEquals(1, rig.core.counters().txFrames[OUT * 8 + 3]);
    }

    /**
     * RED with kmax below one frame: marking at enqueue or dequeue sees the frame in its queue (it
     * is marked), after dequeue it does not (it is not), whether or not the frame was charged.
     */
    @ParameterizedTest(name = "{0}")
    @EnumSource(EcnPoint.class)
    void ecnSeesThePassingFrameWhereAChargedOneWouldBeInTheQueue(EcnPoint point) {
        CoreRig probe = new CoreRig(Configs.core(2));
        long charged = probe.core.mmu().config().chargedBytes(
                probe.length(probe.roceFrame(Configs.host(OUT), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, 0)));
        CoreConfig config = Configs.core(Configs.mmu(2, "dt").ecnKminBytes(charged / 2).ecnKmaxBytes(charged / 2 + 1)
                .ecnPmax(1).build()).build();
        CoreRig rig = new CoreRig(config, SwitchModel.DEFAULT.withEcnAt(point));
        rig.core.onFrame(0, rig.roceFrame(Configs.host(OUT), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, 0), 0);
        rig.runUntil(100_000);

        List<CoreRig.Sent> out = rig.sentOn(OUT);
        assertEquals(1, out.size());
        assertEquals(0, rig.core.mmu().ledger().totalUsed());
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(out.get(0).bytes()), f);
        boolean expected = point != EcnPoint.AFTER_DEQUEUE;
        assertEquals(expected ? Ipv4.ECN_CE : Ipv4.ECN_ECT0, f.ecn(), "marked at " + point);
        assertEquals(expected ? 1 : 0, rig.core.counters().ecnMarked[OUT * 8 + 3]);
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.MmuConfig;

/**
 * A live change of scheme or parameters ({@link SwitchCore#changeMmu}): the frames already in the
 * buffer stay and are accounted by the new MMU, PFC follows the new thresholds at once, and nothing
 * is lost or double-counted when the buffer drains.
 */
class ChangeMmuTest {

    private static final int IN = 0;
    private static final int OUT = 2;
    private static final int DSCP_PRIO_3 = 26;
    private static final int FRAMES = 80;

    private static MmuConfig dt(String alpha) {
        return Configs.mmu(3, "dt").schemeParameter("dt", "alpha", alpha).build();
    }

    /** A core whose port OUT is paused by its neighbour, with FRAMES priority-3 frames from IN queued for it. */
    private static CoreRig queued(MmuConfig mmu) {
        CoreRig rig = new CoreRig(Configs.core(mmu).build());
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);
        for (int i = 0; i < FRAMES; i++) {
            rig.receiveRoce(IN, Configs.host(OUT), Configs.host(IN), DSCP_PRIO_3, 1000, 100 + i);
        }
        rig.runUntil(10_000);
        assertTrue(rig.sentOn(OUT).isEmpty(), "OUT is paused");
        return rig;
    }

    /** PFC frames the core sent out of {@code port}, as (class-enable, quanta of priority 3). */
    private static List<int[]> pfcSent(CoreRig rig, int port) {
        ParsedFrame f = new ParsedFrame();
        return rig.sentOn(port).stream().map(s -> {
            FrameParser.parse(java.lang.foreign.MemorySegment.ofArray(s.bytes()), 0, s.length(), f);
            return f.isPfc() ? new int[] {f.classEnable(), f.quanta(3)} : null;
        }).filter(x -> x != null).toList();
    }

    private static void drainAndCheck(CoreRig rig, long now) {
        rig.receivePfc(OUT, 1 << 3, 0, now);                       // the neighbour resumes
        rig.runUntil(now + 10_000_000);
        assertEquals(FRAMES, rig.core.counters().txFrames(OUT), "every queued frame left");
        BufferLedger ledger = rig.core.mmu().ledger();
        assertEquals(0, ledger.totalUsed(), "the new ledger ends empty: each frame released once");
        assertEquals(0, ledger.accountingErrors());
        assertNull(ledger.checkConsistency());
        assertEquals(0, rig.core.counters().totalDrops());
        assertEquals(0, rig.buffersInUse(), "every buffer back");
    }

    @Test
    void aStricterSchemeTakesTheQueuedBytesAndPausesAtOnce() {
        CoreRig rig = queued(dt("8"));                               // a high threshold: no XOFF yet
        long queuedBytes = rig.core.mmu().ledger().ingressBytes(BufferLedger.key(IN, 3));
        assertTrue(queuedBytes > 80_000, "queued " + queuedBytes);
        assertTrue(pfcSent(rig, IN).isEmpty(), "no pause under alpha 8");

        rig.core.changeMmu(dt("0.015625"), 20_000);                  // alpha 1/64: threshold about 64 KB
        assertEquals(queuedBytes, rig.core.mmu().ledger().ingressBytes(BufferLedger.key(IN, 3)),
                "the new MMU holds the bytes already in the buffer");
        assertEquals(queuedBytes, rig.core.mmu().ledger().egressBytes(BufferLedger.key(OUT, 3)));
        rig.runUntil(30_000);
        List<int[]> pfc = pfcSent(rig, IN);
        assertFalse(pfc.isEmpty(), "the change paused the ingress queue over the new threshold");
        assertEquals(1 << 3, pfc.getFirst()[0] & (1 << 3));
        assertTrue(pfc.getFirst()[1] > 0, "an XOFF");
        assertEquals(FRAMES, rig.core.mmu().admittedPackets(), "adopted, not admitted again by arrival");

        drainAndCheck(rig, 40_000);
        List<int[]> after = pfcSent(rig, IN);
        assertEquals(0, after.getLast()[1], "an XON once the buffer drained");
    }

    @Test
    void aLaxerSchemeResumesWhatTheOldOnePaused() {
        CoreRig rig = queued(dt("0.015625"));
        List<int[]> before = pfcSent(rig, IN);
        assertFalse(before.isEmpty(), "alpha 1/64 paused the ingress queue");
        assertTrue(before.getLast()[1] > 0);
        assertEquals(0, rig.core.counters().totalDrops(), "headroom took the rest");

        rig.core.changeMmu(dt("8"), 20_000);
        rig.runUntil(30_000);
        List<int[]> after = pfcSent(rig, IN);
        assertEquals(before.size() + 1, after.size(), "one more PFC frame at the change");
        assertEquals(1 << 3, after.getLast()[0] & (1 << 3));
        assertEquals(0, after.getLast()[1], "it resumes priority 3 (XON)");
        drainAndCheck(rig, 40_000);
    }

    @Test
    void aChangeToOrFromBfcIsRefusedAndChangesNothing() {
        CoreRig rig = queued(dt("8"));
        MmuConfig bfc = Configs.mmu(3, "bfc").build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rig.core.changeMmu(bfc, 20_000));
        assertTrue(e.getMessage().contains("bfc"), e.getMessage());
        assertEquals("dt", rig.core.mmu().schemeName());
        assertThrows(IllegalArgumentException.class, () -> rig.core.changeMmu(dt("-1"), 20_000), "a bad alpha");
        assertEquals("dt", rig.core.mmu().schemeName());
        drainAndCheck(rig, 30_000);
    }
}

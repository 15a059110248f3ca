package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Verdict;

/**
 * Shadow schemes ({@link ShadowMmus}) beside the real buffer: they count what they would have done
 * and never change what the switch does.
 */
class ShadowSchemesTest {

    private static final int OUT = 2;
    private static final int DSCP_PRIO_3 = 26;   // lossless
    private static final int DSCP_PRIO_1 = 8;    // lossy

    /**
     * Ports 0 and 1 each send at line rate into OUT, two lossless frames for every lossy one, and
     * ignore the switch's PFC frames: the egress queue grows, the ingress queues cross XOFF, lossy
     * frames are dropped and, once the headroom is gone, lossless ones too.
     */
    private static CoreRig overload(CoreConfig config, int frames) {
        CoreRig rig = new CoreRig(config);
        long frameTime = LineRate.nanos(1078, Configs.GBPS_100);
        long now = 0;
        for (int i = 0; i < frames; i++) {
            now += frameTime / 2;
            rig.runUntil(now);
            int in = i % 2;
            rig.receiveRoce(in, Configs.host(OUT), Configs.host(in), i % 3 != 2 ? DSCP_PRIO_3 : DSCP_PRIO_1, 1000, now);
        }
        rig.runUntil(now + 100_000_000);                           // drain
        return rig;
    }

    private static MmuConfig.Builder smallBuffer(String scheme) {
        return Configs.mmu(3, scheme).totalBytes(1L << 20);
    }

    @Test
    void aShadowOfTheActiveSchemeCountsExactlyWhatTheActiveDid() {
        for (String scheme : List.of("dt", "dsh", "spfc", "reverie")) {
            CoreRig rig = overload(Configs.core(smallBuffer(scheme).build()).shadows(List.of(scheme)).build(), 20_000);
            Mmu active = rig.core.mmu();
            SchemeCounters real = SchemeCounters.of(active, rig.core.counters().maxBufferBytes());
            SchemeCounters shadow = SchemeCounters.ofShadows(rig.core.shadows())[0];
            assertTrue(real.xoffTotal > 0, scheme + ": the active scheme paused");
            assertTrue(real.drops(Verdict.DROP_LOSSY_THRESHOLD) + real.drops(Verdict.DROP_BUFFER_FULL) > 0,
                    scheme + ": and dropped lossy frames");
            assertEquals(scheme, shadow.scheme);
            assertArrayEquals(real.xoff, shadow.xoff, scheme + ": XOFF transitions per ingress queue");
            assertEquals(real.xonTotal, shadow.xonTotal, scheme);
            assertArrayEquals(real.drops, shadow.drops, scheme + ": drops by reason");
            assertEquals(real.losslessDrops, shadow.losslessDrops, scheme);
            assertEquals(real.admitted, shadow.admitted, scheme);
            assertEquals(real.maxBufferBytes, shadow.maxBufferBytes, scheme);
            assertEquals(0, rig.core.shadows().admittedActiveDropped(0));
            assertDrained(rig);
        }
    }

    @Test
    void aShadowWithATinyThresholdPausesWhereTheActiveSchemeDoesNot() {
        MmuConfig mmu = smallBuffer("dt").schemeParameter("dt", "alpha", "64")
                .schemeParameter("st", "thresholdBytes", "2000").build();
        // One sender at half the line rate: the egress drains it, the ingress queue stays short.
        CoreRig rig = new CoreRig(Configs.core(mmu).shadows(List.of("st")).build());
        long frameTime = LineRate.nanos(1078, Configs.GBPS_100);
        long now = 0;
        for (int i = 0; i < 2_000; i++) {
            now += frameTime * 2;
            rig.runUntil(now);
            // a burst of 8 now and then builds about 8 KB in the queue: over st's 3 KB private + 2 KB shared
            int burst = i % 50 == 0 ? 8 : 1;
            for (int b = 0; b < burst; b++) {
                rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, now);
            }
        }
        rig.runUntil(now + 10_000_000);
        SchemeCounters shadow = SchemeCounters.ofShadows(rig.core.shadows())[0];
        assertEquals(0, rig.core.mmu().flowControl().xoffEvents(), "dt alpha 64 never paused");
        assertEquals(0, rig.core.counters().pfcXoffTx[3], "and sent no PFC frame");
        assertTrue(shadow.xoff(0, 3) > 0, "st at 2000 B would have paused port 0 priority 3: " + shadow.xoff(0, 3));
        assertEquals(shadow.xoff(0, 3), shadow.xoffTotal);
        assertEquals(0, rig.core.counters().totalDrops());
        assertDrained(rig);
    }

    @Test
    void shadowsNeverChangeWhatTheSwitchSends() {
        MmuConfig mmu = smallBuffer("dt").schemeParameter("st", "thresholdBytes", "2000").build();
        CoreRig plain = overload(Configs.core(mmu).build(), 12_000);
        CoreRig shadowed = overload(Configs.core(mmu).shadows(List.of("st", "dsh", "spfc", "dt")).build(), 12_000);
        assertTrue(plain.sent.size() > 5_000);
        assertEquals(plain.sent.size(), shadowed.sent.size());
        for (int i = 0; i < plain.sent.size(); i++) {
            CoreRig.Sent a = plain.sent.get(i);
            CoreRig.Sent b = shadowed.sent.get(i);
            assertEquals(a.port(), b.port(), "frame " + i);
            assertEquals(a.start(), b.start(), "frame " + i);
            assertArrayEquals(a.bytes(), b.bytes(), "frame " + i + ": byte-identical (PFC frames and ECN marks included)");
        }
        assertArrayEquals(plain.core.counters().drops, shadowed.core.counters().drops);
        assertTrue(SchemeCounters.ofShadows(shadowed.core.shadows())[0].xoffTotal
                > plain.core.mmu().flowControl().xoffEvents(), "the st shadow would have paused more often");
    }

    @Test
    void framesTheActiveSchemeDroppedAreLetGoByTheShadowsThatTookThem() {
        // Active st with a tiny threshold drops many lossy frames that a dt shadow admits.
        MmuConfig mmu = smallBuffer("st").schemeParameter("st", "thresholdBytes", "2000")
                .schemeParameter("st", "lossyAlpha", "0.001").build();
        CoreRig rig = overload(Configs.core(mmu).shadows(List.of("dt")).build(), 10_000);
        ShadowMmus shadows = rig.core.shadows();
        assertTrue(rig.core.counters().totalDrops() > 0, "the active scheme dropped");
        assertTrue(shadows.admittedActiveDropped(0) > 0, "the shadow would have kept some of them");
        assertDrained(rig);
    }

    @Test
    void aChangeOfTheActiveSchemeLeavesTheShadowsGoing() {
        CoreRig rig = new CoreRig(Configs.core(smallBuffer("dt").build()).shadows(List.of("dsh", "st")).build());
        rig.receivePfc(OUT, 1 << 3, 65535, 0);                       // OUT paused: frames stay queued
        for (int i = 0; i < 200; i++) {
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 10 + i);
        }
        ShadowMmus shadows = rig.core.shadows();
        long dshHeld = shadows.mmu(0).ledger().totalUsed();
        long dshXoff = shadows.mmu(0).flowControl().xoffEvents();
        assertTrue(dshHeld > 50_000 && dshXoff > 0, dshHeld + " B, " + dshXoff + " XOFF");

        rig.core.changeMmu(smallBuffer("spfc").build(), 1_000);
        assertEquals("spfc", rig.core.mmu().schemeName());
        assertEquals(dshHeld, shadows.mmu(0).ledger().totalUsed(), "the shadow still holds what it admitted");
        assertEquals(dshXoff, shadows.mmu(0).flowControl().xoffEvents(), "its counters go on");
        rig.receivePfc(OUT, 1 << 3, 0, 2_000);
        rig.runUntil(10_000_000);
        assertEquals(200, rig.core.counters().txFrames(OUT) + rig.core.counters().totalDrops(), "each frame left or was dropped");
        assertDrained(rig);
    }

    @Test
    void framesDiscardedAtShutdownAreReleasedFromTheShadowsToo() {
        CoreRig rig = new CoreRig(Configs.core(smallBuffer("dt").build()).shadows(List.of("dsh", "spfc")).build());
        rig.receivePfc(OUT, 1 << 3, 65535, 0);                       // OUT paused: frames stay queued
        for (int i = 0; i < 100; i++) {
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), DSCP_PRIO_3, 1000, 10 + i);
        }
        assertTrue(rig.core.shadows().mmu(0).ledger().totalUsed() > 0);
        assertTrue(rig.core.discardQueuedFrames(1_000) > 0);
        assertDrained(rig);
        assertEquals(0, rig.buffersInUse(), "every buffer back");
    }

    @Test
    void badShadowListsAreRefused() {
        CoreConfig.Builder b = Configs.core(Configs.mmu(3, "dt").build());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.shadows(List.of("bfc")).build())
                .getMessage().contains("bfc cannot be a shadow"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.shadows(List.of("dsh", "nope")).build())
                .getMessage().contains("'nope'"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> b.shadows(List.of("dsh", "dsh")).build())
                .getMessage().contains("twice"));
        assertNull(new CoreRig(b.shadows(List.of()).build()).core.shadows(), "no shadows: off");
    }

    @Test
    void theSnapshotCopiesTheActiveAndTheShadows() {
        CoreRig rig = overload(Configs.core(smallBuffer("dt").build()).shadows(List.of("dt", "st")).build(), 4_000);
        CoreSnapshot snap = new CoreSnapshot(3);
        snap.capture(rig.core, 1);
        assertEquals(2, snap.shadowCount);
        assertEquals("dt", snap.active.scheme);
        assertEquals("dt", snap.shadows[0].scheme);
        assertEquals("st", snap.shadows[1].scheme);
        assertArrayEquals(snap.active.xoff, snap.shadows[0].xoff);
        assertArrayEquals(snap.active.drops, snap.shadows[0].drops);
        assertEquals(rig.core.shadows().mmu(1).flowControl().xoffEvents(), snap.shadows[1].xoffTotal);
    }

    /** Every ledger, the active one and each shadow's, is back to 0 with nothing miscounted. */
    private static void assertDrained(CoreRig rig) {
        assertEquals(0, rig.core.framesHeld());
        assertLedgerEmpty(rig.core.mmu().ledger(), "active");
        ShadowMmus shadows = rig.core.shadows();
        for (int i = 0; i < shadows.count(); i++) {
            assertLedgerEmpty(shadows.mmu(i).ledger(), "shadow " + shadows.scheme(i));
            assertEquals(shadows.mmu(i).admittedPackets(), shadows.mmu(i).releasedPackets(), shadows.scheme(i));
        }
    }

    private static void assertLedgerEmpty(BufferLedger ledger, String who) {
        assertEquals(0, ledger.totalUsed(), who);
        assertEquals(0, ledger.accountingErrors(), who);
        assertNull(ledger.checkConsistency(), who);
    }
}

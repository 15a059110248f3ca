package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.FlowControl;

/** The switch's {@link SwitchModel} choices: each behaves as specified and differs from the default where it should. */
class SwitchModelTest {

    private static final int OUT = 2;
    private static final int QUANTA = 0x2000;
    private static final SwitchModel UNTIL_RESUME = SwitchModel.DEFAULT.withPfc(PfcPauseMode.UNTIL_RESUME);

    // ------------------------------------------------------------------ a. PFC until resume

    @Test
    void untilResumeAReceivedPauseOutlastsItsQuantaUntilTheResume() {
        int quanta = 1000;                                                   // 5.12 us at 100 Gb/s
        long pauseTime = MacControl.quantaToNanos(quanta, Configs.GBPS_100);
        for (SwitchModel model : List.of(SwitchModel.DEFAULT, UNTIL_RESUME)) {
            CoreRig rig = new CoreRig(Configs.core(3), model);
            rig.receivePfc(OUT, 1 << 3, quanta, 0);
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), 26, 1000, 100);
            rig.runUntil(100 * pauseTime);
            if (model.pfc() == PfcPauseMode.QUANTA) {
                assertEquals(1, rig.sentOn(OUT).size());
                assertEquals(pauseTime, rig.sentOn(OUT).get(0).start(), "quanta: the pause expires by itself");
                continue;
            }
            assertTrue(rig.sentOn(OUT).isEmpty(), "untilResume: still paused long after the quanta ran out");
            assertTrue(rig.core.isPaused(OUT, 3, 100 * pauseTime));
            assertEquals(100 * pauseTime, rig.core.pausedNanos(OUT, 3, 100 * pauseTime));
            rig.receivePfc(OUT, 1 << 3, 0, 100 * pauseTime + 7);             // the resume
            assertEquals(1, rig.sentOn(OUT).size());
            assertEquals(100 * pauseTime + 7, rig.sentOn(OUT).get(0).start(), "sent the moment the resume arrives");
            assertFalse(rig.core.isPaused(OUT, 3, 100 * pauseTime + 7));
        }
    }

    @Test
    void untilResumeTheSwitchSendsOneXoffPerEpisodeAndNoRefresh() {
        for (SwitchModel model : List.of(SwitchModel.DEFAULT, UNTIL_RESUME)) {
            CoreConfig config = Configs.core(Configs.mmu(3, "dt").build()).pauseQuanta(QUANTA).build();
            CoreRig rig = new CoreRig(config, model);
            FlowControl fc = rig.core.mmu().flowControl();
            rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);            // hold the egress so the buffer fills
            long frameTime = LineRate.nanos(1074, Configs.GBPS_100);
            long xoffAt = -1;
            for (int i = 0; xoffAt < 0; i++) {
                long now = 1_000 + i * frameTime;
                rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), 26, 1000, now);
                if (fc.isAdvertisedXoff(0, 3)) {
                    xoffAt = now;
                }
                assertTrue(i < 10_000, "never reached XOFF");
            }
            long refresh = MacControl.quantaToNanos(QUANTA, Configs.GBPS_100) / 2;
            rig.runUntil(xoffAt + 5 * refresh + refresh / 2);                 // XOFF held for 5.5 refresh periods
            int expectedXoffs = model.pfc().refreshes() ? 6 : 1;
            assertEquals(expectedXoffs, rig.sentOn(0).size());
            assertEquals(expectedXoffs, rig.core.counters().pfcXoffTx[3]);
            assertEquals(QUANTA, parse(rig.sentOn(0).get(0)).quanta(3), "the XOFF still carries the configured time");

            long resumeAt = xoffAt + 5 * refresh + refresh / 2;
            rig.receivePfc(OUT, 1 << 3, 0, resumeAt);
            rig.runUntil(resumeAt + 10_000_000);
            List<CoreRig.Sent> pfc = rig.sentOn(0);
            assertEquals(expectedXoffs + 1, pfc.size(), "then one XON");
            assertEquals(0, parse(pfc.getLast()).quanta(3));
            assertEquals(1, rig.core.counters().pfcXonTx[3]);
            assertEquals(0, rig.core.mmu().losslessViolations());
            assertEquals(0, rig.buffersInUse());
        }
    }

    // ------------------------------------------------------------------ c. where ECN is decided

    /**
     * Three frames wait behind a pause, then leave. RED marks a queue longer than 1.5 frames (kmin
     * 1.5 L, kmax just above, pmax 1). At enqueue the queue is L, 2L, 3L (marks 2nd and 3rd); at
     * dequeue it still holds the leaving frame, 3L, 2L, L (1st and 2nd); after removal 2L, L, 0 (1st).
     */
    @Test
    void ecnIsDecidedAtEnqueueAtDequeueOrAfterRemovalOnTheQueueThen() {
        assertEquals(List.of(false, true, true), marks(EcnPoint.ENQUEUE));
        assertEquals(List.of(true, true, false), marks(EcnPoint.DEQUEUE));
        assertEquals(List.of(true, false, false), marks(EcnPoint.AFTER_DEQUEUE));
    }

    private static List<Boolean> marks(EcnPoint point) {
        CoreRig probe = new CoreRig(Configs.core(3));
        long frame = probe.roceFrame(Configs.host(OUT), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, 0);
        long charged = probe.core.mmu().config().chargedBytes(probe.length(frame));
        long kmin = charged * 3 / 2;
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").ecnKminBytes(kmin).ecnKmaxBytes(kmin + 1).ecnPmax(1)
                .build()).build();
        CoreRig rig = new CoreRig(config, SwitchModel.DEFAULT.withEcnAt(point));
        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);
        for (int i = 0; i < 3; i++) {
            rig.core.onFrame(0, rig.roceFrame(Configs.host(OUT), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, i), 10 + i);
        }
        rig.receivePfc(OUT, 1 << 3, 0, 1_000);
        rig.runUntil(1_000_000);
        List<CoreRig.Sent> out = rig.sentOn(OUT);
        assertEquals(3, out.size());
        List<Boolean> marked = out.stream().map(s -> {
            ParsedFrame f = parse(s);
            assertTrue(f.ipv4ChecksumValid());
            return f.ecn() == Ipv4.ECN_CE;
        }).toList();
        assertEquals(marked.stream().filter(m -> m).count(), rig.core.counters().ecnMarked[OUT * 8 + 3]);
        return marked;
    }

    // ------------------------------------------------------------------ f. round robin among non-strict queues

    /**
     * Ten short frames (200 B payload) on priority 1 and ten long ones (1400 B) on priority 2 wait
     * behind a pause, then drain: DWRR (equal weights, 1536 B quanta) gives priority 1 several short
     * frames per long one; round robin strictly alternates one frame each.
     */
    @Test
    void roundRobinAlternatesOneFramePerQueueWhereDwrrSharesBytes() {
        List<Integer> rr = drainOrder(Scheduling.ROUND_ROBIN);
        List<Integer> dwrr = drainOrder(Scheduling.STRICT);
        for (int i = 0; i < 20; i++) {
            assertEquals(i % 2 == 0 ? 1 : 2, rr.get(i), "round robin: " + rr);
        }
        int run = 0;
        int longest = 0;
        for (int p : dwrr) {
            run = p == 1 ? run + 1 : 0;
            longest = Math.max(longest, run);
        }
        assertTrue(longest >= 3, "DWRR sends short frames in runs: " + dwrr);
        assertEquals(0xFF, Scheduling.STRICT.portPolicy(6).strictMask());
        assertEquals(1 << 6, Scheduling.ROUND_ROBIN.portPolicy(6).strictMask(), "the control priority stays strict");
    }

    private static List<Integer> drainOrder(Scheduling scheduling) {
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").build()).allSchedulers(SchedulerPolicy.dwrr(1, 1, 1, 1, 1, 1, 1, 1))
                .build();
        CoreRig rig = new CoreRig(config, SwitchModel.DEFAULT.withScheduling(scheduling));
        rig.receivePfc(OUT, 1 << 1 | 1 << 2, MacControl.MAX_QUANTA, 0);
        for (int i = 0; i < 10; i++) {
            rig.core.onFrame(0, rig.roceFrame(Configs.host(OUT), Configs.host(0), 8, Ipv4.ECN_ECT0, 200, i), 10 + i);
            rig.core.onFrame(1, rig.roceFrame(Configs.host(OUT), Configs.host(1), 16, Ipv4.ECN_ECT0, 1400, i), 10 + i);
        }
        rig.receivePfc(OUT, 1 << 1 | 1 << 2, 0, 1_000);
        rig.runUntil(1_000_000);
        List<CoreRig.Sent> out = rig.sentOn(OUT);
        assertEquals(20, out.size());
        return out.stream().map(s -> parse(s).dscp() / 8).toList();
    }

    // ------------------------------------------------------------------ e. the ECMP hash

    /** Reference values of ns-3.39's switch-node EcmpHash on (sip, dip, sport | dport << 16), computed from its source. */
    @Test
    void theFiveTupleHashIsMurmur3OfTheThreeWords() {
        assertEquals(0x1f966380, EcmpHash.murmur3(0x0A000001, 0x0A000002, 49152 | 4791 << 16, 0));
        assertEquals(0xed14eaea, EcmpHash.murmur3(0x0A000001, 0x0A000002, 49152 | 4791 << 16, 1));
        assertEquals(0xe356c18b, EcmpHash.murmur3(0x0A000003, 0x0A000007, 49160 | 4791 << 16, 7));
        assertEquals(0x64f82d08, EcmpHash.murmur3(0, 0, 0, 7));
    }

    /**
     * 200 flows over a 2-port group: the flow hash gives every switch the same split; the 5-tuple hash
     * ignores the QP and, seeded per switch, splits the same flows differently on two switches.
     */
    @Test
    void theFiveTupleHashIgnoresTheQpAndItsSeedChangesTheSplit() {
        long remote = 0x0200_0000_0C00L;
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).learning(false).ecmpGroup(remote, 2, 3).build();
        SwitchModel fiveTuple = SwitchModel.DEFAULT.withEcmp(EcmpHash.FIVE_TUPLE, 0, true);
        int[] flowA = ports(config, SwitchModel.DEFAULT.forSwitch(0), remote, false);
        int[] flowB = ports(config, SwitchModel.DEFAULT.forSwitch(1), remote, false);
        int[] seed0 = ports(config, fiveTuple.forSwitch(0), remote, false);
        int[] seed1 = ports(config, fiveTuple.forSwitch(1), remote, false);
        int[] seed0OtherQp = ports(config, fiveTuple.forSwitch(0), remote, true);
        int[] flowOtherQp = ports(config, SwitchModel.DEFAULT, remote, true);
        assertEquals(java.util.Arrays.toString(flowA), java.util.Arrays.toString(flowB), "the flow hash has no seed");
        assertEquals(java.util.Arrays.toString(seed0), java.util.Arrays.toString(seed0OtherQp), "the QP is not hashed");
        int differ = 0;
        int differQp = 0;
        for (int i = 0; i < seed0.length; i++) {
            differ += seed0[i] != seed1[i] ? 1 : 0;
            differQp += flowA[i] != flowOtherQp[i] ? 1 : 0;
        }
        assertTrue(differ > 50 && differ < 150, "another seed, another split: " + differ + " of 200 flows moved");
        assertTrue(differQp > 50, "the flow hash does hash the QP: " + differQp);
        for (int i = 0; i < seed0.length; i++) {
            int expected = 2 + (int) Long.remainderUnsigned(
                    EcmpHash.murmur3(0x0A00_0001, 0x0A00_0009, 49152 + i | 4791 << 16, 1) & 0xFFFF_FFFFL, 2);
            assertEquals(expected, seed1[i], "flow " + i + ": murmur3 mod group size, seed = switch index 1");
        }
    }

    /** The port each of 200 flows (UDP source port 49152 + i; QP i, or 1000 + i) leaves by. */
    private static int[] ports(CoreConfig config, SwitchModel model, long remote, boolean otherQp) {
        CoreRig rig = new CoreRig(config, model);
        org.pfcswitch.codec.RoceFrameBuilder b = new org.pfcswitch.codec.RoceFrameBuilder();
        int[] out = new int[200];
        for (int i = 0; i < out.length; i++) {
            b.macs(remote, Configs.host(0)).ips(0x0A00_0001, 0x0A00_0009).dscp(26).destQp(otherQp ? 1000 + i : i)
                    .udpSrcPort(49152 + i).psn(0).payloadBytes(200);
            long h = rig.allocate(b.frameLength());
            b.write(rig.bytes(), rig.offset(h));
            rig.sent.clear();
            rig.core.onFrame(0, h, i * 1_000L);
            rig.runUntil(i * 1_000L + 999);
            out[i] = rig.sent.getFirst().port();
        }
        return out;
    }

    private static ParsedFrame parse(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(s.bytes()), f);
        return f;
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.FrameCost;
import org.pfcswitch.core.PfcPauseMode;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.HostPfcLog.Entry;

/**
 * The hosts' model options ({@link HostModel}) and the switch's PFC mode end to end, each against
 * the default on the same traffic: PFC until resume, ACK per packet, CNP per marked packet.
 */
class ModelOptionsSimTest {

    private static final long RATE = 100_000_000_000L;
    /** 100 quanta: a pause of 512 ns, refreshed every 256 ns under the default. */
    private static final int SHORT_QUANTA = 100;

    /** Hosts 0-2 send priority 3 into host 3 (3:1): the switch pauses them; host 0's own log of PFC frames and sends. */
    private static List<Entry> incastLog(PfcPauseMode mode, Testbed[] out) {
        Testbed tb = Testbed.singleSwitch(4).links(RATE, 2_000)
                .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                .core(c -> c.pauseQuanta(SHORT_QUANTA))
                .switchModel(SwitchModel.DEFAULT.withPfc(mode)).hostModel(HostModel.DEFAULT.withPfc(mode))
                .build();
        List<Entry> log = HostPfcLog.attach(tb.host(0), 3);
        tb.addFlow(0, 3, 3, 2_000_000, 0);
        tb.addFlow(1, 3, 3, 2_000_000, 0);
        tb.addFlow(2, 3, 3, 2_000_000, 0);
        tb.runUntil(2_000_000);
        assertEquals(0, tb.core().mmu().losslessViolations());
        assertTrue(tb.records().completed(0), "host 0's flow completes");
        out[0] = tb;
        return log;
    }

    @Test
    void untilResumeAHostStaysPausedPastTheQuantaUntilTheXonAndGetsOneXoffPerEpisode() {
        long quantaNanos = MacControl.quantaToNanos(SHORT_QUANTA, RATE);
        Testbed[] tb = new Testbed[1];
        List<Entry> log = incastLog(PfcPauseMode.UNTIL_RESUME, tb);
        boolean paused = false;
        int episodes = 0;
        long longest = 0;
        long since = 0;
        for (Entry e : log) {
            if (e.quanta() > 0) {
                if (paused) {
                    fail("a second XOFF at " + e.time() + " ns within one episode (no refresh under untilResume)");
                }
                paused = true;
                since = e.time();
                episodes++;
            } else if (e.quanta() == 0) {
                if (paused) {
                    longest = Math.max(longest, e.time() - since);
                }
                paused = false;
            } else if (e.priority() == 3 && paused) {
                fail("priority 3 started a frame at " + e.time() + " ns, paused since " + since + " ns and not yet resumed");
            }
        }
        assertTrue(episodes >= 2, "host 0 was paused " + episodes + " times: the scenario tests nothing");
        assertTrue(longest > 4 * quantaNanos, "an episode outlasted its quanta (" + quantaNanos + " ns) by far: "
                + longest + " ns");
        assertEquals(episodes, tb[0].host(0).pfcFramesReceived() - countXon(log), "one XOFF per episode");
    }

    @Test
    void underQuantaTheSameIncastRefreshesItsPauses() {
        Testbed[] tb = new Testbed[1];
        List<Entry> log = incastLog(PfcPauseMode.QUANTA, tb);
        long quantaNanos = MacControl.quantaToNanos(SHORT_QUANTA, RATE);
        long pausedUntil = Long.MIN_VALUE;
        int episodes = 0;
        int xoffs = 0;
        for (Entry e : log) {
            if (e.quanta() > 0) {
                xoffs++;
                if (e.time() >= pausedUntil) {
                    episodes++;
                }
                pausedUntil = e.time() + quantaNanos;
            } else if (e.quanta() == 0) {
                pausedUntil = e.time();
            } else if (e.priority() == 3 && e.time() < pausedUntil) {
                fail("priority 3 sent while paused at " + e.time());
            }
        }
        assertTrue(episodes >= 1);
        assertTrue(xoffs > 2 * episodes, "refreshes: " + xoffs + " XOFFs over " + episodes + " episodes");
    }

    private static long countXon(List<Entry> log) {
        return log.stream().filter(e -> e.quanta() == 0).count();
    }

    // ------------------------------------------------------------------ g. headroom on queue 0

    @Test
    void headroomOnQueue0TakesOneQueuesHeadroomPerPortOutOfEverySwitchsBuffer() {
        long total = 2L << 20;
        for (HeadroomQueues h : HeadroomQueues.values()) {
            Testbed tb = Testbed.leafSpine(2, 2, 2).links(RATE, 1_000)
                    .mmu(MmuConfig.builder().totalBytes(total).scheme("dt").losslessPriorityMask(1 << 3))
                    .headroomQueues(h).build();
            for (int sw = 0; sw < 4; sw++) {
                MmuConfig m = tb.core(sw).mmu().config();
                long perPort = 0;
                for (int p = 0; p < m.portCount(); p++) {
                    perPort += m.headroomBytes(p);
                }
                assertEquals(h == HeadroomQueues.LOSSLESS ? total : total - perPort, m.totalBytes(), h.yamlName());
                long shared = tb.core(sw).mmu().scheme().layout().sharedPool();
                assertEquals(h == HeadroomQueues.LOSSLESS ? total - perPort - m.portCount() * 3072L : total - 2 * perPort - m.portCount() * 3072L,
                        shared, "the lossless queue's headroom and private bytes, and queue 0's under " + h.yamlName());
            }
        }
    }

    // ------------------------------------------------------------------ d. ACK per packet

    @Test
    void ackEveryPacketAcksEachDataPacketAndTheFlowStillCompletes() {
        for (AckPolicy ack : AckPolicy.values()) {
            Testbed tb = Testbed.singleSwitch(2).links(RATE, 1_000).payloadMtu(1000)
                    .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                    .hostModel(HostModel.DEFAULT.withAck(ack)).build();
            int id = tb.addFlow(0, 1, 3, 100_000, 0);                  // 100 packets, one message
            tb.runUntil(1_000_000);
            assertTrue(tb.records().completed(id));
            assertEquals(ack == AckPolicy.PACKET ? 100 : 1, tb.host(1).acksSent(), ack.yamlName());
            assertEquals(ack == AckPolicy.PACKET ? 100 : 1, tb.core().counters().rxFrames[1 * 8 + 6], "ACKs on priority 6");
        }
    }

    /** ns-3 without ACK_HIGH_PRIO: ACKs travel in the data's lossless queue, admitted by the MMU and paused with it. */
    @Test
    void acksOnTheDataPriorityShareItsLosslessQueue() {
        Testbed tb = Testbed.singleSwitch(2).links(RATE, 1_000).payloadMtu(1000)
                .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                .hostModel(HostModel.DEFAULT.withAck(AckPolicy.PACKET).withControlPriority(3)).build();
        int id = tb.addFlow(0, 1, 3, 100_000, 0);
        tb.runUntil(1_000_000);
        assertTrue(tb.records().completed(id));
        assertEquals(100, tb.core().counters().rxFrames[1 * 8 + 3], "the receiver's ACKs arrive on priority 3");
        assertEquals(0, tb.core().counters().rxFrames[1 * 8 + 6]);
        assertEquals(200, tb.core().mmu().admittedPackets(), "data and ACKs both admitted into the lossless queues");
    }

    // ------------------------------------------------------------------ b. CNP per marked packet

    @Test
    void perMarkedPacketSendsACnpForEveryMarkedPacketPerIntervalAtMostOnePerInterval() {
        long duration = 1_000_000;
        long[] cnps = new long[2];
        for (CnpPolicy policy : new CnpPolicy[] {CnpPolicy.PER_INTERVAL, CnpPolicy.PER_MARKED_PACKET}) {   // onAck: below
            Testbed tb = Testbed.singleSwitch(3).links(RATE, 1_000)
                    .mmu(MmuConfig.builder().totalBytes(4L << 20).scheme("dt").losslessPriorityMask(1 << 3)
                            .ecnKminBytes(20_000).ecnKmaxBytes(20_001).ecnPmax(1))
                    .dcqcn(DcqcnConfig.defaults()).hostModel(HostModel.DEFAULT.withCnp(policy)).build();
            tb.addFlow(0, 2, 3, 50_000_000, 0);
            tb.addFlow(1, 2, 3, 50_000_000, 0);
            tb.runUntil(duration);
            long marked = tb.core().counters().ecnMarked[2 * 8 + 3];
            long sent = tb.host(2).cnpsSent();
            assertTrue(marked > 100, "the 2:1 incast marks: " + marked);
            if (policy == CnpPolicy.PER_MARKED_PACKET) {
                long received = marked - tb.core().queuedFrames(2, 3);   // marked frames still on the way are few
                assertTrue(sent >= received - 10 && sent <= marked, "a CNP per marked packet: " + sent + " of " + marked);
            } else {
                assertTrue(sent <= 2 * (duration / DcqcnConfig.defaults().cnpIntervalNanos() + 1),
                        "at most one CNP per QP per interval: " + sent);
            }
            cnps[policy.ordinal()] = sent;
        }
        assertTrue(cnps[CnpPolicy.PER_MARKED_PACKET.ordinal()] > 5 * cnps[CnpPolicy.PER_INTERVAL.ordinal()],
                "per marked packet sends many more: " + cnps[1] + " vs " + cnps[0]);
    }

    /**
     * cc.cnp onAck (ns-3: the ACK of a CE-marked packet carries the CNP flag): as many notifications as
     * per marked packet, each the BECN bit of an ACK, so the receiver sends its ACKs and nothing else;
     * without an ACK per packet, a marked packet still gets a CNP frame.
     */
    @Test
    void onAckCarriesEveryMarkedPacketsCnpInItsAckWithoutCnpFrames() {
        long duration = 1_000_000;
        for (AckPolicy ack : AckPolicy.values()) {
            for (CnpPolicy policy : new CnpPolicy[] {CnpPolicy.PER_MARKED_PACKET, CnpPolicy.ON_ACK}) {
                Testbed tb = Testbed.singleSwitch(3).links(RATE, 1_000)
                        .mmu(MmuConfig.builder().totalBytes(4L << 20).scheme("dt").losslessPriorityMask(1 << 3)
                                .ecnKminBytes(20_000).ecnKmaxBytes(20_001).ecnPmax(1))
                        .dcqcn(DcqcnConfig.defaults()).hostModel(HostModel.DEFAULT.withCnp(policy).withAck(ack)).build();
                tb.addFlow(0, 2, 3, 50_000_000, 0);
                tb.addFlow(1, 2, 3, 50_000_000, 0);
                tb.runUntil(duration);
                String run = policy.yamlName() + ", ackEvery " + ack.yamlName();
                long sent = tb.host(2).cnpsSent();
                long received = tb.host(0).cnpsReceived() + tb.host(1).cnpsReceived();
                long control = tb.core().counters().rxFrames[2 * 8 + HostModel.CONTROL_PRIORITY];
                assertTrue(sent > 100, run + ": the 2:1 incast marks, " + sent + " CNPs");
                assertTrue(received >= sent - 10 && received <= sent, run + ": the senders hear them, " + received + " of " + sent);
                boolean onAck = policy == CnpPolicy.ON_ACK && ack == AckPolicy.PACKET;
                assertEquals(tb.host(2).acksSent() + (onAck ? 0 : sent), control,
                        run + ": control frames from the receiver (ACKs, and CNP frames unless they ride on the ACKs)");
                assertTrue(tb.host(0).flowRateBps(0, duration) < RATE, run + ": the notifications cut the sender's rate");
            }
        }
    }

    /**
     * frameCost ns3Packet: every frame costs what ns-3 charges the same packet, 10 B less (at least 60)
     * in the buffer and on the line, with no FCS, preamble or gap; hosts, links and switch agree.
     */
    @Test
    void ns3PacketCostsAFrameNs3sPacketSizeInTheBufferAndOnTheLine() {
        assertEquals(1048, FrameCost.NS3_PACKET.bufferBytes(1058), "1000 B of payload: ns-3's 1048 B packet");
        assertEquals(60, FrameCost.NS3_PACKET.bufferBytes(60), "an ACK: ns-3's 60 B");
        assertEquals(60, FrameCost.NS3_PACKET.bufferBytes(64), "a PFC frame: no smaller than ns-3's smallest packet");
        assertEquals(1058, FrameCost.ETHERNET.bufferBytes(1058));
        assertEquals(org.pfcswitch.core.LineRate.nanos(1058, RATE), FrameCost.ETHERNET.lineNanos(1058, RATE));
        assertEquals(84, FrameCost.NS3_PACKET.lineNanos(1058, RATE), "1048 B at 100 Gb/s, rounded up");
        long[] end = new long[2];
        for (FrameCost c : FrameCost.values()) {
            Testbed tb = Testbed.singleSwitch(2).links(RATE, 1_000).payloadMtu(1000)
                    .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                    .switchModel(SwitchModel.DEFAULT.withFrameCost(c)).build();
            int id = tb.addFlow(0, 1, 3, 100_000, 0);
            tb.runUntil(1_000_000);
            assertTrue(tb.records().completed(id), c.yamlName());
            assertEquals(0, tb.core().mmu().losslessViolations());
            end[c.ordinal()] = tb.records().endNanos(id);
        }
        // 100 frames back to back, each 87 ns (1082 B) against 84 ns (1048 B) at 100 Gb/s, then the last one
        // through the switch: about 300 ns sooner
        long saved = end[FrameCost.ETHERNET.ordinal()] - end[FrameCost.NS3_PACKET.ordinal()];
        assertTrue(saved >= 280 && saved <= 320, "the host, the link and the switch all use the smaller size: " + saved + " ns");
    }

    /** report.fctEnd lastAck: the FCT ends when the last ACK is back at the sender, a return trip after the last byte. */
    @Test
    void fctEndingAtTheLastAckAddsTheAcksWayBack() {
        long[] fct = new long[2];
        long[] ideal = new long[2];
        long[] acked = new long[2];
        long[] lastByte = new long[2];
        FctEnd[] ends = {FctEnd.LAST_BYTE, FctEnd.LAST_ACK};
        for (int k = 0; k < 2; k++) {
            Testbed tb = Testbed.singleSwitch(2).links(RATE, 1_000).payloadMtu(1000)
                    .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").losslessPriorityMask(1 << 3))
                    .hostModel(HostModel.DEFAULT.withFctEnd(ends[k])).build();
            int id = tb.addFlow(0, 1, 3, 100_000, 0);
            tb.runUntil(1_000_000);
            assertTrue(tb.records().completed(id), ends[k] + ": completed");
            fct[k] = tb.records().fctNanos(id);
            ideal[k] = tb.records().idealNanos(id);
            acked[k] = tb.records().ackedNanos(id);
            lastByte[k] = tb.records().endNanos(id);
        }
        assertEquals(lastByte[0], fct[0], "lastByte: start 0 to the last byte");
        assertEquals(acked[1], fct[1], "lastAck: start 0 to the ACK at the sender");
        assertEquals(lastByte[0], lastByte[1], "the choice measures, it changes nothing the hosts do");
        // the ACK's way back: two 1 us links plus its serialization and the switch's store and forward
        assertTrue(fct[1] - fct[0] >= 2_000 && fct[1] - fct[0] < 3_000, "ACK return " + (fct[1] - fct[0]) + " ns");
        assertEquals(2_000, ideal[1] - ideal[0], "the ideal adds the way back's propagation");
    }
}

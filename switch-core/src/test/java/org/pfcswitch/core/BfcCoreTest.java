package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * The switch core under the {@code bfc} scheme: a queue per flow served fairly, a PAUSE to the
 * upstream queue a frame came from once its queue is over the threshold and a RESUME when the
 * last such frame has left, BITMAP refreshes while anything is paused, the shim's upstreamQ
 * rewritten to our queue id, and PAUSE/RESUME/BITMAP from downstream obeyed per queue.
 */
class BfcCoreTest {

    private static final int OUT = 2;
    private static final int PAYLOAD = 1000;

    private final RoceFrameBuilder roce = new RoceFrameBuilder();

    @Test
    void overloadedFlowsGetTheirOwnQueuesFairShareAndPauseTheirUpstreamQueuesUntilDrained() {
        CoreRig rig = bfcRig();
        int frameLength = frameLength();
        long frameTime = LineRate.nanos(frameLength, Configs.GBPS_100);
        long sendFor = 50_000;
        long now = 0;
        for (; now < sendFor; now += frameTime) {          // two flows at line rate into one egress: 2x overload
            rig.core.onFrame(0, frame(rig, 1111, 5), now);
            rig.core.onFrame(1, frame(rig, 2222, 6), now);
            rig.runUntil(now);
        }
        rig.runUntil(now + 1_000_000);

        List<ParsedFrame> out = parsed(rig.sentOn(OUT));
        int queueA = -1;
        int queueB = -1;
        int a = 0;
        int b = 0;
        int maxLead = 0;
        for (ParsedFrame f : out) {
            assertTrue(f.hasBfcShim(), "forwarded frames keep their shim");
            if (f.udpSrcPort() == 1111) {
                queueA = check(queueA, f.upstreamQueue());
                a++;
            } else {
                queueB = check(queueB, f.upstreamQueue());
                b++;
            }
            maxLead = Math.max(maxLead, Math.abs(a - b));
        }
        assertNotEquals(queueA, queueB, "two flows, two queues");
        assertTrue(queueA >= 1 && queueB >= 1, "queue 0 is left to control");
        assertEquals(a, b);
        assertTrue(maxLead <= 2, "DRR over the two queues alternates, lead " + maxLead);

        ParsedFrame pauseA = firstControl(rig.sentOn(0), Bfc.OP_PAUSE);
        assertEquals(5, pauseA.bfcQueue(), "the pause names the upstream queue the frames came from");
        assertEquals(rig.core.counters().bfcPauseTx[0], 1);
        assertEquals(6, firstControl(rig.sentOn(1), Bfc.OP_PAUSE).bfcQueue());
        ParsedFrame resumeA = firstControl(rig.sentOn(0), Bfc.OP_RESUME);
        assertEquals(5, resumeA.bfcQueue());
        long pausedAt = startOf(rig.sentOn(0), Bfc.OP_PAUSE);
        long resumedAt = startOf(rig.sentOn(0), Bfc.OP_RESUME);
        assertTrue(pausedAt < 5_000, "over a 12.5 KB threshold within microseconds, paused at " + pausedAt);
        assertTrue(resumedAt > sendFor, "resumed only once the marked frames left, at " + resumedAt);
        long bitmaps = rig.sentOn(0).stream().map(BfcCoreTest::parse)
                .filter(f -> f.isBfcControl() && f.bfcOp() == Bfc.OP_BITMAP).count();
        long expected = (resumedAt - pausedAt) / CoreConfig.DEFAULT_BFC_BITMAP_PERIOD_NANOS;
        assertTrue(bitmaps >= expected && bitmaps <= expected + 2,
                bitmaps + " bitmaps for a pause of " + (resumedAt - pausedAt) + " ns");

        var bp = ((org.pfcswitch.mmu.scheme.Bfc) rig.core.mmu().scheme()).backpressure();
        assertEquals(0, bp.pauseCounter(0, 5));
        assertEquals(0, bp.pauseCounter(1, 6));
        assertEquals(0, rig.core.framesHeld());
        assertEquals(0, rig.core.mmu().ledger().totalUsed());
        assertEquals(0, rig.core.counters().totalDrops());
    }

    @Test
    void pauseResumeAndBitmapFromDownstreamStopAndRestartSingleQueues() {
        CoreRig rig = bfcRig();
        rig.core.onFrame(0, frame(rig, 1111, 5), 0);
        rig.core.onFrame(1, frame(rig, 2222, 6), 0);
        rig.runUntil(1_000);
        int queueA = queueOf(rig, 1111);
        int queueB = queueOf(rig, 2222);
        rig.sent.clear();

        // Within STICKY (2 HRTT = 4 us) of its last frame a flow keeps its queue, so the pause applies to it.
        receiveControl(rig, OUT, Bfc.OP_PAUSE, 10, queueA, 1_000);
        assertTrue(rig.core.isPaused(OUT, queueA, 1_000));
        for (int i = 0; i < 5; i++) {
            rig.core.onFrame(0, frame(rig, 1111, 5), 2_000 + i);
            rig.core.onFrame(1, frame(rig, 2222, 6), 2_000 + i);
        }
        rig.runUntil(100_000);
        assertEquals(0, countFlow(rig, 1111), "a paused queue starts nothing");
        assertEquals(5, countFlow(rig, 2222), "other queues keep flowing");

        receiveControl(rig, OUT, Bfc.OP_PAUSE, 9, queueB, 100_000);            // older sequence number: ignored
        assertEquals(1, rig.core.counters().bfcControlIgnored[OUT]);
        assertFalse(rig.core.isPaused(OUT, queueB, 100_000));

        receiveControl(rig, OUT, Bfc.OP_RESUME, 11, queueA, 200_000);
        rig.runUntil(300_000);
        assertEquals(5, countFlow(rig, 1111), "resumed: the queue drains");
        assertEquals(199_000, rig.core.pausedNanos(OUT, queueA, 300_000));

        receiveBitmap(rig, OUT, 12, 1L << queueA | 1L << queueB, 300_000);
        assertTrue(rig.core.isPaused(OUT, queueA, 300_000) && rig.core.isPaused(OUT, queueB, 300_000));
        receiveBitmap(rig, OUT, 13, 0, 310_000);
        assertFalse(rig.core.isPaused(OUT, queueA, 310_000) || rig.core.isPaused(OUT, queueB, 310_000));
        assertEquals(4, rig.core.counters().bfcControlRx[OUT]);
    }

    /**
     * Priority classes (BFC App. A.3): with four classes a priority-7 flow's queue is served before
     * any queue of the priority-0 class; with one class the same two flows alternate.
     */
    @Test
    void classesAreServedInStrictPriorityAndQueuesWithinAClassByDrr() {
        assertEquals("L" + "H".repeat(20) + "L".repeat(19), servedOrder(4));
        assertTrue(servedOrder(1).startsWith("LHLHLH"), servedOrder(1));
    }

    /** 20 frames of a priority-0 flow, then 20 of a priority-7 flow, all at t = 0: the order they leave in. */
    private String servedOrder(int classes) {
        CoreRig rig = new CoreRig(Configs.core(Configs.mmu(4, "bfc")
                .schemeParameter("bfc", "classes", Integer.toString(classes)).build()).build());
        for (int i = 0; i < 20; i++) {
            rig.core.onFrame(0, frame(rig, 1111, 5, 0), 0);
        }
        for (int i = 0; i < 20; i++) {
            rig.core.onFrame(1, frame(rig, 2222, 6, 56), 0);
        }
        rig.runUntil(1_000_000);
        StringBuilder order = new StringBuilder();
        for (ParsedFrame f : parsed(rig.sentOn(OUT))) {
            order.append(f.udpSrcPort() == 1111 ? 'L' : 'H');
        }
        return order.toString();
    }

    @Test
    void pfcOnABfcSwitchAndBfcOnAPfcSwitchAreConsumedAndCountedNeverObeyedOrForwarded() {
        CoreRig bfc = bfcRig();
        bfc.receivePfc(OUT, 0xFF, MacControl.MAX_QUANTA, 0);
        bfc.core.onFrame(0, frame(bfc, 1111, 5), 1_000);
        bfc.runUntil(100_000);
        assertEquals(1, bfc.core.counters().foreignControl[OUT]);
        assertEquals(1, countFlow(bfc, 1111), "PFC does not pause a BFC port");
        assertEquals(1, bfc.sent.size(), "nothing but the data frame left");

        CoreRig pfc = new CoreRig(Configs.core(4));
        receiveControl(pfc, OUT, Bfc.OP_PAUSE, 1, 3, 0);
        pfc.runUntil(100_000);
        assertEquals(1, pfc.core.counters().foreignControl[OUT]);
        assertTrue(pfc.sent.isEmpty(), "link-local frames are never forwarded");
        assertFalse(pfc.core.isPaused(OUT, 3, 0));
    }

    // ------------------------------------------------------------------ helpers

    private static CoreRig bfcRig() {
        return new CoreRig(Configs.core(Configs.mmu(4, "bfc").build()).build());
    }

    private int frameLength() {
        return roce.bfcUpstreamQueue(0).payloadBytes(PAYLOAD).frameLength();
    }

    /** A WRITE of flow {@code udpSrc} (the flow's identity) to the host behind OUT, from upstream queue {@code q}. */
    private long frame(CoreRig rig, int udpSrc, int upstreamQueue) {
        return frame(rig, udpSrc, upstreamQueue, 26);
    }

    private long frame(CoreRig rig, int udpSrc, int upstreamQueue, int dscp) {
        roce.macs(Configs.host(OUT), Configs.host(0)).ips(0x0A00_0001, 0x0A00_0003).dscp(dscp).udpSrcPort(udpSrc)
                .destQp(udpSrc).payloadBytes(PAYLOAD).bfcUpstreamQueue(upstreamQueue);
        long h = rig.allocate(roce.frameLength());
        roce.write(rig.bytes(), rig.offset(h));
        return h;
    }

    private static void receiveControl(CoreRig rig, int port, int op, int seq, int queue, long now) {
        long h = rig.allocate(60);
        if (op == Bfc.OP_PAUSE) {
            Bfc.writePause(rig.bytes(), rig.offset(h), Bfc.NEAREST_BRIDGE, Configs.host(port), seq, queue);
        } else {
            Bfc.writeResume(rig.bytes(), rig.offset(h), Bfc.NEAREST_BRIDGE, Configs.host(port), seq, queue);
        }
        rig.core.onFrame(port, h, now);
    }

    private static void receiveBitmap(CoreRig rig, int port, int seq, long paused, long now) {
        long h = rig.allocate(60);
        Bfc.writeBitmap(rig.bytes(), rig.offset(h), Bfc.NEAREST_BRIDGE, Configs.host(port), seq, 32, paused, 0);
        rig.core.onFrame(port, h, now);
    }

    private static int check(int known, int queue) {
        assertTrue(known < 0 || known == queue, "a flow never changes queue while it has frames queued");
        return queue;
    }

    private static int queueOf(CoreRig rig, int udpSrc) {
        return parsed(rig.sentOn(OUT)).stream().filter(f -> f.udpSrcPort() == udpSrc).findFirst().orElseThrow()
                .upstreamQueue();
    }

    private static long countFlow(CoreRig rig, int udpSrc) {
        return parsed(rig.sentOn(OUT)).stream().filter(f -> f.udpSrcPort() == udpSrc).count();
    }

    private static ParsedFrame firstControl(List<CoreRig.Sent> sent, int op) {
        return sent.stream().map(BfcCoreTest::parse).filter(f -> f.isBfcControl() && f.bfcOp() == op).findFirst()
                .orElseThrow(() -> new AssertionError("no BFC control frame with op " + op));
    }

    private static long startOf(List<CoreRig.Sent> sent, int op) {
        return sent.stream().filter(s -> parse(s).isBfcControl() && parse(s).bfcOp() == op).findFirst().orElseThrow()
                .start();
    }

    private static List<ParsedFrame> parsed(List<CoreRig.Sent> sent) {
        List<ParsedFrame> out = new ArrayList<>();
        for (CoreRig.Sent s : sent) {
            ParsedFrame f = parse(s);
            if (f.isRoce()) {
                out.add(f);
            }
        }
        return out;
    }

    private static ParsedFrame parse(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(s.bytes()), f);
        return f;
    }
}

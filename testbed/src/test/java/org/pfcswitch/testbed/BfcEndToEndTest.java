package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.LineRate;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.scheme.Bfc;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/**
 * BFC end to end: hosts with BFC NICs at line rate (no congestion control) into random incasts.
 * Backpressure alone must keep the buffer near one hop's BDP per upstream queue (a host that
 * ignored its pauses would pile megabytes into the switch), lose nothing at this scale, and leave
 * no pause counter, paused queue or buffer behind once the traffic is gone. On a leaf-spine the
 * pauses must travel switch to switch.
 */
class BfcEndToEndTest {

    private static final int HOSTS = 16;
    private static final int RECEIVER = HOSTS - 1;
    private static final long GBPS_100 = 100_000_000_000L;

    @Test
    void randomIncastsAreHeldBackByPerQueuePausesAndLeaveNothingBehind() {
        for (long seed = 1; seed <= 2; seed++) {
            SplittableRandom r = new SplittableRandom(seed * 31);
            Testbed.Builder b = Testbed.singleSwitch(HOSTS).seed(seed);
            long longestCable = 0;
            for (int h = 0; h < HOSTS; h++) {
                long cable = 1_000 + r.nextInt(2_000);
                longestCable = Math.max(longestCable, cable);
                b.link(h, GBPS_100, cable);
            }
            Testbed tb = b.mmu(MmuConfig.builder().totalBytes(16L << 20).scheme("bfc")).build();
            int senders = 4 + r.nextInt(RECEIVER - 4);
            long offered = 0;
            for (int s = 0; s < senders; s++) {
                long size = 1_000_000 + r.nextInt(3_000_000);
                tb.addFlow(s, RECEIVER, 3, size, r.nextInt(20_000));
                offered += size;
            }
            runToCompletion(tb);
            String run = "seed " + seed + ", " + senders + " senders";

            SwitchCore core = tb.core();
            long pauses = 0;
            long hostPausedNanos = 0;
            for (int h = 0; h < HOSTS; h++) {
                pauses += core.pauseFramesSent(h);
                hostPausedNanos += tb.host(h).bfcPausedNanos(tb.now());
                assertFalse(tb.host(h).isBfcPaused(), "host " + h + " still paused: " + run);
            }
            assertTrue(pauses > 0 && hostPausedNanos > 0, "the incast must make the switch pause its senders: " + run);
            long bdp = 2 * longestCable * 100 / 8;                      // HRTT x 100 Gb/s, in bytes
            long bound = senders * (2 * bdp + 2 * 1500L);
            assertTrue(core.counters().maxBufferBytes() < bound, "buffer peaked at " + core.counters().maxBufferBytes()
                    + " B, more than ~2 BDP per paused sender (" + bound + " B): " + run);
            assertEquals(0, core.counters().totalDrops(), run);
            assertEquals(offered, receivedBytes(tb), run);
            assertNothingLeft(tb, run);
        }
    }

    @Test
    void onALeafSpineTheFabricPausesTravelSwitchToSwitch() {
        Testbed tb = Testbed.leafSpine(2, 2, 4).fabricLinks(GBPS_100, 1_000).seed(3)
                .mmu(MmuConfig.builder().totalBytes(16L << 20).scheme("bfc")).build();
        int receiver = 7;                                               // on leaf 1
        long offered = 0;
        for (int s = 0; s < 7; s++) {                                   // four from leaf 0, three from leaf 1
            tb.addFlow(s, receiver, 3, 2_000_000, 0);
            offered += 2_000_000;
        }
        runToCompletion(tb);
        long fabricPauses = 0;
        for (int sw = 0; sw < tb.switches(); sw++) {
            for (int port = 0; port < tb.core(sw).ports(); port++) {
                fabricPauses += tb.isHostPort(sw, port) ? 0 : tb.core(sw).pauseFramesSent(port);
            }
            assertEquals(0, tb.core(sw).counters().totalDrops(), "switch " + sw);
        }
        assertTrue(fabricPauses > 0, "leaf 1 must pause the spines' queues, and they the leaf 0 uplinks");
        assertEquals(offered, receivedBytes(tb));
        assertNothingLeft(tb, "leaf-spine");
    }

    /**
     * Pause state is idempotent and refreshed (scheme spec III.4, IV.2): when the wire to a sender
     * loses the RESUME of its paused queue, the next BITMAP (every 10 us while anything is paused,
     * and once after) resumes it. With the refresh off the same loss leaves the sender paused for
     * good, which is what makes this a test of the refresh.
     */
    @Test
    void aLostResumeIsRepairedByTheNextBitmap() {
        for (long period : new long[] {CoreConfig.DEFAULT_BFC_BITMAP_PERIOD_NANOS, 0}) {
            Testbed tb = Testbed.singleSwitch(4).seed(5).links(GBPS_100, 1_000)
                    .mmu(MmuConfig.builder().totalBytes(16L << 20).scheme("bfc"))
                    .core(c -> c.bfcBitmapPeriodNanos(period)).build();
            for (int s = 0; s < 3; s++) {
                tb.addFlow(s, 3, 3, 2_000_000, 0);
            }
            boolean[] dropped = {false};
            long[] droppedAt = {-1};
            Wire toHost0 = tb.loseFramesTowards(0, (f, now) -> {
                if (dropped[0] || !f.isBfcControl() || f.bfcOp() != org.pfcswitch.codec.Bfc.OP_RESUME) {
                    return false;
                }
                dropped[0] = true;
                droppedAt[0] = now;
                return true;
            });
            FlowRecords rec = tb.records();
            for (long t = 500_000; t <= 20_000_000 && !allDone(rec); t += 500_000) {
                tb.runUntil(t);
            }
            assertEquals(1, toHost0.framesLost(), "period " + period + ": one RESUME lost");
            if (period > 0) {
                assertTrue(allDone(rec), "the bitmap must resume host 0 after its RESUME was lost");
                assertFalse(tb.host(0).isBfcPaused());
                assertTrue(tb.core().counters().bfcBitmapTx[0] > 0);
            } else {
                assertFalse(rec.completed(0), "without the refresh host 0 never learns it may send again");
                assertTrue(tb.host(0).isBfcPaused());
                assertTrue(rec.completed(1) && rec.completed(2), "the other senders are not affected");
            }
        }
    }

    /**
     * BFC App. C (scheme spec III.8, claim B21): one flow alone in its queue, arriving at x times
     * the bottleneck's rate, with Th = 1-hop BDP (k = 1), leaves the bottleneck idle a fraction
     * E = (x-1) / (k x + x^2 - 1) of the time, because after each resume the queue is empty for one
     * HRTT: 0.20 at x = 2 and 0.076 at x = 1.1.
     */
    @ParameterizedTest(name = "x = {0}")
    @CsvSource({"2.0, 0.200", "1.1, 0.076"})
    void aLoneFlowIdlesTheBottleneckAsAppendixCPredicts(double x, double expectedIdle) {
        long bottleneck = 50_000_000_000L;
        Testbed tb = Testbed.singleSwitch(2).seed(1)
                .link(0, (long) (x * bottleneck), 1_000).link(1, bottleneck, 1_000)
                .mmu(MmuConfig.builder().totalBytes(12L << 20).scheme("bfc")).build();
        tb.addFlow(0, 1, 3, Long.MAX_VALUE / 4, 0);
        long from = 500_000;
        long to = 3_000_000;
        tb.runUntil(from);
        long busyFrom = busyNanos(tb.core(), 1, bottleneck);
        tb.runUntil(to);
        double idle = 1 - (double) (busyNanos(tb.core(), 1, bottleneck) - busyFrom) / (to - from);
        assertTrue(tb.core().pauseFramesSent(0) > 10, "the flow must be paused over and over");
        assertEquals(expectedIdle, idle, 0.03, "idle fraction of the bottleneck at x = " + x);
    }

    /** Time the port's line has been busy with the frames it sent (wire overhead included). */
    private static long busyNanos(SwitchCore core, int port, long bps) {
        long bytes = core.counters().txBytes(port) + core.counters().txFrames(port) * LineRate.WIRE_OVERHEAD_BYTES;
        return bytes * 8_000_000_000L / bps;
    }

    private static void runToCompletion(Testbed tb) {
        FlowRecords rec = tb.records();
        for (long t = 500_000; t <= 100_000_000 && !allDone(rec); t += 500_000) {
            tb.runUntil(t);
        }
        assertTrue(allDone(rec), "flows did not finish in 100 ms");
        tb.runUntil(tb.now() + 2_000_000);                              // the last resumes and bitmaps settle
    }

    /** Conservation after quiescence: no pause counter, no paused queue, no buffer, no frame held. */
    private static void assertNothingLeft(Testbed tb, String run) {
        for (int sw = 0; sw < tb.switches(); sw++) {
            SwitchCore core = tb.core(sw);
            BfcBackpressure bp = ((Bfc) core.mmu().scheme()).backpressure();
            for (int port = 0; port < core.ports(); port++) {
                for (int u = 0; u < bp.upstreamQueues(); u++) {
                    assertEquals(0, bp.pauseCounter(port, u), "switch " + sw + " port " + port + " queue " + u + ": " + run);
                }
                for (int q = 0; q < core.queuesPerPort(); q++) {
                    assertFalse(core.isPaused(port, q, tb.now()), "switch " + sw + " egress " + port + "/" + q + ": " + run);
                }
            }
            assertEquals(0, core.framesHeld(), run);
            assertEquals(0, core.mmu().ledger().totalUsed(), run);
        }
        assertEquals(0, tb.framesInUse(), "every buffer came back: " + run);
    }

    private static long receivedBytes(Testbed tb) {
        long sum = 0;
        for (int f = 0; f < tb.records().count(); f++) {
            sum += tb.records().receivedPayloadBytes(f);
            assertEquals(0, tb.records().outOfOrder(f), "flow " + f + " reordered");
        }
        return sum;
    }

    private static boolean allDone(FlowRecords rec) {
        for (int f = 0; f < rec.count(); f++) {
            if (!rec.completed(f)) {
                return false;
            }
        }
        return true;
    }
}

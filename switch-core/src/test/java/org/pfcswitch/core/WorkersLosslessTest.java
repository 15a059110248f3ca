package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.scheme.Bfc;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/**
 * The lossless guarantee with the switch split among workers: randomized incasts whose congested
 * egress is on one worker and whose senders are on both, every scheme that pauses with PFC, headroom
 * sized by the scheme's own formula, hosts that obey PFC. Not one frame may be lost, nothing may be
 * left in the buffer or the ledgers afterwards, and the rings never fill. bfc, whose pauses are
 * decided at the egress worker and sent by the ingress worker, under the same incasts with BFC
 * hosts, and its threshold's promise to the congested line with the hand-off reserved.
 */
class WorkersLosslessTest {

    static final int PORTS = 8;
    /** Ports 0-3 on worker 0, 4-7 on worker 1: the incast to host 0 comes mostly from worker 1's hosts. */
    static final int[] TWO_WORKERS = {0, 0, 0, 0, 1, 1, 1, 1};
    private static final int[] ONE_WORKER = new int[PORTS];
    /** The rig's pass period: a pass ends within two of them unless it stalls. */
    private static final long PASS_NANOS = 2_000;

    static Stream<Arguments> schemesAndSeeds() {
        List<Arguments> cases = new ArrayList<>();
        String[] schemes = {"st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc"};
        for (int i = 0; i < schemes.length; i++) {
            cases.add(Arguments.of(schemes[i], 1000L + i));
            cases.add(Arguments.of(schemes[i], 2000L + 7 * i));
        }
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}, seed {1}")
    @MethodSource("schemesAndSeeds")
    void twoWorkersLoseNoLosslessFrame(String scheme, long seed) {
        WorkersRig rig = rig(scheme, TWO_WORKERS, seed);
        rig.run(200_000_000L);
        assertLossless(rig, scheme + " seed " + seed);
        assertTrue(rig.pfcFramesToHosts > 0, "the incast must make the switch pause its senders, or it tests nothing");
    }

    @Test
    void oneWorkerUnderTheSameTrafficLosesNothingEither() {
        WorkersRig rig = rig("dt", ONE_WORKER, 42);
        rig.run(200_000_000L);
        assertLossless(rig, "one worker");
        assertTrue(rig.pfcFramesToHosts > 0);
    }

    @Test
    void theReserveComesOffTheSharedPoolOnlyWithSeveralWorkers() {
        assertEquals(0, rig("dt", ONE_WORKER, 1).workers.reserveBytes());
        WorkersRig two = rig("dt", TWO_WORKERS, 1);
        long bound = two.workers.stalenessBoundBytes();
        assertEquals(bound, two.workers.reserveBytes(), "one other worker: one staleness bound");
        assertEquals(Configs.mmu(PORTS, "dt").build().totalBytes() - bound,
                two.workers.core(0).mmu().config().totalBytes());
        assertTrue(bound >= SwitchWorkers.PUBLISH_QUANTUM_BYTES + 1500, "quantum plus the largest frame: " + bound);
    }

    /**
     * A BFC BITMAP from downstream arrives on the port whose egress queues it pauses, so the worker
     * that polls that port applies it: frames from the other worker's host wait in its queues (and
     * push back on their sender) until the downstream resumes them, then all arrive.
     */
    @Test
    void aPauseFromDownstreamHoldsTheFramesThatCrossedToItsPortUntilResumed() {
        WorkersRig rig = new WorkersRig(Configs.core(Configs.mmu(PORTS, "bfc").build()).build(), TWO_WORKERS, 9, 1500,
                0, 1.0, PASS_NANOS);
        rig.onlyHostsSend(4);
        fromDownstreamOfPort0(rig, 0, -1L);                // every queue of port 0 paused
        rig.run(200_000);
        assertEquals(0, rig.delivered[0], "nothing leaves a paused port");
        assertTrue(rig.workers.core(0).framesHeld() > 0, "worker 0 holds the frames that crossed to its port");
        assertTrue(rig.bfcPausesOfQueue[4 * 64] > 0, "and pushes back on their sender, on worker 1");
        fromDownstreamOfPort0(rig, 1, 0);                  // all resumed
        rig.run(200_000_000L);
        assertEquals(1500, rig.delivered[0], "every frame delivered once resumed");
        assertEquals(0, rig.workers.counters().totalDrops());
    }

    /** A BFC BITMAP with sequence {@code seq} and the paused queues {@code paused} arrives on port 0 from its neighbour. */
    private static void fromDownstreamOfPort0(WorkersRig rig, int seq, long paused) {
        long h = rig.allocate(60);                         // a BFC control frame's length, without the FCS
        int len = org.pfcswitch.codec.Bfc.writeBitmap(rig.memory(), rig.offset(h), org.pfcswitch.codec.Bfc.NEAREST_BRIDGE,
                Configs.host(0), seq, 32, paused & 0xFFFF_FFFFL, 0);
        assertEquals(60, len);
        rig.workers.core(rig.workers.workerOf(0)).onFrame(0, h, rig.now());
    }

    @Test
    void bfcTakesTheHandOffIntoItsThresholdOnlyWithSeveralWorkers() {
        long hrtt = 2 * WorkersRig.CABLE_NANOS;
        WorkersRig one = rig("bfc", ONE_WORKER, 1);
        assertEquals(0, one.workers.pauseHandOffNanos());
        assertEquals(hrtt * Configs.GBPS_100 / 8 / 1_000_000_000L, one.workers.core(0).mmu().scheme().emptyBufferThreshold(0, 3),
                "one worker: the cable's round trip at line rate");
        WorkersRig two = rig("bfc", TWO_WORKERS, 1);
        long handOff = two.workers.pauseHandOffNanos();
        assertEquals(SwitchWorkers.handOffNanos(2 * PASS_NANOS), handOff, "a pass of each worker");
        for (int w = 0; w < 2; w++) {
            assertEquals((hrtt + handOff) * Configs.GBPS_100 / 8 / 1_000_000_000L,
                    two.workers.core(w).mmu().scheme().emptyBufferThreshold(0, 3), "worker " + w);
        }
        assertEquals(0, rig("dt", TWO_WORKERS, 1).workers.pauseHandOffNanos(), "PFC schemes pause from the ingress worker");
    }

    @Test
    void aPartitionThatLeavesAWorkerWithoutPortsIsRefused() {
        CoreConfig dt = Configs.core(Configs.mmu(PORTS, "dt").build()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WorkersRig(dt, new int[] {0, 0, 0, 0, 2, 2, 2, 2}, 1, 1, 0, 0, 1000));
        assertTrue(e.getMessage().contains("worker 1 owns no port"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new WorkersRig(dt, new int[] {0, 1}, 1, 1, 0, 0, 1000));
    }

    /**
     * bfc on two workers, hosts that are BFC NICs: the incast's congested egress (port 0) is on
     * worker 0 and most of its senders on worker 1, so their frames cross to worker 0, which decides
     * their pauses and hands each back to worker 1 to send upstream. Nothing may be lost, every
     * upstream queue must be resumed in the end and every pause count back at 0.
     */
    @ParameterizedTest(name = "bfc, seed {0}")
    @ValueSource(longs = {1007, 2049, 3001, 4111})
    void bfcOnTwoWorkersLosesNoFrameAndResumesEveryQueue(long seed) {
        WorkersRig rig = rig("bfc", TWO_WORKERS, seed);
        rig.run(200_000_000L);
        assertLossless(rig, "bfc seed " + seed);
        long crossedPauses = 0;
        for (int h = 0; h < PORTS; h++) {
            assertEquals(0, rig.pausedQueues[h], "host " + h + " left with paused queues");
            if (TWO_WORKERS[h] == 1) {
                crossedPauses += rig.bfcPausesOfQueue[h * 64];       // its queue to host 0, paused from worker 0's port
            }
        }
        assertTrue(crossedPauses > 0, "worker 0's congested port must pause worker 1's senders, or it tests nothing");
        for (int w = 0; w < 2; w++) {
            BfcBackpressure backpressure = ((Bfc) rig.workers.core(w).mmu().scheme()).backpressure();
            for (int p = 0; p < PORTS; p++) {
                for (int u = 0; u < backpressure.upstreamQueues(); u++) {
                    assertEquals(0, backpressure.pauseCounter(p, u), "worker " + w + " still counts marked frames of " + p + "/" + u);
                }
            }
        }
    }

    /**
     * BFC's threshold is one round trip of its pause loop at the fair drain rate, so that a resumed
     * queue does not run dry before the upstream's data is back (BFC App. C): a flow whose threshold
     * is k round trips is absent from the bottleneck at most 1 / ((sqrt(k) + 1)^2 + 1) of the time.
     * Two long flows into port 0 (worker 0), one from host 1 (worker 0), one from host 4 (worker 1)
     * whose loop also crosses between the workers twice. With the hand-off reserved, the threshold
     * covers the crossing flow's loop and is k = (HRTT + hand-off) / HRTT round trips of the local
     * flow's, so the line idles no more than that flow may be absent; one worker is held to k = 1.
     * Passes jitter but do not stall: the reserve covers a pass, a stall delays a pause as it does
     * on one worker.
     */
    @ParameterizedTest(name = "{0} worker(s), seed {1}")
    @CsvSource({"1, 1007", "1, 2049", "2, 1007", "2, 2049", "2, 3001", "2, 4111", "2, 5003", "2, 6007"})
    void bfcKeepsTheCongestedLineAsBusyAsItsThresholdPromises(int workers, long seed) {
        WorkersRig rig = new WorkersRig(Configs.core(Configs.mmu(PORTS, "bfc").build()).build(),
                workers == 1 ? ONE_WORKER : TWO_WORKERS, seed, 1500, 0, 1.0, PASS_NANOS);
        rig.stalls = false;
        rig.onlyHostsSend(1, 4);
        rig.run(200_000_000L);
        long hrtt = 2 * WorkersRig.CABLE_NANOS;
        double k = workers == 1 ? 1 : (double) (hrtt + SwitchWorkers.handOffNanos(2 * PASS_NANOS)) / hrtt;
        double mostAbsent = 1 / ((Math.sqrt(k) + 1) * (Math.sqrt(k) + 1) + 1);
        double busy = rig.lineUtilization(0);
        assertTrue(busy >= 1 - mostAbsent, "port 0 busy " + busy + " of the time, at least " + (1 - mostAbsent)
                + " promised (k = " + k + ")");
        assertEquals(2 * 1500L, rig.delivered[0], "every frame delivered");
        assertEquals(0, rig.workers.counters().totalDrops());
    }

    static WorkersRig rig(String scheme, int[] workerOf, long seed) {
        CoreConfig config = Configs.core(Configs.mmu(PORTS, scheme).build()).build();
        return new WorkersRig(config, workerOf, seed, 1500, 0, 0.7, PASS_NANOS);
    }

    static void assertLossless(WorkersRig rig, String what) {
        long sent = 0;
        long delivered = 0;
        for (int h = 0; h < PORTS; h++) {
            sent += rig.sent[h];
            delivered += rig.delivered[h];
        }
        assertEquals(PORTS * 1500L, sent, what + ": every host sent all its frames");
        for (int w = 0; w < rig.workers.workers(); w++) {
            SwitchCore core = rig.workers.core(w);
            assertEquals(0, core.counters().totalDrops(), what + ": worker " + w + " dropped frames");
            assertEquals(0, core.losslessViolations(false), what + ": worker " + w + " lossless drops");
            assertEquals(0, core.counters().crossingRingFull, what + ": a ring between workers filled");
            assertEquals(0, core.framesHeld(), what + ": frames left queued");
            BufferLedger ledger = core.mmu().ledger();
            assertNull(ledger.checkConsistency(), what);
            assertEquals(0, ledger.accountingErrors(), what);
            assertEquals(0, ledger.ownTotalUsed(), what + ": worker " + w + "'s ledger still charges bytes");
        }
        assertEquals(sent, delivered, what + ": frames delivered");
        assertEquals(0, rig.buffersInUse(), what + ": buffers not given back");
    }
}

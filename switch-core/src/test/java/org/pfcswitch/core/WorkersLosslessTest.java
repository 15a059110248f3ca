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
import org.junit.jupiter.params.provider.MethodSource;
import org.pfcswitch.mmu.BufferLedger;

/**
 * The lossless guarantee with the switch split among workers: randomized incasts whose congested
 * egress is on one worker and whose senders are on both, every scheme that pauses with PFC, headroom
 * sized by the scheme's own formula, hosts that obey PFC. Not one frame may be lost, nothing may be
 * left in the buffer or the ledgers afterwards, and the rings never fill.
 */
class WorkersLosslessTest {

    static final int PORTS = 8;
    /** Ports 0-3 on worker 0, 4-7 on worker 1: the incast to host 0 comes mostly from worker 1's hosts. */
    static final int[] TWO_WORKERS = {0, 0, 0, 0, 1, 1, 1, 1};
    private static final int[] ONE_WORKER = new int[PORTS];

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

    @Test
    void aPartitionThatLeavesAWorkerWithoutPortsOrNeedsOneWorkerIsRefused() {
        CoreConfig dt = Configs.core(Configs.mmu(PORTS, "dt").build()).build();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new WorkersRig(dt, new int[] {0, 0, 0, 0, 2, 2, 2, 2}, 1, 1, 0, 0, 1000));
        assertTrue(e.getMessage().contains("worker 1 owns no port"), e.getMessage());
        CoreConfig bfc = Configs.core(Configs.mmu(PORTS, "bfc").build()).build();
        e = assertThrows(IllegalArgumentException.class, () -> new WorkersRig(bfc, TWO_WORKERS, 1, 1, 0, 0, 1000));
        assertTrue(e.getMessage().contains("run bfc with one worker"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new WorkersRig(dt, new int[] {0, 1}, 1, 1, 0, 0, 1000));
    }

    static WorkersRig rig(String scheme, int[] workerOf, long seed) {
        CoreConfig config = Configs.core(Configs.mmu(PORTS, scheme).build()).build();
        return new WorkersRig(config, workerOf, seed, 1500, 0, 0.7, 2_000);
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

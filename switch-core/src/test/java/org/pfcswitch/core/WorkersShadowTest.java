package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.Mmu;

/**
 * Shadow schemes on a switch split between two workers: each worker's shadow admits what arrives on
 * its ports into a ledger among that shadow's ledgers on the other workers, so every shadow sees the
 * whole buffer up to the same staleness bound as the active scheme. A shadow of the active scheme
 * itself then decides exactly as the active one does, pause for pause, on every worker; the shadows'
 * ledgers end empty; and a snapshot merges the shadows' counts as it merges the active's.
 */
class WorkersShadowTest {

    private static WorkersRig rig(long seed) {
        CoreConfig config = Configs.core(Configs.mmu(WorkersLosslessTest.PORTS, "dt").build())
                .shadows(List.of("dt", "spfc")).build();
        return new WorkersRig(config, WorkersLosslessTest.TWO_WORKERS, seed, 1500, 0, 0.7, 2_000);
    }

    @Test
    void aShadowOfTheActiveSchemeDecidesAsItDoesOnEveryWorker() {
        WorkersRig rig = rig(5);
        long mostSeenByOther = 0;
        for (long t = 10_000; t <= 3_000_000; t += 10_000) {
            rig.run(t);
            // worker 0's dt shadow sees what worker 1's dt shadow holds, less at most the staleness bound
            // (more is allowed: releases not yet published)
            long own0 = rig.workers.core(0).shadows().mmu(0).ledger().ownTotalUsed();
            long own1 = rig.workers.core(1).shadows().mmu(0).ledger().ownTotalUsed();
            long view0 = rig.workers.core(0).shadows().mmu(0).ledger().totalUsed();
            assertTrue(view0 >= own0 + own1 - rig.workers.stalenessBoundBytes(),
                    "worker 0's shadow sees " + view0 + " of " + (own0 + own1) + " at " + t);
            mostSeenByOther = Math.max(mostSeenByOther, view0 - own0);
        }
        rig.run(200_000_000L);
        assertTrue(mostSeenByOther > 100_000, "worker 1's part of the buffer reached worker 0's shadow: " + mostSeenByOther);
        WorkersLosslessTest.assertLossless(rig, "dt with shadows");
        for (int w = 0; w < 2; w++) {
            SwitchCore core = rig.workers.core(w);
            Mmu active = core.mmu();
            Mmu twin = core.shadows().mmu(0);
            assertTrue(active.flowControl().xoffEvents() > 0, "worker " + w + " paused its senders");
            assertEquals(active.flowControl().xoffEvents(), twin.flowControl().xoffEvents(), "worker " + w + "'s dt shadow");
            assertEquals(active.admittedPackets(), twin.admittedPackets(), "worker " + w);
            for (int i = 0; i < core.shadows().count(); i++) {
                BufferLedger ledger = core.shadows().mmu(i).ledger();
                assertEquals(0, ledger.ownTotalUsed(), "worker " + w + "'s shadow " + core.shadows().scheme(i) + " ends empty");
                assertEquals(0, ledger.accountingErrors());
                assertNull(ledger.checkConsistency());
            }
        }

        CoreSnapshot[] parts = {new CoreSnapshot(WorkersLosslessTest.PORTS), new CoreSnapshot(WorkersLosslessTest.PORTS)};
        parts[0].capture(rig.workers.core(0), rig.now());
        parts[1].capture(rig.workers.core(1), rig.now());
        CoreSnapshot merged = new CoreSnapshot(WorkersLosslessTest.PORTS);
        merged.merge(parts, WorkersLosslessTest.TWO_WORKERS);
        assertEquals(2, merged.shadowCount);
        assertEquals("spfc", merged.shadows[1].scheme);
        assertEquals(merged.active.xoffTotal, merged.shadows[0].xoffTotal, "merged: the dt shadow paused as often as dt");
        assertArrayEquals(merged.active.xoff, merged.shadows[0].xoff, "merged: per ingress queue");
        assertEquals(parts[0].shadows[1].admitted + parts[1].shadows[1].admitted, merged.shadows[1].admitted);
    }
}

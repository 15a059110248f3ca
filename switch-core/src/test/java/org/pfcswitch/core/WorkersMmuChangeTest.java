package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;

/**
 * A live change of scheme on a switch split between two workers ({@link WorkersMmuChange}), in the
 * middle of an incast whose congested egress is on worker 0 and whose senders are on both: every
 * queued frame is adopted once, by the MMU of the worker it arrived at, nothing crossing is lost or
 * counted twice (the ledgers end exactly empty), and no lossless frame is dropped before or after.
 */
class WorkersMmuChangeTest {

    /** The latest virtual time of a change: by then the incast has filled the buffer. */
    private static final long CHANGE_BY = 2_000_000;

    /** Runs {@code rig} until the buffer holds more than 100 frames (they cross between workers then); returns when. */
    private static long runUntilCongested(WorkersRig rig) {
        for (long t = 10_000; t <= CHANGE_BY; t += 10_000) {
            rig.run(t);
            if (rig.workers.core(0).framesHeld() + rig.workers.core(1).framesHeld() > 100) {
                return t;
            }
        }
        throw new AssertionError("the incast never filled the buffer: this would test nothing");
    }

    private static MmuConfig mmu(String scheme) {
        return Configs.mmu(WorkersLosslessTest.PORTS, scheme).build();
    }

    @ParameterizedTest(name = "{0} to {1}")
    @CsvSource({"dt, sonic", "sonic, dt", "dt, spfc", "reverie, dsh"})
    void aChangeInTheMiddleOfAnIncastCarriesEveryFrameAndLosesNone(String from, String to) throws Exception {
        WorkersRig rig = WorkersLosslessTest.rig(from, WorkersLosslessTest.TWO_WORKERS, 7);
        runUntilCongested(rig);
        int held = rig.workers.core(0).framesHeld() + rig.workers.core(1).framesHeld();

        rig.changeMmu(mmu(to).toBuilder().totalBytes(rig.workers.core(0).mmu().config().totalBytes()).build());

        long adopted = 0;
        for (int w = 0; w < 2; w++) {
            Mmu now = rig.workers.core(w).mmu();
            assertEquals(to, now.config().scheme(), "worker " + w + " runs the new scheme");
            adopted += now.admittedPackets();
        }
        int queued = rig.workers.core(0).framesHeld() + rig.workers.core(1).framesHeld();
        assertTrue(queued >= held, "frames that were crossing are queued now: " + queued);
        assertEquals(queued, adopted, "every queued frame adopted exactly once, by its ingress worker's MMU");

        rig.run(200_000_000L);
        WorkersLosslessTest.assertLossless(rig, from + " to " + to);
    }

    @Test
    void aWorkerThatDoesNotStopInTimeCallsTheChangeOffAndNoWorkerChanges() throws Exception {
        WorkersRig rig = WorkersLosslessTest.rig("dt", WorkersLosslessTest.TWO_WORKERS, 3);
        long at = runUntilCongested(rig);
        Mmu[] before = {rig.workers.core(0).mmu(), rig.workers.core(1).mmu()};
        WorkersMmuChange change = rig.workers.mmuChange(mmu("sonic"));
        Thread first = new Thread(() -> change.runOn(0, rig.workers.core(0), at), "worker-0");
        first.start();                                       // worker 1 never comes

        assertFalse(change.awaitStopped(20_000_000L), "the change must be called off");
        first.join(10_000);
        assertFalse(first.isAlive(), "worker 0 goes back to its loop once the change is called off");
        assertEquals(List.of(1), change.missing());
        change.runOn(1, rig.workers.core(1), at);   // arriving late: returns at once, changes nothing
        assertSame(before[0], rig.workers.core(0).mmu());
        assertSame(before[1], rig.workers.core(1).mmu());

        rig.run(200_000_000L);
        WorkersLosslessTest.assertLossless(rig, "called off");
    }

    @Test
    void bfcCannotBeChangedToLive() {
        WorkersRig rig = WorkersLosslessTest.rig("dt", WorkersLosslessTest.TWO_WORKERS, 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rig.workers.mmuChange(mmu("bfc")));
        assertTrue(e.getMessage().contains("restart the switch"), e.getMessage());
    }

    @Test
    void bfcOnTwoWorkersCannotBeChangedFromLive() {
        WorkersRig rig = WorkersLosslessTest.rig("bfc", WorkersLosslessTest.TWO_WORKERS, 3);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rig.workers.mmuChange(mmu("dt")));
        assertTrue(e.getMessage().contains("a change to or from bfc"), e.getMessage());
    }
}

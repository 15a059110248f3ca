package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * {@code testbed-configs/scenarios/ring-deadlock.yaml} through {@code sim}'s runner: the ring routed
 * one way round deadlocks and the deadlock is reported with its ports within check + persist of
 * the check that first saw it (and the cycle forms within the first check); the same scenario
 * routed the short way shows none; a scenario without {@code deadlock:} has no detector at all.
 */
class RingDeadlockScenarioTest {

    static final Path RING = Path.of("..", "testbed-configs", "scenarios", "ring-deadlock.yaml");

    private static Scenario load(String... overrides) {
        return ScenarioLoader.load(RING, List.of(overrides)).scenario();
    }

    @Test
    void theOneWayRingDeadlocksAndIsReportedWithItsPorts() {
        Scenario s = load();
        SchemeResult r = ScenarioRunner.run(s, "dt");
        SchemeResult.Deadlock d = r.deadlock();
        assertEquals(100_000, d.checkNanos());
        assertEquals(1_000_000, d.persistNanos());
        assertEquals(1, d.deadlocks(), d.reports().toString());
        DeadlockDetector.Report rep = d.reports().get(0);
        assertEquals("sw0:p2/3 -> sw1:p2/3 -> sw2:p2/3 -> sw0:p2/3", rep.cycle());
        assertTrue(rep.firstSeenNs() <= d.checkNanos(), "the cycle forms before the first check: " + rep);
        assertTrue(rep.reportedNs() <= rep.firstSeenNs() + d.persistNanos() + d.checkNanos(), rep.toString());
        assertTrue(rep.reportedNs() >= rep.firstSeenNs() + d.persistNanos(), rep.toString());
        assertEquals(0, r.losslessViolations(), "a deadlock loses nothing: it only stops");
    }

    @Test
    void theSameLoadRoutedTheShortWayNeverDeadlocks() {
        Scenario s = load("topology.routes=shortest");
        SchemeResult r = ScenarioRunner.run(s, "dt");
        assertEquals(0, r.deadlock().deadlocks(), r.deadlock().reports().toString());
        assertEquals(50, r.deadlock().checks());
        for (double bps : r.throughputBps()) {
            assertTrue(bps > 80e9, "every flow runs near line rate: " + bps);
        }
    }

    @Test
    void withoutTheSectionThereIsNoDetector() {
        Scenario s = load();
        Scenario off = new Scenario(s.name(), s.mmu(), s.pauseQuanta(), s.hosts(), s.dcqcn(), s.payloadMtu(), s.traffic(),
                s.durationNanos(), s.measureFromNanos(), s.measureToNanos(), s.sampleNanos(), s.reportPorts(),
                s.fctBinEdges(), s.seed(), s.topology(), s.fctByTraffic(), s.pfcwd());
        assertNull(ScenarioRunner.run(off, "dt").deadlock());
    }
}

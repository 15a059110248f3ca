package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * A run split into partitions, on threads of their own or a partition per switch taken in turn by
 * fewer threads, runs the same events in the same order as one partition on one thread: the same
 * trace digest, event count, and every flow, pause and drop the same, on a leaf-spine with an
 * incast under PFC (switches dealt out to 2 and 4 partitions, 3 leaving one partition with two)
 * and on a ring that deadlocks, whose detector reads every switch between windows.
 */
class PartitionedRunTest {

    private static final Path SCENARIOS = Path.of("..", "testbed-configs", "scenarios");

    private static Scenario load(String file, String... overrides) {
        return ScenarioLoader.load(SCENARIOS.resolve(file), List.of(overrides)).scenario();
    }

    /** Everything a run leaves that the partitioning could change, as text, with the loop's digest and event count. */
    private static String run(Scenario s, String scheme, int threads, boolean partitionPerSwitch) {
        try (Testbed tb = ScenarioRunner.build(s, scheme, List.of(), threads, partitionPerSwitch)) {
            SchemeResult r = ScenarioRunner.runOn(tb, s, scheme, ScenarioRunner.Progress.NONE);
            StringBuilder b = new StringBuilder();
            b.append("digest ").append(Long.toHexString(tb.loop().traceDigest()))
                    .append(" events ").append(tb.loop().eventsDispatched()).append(" = ").append(r.events())
                    .append("\npauses ").append(Arrays.toString(r.pausesSentByPort()))
                    .append("\nfabric pauses ").append(Arrays.toString(r.fabricPausesBySwitch()))
                    .append("\npaused ").append(Arrays.toString(r.pausedNanosByPort()))
                    .append("\ndrops ").append(r.drops()).append(" violations ").append(r.losslessViolations())
                    .append(" max buffer ").append(r.maxBufferBytes()).append(" cnps ").append(r.cnpsSent())
                    .append("\nthroughput ").append(Arrays.toString(r.throughputBps()))
                    .append("\nqueues ").append(Arrays.deepToString(r.series().queueBytes()))
                    .append("\ndeadlock ").append(r.deadlock() == null ? "-" : r.deadlock().reports());
            FlowRecords f = r.flows();
            for (int i = 0; i < f.count(); i++) {
                b.append("\nflow ").append(i).append(' ').append(f.src(i)).append("->").append(f.dst(i))
                        .append(' ').append(f.startNanos(i)).append(' ').append(f.endNanos(i))
                        .append(' ').append(f.ackedNanos(i)).append(' ').append(f.sentPackets(i))
                        .append(' ').append(f.receivedPackets(i));
            }
            return b.toString();
        }
    }

    @Test
    void aLeafSpineIncastUnderPfcRunsTheSameOnOneTwoThreeAndFourThreads() {
        Scenario s = load("leafspine-incast.yaml", "duration=300us", "measure.from=50us", "measure.to=250us",
                "traffic.fanin.repeatUntil=0us");
        for (String scheme : List.of("dt", "dsh")) {
            String one = run(s, scheme, 1, false);
            assertTrue(one.contains("deadlock -"), one);
            SchemeResult r = ScenarioRunner.run(s, scheme);
            assertTrue(Arrays.stream(r.pausesSentByPort()).sum() > 0, scheme + ": the incast makes PFC pause the senders");
            for (int threads = 1; threads <= 4; threads++) {
                assertEquals(one, run(s, scheme, threads, true), scheme + " on " + threads + " threads, a partition per switch");
            }
            for (int threads = 2; threads <= 4; threads++) {
                assertEquals(one, run(s, scheme, threads, false), scheme + " on " + threads + " threads");
            }
        }
    }

    @Test
    void aDeadlockingRingAndItsDetectorRunTheSameOnTwoAndThreeThreads() {
        Scenario s = load("ring-deadlock.yaml", "duration=1500us", "deadlock.persist=500us");
        String one = run(s, "dt", 1, false);
        assertTrue(one.contains("sw0:p2/3"), "the ring deadlocks and is reported: " + one.lines().limit(12).toList());
        assertEquals(one, run(s, "dt", 1, true));
        assertEquals(one, run(s, "dt", 2, false));
        assertEquals(one, run(s, "dt", 3, false));
    }

    @Test
    void theLookaheadIsTheShortestWireBetweenPartitions() {
        Scenario s = load("leafspine-incast.yaml");
        try (Testbed two = ScenarioRunner.build(s, "dt", List.of(), 2, false);
             Testbed one = ScenarioRunner.build(s, "dt", List.of(), 1, false)) {
            assertEquals(1_000, two.loop().lookaheadNanos(), "the fabric links' 1 us: hosts share their switch's partition");
            assertEquals(-1, one.loop().lookaheadNanos(), "one partition needs no lookahead");
        }
    }

    @Test
    void aScenarioRunsAPartitionPerSwitchUnlessATrafficAddsFlowsAsItRuns() {
        Scenario repeating = load("leafspine-incast.yaml", "traffic.fanin.start=10us", "traffic.fanin.repeatUntil=200us");
        Scenario once = load("leafspine-incast.yaml", "traffic.fanin.repeatUntil=0us");
        Scenario shortLinks = load("leafspine-incast.yaml", "traffic.fanin.repeatUntil=0us", "topology.fabricDelay=50ns");
        try (Testbed a = ScenarioRunner.build(once, "dt", List.of(), 1);
             Testbed b = ScenarioRunner.build(once, "dt", List.of(), 2);
             Testbed c = ScenarioRunner.build(repeating, "dt", List.of(), 1);
             Testbed d = ScenarioRunner.build(shortLinks, "dt", List.of(), 1)) {
            assertEquals(4, a.loop().partitions(), "the leaf-spine's 4 switches");
            assertEquals(4, b.loop().partitions());
            assertEquals(1, c.loop().partitions(), "an incast that repeats adds flows from the partitions' events");
            assertEquals(1, d.loop().partitions(), "50 ns links between switches: windows too short to pay");
        }
    }

    @Test
    void moreThreadsThanSwitchesIsRefusedInOneLine() {
        Scenario s = load("leafspine-incast.yaml");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ScenarioRunner.build(s, "dt", List.of(), 5));
        assertEquals("threads must be 1..4 (one partition per switch at most: the topology has 4 switches), got 5",
                e.getMessage());
    }

    @Test
    void flowsAddedAsTheRunGoesNeedOneThread() {
        Scenario s = load("leafspine-incast.yaml", "duration=300us", "measure.from=50us", "measure.to=250us",
                "traffic.fanin.start=10us",
                "traffic.fanin.repeatUntil=200us");
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> ScenarioRunner.run(s, "dt", List.of(), ScenarioRunner.Progress.NONE, null, 2));
        assertTrue(e.getMessage().startsWith("a traffic that adds flows as the run goes"), e.getMessage());
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * The PFC watchdog in virtual time (issue 17 item 1): R2's NIC pauses the switch's priority 3
 * towards it every 10 us (each pause 65535 quanta = 3.4 ms at 10 Gb/s: no break) while H0 sends to R2 and H1 to
 * R1 at line rate. Detection 20 ms, restoration 40 ms, poll 2 ms (the default tenth).
 */
class PfcWatchdogSimTest {

    private static final long MS = 1_000_000;
    private static final long DETECTION = 20 * MS;
    private static final long RESTORATION = 40 * MS;
    private static final long POLL = 2 * MS;
    /** A PFC frame from R2 reaches the switch 1 us (cable) + 48 ns (60 B at 10 Gb/s) after R2 sends it. */
    private static final long WIRE = 1_000 + 48;

    @TempDir
    Path dir;

    private Scenario scenario(String action, String stormTraffic) throws IOException {
        Path file = dir.resolve("storm.yaml");
        Files.writeString(file, """
                name: pfcwd-storm
                duration: 150ms
                seed: 1
                sample: 1ms
                payloadMtu: 1000
                cc: {mode: none}
                hosts:
                  - {name: H0, speed: 10G, delay: 1us}
                  - {name: H1, speed: 10G, delay: 1us}
                  - {name: R1, speed: 10G, delay: 1us}
                  - {name: R2, speed: 10G, delay: 1us}
                mmu: {totalBytes: 2MB, losslessPriorities: [3], scheme: dt}
                pfcwd: {detection: 20ms, restoration: 40ms, action: %s}
                traffic:
                  toR2: {kind: flow, from: H0, to: R2, bytes: forever, start: 0us}
                  toR1: {kind: flow, from: H1, to: R1, bytes: forever, start: 0us}
                %s
                report:
                  ports: [H0, H1, R1, R2]
                """.formatted(action, stormTraffic));
        return ScenarioLoader.load(file, List.of()).scenario();
    }

    /** Mean throughput of traffic {@code k} over the samples in [from, to). */
    private static double gbps(SchemeResult r, int k, long from, long to) {
        SchemeResult.Series s = r.series();
        double sum = 0;
        int n = 0;
        for (int i = 0; i < s.timeNanos().length; i++) {
            if (s.timeNanos()[i] > from && s.timeNanos()[i] <= to) {
                sum += s.throughputBps()[k][i];
                n++;
            }
        }
        return sum / n / 1e9;
    }

    @Test
    void aHostThatNeverStopsPausingIsStormedWithinDetectionAndTheRestKeepsForwarding() throws IOException {
        Scenario s = scenario("drop", "  storm: {kind: pfcStorm, from: R2, priority: 3, every: 10us, start: 10ms}");
        SchemeResult r = ScenarioRunner.run(s, "dt");
        SchemeResult.Pfcwd wd = r.pfcwd();
        assertEquals(1, wd.storms(), wd.toString());
        assertEquals(0, wd.restorations(), "it never stops pausing: " + wd);
        SchemeResult.Pfcwd.Event storm = wd.events().getFirst();
        assertEquals(3, storm.port(), "R2's port");
        assertEquals(3, storm.priority());
        long first = 10 * MS + WIRE;
        assertTrue(storm.atNanos() >= first + DETECTION && storm.atNanos() <= first + DETECTION + POLL,
                "detected at " + storm.atNanos() + " ns for pauses from " + first);
        assertTrue(wd.droppedFrames() > 0);
        // H1 -> R1 never noticed; H0 -> R2 gets nothing to R2 after the storm (its frames are dropped)
        assertTrue(gbps(r, 1, 0, 150 * MS) > 9.0, "H1 -> R1 " + gbps(r, 1, 0, 150 * MS));
        assertEquals(0.0, gbps(r, 0, 32 * MS, 150 * MS), 1e-9);
        assertEquals(0, r.losslessViolations(), "the watchdog's drops are its own, not the MMU's");
    }

    @Test
    void theQueueIsRestoredAfterThePausesStopAndForwardsAgain() throws IOException {
        Scenario s = scenario("drop", "  storm: {kind: pfcStorm, from: R2, priority: 3, every: 10us, start: 10ms, stop: 60ms}");
        SchemeResult r = ScenarioRunner.run(s, "dt");
        SchemeResult.Pfcwd wd = r.pfcwd();
        assertEquals(1, wd.storms(), wd.toString());
        assertEquals(1, wd.restorations(), wd.toString());
        SchemeResult.Pfcwd.Event restore = wd.events().get(1);
        assertEquals("restore", restore.kind());
        long lastPause = 60 * MS - 10_000 + WIRE;
        assertTrue(restore.atNanos() >= lastPause + RESTORATION && restore.atNanos() <= lastPause + RESTORATION + POLL,
                "restored at " + restore.atNanos() + " ns, last pause at " + lastPause);
        assertTrue(gbps(r, 0, restore.atNanos() + 2 * MS, 150 * MS) > 9.0, "H0 -> R2 forwarded again after the restoration");
        assertTrue(gbps(r, 1, 0, 150 * MS) > 9.0);
    }

    @Test
    void theTraceCarriesTheStormAndTheRestoration() throws IOException {
        Scenario s = scenario("drop", "  storm: {kind: pfcStorm, from: R2, priority: 3, every: 10us, start: 10ms, stop: 60ms}");
        Path file = dir.resolve("t.csv");
        SchemeResult r = ScenarioRunner.run(s, "dt", ScenarioRunner.Progress.NONE, new ScenarioRunner.Tracing(file, 100_000, 0));
        org.pfcswitch.core.trace.TraceReader.Trace t = org.pfcswitch.core.trace.TraceReader.read(file);
        List<String> rows = new java.util.ArrayList<>();
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == org.pfcswitch.core.trace.TraceRecorder.PFCWD) {
                rows.add(t.event(i) + "@" + t.port(i) + "/" + t.priority(i) + " " + t.time(i));
            }
        }
        assertEquals(2, rows.size(), rows.toString());
        assertTrue(rows.get(0).startsWith(org.pfcswitch.core.trace.TraceRecorder.STORM + "@3/3 "), rows.toString());
        assertTrue(rows.get(1).startsWith(org.pfcswitch.core.trace.TraceRecorder.RESTORE + "@3/3 "), rows.toString());
        long stormRow = Long.parseLong(rows.get(0).split(" ")[1]);
        long storm = r.pfcwd().events().getFirst().atNanos();
        assertTrue(stormRow >= storm && stormRow <= storm + 100_000, "the row comes with the next sample: " + stormRow);
        assertTrue(Files.readString(file).contains(",pfcwd,3,3,,,,storm,1"));
    }

    @Test
    void actionForwardKeepsSendingThroughTheStorm() throws IOException {
        Scenario s = scenario("forward", "  storm: {kind: pfcStorm, from: R2, priority: 3, every: 10us, start: 10ms}");
        SchemeResult r = ScenarioRunner.run(s, "dt");
        assertEquals(1, r.pfcwd().storms());
        assertEquals(0, r.pfcwd().droppedFrames());
        assertTrue(gbps(r, 0, 35 * MS, 150 * MS) > 9.0, "H0 -> R2 sent through R2's pauses: " + gbps(r, 0, 35 * MS, 150 * MS));
        assertEquals(0, r.drops());
    }

    @Test
    void healthyPausesShorterThanDetectionNeverTripIt() throws IOException {
        // 12 ms spells of pauses every 10 us, each followed by 8 ms of silence: paused 12 + 3.4 = 15.4 ms without a
        // break (under the 20 ms detection), then free for 4.6 ms, seven times over
        StringBuilder storms = new StringBuilder();
        for (int i = 0; i < 7; i++) {
            long start = 5 + 20L * i;
            storms.append("  pause").append(i).append(": {kind: pfcStorm, from: R2, priority: 3, every: 10us, start: ")
                    .append(start).append("ms, stop: ").append(start + 12).append("ms}\n");
        }
        Scenario s = scenario("drop", storms.toString().stripTrailing());
        SchemeResult r = ScenarioRunner.run(s, "dt");
        assertEquals(0, r.pfcwd().storms(), r.pfcwd().toString());
        assertEquals(0, r.pfcwd().droppedFrames());
        assertTrue(r.drops() == 0 && r.losslessViolations() == 0);
        assertTrue(gbps(r, 0, 0, 150 * MS) < 5.0, "R2 really was paused most of the time: " + gbps(r, 0, 0, 150 * MS));
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * {@code kind: flows} end to end: {@code testbed-configs/scenarios/leafspine-flows.yaml} runs every
 * flow of its list to completion at the list's start times, twice with the same result; a bad
 * line stops the scenario at load time with the file and line.
 */
class FlowListScenarioTest {

    static final Path SCENARIO = Path.of("..", "testbed-configs", "scenarios", "leafspine-flows.yaml");

    @Test
    void everyFlowOfTheListStartsOnTimeAndCompletes() {
        Scenario s = ScenarioLoader.load(SCENARIO, List.of()).scenario();
        SchemeResult r = ScenarioRunner.run(s, "dt");
        FlowRecords rec = r.flows();
        assertEquals(48, rec.count());
        assertEquals(48, r.flowsCompleted(), "every flow completes within the 1 ms run");
        assertEquals(6_000, rec.startNanos(0), "the first line: 5 1 100000 0.000006");
        assertEquals(5, rec.src(0));
        assertEquals(1, rec.dst(0));
        assertEquals(100_000, rec.sizeBytes(0));
        long crossLeaf = 0;
        for (int f = 0; f < rec.count(); f++) {
            assertTrue(f == 0 || rec.startNanos(f) >= rec.startNanos(f - 1), "ids follow the start times");
            crossLeaf += rec.src(f) / 4 != rec.dst(f) / 4 ? 1 : 0;
        }
        assertTrue(crossLeaf > 10, "the list crosses the fabric: " + crossLeaf);
        assertEquals(0, r.losslessViolations());
    }

    @Test
    void theSameFileAndSeedGiveTheSameRun() {
        Scenario s = ScenarioLoader.load(SCENARIO, List.of()).scenario();
        assertEquals(fingerprint(ScenarioRunner.run(s, "dsh")), fingerprint(ScenarioRunner.run(s, "dsh")));
        Scenario again = ScenarioLoader.load(SCENARIO, List.of()).scenario();
        assertEquals(fingerprint(ScenarioRunner.run(s, "dt")), fingerprint(ScenarioRunner.run(again, "dt")));
    }

    private static String fingerprint(SchemeResult r) {
        StringBuilder b = new StringBuilder("events=").append(r.events()).append(" pauses=")
                .append(java.util.Arrays.toString(r.pausesSentByPort())).append(" buf=").append(r.maxBufferBytes());
        FlowRecords rec = r.flows();
        for (int f = 0; f < rec.count(); f++) {
            b.append(' ').append(rec.src(f)).append('>').append(rec.dst(f)).append(':').append(rec.sizeBytes(f))
                    .append('@').append(rec.startNanos(f)).append('+').append(rec.fctNanos(f));
        }
        return b.toString();
    }

    @Test
    void aBadLineFailsTheScenarioAtLoadTime(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("f.txt"), "L0H0 L1H0 1000 1us\nL0H0 L9H9 1000 2us\n");
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, """
                name: bad
                duration: 100us
                topology: {kind: leafSpine, leaves: 2, spines: 1, hostsPerLeaf: 2, hostSpeed: 100G, hostDelay: 1us}
                mmu: {totalBytes: 1MiB, losslessPriorities: [3]}
                traffic:
                  x: {kind: flows, file: f.txt}
                """);
        String msg = assertThrows(ConfigException.class, () -> ScenarioLoader.load(yaml, List.of())).getMessage();
        assertEquals(yaml + ": traffic.x.file: " + dir.resolve("f.txt").toAbsolutePath().normalize()
                + ":2: unknown host 'L9H9' (hosts: L0H0 .. L1H1, or an index 0..3)", msg);
        Files.writeString(yaml, Files.readString(yaml).replace("f.txt", "missing.txt"));
        assertTrue(assertThrows(ConfigException.class, () -> ScenarioLoader.load(yaml, List.of())).getMessage()
                .endsWith("missing.txt: no such file"));
    }

    @Test
    void aListBesideAnotherGeneratorAndAnotherListByOverride(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("a.txt"), "H0 H3 20000 1us\nH1 H3 20000 1us\nH2 H0 5000 30us 5\n");
        Files.writeString(dir.resolve("b.txt"), "H2 H1 7000 2us\n");
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, """
                name: mixed
                duration: 200us
                cc: {mode: none}
                hosts: [{name: H, count: 4, speed: 100G, delay: 1us}]
                mmu: {totalBytes: 1MiB, losslessPriorities: [3, 5]}
                traffic:
                  list: {kind: flows, file: a.txt}
                  burst: {kind: incast, from: H0, count: 3, to: H3, bytes: 10KB, start: 1us}
                """);
        SchemeResult r = ScenarioRunner.run(ScenarioLoader.load(yaml, List.of()).scenario(), "dt");
        assertEquals(6, r.flows().count());
        assertEquals(6, r.flowsCompleted());
        // The incast installs its flows before the run (ids 0..2); the list adds its own when their start comes.
        FlowRecords rec = r.flows();
        for (int f = 0; f < 3; f++) {
            assertEquals(10_000, rec.sizeBytes(f), "incast flow " + f);
            assertEquals(f, rec.src(f));
        }
        assertEquals(List.of("0>3:20000@1000", "1>3:20000@1000", "2>0:5000@30000"), List.of(3, 4, 5).stream()
                .map(f -> rec.src(f) + ">" + rec.dst(f) + ":" + rec.sizeBytes(f) + "@" + rec.startNanos(f)).toList());

        Scenario other = ScenarioLoader.load(yaml, List.of("traffic.list.file=b.txt")).scenario();
        SchemeResult b = ScenarioRunner.run(other, "dt");
        assertEquals(4, b.flows().count(), "three incast flows and b.txt's one");
        assertEquals(7000, b.flows().sizeBytes(3));
    }

    @Test
    void flowsAfterTheEndAreNeverAdded(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("f.txt"), "0 1 1000 1us\n2 3 1000 50us\n1 0 1000 1s\n");
        Path yaml = dir.resolve("s.yaml");
        Files.writeString(yaml, """
                name: late
                duration: 100us
                cc: {mode: none}
                hosts: [{name: H, count: 4, speed: 100G, delay: 1us}]
                mmu: {totalBytes: 1MiB, losslessPriorities: [3]}
                traffic:
                  x: {kind: flows, file: f.txt}
                """);
        SchemeResult r = ScenarioRunner.run(ScenarioLoader.load(yaml, List.of()).scenario(), "dt");
        assertEquals(2, r.flows().count(), "the flow at 1 s is after the 100 us run");
        assertEquals(2, r.flowsCompleted());
    }
}

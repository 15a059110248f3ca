package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.core.record.ArrivalReader;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * {@link ScenarioRunner#runRecorded}: every frame that reaches the simulated switch is in the record,
 * in time order, with the switch's line rates and its hosts' MACs in the header; recording changes
 * nothing in the run; a leaf-spine is refused.
 */
class RecordArrivalsSimTest {

    @TempDir
    Path dir;

    private Scenario incast() throws IOException {
        Path file = dir.resolve("incast.yaml");
        Files.writeString(file, """
                name: rec-incast
                duration: 2ms
                seed: 3
                payloadMtu: 1000
                cc: {mode: dcqcn}
                hosts:
                  - {name: H, count: 4, speed: 10G, delay: 1us}
                  - {name: R, speed: 10G, delay: 1us}
                mmu: {totalBytes: 1MB, losslessPriorities: [3], scheme: dt}
                traffic:
                  incast: {kind: incast, from: [H0, H1, H2, H3], to: R, bytes: 64KB, start: 100us}
                """);
        return ScenarioLoader.load(file, List.of()).scenario();
    }

    @Test
    void everyArrivalAtTheSwitchIsRecordedInTimeOrderAndTheRunIsUnchanged() throws IOException {
        Scenario s = incast();
        Path rec = dir.resolve("incast.arr");
        SchemeResult recorded = ScenarioRunner.runRecorded(s, "dt", ScenarioRunner.Progress.NONE, rec);
        SchemeResult plain = ScenarioRunner.run(s, "dt");
        assertEquals(plain.events(), recorded.events(), "recording does not change the run");
        assertArrayEquals(plain.pausesSentByPort(), recorded.pausesSentByPort());

        Testbed tb = ScenarioRunner.build(s, "dt");
        ScenarioRunner.runOn(tb, s, "dt", ScenarioRunner.Progress.NONE);
        SwitchCounters c = tb.core().counters();
        long received = 0;
        for (int p = 0; p < tb.core().ports(); p++) {
            for (int q = 0; q < SwitchCounters.PRIORITIES; q++) {
                received += c.rxFrames[p * SwitchCounters.PRIORITIES + q];
            }
            received += c.pfcFramesRx[p];
        }
        try (ArrivalReader r = ArrivalReader.open(rec)) {
            assertEquals(5, r.header().ports());
            assertArrayEquals(new long[] {10_000_000_000L, 10_000_000_000L, 10_000_000_000L, 10_000_000_000L,
                10_000_000_000L}, r.header().speedsBps());
            assertEquals(5, r.header().macPorts().size(), "every host's MAC and port");
            ArrivalReader.Arrival a = new ArrivalReader.Arrival();
            long n = 0;
            long last = Long.MIN_VALUE;
            long toR = 0;
            while (r.next(a)) {
                assertTrue(a.timeNanos >= last);
                last = a.timeNanos;
                n++;
                toR += a.port < 4 && a.length > 1000 ? 1 : 0;
            }
            assertTrue(received > 4 * 64, "the incast's data arrived: " + received);
            assertEquals(received, n, "one record per frame the switch received");
            assertEquals(4 * 64, toR, "every data packet of the four 64 KB flows");
        }
    }

    @Test
    void aLeafSpineIsRefused() throws IOException {
        Path file = dir.resolve("leafspine.yaml");
        Files.writeString(file, """
                name: rec-leafspine
                duration: 1ms
                cc: {mode: none}
                topology: {kind: leafSpine, leaves: 2, spines: 1, hostsPerLeaf: 2, hostSpeed: 10G, hostDelay: 1us}
                mmu: {totalBytes: 1MB, losslessPriorities: [3], scheme: dt}
                traffic:
                  f: {kind: flow, from: L0H0, to: L1H0, bytes: 10KB, start: 0us}
                """);
        Scenario s = ScenarioLoader.load(file, List.of()).scenario();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ScenarioRunner.runRecorded(s, "dt", ScenarioRunner.Progress.NONE, dir.resolve("x.arr")));
        assertTrue(e.getMessage().contains("single-switch"), e.getMessage());
    }
}

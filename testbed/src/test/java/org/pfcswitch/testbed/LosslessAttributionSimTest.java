package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * Issue 17 item 5: the SPFC 9-port testbed under reverie drops lossless frames (110 with seed 2).
 * Every one of them is a clone port's copy (the clones ignore PAUSE: no scheme can hold them); none
 * comes from a sender that obeys PFC (H0, H1, the receivers), under any scheme.
 */
class LosslessAttributionSimTest {

    static final Path NINE_PORT = Path.of("..", "testbed-configs", "scenarios", "spfc-testbed-9port.yaml");

    @Test
    void reverieOnTheNinePortTestbedDropsOnlyTheClonesFrames() throws Exception {
        Scenario s = ScenarioLoader.load(NINE_PORT, List.of("seed=2")).scenario();
        SchemeResult r = ScenarioRunner.run(s, "reverie");
        assertTrue(r.losslessViolations() > 0, "the issue's 110 violations: " + r.losslessViolations());
        assertEquals(0, r.losslessViolationsObeying(), "a sender that obeys PFC lost a lossless frame");
        assertEquals(r.losslessViolations(), r.losslessViolationsIgnoring());
    }

    @Test
    void withClonesThatSkipWhilePausedNothingIsLost() throws Exception {
        Scenario s = ScenarioLoader.load(NINE_PORT, List.of("seed=2", "traffic.clones.pfc=skip")).scenario();
        SchemeResult r = ScenarioRunner.run(s, "reverie");
        assertEquals(0, r.losslessViolationsIgnoring(), "no sender ignores PFC here");
        assertEquals(0, r.losslessViolationsObeying());
        assertEquals(0, r.losslessViolations());
    }

    /**
     * A host whose NIC ignores PFC ({@code pfc: ignore} in {@code hosts:}): two senders at line rate
     * into one receiver. H1 ignores the switch's pauses and loses frames, all counted against a
     * sender that ignores PFC; H0 obeys and loses none.
     */
    @Test
    void aHostConfiguredToIgnorePfcIsCountedAsSuch(@org.junit.jupiter.api.io.TempDir Path dir) throws Exception {
        Path file = dir.resolve("ignore.yaml");
        java.nio.file.Files.writeString(file, """
                name: ignore-pfc
                duration: 5ms
                seed: 1
                cc: {mode: none}
                hosts:
                  - {name: H0, speed: 10G, delay: 1us}
                  - {name: H1, speed: 10G, delay: 1us, pfc: ignore}
                  - {name: R, speed: 10G, delay: 1us}
                mmu: {totalBytes: 1MB, losslessPriorities: [3], scheme: dt}
                traffic:
                  a: {kind: flow, from: H0, to: R, bytes: forever}
                  b: {kind: flow, from: H1, to: R, bytes: forever}
                """);
        Scenario s = ScenarioLoader.load(file, List.of()).scenario();
        assertTrue(s.hosts().get(1).ignoresPfc());
        SchemeResult r = ScenarioRunner.run(s, "dt");
        assertTrue(r.losslessViolationsIgnoring() > 0, "H1 kept sending into a full buffer: " + r.losslessViolationsIgnoring());
        assertEquals(0, r.losslessViolationsObeying(), "H0 obeyed");
        assertEquals(r.losslessViolations(), r.losslessViolationsIgnoring());
        assertEquals(0, r.pausedNanosByPort()[1], "nothing holds a host that ignores PFC");
        assertTrue(r.pausedNanosByPort()[0] > 0, "H0 was paused");
    }
}

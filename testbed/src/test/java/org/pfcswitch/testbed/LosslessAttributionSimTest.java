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
}

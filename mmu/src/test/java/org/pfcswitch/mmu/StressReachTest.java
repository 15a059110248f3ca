package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Shows the random stress of {@link LedgerPropertiesTest} is not vacuous: with an obedient upstream
 * it drives every PFC scheme into XOFF and headroom, and with an upstream that overruns its pause by
 * two headrooms the same run does produce counted lossless violations (the MMU keeps going).
 */
class StressReachTest {
    static java.util.List<String> pfcSchemes() {
        return Schemes.NAMES.stream().filter(s -> !s.equals("bfc")).toList();
    }

    @ParameterizedTest
    @MethodSource("pfcSchemes")
    void randomTrafficReachesXoffAndHeadroom(String scheme) {
        long xoffs = 0;
        long headroom = 0;
        for (long seed = 1; seed <= 12; seed++) {
            LedgerPropertiesTest.Stats s = LedgerPropertiesTest.run(scheme, seed, 0, true);
            xoffs += s.xoffs();
            headroom += s.peakHeadroom();
        }
        assertTrue(xoffs > 0, "no XOFF in 12 runs");
        assertTrue(headroom > 0, "headroom never used in 12 runs");
    }

    @Test
    void anUpstreamThatIgnoresPausesCausesCountedViolationsNotExceptions() {
        long violations = 0;
        for (long seed = 1; seed <= 12; seed++) {
            violations += LedgerPropertiesTest.run("dt", seed, 200_000, false).losslessViolations();
        }
        assertTrue(violations > 0, "an overrun headroom must show up as lossless_violation");
    }
}

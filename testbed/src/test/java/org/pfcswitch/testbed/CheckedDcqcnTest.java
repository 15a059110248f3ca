package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The reaction point with a rate-decrease check ({@link CheckedDcqcn}, ns-3's Mellanox model) beside
 * the default one that cuts on every CNP ({@link Dcqcn}).
 */
class CheckedDcqcnTest {

    private static final long LINE = 100_000_000_000L;
    private static final long CHECK = 4_000;

    private static DcqcnConfig timerOnly() {
        DcqcnConfig d = DcqcnConfig.defaults();
        return new DcqcnConfig(true, d.g(), d.alphaIntervalNanos(), d.timerNanos(), 0, d.fastRecoverySteps(),
                d.aiBpsPer25G(), d.haiBpsPer25G(), d.minRateBps(), d.initialAlpha(), d.cnpIntervalNanos());
    }

    @Test
    void theCreatorPicksThePolicyOnce() {
        assertEquals(Dcqcn.class, Dcqcn.create(timerOnly(), 0, LINE).getClass());
        assertEquals(CheckedDcqcn.class, Dcqcn.create(timerOnly(), CHECK, LINE).getClass());
        assertThrows(IllegalArgumentException.class, () -> new CheckedDcqcn(timerOnly(), -1, LINE));
    }

    @Test
    void aBurstOfCnpsCutsOncePerCheckWhereTheDefaultCutsOnEach() {
        Dcqcn each = Dcqcn.create(timerOnly(), 0, LINE);
        Dcqcn checked = Dcqcn.create(timerOnly(), CHECK, LINE);
        for (int i = 0; i < 5; i++) {                          // five CNPs within 1 us, the first at 1000 ns
            each.onCnp(1_000 + 100L * i);
            checked.onCnp(1_000 + 100L * i);
        }
        assertEquals(LINE >> 5, each.rateBps(2_000), "the default halves five times (alpha stays 1)");
        assertEquals(LINE, checked.rateBps(2_000), "the checked one has not cut yet: the first CNP only arms the check");
        assertEquals(LINE, checked.rateBps(1_000 + CHECK - 1));
        assertEquals(LINE / 2, checked.rateBps(1_000 + CHECK), "one cut at the check, alpha 1");
        assertEquals(LINE / 2, checked.rateBps(1_000 + 3 * CHECK), "no CNP since: no more cuts");
        assertEquals(5, checked.cnpsReceived());
    }

    @Test
    void aCnpBetweenChecksCutsAtTheNextCheckOnTheCheckGrid() {
        Dcqcn rp = Dcqcn.create(timerOnly(), CHECK, LINE);
        rp.onCnp(0);
        assertEquals(LINE / 2, rp.rateBps(CHECK));
        rp.onCnp(10 * CHECK + 1);                               // idle checks skipped; the next is at 11 CHECK
        assertEquals(LINE / 2, rp.rateBps(11 * CHECK - 1));
        long cut = rp.rateBps(11 * CHECK);
        assertTrue(cut < LINE / 2, "cut at the next check: " + cut);
        double alpha = 1.0;                                     // no alpha period (50 us) has run yet
        assertEquals((long) (LINE / 2 * (1 - alpha / 2)), cut);
    }

    @Test
    void alphaRisesOncePerAlphaIntervalWithACnpAndDecaysWithout() {
        DcqcnConfig c = timerOnly();
        long a = c.alphaIntervalNanos();
        Dcqcn rp = Dcqcn.create(c, CHECK, LINE);
        rp.onCnp(0);                                            // alpha = initial 1, the flag for alpha cleared
        rp.rateBps(a);
        assertEquals(1 - c.g(), rp.alpha(), 1e-12, "no CNP in the first period: decay");
        for (int i = 0; i < 5; i++) {
            rp.onCnp(a + 1 + i);                                // five CNPs in the second period count once
        }
        rp.rateBps(2 * a);
        assertEquals((1 - c.g()) * (1 - c.g()) + c.g(), rp.alpha(), 1e-12);
    }
}

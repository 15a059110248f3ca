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

    /**
     * ns-3's increase staging: after a cut, the first F (fast recovery steps, 1 here) timer events
     * move R_C halfway to R_T and leave R_T alone; the next adds AI to R_T; later ones HAI. The
     * default reaction point counts the event first, so its first event already adds AI.
     */
    @Test
    void increaseEventsAreJudgedByTheStageBeforeThemAsNs3Does() {
        DcqcnConfig one = new DcqcnConfig(true, 1.0 / 256, 1_000_000_000L, 55_000, 0, 1, 50_000_000L, 100_000_000L,
                100_000_000L, 1.0, 50_000);
        long line = 25_000_000_000L;
        Dcqcn checked = Dcqcn.create(one, CHECK, line);
        checked.onCnp(0);
        assertEquals(line / 2, checked.rateBps(CHECK), "one cut at the first check (alpha 1)");
        long target = checked.targetBps();
        assertEquals(line, target, "R_T kept: no increase since the last cut (ns-3 without ClampTargetRate)");
        long t = CHECK + 55_000;
        long rate = checked.rateBps(t);
        assertEquals(target, checked.targetBps(), "event 1: fast recovery, R_T unchanged");
        assertEquals((line / 2 + line + 1) / 2, rate, "halfway to R_T");
        checked.onCnp(t + 1);                                   // a second cut: now R_T = R_C (an increase came)
        long afterCut = checked.rateBps(t + 1 + CHECK);
        assertEquals(rate, checked.targetBps(), "R_T follows the cut once an increase came");
        long t2 = t + CHECK + 55_000;
        checked.rateBps(t2);
        assertEquals(rate, checked.targetBps(), "event 1 after the second cut: fast recovery again");
        checked.rateBps(t2 + 55_000);
        assertEquals(rate + 50_000_000L * line / 25_000_000_000L, checked.targetBps(), "event 2: active increase (+AI)");
        assertTrue(afterCut < rate);

        Dcqcn each = Dcqcn.create(one, 0, line);
        each.onCnp(0);
        each.onCnp(1_000);                                      // R_T = R_C = line / 2 before the second cut
        long eachTarget = each.targetBps();
        assertTrue(eachTarget < line);
        each.rateBps(1_000 + 55_000);
        assertTrue(each.targetBps() > eachTarget, "the default's first event already adds AI");
    }
}

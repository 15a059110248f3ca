package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;

/** The reaction point's rate dynamics against the DCQCN algorithm, step by step, and DCQCN end to end. */
class DcqcnTest {

    private static final long LINE = 100_000_000_000L;
    private static final double G = 1.0 / 256;

    /** Defaults, with the byte counter off so only the timer drives increases (55 us periods). */
    private static DcqcnConfig timerOnly() {
        DcqcnConfig d = DcqcnConfig.defaults();
        return new DcqcnConfig(true, d.g(), d.alphaIntervalNanos(), d.timerNanos(), 0, d.fastRecoverySteps(),
                d.aiBpsPer25G(), d.haiBpsPer25G(), d.minRateBps(), d.initialAlpha(), d.cnpIntervalNanos());
    }

    @Test
    void aCnpCutsTheRateByAlphaOverTwoAndRaisesAlpha() {
        Dcqcn rp = new Dcqcn(timerOnly(), LINE);
        assertEquals(LINE, rp.rateBps(0));
        rp.onCnp(1_000);                                       // alpha = 1: the rate halves
        assertEquals(LINE / 2, rp.rateBps(1_000));
        assertEquals(LINE, rp.targetBps());
        assertEquals(1.0, rp.alpha(), 1e-12);                  // (1 - g)·1 + g
        rp.onCnp(2_000);
        assertEquals(LINE / 4, rp.rateBps(2_000));
        assertEquals(LINE / 2, rp.targetBps(), "the target is the rate before the cut");
    }

    @Test
    void alphaDecaysOncePerIntervalWithoutCnpAndTheCutShrinksWithIt() {
        Dcqcn rp = new Dcqcn(timerOnly(), LINE);
        rp.onCnp(0);
        rp.rateBps(50_000 - 1);
        assertEquals(1.0, rp.alpha(), 1e-12);
        rp.rateBps(50_000);
        assertEquals(1 - G, rp.alpha(), 1e-12);
        rp.rateBps(150_000);
        assertEquals(Math.pow(1 - G, 3), rp.alpha(), 1e-12);
        long before = rp.rateBps(150_000);
        double alpha = rp.alpha();
        rp.onCnp(150_000);
        assertEquals((long) (before * (1 - alpha / 2)), rp.rateBps(150_000));
    }

    @Test
    void fastRecoveryThenAdditiveThenHyperIncrease() {
        DcqcnConfig c = timerOnly();
        Dcqcn rp = new Dcqcn(c, LINE);
        rp.onCnp(0);
        rp.onCnp(1);                                           // rate 25G, target 50G
        long target = LINE / 2;
        long rate = LINE / 4;
        long t = 1;
        for (int stage = 1; stage < c.fastRecoverySteps(); stage++) {   // fast recovery: halve the gap, target fixed
            t += c.timerNanos();
            rate = (rate + target + 1) / 2;
            assertEquals(rate, rp.rateBps(t), "fast recovery step " + stage);
            assertEquals(target, rp.targetBps());
        }
        long ai = c.aiBpsPer25G() * 4;                         // 100G line: 4 × the per-25G step
        t += c.timerNanos();
        target += ai;
        rate = (rate + target + 1) / 2;
        assertEquals(rate, rp.rateBps(t), "additive increase at stage F");
        assertEquals(target, rp.targetBps());
        long hai = c.haiBpsPer25G() * 4;
        t += c.timerNanos();
        target += hai;
        rate = (rate + target + 1) / 2;
        assertEquals(rate, rp.rateBps(t), "hyper increase after F");
        assertEquals(target, rp.targetBps());
    }

    @Test
    void theByteCounterAlsoTriggersIncreasesAndTheRateRecoversToLineRate() {
        DcqcnConfig d = DcqcnConfig.defaults();
        DcqcnConfig bytesOnly = new DcqcnConfig(true, d.g(), d.alphaIntervalNanos(), 1_000_000_000_000L,
                d.byteCounterBytes(), d.fastRecoverySteps(), d.aiBpsPer25G(), d.haiBpsPer25G(), d.minRateBps(),
                d.initialAlpha(), d.cnpIntervalNanos());
        Dcqcn rp = new Dcqcn(bytesOnly, LINE);
        rp.onCnp(0);
        rp.onSent((int) d.byteCounterBytes() - 1, 10);
        assertEquals(LINE / 2, rp.rateBps(10));
        rp.onSent(1, 11);
        assertEquals(LINE / 2 + LINE / 4, rp.rateBps(11), "one byte-counter event: fast recovery");

        Dcqcn timer = new Dcqcn(DcqcnConfig.defaults(), LINE);
        timer.onCnp(0);
        assertEquals(LINE, timer.rateBps(20_000_000), "with no more CNPs the rate climbs back to line rate");
    }

    @Test
    void theRateNeverFallsBelowTheMinimum() {
        Dcqcn rp = new Dcqcn(DcqcnConfig.defaults(), LINE);
        for (int i = 0; i < 20; i++) {
            rp.onCnp(i);
        }
        assertEquals(DcqcnConfig.defaults().minRateBps(), rp.rateBps(20));
    }

    /** Two long flows into one receiver: DCQCN brings them to about half the line each, with far fewer pauses than line-rate hosts. */
    @Test
    void endToEndTwoSendersShareTheBottleneckAndPauseLess() {
        long[] withCc = twoToOne(DcqcnConfig.defaults());
        long[] noCc = twoToOne(DcqcnConfig.none());
        assertTrue(withCc[2] > 0, "the receiver must have sent CNPs");
        assertEquals(0, noCc[2]);
        assertTrue(withCc[3] < noCc[3], "DCQCN must cut PFC: " + withCc[3] + " vs " + noCc[3] + " pause frames");
        long total = withCc[0] + withCc[1];
        assertTrue(total > 80_000_000_000L / 8 * 3 / 1000, "the bottleneck stays busy");
        assertTrue(Math.abs(withCc[0] - withCc[1]) < total / 4, "fair within 25%: " + withCc[0] + " vs " + withCc[1]);
    }

    /** {bytes of flow 0 and 1 received in 1..4 ms, CNPs sent, PFC frames the switch sent}. */
    private static long[] twoToOne(DcqcnConfig cc) {
        Testbed tb = Testbed.singleSwitch(3).links(LINE, 2_000).dcqcn(cc)
                .mmu(MmuConfig.builder().totalBytes(2L << 20).scheme("dt").ecnKminBytes(20_000).ecnKmaxBytes(100_000))
                .build();
        int a = tb.addFlow(0, 2, 3, 1L << 40, 0);
        int b = tb.addFlow(1, 2, 3, 1L << 40, 0);
        tb.runUntil(1_000_000);
        long a0 = tb.records().receivedPayloadBytes(a);
        long b0 = tb.records().receivedPayloadBytes(b);
        tb.runUntil(4_000_000);
        long pfc = 0;
        for (int p = 0; p < 3; p++) {
            pfc += tb.core().counters().pfcFramesTx[p];
        }
        assertEquals(0, tb.core().mmu().losslessViolations());
        return new long[] {tb.records().receivedPayloadBytes(a) - a0, tb.records().receivedPayloadBytes(b) - b0,
                tb.host(2).cnpsSent(), pfc};
    }
}

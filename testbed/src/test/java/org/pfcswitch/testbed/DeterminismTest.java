package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.mmu.MmuConfig;

/** Same topology, traffic and seed: the same events in the same order, the same counters, the same flow records. */
class DeterminismTest {

    @Test
    void twoRunsWithTheSameSeedAreIdenticalAndAnotherSeedIsNot() {
        String first = run(42);
        String second = run(42);
        assertEquals(first, second);
        String other = run(43);
        assertNotEquals(first, other, "the fingerprint must depend on the run, or this test proves nothing");
    }

    /** Builds a random incast plus random pairs from {@code seed}, runs 2 ms, and fingerprints everything. */
    private static String run(long seed) {
        Testbed tb = Testbed.singleSwitch(8).seed(seed)
                .mmu(MmuConfig.builder().totalBytes(1L << 20).scheme("dt")
                        .ecnKminBytes(20_000).ecnKmaxBytes(100_000))
                .build();
        SplittableRandom r = tb.random();
        for (int i = 0; i < 5; i++) {
            tb.addFlow(i, 7, 3, 64_000 + r.nextInt(1_000_000), r.nextInt(20_000));
        }
        tb.addFlow(5, 6, 3, 1L << 30, 0);
        tb.addFlow(6, 5, 1, 1L << 30, r.nextInt(5_000));
        tb.runUntil(2_000_000);

        StringBuilder s = new StringBuilder();
        s.append("digest=").append(Long.toHexString(tb.loop().traceDigest()))
                .append(" events=").append(tb.loop().eventsDispatched());
        SwitchCounters c = tb.core().counters();
        for (int p = 0; p < tb.hosts(); p++) {
            s.append(" p").append(p).append(':').append(c.txFrames(p)).append('/').append(c.txBytes(p))
                    .append('/').append(c.pfcFramesTx[p]).append('/').append(c.ecnMarked[p * 8 + 3]);
        }
        FlowRecords rec = tb.records();
        for (int f = 0; f < rec.count(); f++) {
            s.append(" f").append(f).append(':').append(rec.receivedPayloadBytes(f)).append('@').append(rec.endNanos(f));
        }
        assertTrue(c.pfcFramesTx[0] + c.pfcFramesTx[1] > 0, "the run exercises PFC");
        return s.toString();
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.MmuConfig;

/**
 * The product's promise: with every lossless scheme and the headroom its formula gives, random
 * incasts lose no lossless frame. Each run draws its cable delays (so each port's headroom
 * differs), the number of senders, their sizes and start times from a seed; the hosts honour PFC
 * as NICs do; the switch runs the scheme. Every byte sent must arrive, in order.
 */
class LosslessEndToEndTest {

    private static final int HOSTS = 16;
    private static final int RECEIVER = HOSTS - 1;

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc"})
    void randomIncastsLoseNothing(String scheme) {
        for (long seed = 1; seed <= 2; seed++) {
            Outcome o = incast(scheme, headroomFormulaOf(scheme), 0, seed);
            String run = scheme + " seed " + seed + ": " + o;
            assertTrue(o.pfcFrames > 0, "the incast must drive the switch into PFC, else nothing is tested; " + run);
            assertEquals(0, o.losslessViolations, run);
            assertEquals(0, o.drops, run);
            assertEquals(o.flows, o.completed, run);
            assertEquals(o.bytesOffered, o.bytesReceived, run);
            assertEquals(0, o.outOfOrder, run);
            assertEquals(0, o.slabInUse, "every buffer came back: " + run);
            assertEquals(0, o.bufferBytesLeft, run);
        }
    }

    @Test
    void undersizedHeadroomIsCaughtAsLoss() {
        Outcome o = incast("st", "fixed", 2_000, 1);
        assertTrue(o.losslessViolations > 0, "2 KB of headroom cannot absorb a 1-3 us cable: " + o);
        assertTrue(o.bytesReceived < o.bytesOffered, o.toString());
    }

    /** The headroom formula each scheme's paper or artifact sizes its headroom with. */
    private static String headroomFormulaOf(String scheme) {
        return switch (scheme) {
            case "sonic", "reverie" -> "sonic";
            default -> "ieee";                       // 802.1Qbb budget, which DSH's Eq. 1 also uses
        };
    }

    record Outcome(int flows, int completed, long bytesOffered, long bytesReceived, long outOfOrder,
                   long losslessViolations, long drops, long pfcFrames, int slabInUse, long bufferBytesLeft) {}

    private static Outcome incast(String scheme, String headroomFormula, long fixedHeadroom, long seed) {
        SplittableRandom r = new SplittableRandom(seed * 7919 + scheme.hashCode());
        Testbed.Builder b = Testbed.singleSwitch(HOSTS).seed(seed);
        for (int h = 0; h < HOSTS; h++) {
            b.link(h, 100_000_000_000L, 1_000 + r.nextInt(2_000));
        }
        MmuConfig.Builder mmu = MmuConfig.builder().totalBytes(16L << 20).scheme(scheme)
                .headroomFormula(headroomFormula).headroomBytes(fixedHeadroom);
        Testbed tb = b.mmu(mmu).build();
        int senders = 4 + r.nextInt(RECEIVER - 4);
        long offered = 0;
        for (int s = 0; s < senders; s++) {
            long size = 1_000_000 + r.nextInt(3_000_000);
            tb.addFlow(s, RECEIVER, 3, size, r.nextInt(20_000));
            offered += size;
        }
        FlowRecords rec = tb.records();
        long limit = 100_000_000;
        for (long t = 500_000; t <= limit && !allDone(rec); t += 500_000) {
            tb.runUntil(t);
        }
        tb.runUntil(tb.now() + 2_000_000);           // let XONs and the last frames settle
        int completed = 0;
        long received = 0;
        long outOfOrder = 0;
        for (int f = 0; f < rec.count(); f++) {
            completed += rec.completed(f) ? 1 : 0;
            received += rec.receivedPayloadBytes(f);
            outOfOrder += rec.outOfOrder(f);
        }
        long pfc = 0;
        for (int p = 0; p < HOSTS; p++) {
            pfc += tb.core().counters().pfcFramesTx[p];
        }
        return new Outcome(rec.count(), completed, offered, received, outOfOrder,
                tb.core().mmu().losslessViolations(), tb.core().counters().totalDrops(), pfc, tb.slab().inUse(),
                tb.core().mmu().ledger().totalUsed());
    }

    private static boolean allDone(FlowRecords rec) {
        for (int f = 0; f < rec.count(); f++) {
            if (!rec.completed(f)) {
                return false;
            }
        }
        return true;
    }
}

package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Invariants across every scheme under random arrivals and departures:
 * <ul>
 *   <li>the ledger conserves bytes (every view sums to the same total, never above the buffer);</li>
 *   <li>no counter goes negative and no release underflows;</li>
 *   <li>after a full drain every counter is zero and nothing is left paused;</li>
 *   <li>no lossless packet is dropped as long as each upstream sends at most one headroom's worth of
 *       bytes after each XOFF (all schemes but BFC, which its paper says is not lossless, §3.1).</li>
 * </ul>
 * The upstream of each port is modelled as one link (see {@link UpstreamLinks}).
 */
class LedgerPropertiesTest {
    private static final int[] CELLS = {0, 64, 208, 256};
    private static final long[] SPEEDS = {10_000_000_000L, 25_000_000_000L, 100_000_000_000L};

    @Provide
    Arbitrary<String> schemes() {
        return Arbitraries.of(Schemes.NAMES);
    }

    /** What one random run exercised, so tests can show the stress reached XOFF and headroom. */
    record Stats(long xoffs, long peakHeadroom, long losslessViolations) {}

    @Property(tries = 400)
    void ledgerConservesBytesAndLosslessNeverDrops(@ForAll("schemes") String scheme, @ForAll long seed) {
        run(scheme, seed, 0, !scheme.equals("bfc"));
    }

    /**
     * One random run with every invariant asserted.
     *
     * @param extraBudget bytes an upstream sends after XOFF beyond one headroom's worth (0 = obeys)
     * @param lossless    whether to assert that no lossless packet is dropped
     */
    static Stats run(String scheme, long seed, long extraBudget, boolean lossless) {
        Random rnd = new Random(seed);
        MmuConfig cfg = randomConfig(scheme, rnd);
        UpstreamLinks links = new UpstreamLinks(cfg, extraBudget);
        Switch sw = new Switch(cfg);
        sw.also = links;
        BufferLedger ledger = sw.mmu.ledger();
        long peakHeadroom = 0;
        int ports = cfg.portCount();
        long now = 0;
        int ops = 2_000 + rnd.nextInt(4_000);
        double arrivalShare = 0.7;
        int blockedPort = -1;
        for (int op = 0; op < ops; op++) {
            if (op % 500 == 0) {            // a new phase: different load and one egress port stalled
                arrivalShare = 0.45 + 0.5 * rnd.nextDouble();
                blockedPort = rnd.nextInt(ports + 1) - 1;
            }
            now += rnd.nextInt(3_000);
            if (rnd.nextDouble() < arrivalShare) {
                int in = rnd.nextInt(ports);
                int prio = rnd.nextInt(MmuConfig.PRIORITIES);
                int out = rnd.nextInt(ports);
                int len = 64 + rnd.nextInt(cfg.mtuBytes() - 63);
                long charged = cfg.chargedBytes(len);
                if (links.maySend(in, prio, charged)) {
                    int v = sw.send(in, prio, out, prio, len, now);
                    links.sent(in, charged);
                    if (lossless && cfg.isLossless(prio)) {
                        assertTrue(Verdict.isAdmitted(v), () -> "lossless drop: " + Verdict.name(v));
                    }
                }
            } else {
                int out = rnd.nextInt(ports);
                if (out != blockedPort) {
                    int q = rnd.nextInt(MmuConfig.PRIORITIES);
                    for (int i = 0; i < MmuConfig.PRIORITIES && !sw.dequeue(out, (q + i) & 7, now); i++) {
                        // try the next queue of the port
                    }
                }
            }
            assertNull(ledger.checkConsistency());
            assertEquals(0, ledger.accountingErrors());
            assertTrue(ledger.totalUsed() <= cfg.totalBytes(), "ledger holds more than the buffer");
            peakHeadroom = Math.max(peakHeadroom, ledger.headroomUsed());
        }
        if (lossless) {
            assertEquals(0, sw.mmu.losslessViolations());
        }
        Stats stats = new Stats(sw.xoffs, peakHeadroom, sw.mmu.losslessViolations());
        sw.drain(now + 1);
        assertNull(ledger.checkConsistency());
        assertEquals(0, ledger.totalUsed());
        for (int k = 0; k < ports * MmuConfig.PRIORITIES; k++) {
            assertEquals(0, ledger.ingressBytes(k));
            assertEquals(0, ledger.egressBytes(k));
        }
        assertEquals(0, ledger.egressUsedLossless() + ledger.egressUsedLossy());
        for (int p = 0; p < ports; p++) {
            assertEquals(0, sw.mmu.flowControl().advertisedVector(p), "port " + p + " still paused after drain");
        }
        assertEquals(sw.xoffs, sw.xons);
        return stats;
    }

    static MmuConfig randomConfig(String scheme, Random rnd) {
        int ports = 2 + rnd.nextInt(5);
        int mask = rnd.nextInt(256);
        if (mask == 0) {
            mask = 1 << 3;
        }
        MmuConfig.Builder b = MmuConfig.builder().scheme(scheme).mtuBytes(rnd.nextBoolean() ? 1500 : 1024)
                .cellBytes(CELLS[rnd.nextInt(CELLS.length)]).losslessPriorityMask(mask)
                .privateBytes(rnd.nextInt(3) * 2048L).headroomFormula(rnd.nextBoolean() ? "ieee" : "sonic");
        for (int p = 0; p < ports; p++) {
            b.port(SPEEDS[rnd.nextInt(SPEEDS.length)], rnd.nextInt(2_001));
        }
        b.totalBytes(1);
        MmuConfig draft;
        try {
            draft = b.build();
        } catch (IllegalArgumentException tooSmall) {
            draft = b.totalBytes(Long.MAX_VALUE / 4).build();
        }
        long reserved = 0;
        for (int p = 0; p < ports; p++) {
            reserved += Integer.bitCount(mask) * (draft.headroomBytes(p) + draft.privateBytes());
        }
        return b.totalBytes(reserved + 20_000 + rnd.nextInt(400_000)).build();
    }

    /**
     * Each ingress port's upstream is one link. A pause advertised at link byte count X stops that
     * priority once {@code X + budget} bytes have crossed the link (all priorities together, the
     * link-level bound of DSH Observation 2). The budget is one headroom minus one MTU: Φ has to hold
     * the packet that raised the XOFF as well as the in-flight tail (DSH spec A9 item 4).
     */
    static final class UpstreamLinks implements FlowControlListener {
        private final long[] linkBytes;
        private final long[] pausedAt;
        private final long[] budget;

        UpstreamLinks(MmuConfig cfg) {
            this(cfg, 0);
        }

        UpstreamLinks(MmuConfig cfg, long extraBudget) {
            int ports = cfg.portCount();
            linkBytes = new long[ports];
            pausedAt = new long[ports * MmuConfig.PRIORITIES];
            java.util.Arrays.fill(pausedAt, -1);
            budget = new long[ports];
            for (int p = 0; p < ports; p++) {
                budget[p] = cfg.headroomBytes(p) - cfg.chargedBytes(cfg.mtuBytes()) + extraBudget;
            }
        }

        boolean maySend(int port, int priority, long bytes) {
            long at = pausedAt[BufferLedger.key(port, priority)];
            return at < 0 || linkBytes[port] + bytes - at <= budget[port];
        }

        void sent(int port, long bytes) {
            linkBytes[port] += bytes;
        }

        @Override
        public void onXoff(int port, int priority, long nowNanos) {
            pausedAt[BufferLedger.key(port, priority)] = linkBytes[port];
        }

        @Override
        public void onXon(int port, int priority, long nowNanos) {
            pausedAt[BufferLedger.key(port, priority)] = -1;
        }
    }
}

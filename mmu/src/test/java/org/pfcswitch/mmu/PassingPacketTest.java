package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A packet that leaves at once and lands in the private segment passes the MMU uncharged
 * ({@link Mmu#admit(int, int, int, int, int, long, boolean)}) under the schemes that allow it, and
 * everything the MMU decides and reports is what an admission followed at once by its release gives.
 */
class PassingPacketTest {

    /** Tomahawk-like private bytes (ρ = 3 KB) on 4 ports, with a shared pool small enough to reach XOFF. */
    private static MmuConfig config(String scheme) {
        return MmuConfig.builder().totalBytes(1_000_000).ports(4, 100_000_000_000L, 2_000).mtuBytes(1500)
                .losslessPriorityMask(0xFE).privateBytes(3072).headroomFormula("fixed").headroomBytes(20_000)
                .scheme(scheme).schemeParameter("st", "thresholdBytes", "20000").build();
    }

    /** Every XOFF and XON in order, as "xoff port priority now". */
    private static final class Events implements FlowControlListener {
        final List<String> log = new ArrayList<>();

        @Override
        public void onXoff(int port, int priority, long nowNanos) {
            log.add("xoff " + port + " " + priority + " " + nowNanos);
        }

        @Override
        public void onXon(int port, int priority, long nowNanos) {
            log.add("xon " + port + " " + priority + " " + nowNanos);
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dt", "st"})
    void aPrivatePacketThatLeavesAtOncePassesUncharged(String scheme) {
        Mmu mmu = Mmu.create(config(scheme), null);
        assertTrue(mmu.passesPrivateUncharged());
        int verdict = mmu.admit(0, 3, 1, 3, 64, 0, true);
        assertEquals(Verdict.PASSED, verdict);
        assertEquals(0, mmu.ledger().totalUsed(), "never charged");
        assertEquals(0, mmu.ledger().egressBytes(BufferLedger.key(1, 3)));
        assertEquals(1, mmu.admittedPackets());
        assertEquals(1, mmu.releasedPackets());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"spfc", "capfc", "dsh", "sonic", "reverie"})
    void otherSchemesChargeIt(String scheme) {
        Mmu mmu = Mmu.create(config(scheme), null);
        assertFalse(mmu.passesPrivateUncharged());
        assertTrue(Verdict.isAdmitted(mmu.admit(0, 3, 1, 3, 64, 0, true)));
        assertEquals(64, mmu.ledger().totalUsed(), "charged: the caller releases it");
    }

    /**
     * The same random traffic through two MMUs: one lets every packet that leaves at once pass, the
     * other charges it and releases it right after. Packets that stay are held towards a blocked
     * egress and released later, so queues fill their private bytes, go shared and to headroom,
     * pause and resume; a packet that leaves at once may also land in the private segment of a
     * queue that has shared bytes (charged then: its release takes shared bytes first).
     */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dt", "st"})
    void passingDecidesAndReportsWhatChargeAndReleaseDo(String scheme) {
        Events passingEvents = new Events();
        Events chargedEvents = new Events();
        Mmu passing = Mmu.create(config(scheme), passingEvents);
        Mmu charged = Mmu.create(config(scheme), chargedEvents);
        SplittableRandom random = new SplittableRandom(7);
        List<long[]> held = new ArrayList<>();          // inPort, priority, outPort, bytes
        int passed = 0;
        for (long now = 0; now < 40_000; now += 10) {
            int inPort = random.nextInt(3);
            int priority = 1 + random.nextInt(2);
            int bytes = random.nextBoolean() ? 64 : 64 + random.nextInt(1437);
            if (random.nextInt(4) == 0) {
                int a = passing.admit(inPort, priority, 3, priority, bytes, now, true);
                int b = charged.admit(inPort, priority, 3, priority, bytes, now);
                assertEquals(b, a == Verdict.PASSED ? Verdict.PRIVATE : a, "verdict at " + now);
                if (a == Verdict.PASSED) {
                    passed++;
                } else if (Verdict.isAdmitted(a)) {
                    passing.release(inPort, priority, 3, priority, bytes, now);
                }
                if (Verdict.isAdmitted(b)) {
                    charged.release(inPort, priority, 3, priority, bytes, now);
                }
            } else {
                int a = passing.admit(inPort, priority, 3, priority, bytes, now, false);
                int b = charged.admit(inPort, priority, 3, priority, bytes, now);
                assertEquals(b, a, "verdict at " + now);
                if (Verdict.isAdmitted(a)) {
                    held.add(new long[] {inPort, priority, 3, bytes});
                }
            }
            if (!held.isEmpty() && random.nextInt(3) < 2) {
                long[] p = held.remove(random.nextInt(held.size()));
                passing.release((int) p[0], (int) p[1], (int) p[2], (int) p[1], (int) p[3], now);
                charged.release((int) p[0], (int) p[1], (int) p[2], (int) p[1], (int) p[3], now);
            }
            assertEquals(charged.ledger().totalUsed(), passing.ledger().totalUsed(), "buffer at " + now);
        }
        assertTrue(passed > 100, "packets passed: " + passed);
        assertTrue(chargedEvents.log.size() > 10, "the traffic paused queues: " + chargedEvents.log.size());
        assertEquals(chargedEvents.log, passingEvents.log);
        assertEquals(charged.admittedPackets(), passing.admittedPackets());
        assertEquals(charged.releasedPackets(), passing.releasedPackets());
        assertEquals(charged.losslessViolations(), passing.losslessViolations());
        assertNull(passing.ledger().checkConsistency());
        assertEquals(0, passing.ledger().accountingErrors());
    }
}

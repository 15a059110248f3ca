package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pfcswitch.mmu.scheme.Spfc;

/**
 * {@link AdmissionScheme#xoffThresholdBytes}: the current XOFF threshold in queue-length units, as
 * traces record it. DT's falls as the shared buffer fills ({@code T = α·(B_s − used)}), a queue is
 * paused exactly when its length reaches it, and reading it never changes a scheme's decisions.
 */
class XoffThresholdTest {
    private static final int LEN = 1000;

    @Test
    void dtThresholdFallsAsTheSharedBufferFillsAndXoffComesWhereTheQueueReachesIt() {
        MmuConfig cfg = Configs.small("dt", 9, 2_000_000).schemeParameter("dt", "alpha", "2").build();
        Switch sw = new Switch(cfg);
        AdmissionScheme dt = sw.mmu.scheme();
        long pool = dt.layout().sharedPool();
        assertEquals(2 * pool, dt.xoffThresholdBytes(0, 3, 0), "empty buffer: alpha * B_s");
        assertEquals(dt.emptyBufferThreshold(0, 3), dt.xoffThresholdBytes(0, 3, 0));

        // Port 1 fills the shared buffer first (never paused: no threshold check beyond its own), then port 0 rises.
        long now = 0;
        long previous = Long.MAX_VALUE;
        for (int i = 0; i < 300; i++) {
            sw.send(1, 3, 8, 3, LEN, now += 10);
            long used = sw.mmu.ledger().sharedUsed();
            long t = dt.xoffThresholdBytes(0, 3, now);
            assertEquals((long) (2.0 * (pool - used)), t, "T = alpha * (B_s - used) at " + used + " B used");
            assertTrue(t < previous, "falls as the buffer fills");
            previous = t;
        }
        int k = BufferLedger.key(0, 3);
        boolean paused = false;
        while (!paused) {
            assertTrue(Verdict.isAdmitted(sw.send(0, 3, 8, 3, LEN, now += 10)));
            long t = dt.xoffThresholdBytes(0, 3, now);
            assertTrue(t <= previous, "never rises while the buffer fills");   // equal: the packet went to headroom
            previous = t;
            paused = sw.paused(0, 3);
            assertEquals(paused, sw.mmu.ledger().ingressBytes(k) >= t,
                    "XOFF exactly when the queue reaches the threshold: " + sw.mmu.ledger().ingressBytes(k) + " vs " + t);
        }
        assertTrue(sw.mmu.ledger().ingressBytes(k) < t(dt, now) + 3 * LEN, "paused within a packet (and the threshold's fall, alpha = 2) of it");
    }

    private static long t(AdmissionScheme s, long now) {
        return s.xoffThresholdBytes(0, 3, now);
    }

    @Test
    void privateBytesAreAddedSoTheThresholdIsInQueueLengthUnits() {
        MmuConfig cfg = Configs.small("st", 4, 2_000_000).privateBytes(3072).build();
        Switch sw = new Switch(cfg);
        AdmissionScheme st = sw.mmu.scheme();
        long limit = st.emptyBufferThreshold(0, 3);
        assertEquals(limit, st.xoffThresholdBytes(0, 3, 0), "nothing private held yet");
        sw.send(0, 3, 1, 3, LEN, 10);
        sw.send(0, 3, 1, 3, LEN, 20);
        sw.send(0, 3, 1, 3, LEN, 30);
        assertEquals(3000, sw.mmu.ledger().ingressPrivate(BufferLedger.key(0, 3)));
        assertEquals(3000 + limit, st.xoffThresholdBytes(0, 3, 40));
    }

    /** With the buffer empty every scheme with a queue-level PFC threshold reports its empty-buffer threshold. */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc", "bfc"})
    void emptyBufferMatchesExplain(String scheme) {
        Switch sw = new Switch(Configs.small(scheme, 4, 2_000_000).build());
        AdmissionScheme s = sw.mmu.scheme();
        for (int port = 0; port < 4; port++) {
            assertEquals(s.emptyBufferThreshold(port, 3), s.xoffThresholdBytes(port, 3, 0), scheme + " port " + port);
            assertEquals(s.emptyBufferThreshold(port, 0), s.xoffThresholdBytes(port, 0, 0), "lossy: " + scheme);
        }
    }

    /** Sonic, Reverie and DSH also fall as the buffer fills (DT-like free terms). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sonic", "dsh", "reverie"})
    void otherDynamicSchemesFall(String scheme) {
        Switch sw = new Switch(Configs.small(scheme, 4, 2_000_000).build());
        AdmissionScheme s = sw.mmu.scheme();
        long empty = s.xoffThresholdBytes(0, 3, 0);
        long now = 0;
        for (int i = 0; i < 200; i++) {
            sw.send(1, 3, 2, 3, LEN, now += 100);
        }
        assertTrue(s.xoffThresholdBytes(0, 3, now) < empty, scheme + ": " + s.xoffThresholdBytes(0, 3, now) + " vs " + empty);
    }

    /**
     * SPFC: a VICTIM key may use the whole pool, a NORMAL one DT's share; and reading the threshold
     * at any time, window boundaries included, leaves every verdict and pause as it was.
     */
    @Test
    void spfcThresholdFollowsTheStateAndReadingItChangesNothing() {
        Switch quiet = SpfcTest.unitSwitch("spfc");
        Switch read = SpfcTest.unitSwitch("spfc");
        List<String> a = run(quiet, false);
        List<String> b = run(read, true);
        assertEquals(a, b, "reading the threshold changed the scheme");
        assertTrue(a.stream().anyMatch(e -> e.startsWith("xoff")), "the run paused something: " + a);

        Switch sw = SpfcTest.unitSwitch("spfc");
        Spfc spfc = SpfcTest.spfc(sw);
        SpfcTest.preload(sw, 40);
        long pool = spfc.layout().sharedPool();
        assertEquals(Thresholds.dynamic(1, pool, sw.mmu.ledger().sharedUsed()), spfc.xoffThresholdBytes(0, 3, 0),
                "NORMAL: DT");
        for (int k = 1; k <= 30; k++) {
            sw.dequeue(1, 3, 1_000L * k);
        }
        assertTrue(spfc.isVictim(0, 3, 30_000));
        assertEquals(pool, spfc.xoffThresholdBytes(0, 3, 30_000), "VICTIM: the whole pool");
        assertEquals(pool, spfc.xoffThresholdBytes(0, 3, 199_999), "held through window 1");
        assertEquals(Thresholds.dynamic(1, pool, sw.mmu.ledger().sharedUsed()), spfc.xoffThresholdBytes(0, 3, 200_000),
                "window 1 counted nothing: NORMAL at its end, seen without rolling");
        assertTrue(spfc.isVictim(0, 3, 199_999), "the peek did not roll the window");
        assertFalse(spfc.isVictim(0, 3, 200_000));
    }

    /** Two senders into port 2, which drains at a rate that makes port 0 a victim now and then; returns every event. */
    private static List<String> run(Switch sw, boolean readThresholds) {
        List<String> events = new ArrayList<>();
        sw.also = new FlowControlListener() {
            @Override public void onXoff(int port, int priority, long now) { events.add("xoff " + port + " " + now); }
            @Override public void onXon(int port, int priority, long now) { events.add("xon " + port + " " + now); }
        };
        AdmissionScheme s = sw.mmu.scheme();
        long now = 0;
        for (int i = 0; i < 20_000; i++) {
            now += 350;
            int from = i % 3 == 0 ? 1 : 0;
            if (!sw.paused(from, 3)) {
                events.add("v " + sw.send(from, 3, 2, 3, LEN, now));
            }
            if (i % 2 == 0) {
                sw.dequeue(2, 3, now);
            }
            if (readThresholds) {
                for (long t : new long[] {now, now + 175, (now / 100_000 + 1) * 100_000}) {
                    s.xoffThresholdBytes(0, 3, t);
                    s.xoffThresholdBytes(1, 3, t);
                }
            }
        }
        return events;
    }
}

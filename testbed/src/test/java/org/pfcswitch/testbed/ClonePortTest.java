package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Clone ports ({@link Testbed.Builder#cloneOf}), the SPFC testbed's virtual ports on which the
 * switch replays H1's ingress: the switch receives the copies in the same nanosecond as the
 * source's frame, with the same length and priority; the receiver gets every copied flow whole
 * and in order under its own QP; a PAUSE sent to a clone port stops nothing under
 * {@link ClonePfc#IGNORE} and makes it drop exactly the copies made while paused under
 * {@link ClonePfc#SKIP}; and a clone port is never a flow endpoint.
 */
class ClonePortTest {

    private static final long RATE = 10_000_000_000L;
    private static final int P = 3;

    /** One frame a host started: when, how long, which priority. */
    record Tx(long start, int length, int priority) {}

    private static List<Tx> log(Testbed tb, int host) {
        List<Tx> out = new ArrayList<>();
        tb.host(host).observe(new HostObserver() {
            @Override
            public void onTransmit(int h, int flow, int psn, int priority, int length, long start) {
                out.add(new Tx(start, length, priority));
            }
        });
        return out;
    }

    private static MmuConfig.Builder mmu() {
        return MmuConfig.builder().totalBytes(2_500_000).scheme("dt").losslessPriorityMask(1 << P);
    }

    /**
     * Host 0 and its two clone ports (1, 2) send 3:1 into host 3, so the switch pauses all three
     * ports; host 0 obeys, the clones ignore it. Stepping virtual time one nanosecond at a time,
     * the switch has always received as many frames and bytes on each clone port as on port 0:
     * every copy arrives in the nanosecond its original does.
     */
    @Test
    void theSwitchGetsEachCopyInTheSameNanosecondAsTheSourceFrame() {
        Testbed tb = Testbed.singleSwitch(4).links(RATE, 1_000).mmu(mmu())
                .cloneOf(1, 0, ClonePfc.IGNORE).cloneOf(2, 0, ClonePfc.IGNORE).build();
        List<Tx> source = log(tb, 0);
        List<Tx> clone1 = log(tb, 1);
        List<Tx> clone2 = log(tb, 2);
        List<Integer> originals = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            originals.add(tb.addFlow(0, 3, P, 256 * 1024, i * 20_000L));
        }
        SwitchCounters c = tb.core().counters();
        long mismatches = 0;
        for (long t = 1; t <= 600_000; t++) {
            tb.runUntil(t);
            long f0 = c.rxFrames[P];
            long b0 = c.rxBytes[P];
            for (int port = 1; port <= 2; port++) {
                if (c.rxFrames[port * 8 + P] != f0 || c.rxBytes[port * 8 + P] != b0) {
                    mismatches++;
                }
            }
        }
        tb.runUntil(5_000_000);
        assertEquals(0, mismatches, "nanoseconds in which a clone port had received other frames than port 0");
        assertTrue(c.rxFrames[P] > 1000, "port 0 received " + c.rxFrames[P] + " frames");
        assertEquals(source, clone1);
        assertEquals(source, clone2);
        assertTrue(tb.host(0).pfcFramesReceived() > 0 && tb.host(1).pfcFramesReceived() > 0,
                "3:1 into one port: the switch must have paused the source and the clones");

        FlowRecords r = tb.records();
        assertEquals(6 * 3, r.count(), "6 flows and 2 copies of each");
        for (int id : originals) {
            for (int k = 1; k <= 2; k++) {
                int shadow = id + k;
                assertEquals(k, r.src(shadow));
                assertEquals(3, r.dst(shadow));
                assertEquals(r.startNanos(id), r.startNanos(shadow));
                assertTrue(r.completed(shadow), "copy " + shadow + " of flow " + id + " incomplete");
                assertEquals(r.receivedPayloadBytes(id), r.receivedPayloadBytes(shadow));
                assertEquals(r.receivedPackets(id), r.receivedPackets(shadow));
                assertEquals(0, r.outOfOrder(shadow));
                assertTrue(r.ackedNanos(shadow) > 0, "the receiver ACKs the copy to its clone port");
            }
        }
        assertEquals(0, tb.core().mmu().losslessViolations());
        assertEquals(0, tb.host(3).foreignFrames(), "every copy was a flow the receiver knows by its QP");
    }

    /** Host 0 sends one long flow with a clone port (1) to a faster receiver (no congestion); a PAUSE is injected into the clone. */
    private static Testbed injected(ClonePfc mode, List<Tx> source, List<Tx> clone) {
        Testbed tb = Testbed.singleSwitch(3).link(0, RATE, 1_000).link(1, RATE, 1_000).link(2, 4 * RATE, 1_000)
                .mmu(mmu()).cloneOf(1, 0, mode).build();
        tb.host(0).observe(new HostObserver() {
            @Override
            public void onTransmit(int h, int flow, int psn, int priority, int length, long start) {
                source.add(new Tx(start, length, priority));
            }
        });
        tb.host(1).observe(new HostObserver() {
            @Override
            public void onTransmit(int h, int flow, int psn, int priority, int length, long start) {
                clone.add(new Tx(start, length, priority));
            }
        });
        tb.addFlow(0, 2, P, 1 << 20, 0);
        long handle = tb.slab().allocate(60);
        MacControl.writePfc(tb.slab().bytes(), tb.slab().offset(handle), 0x02AA_0000_0001L, 1 << P, QUANTA);
        tb.loop().schedule(PAUSE_AT, tb.nodeOf(1), EventLoop.FRAME, 0, handle);
        tb.runUntil(2_000_000);
        return tb;
    }

    private static final long PAUSE_AT = 100_000;
    private static final int QUANTA = 2_000;                                         // 102.4 us at 10 Gb/s
    private static final long PAUSE_END = PAUSE_AT + MacControl.quantaToNanos(QUANTA, RATE);

    private static long during(List<Tx> log) {
        return log.stream().filter(x -> x.start() >= PAUSE_AT && x.start() < PAUSE_END).count();
    }

    @Test
    void aPauseSentToAnIgnoringClonePortStopsNothing() {
        List<Tx> source = new ArrayList<>();
        List<Tx> clone = new ArrayList<>();
        Testbed tb = injected(ClonePfc.IGNORE, source, clone);
        assertTrue(tb.host(1).pfcFramesReceived() == 1 && tb.host(1).firstPauseNanos() == PAUSE_AT);
        assertTrue(during(source) > 100, "the source kept sending: " + during(source));
        assertEquals(source, clone, "the clone replays every frame, the paused interval included");
        assertEquals(0, tb.host(1).framesSkipped());
        assertEquals(0, tb.host(0).pfcFramesReceived(), "the source was not paused");
        assertEquals(tb.records().receivedPayloadBytes(0), tb.records().receivedPayloadBytes(1));
    }

    @Test
    void aPauseSentToASkippingClonePortDropsExactlyTheCopiesMadeWhilePaused() {
        List<Tx> source = new ArrayList<>();
        List<Tx> clone = new ArrayList<>();
        Testbed tb = injected(ClonePfc.SKIP, source, clone);
        long paused = during(source);
        assertTrue(paused > 100, "the source kept sending: " + paused);
        assertEquals(0, during(clone), "no copy while the clone port is paused");
        assertEquals(paused, tb.host(1).framesSkipped());
        List<Tx> expected = source.stream().filter(x -> x.start() < PAUSE_AT || x.start() >= PAUSE_END).toList();
        assertEquals(expected, clone, "before and after the pause the clone replays every frame at the same instant");
        FlowRecords r = tb.records();
        assertEquals(r.receivedPackets(0) - paused, r.receivedPackets(1));
        assertEquals(1, r.outOfOrder(1), "the receiver sees one PSN gap in the copy");
        assertTrue(!r.completed(1) || r.receivedPayloadBytes(1) < r.sizeBytes(1));
    }

    @Test
    void aClonePortIsNoFlowEndpointAndClonesOnlyOnOneSwitchWithTheSourcesLink() {
        Testbed tb = Testbed.singleSwitch(3).links(RATE, 1_000).mmu(mmu()).cloneOf(1, 0, ClonePfc.IGNORE).build();
        assertEquals(0, tb.host(1).cloneSource());
        assertEquals(-1, tb.host(0).cloneSource());
        assertThrows(IllegalArgumentException.class, () -> tb.addFlow(1, 2, P, 1000, 0));
        assertThrows(IllegalArgumentException.class, () -> tb.addFlow(2, 1, P, 1000, 0));
        assertThrows(IllegalArgumentException.class,
                () -> Testbed.singleSwitch(3).links(RATE, 1_000).link(1, RATE, 2_000).cloneOf(1, 0, ClonePfc.IGNORE).build());
        assertThrows(IllegalArgumentException.class,
                () -> Testbed.singleSwitch(3).cloneOf(1, 0, ClonePfc.IGNORE).cloneOf(2, 1, ClonePfc.IGNORE).build());
        assertThrows(IllegalStateException.class,
                () -> Testbed.leafSpine(2, 1, 2).cloneOf(1, 0, ClonePfc.IGNORE).build());
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.trace.TraceMerge;
import org.pfcswitch.core.trace.TraceRecorder;
import org.pfcswitch.core.trace.TraceRing;
import org.pfcswitch.core.trace.TraceWriter;
import org.pfcswitch.mmu.BufferLedger;

/**
 * {@link TraceRecorder} on a real core: queue rows hold what the ledger and the scheme said at the
 * sample, one sample per period, every PFC frame in and out counted once, and sampling allocates
 * nothing.
 */
class TraceRecorderTest {

    private static final int OUT = 2;
    private static final long EVERY = 1_000;

    record Row(long time, int kind, int event, int port, int priority, long a, long b, long c) {}

    /** Port 0 fills a stalled egress until XOFF, refreshes, then the egress resumes and everything drains. */
    @Test
    void queueRowsMatchTheLedgerAndPfcRowsTheCounters() {
        CoreConfig config = Configs.core(Configs.mmu(3, "dt").build()).pauseQuanta(0x2000).build();
        CoreRig rig = new CoreRig(config);
        TraceRecorder rec = new TraceRecorder(EVERY, null, null, 1 << 16);
        rec.bind(rig.core);
        assertArrayEquals(new int[] {0, 1, 2}, rec.ports());
        assertArrayEquals(new int[] {3}, rec.priorities(), "the lossless priorities of the MMU");
        List<long[]> expected = new ArrayList<>();           // what port 0's queue looked like at each sample

        rig.receivePfc(OUT, 1 << 3, MacControl.MAX_QUANTA, 0);
        sample(rig, rec, 0, expected);
        long frameTime = LineRate.nanos(1074, Configs.GBPS_100);
        long now = 0;
        for (int i = 0; !rig.core.mmu().flowControl().isAdvertisedXoff(0, 3); i++) {
            now = 1_000 + i * frameTime;
            runUntil(rig, rec, now, expected);
            rig.receiveRoce(0, Configs.host(OUT), Configs.host(0), 26, 1000, now);
            sample(rig, rec, now, expected);
        }
        long refresh = MacControl.quantaToNanos(0x2000, Configs.GBPS_100) / 2;
        runUntil(rig, rec, now + 2 * refresh + refresh / 2, expected);
        long resume = now + 2 * refresh + refresh / 2;
        rig.receivePfc(OUT, 1 << 3, 0, resume);
        sample(rig, rec, resume, expected);
        runUntil(rig, rec, resume + 10_000_000, expected);

        List<Row> rows = drain(rec.ring());
        assertEquals(0, rec.ring().dropped());
        List<Row> port0 = rows.stream().filter(r -> r.kind == TraceRecorder.QUEUE && r.port == 0).toList();
        assertEquals(rec.samples(), port0.size());
        assertEquals(expected.size(), port0.size());
        assertEquals(3 * rec.samples(), rows.stream().filter(r -> r.kind == TraceRecorder.QUEUE).count(), "3 ports x 1 priority");
        List<Row> buffers = rows.stream().filter(r -> r.kind == TraceRecorder.BUFFER).toList();
        assertEquals(rec.samples(), buffers.size(), "one buffer record per sample");
        for (Row buffer : buffers) {      // every frame is of priority 3: the traced queues hold the whole buffer
            assertEquals(rows.stream().filter(r -> r.kind == TraceRecorder.QUEUE && r.time == buffer.time).mapToLong(Row::a).sum(),
                    buffer.a, "buffer at " + buffer.time);
        }
        assertTrue(buffers.stream().anyMatch(r -> r.a > 0));
        long lastPeriod = Long.MIN_VALUE;
        boolean sawThreshold = false;
        for (int i = 0; i < port0.size(); i++) {
            Row r = port0.get(i);
            assertEquals(3, r.priority);
            assertEquals(expected.get(i)[0], r.time);
            assertEquals(expected.get(i)[1], r.a, "ingress bytes at " + r.time);
            assertEquals(expected.get(i)[2], r.c, "threshold at " + r.time);
            assertTrue(r.time / EVERY > lastPeriod, "one sample per period");
            lastPeriod = r.time / EVERY;
            sawThreshold |= r.a > 0 && r.a >= r.c;
        }
        assertTrue(sawThreshold, "some sample caught the queue at or over its threshold");
        assertTrue(rows.stream().anyMatch(r -> r.kind == TraceRecorder.QUEUE && r.port == OUT && r.b > 0),
                "the egress bytes of the stalled port");

        SwitchCounters c = rig.core.counters();
        assertEquals(c.pfcXoffTx[3], count(rows, TraceRecorder.PFC_TX, TraceRecorder.XOFF, 0));
        assertEquals(3, c.pfcXoffTx[3], "XOFF and two refreshes");
        assertEquals(1, count(rows, TraceRecorder.PFC_TX, TraceRecorder.XON, 0));
        assertEquals(1, count(rows, TraceRecorder.PFC_RX, TraceRecorder.XOFF, OUT));
        assertEquals(1, count(rows, TraceRecorder.PFC_RX, TraceRecorder.XON, OUT));
        Row firstXoff = rows.stream().filter(r -> r.kind == TraceRecorder.PFC_TX && r.event == TraceRecorder.XOFF)
                .findFirst().orElseThrow();
        // The XOFF left at the arrival at `now`, inside a period already sampled; the stalled switch's next
        // event is the refresh timer, so that is when the sample saw it: within a period, or at the next event.
        assertTrue(firstXoff.time >= now && firstXoff.time <= now + refresh, firstXoff.time + " vs " + now);
        Row rxOn = rows.stream().filter(r -> r.kind == TraceRecorder.PFC_RX && r.event == TraceRecorder.XON)
                .findFirst().orElseThrow();
        assertEquals(resume, rxOn.time);
    }

    /**
     * A one-worker switch traced through {@link TraceMerge} (as the live switch is) writes the same
     * file as its recorder straight into a writer (as the simulator does): three senders into a port
     * that pauses and is paused, sampled at every event.
     */
    @Test
    void oneWorkerThroughTheMergeWritesWhatOneRecorderWrites() throws Exception {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).pauseQuanta(200).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        TraceRecorder direct = new TraceRecorder(EVERY, 1 << 16);
        TraceMerge merge = new TraceMerge(new int[] {0, 0, 0, 0}, EVERY, 1 << 16);
        TraceRecorder part = merge.recorder(0);
        direct.bind(rig.core);
        part.bind(rig.core);
        int out = 3;
        MemorySegment[] templates = CoreRig.roceTemplates(out, 3);
        int length = (int) templates[0].byteSize();
        long frameTime = LineRate.nanos(length, Configs.GBPS_100);
        long now = 0;
        for (int i = 0; i < 20_000; i++) {
            now += frameTime / 3;
            for (long due = rig.core.nextTimerDue(); due <= now; due = rig.core.nextTimerDue()) {
                rig.core.onTimer(due);
                direct.sample(rig.core, due);
                part.sample(rig.core, due);
            }
            if (i % 1000 == 999) {
                rig.receivePfc(out, 1 << 3, 100, now);
            }
            int in = i % 3;
            if (!rig.core.mmu().flowControl().isAdvertisedXoff(in, 3)) {
                long h = rig.allocate(length);
                MemorySegment.copy(templates[in], 0, rig.bytes(), rig.offset(h), length);
                rig.core.onFrame(in, h, now);
            }
            direct.sample(rig.core, now);
            part.sample(rig.core, now);
        }
        direct.sampleNow(rig.core, now + 1);
        part.sampleNow(rig.core, now + 1);
        merge.producersStopped();
        java.io.StringWriter one = new java.io.StringWriter();
        java.io.StringWriter merged = new java.io.StringWriter();
        try (TraceWriter a = new TraceWriter(direct.ring(), one); TraceWriter b = new TraceWriter(merge, merged)) {
            a.drain();
            b.drain();
        }
        assertTrue(one.toString().contains(",pfc_tx,") && one.toString().contains(",pfc_rx,"), "PFC both ways");
        assertTrue(direct.samples() > 100, direct.samples() + " samples");
        assertEquals(one.toString(), merged.toString());
        assertEquals(direct.samples(), merge.samples());
    }

    @Test
    void oneSamplePerPeriodAtTheFirstCallInIt() {
        CoreRig rig = new CoreRig(Configs.core(3));
        TraceRecorder rec = new TraceRecorder(1_000, new int[] {1}, new int[] {3, 4}, 64);
        for (long t : new long[] {0, 300, 999, 1_000, 1_500, 2_999, 3_000, 3_001, 10_500}) {
            rec.sample(rig.core, t);
        }
        List<Row> rows = drain(rec.ring()).stream().filter(r -> r.kind == TraceRecorder.QUEUE).toList();
        assertEquals(List.of(0L, 0L, 1_000L, 1_000L, 2_999L, 2_999L, 3_000L, 3_000L, 10_500L, 10_500L),
                rows.stream().map(Row::time).toList(), "periods [0, 1000), [1000, 2000), [2000, 3000), [3000, 4000), [10000, 11000)");
        assertEquals(List.of(3, 4, 3, 4, 3, 4, 3, 4, 3, 4), rows.stream().map(Row::priority).toList());
        assertTrue(rows.stream().allMatch(r -> r.port == 1));
        assertEquals(5, rec.samples());

        rec.sampleNow(rig.core, 10_700);                   // forced, e.g. when a run ends
        assertEquals(10_700, rec.lastSampleNanos());
        rec.sample(rig.core, 10_999);                      // same period: nothing
        rec.sample(rig.core, 11_000);
        assertEquals(List.of(10_700L, 10_700L, 11_000L, 11_000L), drain(rec.ring()).stream()
                .filter(r -> r.kind == TraceRecorder.QUEUE).map(Row::time).toList());
    }

    @Test
    void aFullRingDropsRecordsAndCountsThem() {
        CoreRig rig = new CoreRig(Configs.core(3));
        TraceRecorder rec = new TraceRecorder(1, 4);
        for (long t = 0; t < 10; t++) {
            rec.sample(rig.core, t);
        }
        assertEquals(10, rec.samples());
        assertEquals(10 * (3 + 1) - 4, rec.ring().dropped(), "3 queue records and the buffer record per sample");
    }

    /** Three senders into one port with PFC out, PFC in and sampling every 1 us, drained as it goes: nothing allocated. */
    @Test
    void samplingAllocatesNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "spfc").build()).pauseQuanta(200).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        TraceRecorder rec = new TraceRecorder(1_000, 1 << 12);
        TraceRing.RecordConsumer discard = (a, b, c, d, e) -> {};
        int out = 3;
        MemorySegment[] templates = CoreRig.roceTemplates(out, 3);
        long[] clock = {0};
        Runnable run = () -> {
            int length = (int) templates[0].byteSize();
            long frameTime = LineRate.nanos(length, Configs.GBPS_100);
            for (int i = 0; i < 300_000; i++) {
                int in = i % 3;
                long now = clock[0] + frameTime / 3;
                clock[0] = now;
                for (long due = rig.core.nextTimerDue(); due <= now; due = rig.core.nextTimerDue()) {
                    rig.core.onTimer(due);
                    rec.sample(rig.core, due);
                }
                if (i % 1000 == 999) {
                    rig.receivePfc(out, 1 << 3, 100, now);
                    rec.sample(rig.core, now);
                }
                if (!rig.core.mmu().flowControl().isAdvertisedXoff(in, 3)) {
                    long h = rig.allocate(length);
                    MemorySegment.copy(templates[in], 0, rig.bytes(), rig.offset(h), length);
                    rig.core.onFrame(in, h, now);
                    rec.sample(rig.core, now);
                }
                rec.ring().drain(discard, 1 << 12);
            }
        };
        run.run();                                                        // warm-up: JIT, queues, first bind
        long samplesBefore = rec.samples();
        long pfcBefore = rig.core.counters().pfcFramesTx[0];
        long allocated = allocatedBy(run);
        assertTrue(rec.samples() - samplesBefore > 5_000, "sampled " + (rec.samples() - samplesBefore) + " times");
        assertTrue(rig.core.counters().pfcFramesTx[0] > pfcBefore, "PFC frames were sent, so PFC records were written");
        assertEquals(0, rec.ring().dropped());
        assertTrue(allocated < 4_096, "the core and the recorder allocated " + allocated + " B");
    }

    private static long allocatedBy(Runnable run) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        run.run();
        return threads.getThreadAllocatedBytes(tid) - before;
    }

    private static void runUntil(CoreRig rig, TraceRecorder rec, long until, List<long[]> expected) {
        for (long due = rig.core.nextTimerDue(); due <= until; due = rig.core.nextTimerDue()) {
            rig.core.onTimer(due);
            sample(rig, rec, due, expected);
        }
    }

    /** Samples, and when a sample was taken notes port 0's ledger bytes and threshold as they are now. */
    private static void sample(CoreRig rig, TraceRecorder rec, long now, List<long[]> expected) {
        long before = rec.samples();
        rec.sample(rig.core, now);
        if (rec.samples() > before) {
            int key = BufferLedger.key(0, 3);
            expected.add(new long[] {now, rig.core.mmu().ledger().ingressBytes(key),
                    rig.core.mmu().scheme().xoffThresholdBytes(0, 3, now)});
        }
    }

    private static long count(List<Row> rows, int kind, int event, int port) {
        return rows.stream().filter(r -> r.kind == kind && r.event == event && r.port == port && r.priority == 3)
                .mapToLong(Row::a).sum();
    }

    private static List<Row> drain(TraceRing ring) {
        List<Row> rows = new ArrayList<>();
        ring.drain((t, h, a, b, c) -> rows.add(new Row(t, TraceRecorder.kind(h), TraceRecorder.event(h),
                TraceRecorder.port(h), TraceRecorder.priority(h), a, b, c)), Integer.MAX_VALUE);
        return rows;
    }
}

package org.pfcswitch.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder's merge of several workers' rings, driven step by step: one worker silent (only its
 * watermark moves), one bursty, arrivals of equal time on several workers.
 */
class ArrivalMergeTest {

    private static final MemorySegment FRAME = Arena.ofAuto().allocate(64);

    @TempDir
    Path dir;

    /** An arrival as merged: "time/worker/sequence" (the worker is the port, the sequence the length). */
    private static List<String> drain(ArrivalMerge m, boolean stopped) {
        List<String> out = new ArrayList<>();
        m.drain((w, from) -> {
            long meta = w[from + 1];
            out.add(w[from] + "/" + (meta & 0xFFFF) + "/" + (meta >>> 16 & 0xFFFF));
        }, 1000, stopped);
        return out;
    }

    private static void offer(ArrivalRing r, long time, int worker, int sequence) {
        assertTrue(r.offer(time, worker, sequence, FRAME, 0));
    }

    @Test
    void mergesInTimeOrderWaitingOnTheWorkersThatMayStillPrecede() {
        ArrivalRing silent = new ArrivalRing(16, Long.MAX_VALUE);
        ArrivalRing bursty = new ArrivalRing(16, Long.MAX_VALUE);
        ArrivalRing steady = new ArrivalRing(16, Long.MAX_VALUE);
        ArrivalMerge m = new ArrivalMerge(new ArrivalRing[] {silent, bursty, steady});

        offer(bursty, 10, 1, 1);
        offer(bursty, 10, 1, 2);
        offer(bursty, 20, 1, 3);
        offer(steady, 10, 2, 1);
        offer(steady, 15, 2, 2);
        bursty.advance(20);
        steady.advance(15);
        assertEquals(List.of(), drain(m, false), "worker 0 has not passed once: it may still have an arrival at 0");

        silent.advance(12);
        assertEquals(List.of("10/1/1", "10/1/2", "10/2/1"), drain(m, false),
                "before 12 only; equal times in worker order, one worker's in its own order");

        silent.advance(15);
        assertEquals(List.of(), drain(m, false), "worker 0 may still have an arrival at 15, which goes before worker 2's");

        offer(silent, 15, 0, 1);
        silent.advance(16);
        assertEquals(List.of("15/0/1", "15/2/2"), drain(m, false),
                "worker 2's ring is read empty and its watermark, 15, is before worker 1's 20: wait on it");

        steady.advance(30);
        silent.advance(40);
        assertEquals(List.of("20/1/3"), drain(m, false));
        assertEquals(List.of(), drain(m, false));

        offer(bursty, 50, 1, 4);
        offer(steady, 45, 2, 3);
        assertEquals(List.of(), drain(m, false), "worker 0's watermark (40) holds both up");
        assertEquals(List.of("45/2/3", "50/1/4"), drain(m, true), "every worker stopped: the rest, in order");
    }

    @Test
    void aWorkerThatNeverPassesHoldsTheMergeUpAndTheOthersRingsDropWhatDoesNotFit() {
        ArrivalRing stuck = new ArrivalRing(4, Long.MAX_VALUE);
        ArrivalRing busy = new ArrivalRing(4, Long.MAX_VALUE);
        ArrivalMerge m = new ArrivalMerge(new ArrivalRing[] {stuck, busy});
        for (int i = 0; i < 10; i++) {
            busy.offer(100 + i, 1, i + 1, FRAME, 0);
            busy.advance(100 + i);
            assertEquals(List.of(), drain(m, false));
        }
        assertEquals(4, busy.available(Integer.MAX_VALUE), "the ring is the bound on what waits");
        assertEquals(6, busy.dropped());
        stuck.advance(1000);
        assertEquals(List.of("100/1/1", "101/1/2", "102/1/3", "103/1/4"), drain(m, false));
    }

    /**
     * Two workers' rings through the recorder: the file is in time order with every arrival, and with
     * a maximum it keeps the earliest ones in merged order and counts the rest.
     */
    @Test
    void theRecorderWritesTwoWorkersInTimeOrderAndKeepsTheEarliestUpToItsMaximum() throws IOException {
        for (long max : new long[] {Long.MAX_VALUE, 1500}) {
            Path f = dir.resolve("two-" + max + ".arr");
            ArrivalRecorder r = new ArrivalRecorder(f, new ArrivalHeader(new long[] {10_000_000_000L, 10_000_000_000L},
                    Map.of()), 2, 1 << 12, max, line -> { });
            // worker 0 sends every 3 ns, worker 1 in bursts of 8 every 40 ns; some times equal. Fewer
            // than a ring holds: nothing is dropped, whenever the writer thread runs.
            List<long[]> offered = new ArrayList<>();       // {time, worker, length}
            long t0 = 0;
            long t1 = 0;
            while (offered.size() < 4000) {
                if (t0 <= t1) {
                    int length = 60 + (int) (t0 % 7);
                    r.ring(0).offer(t0, 0, length, FRAME, 0);
                    r.ring(0).advance(t0);
                    offered.add(new long[] {t0, 0, length});
                    t0 += 3;
                } else {
                    for (int k = 0; k < 8; k++) {
                        r.ring(1).offer(t1, 1, 100 + k, FRAME, 0);
                        offered.add(new long[] {t1, 1, 100 + k});
                    }
                    r.ring(1).advance(t1);
                    t1 += 40;
                }
            }
            ArrivalRecorder.Summary s = r.close();
            assertEquals(0, s.droppedRingFull());
            assertEquals(Math.min(max, offered.size()), s.written(), s.toString());
            assertEquals(offered.size(), s.written() + s.overMax(), s.toString());
            // the merged order: by time, equal times by worker, one worker's in its own order (a stable sort)
            offered.sort(java.util.Comparator.<long[]>comparingLong(a -> a[0]).thenComparingLong(a -> a[1]));
            try (ArrivalReader in = ArrivalReader.open(f)) {
                ArrivalReader.Arrival x = new ArrivalReader.Arrival();
                int n = 0;
                while (in.next(x)) {
                    long[] want = offered.get(n);
                    assertEquals(want[0] + "/" + want[1] + "/" + want[2], x.timeNanos + "/" + x.port + "/" + x.length,
                            "arrival " + n);
                    n++;
                }
                assertEquals(s.written(), n);
            }
        }
    }
}

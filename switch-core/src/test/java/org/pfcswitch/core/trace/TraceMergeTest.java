package org.pfcswitch.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

/**
 * {@link TraceMerge} driven record by record: worker 0 owns ports 0 and 2, worker 1 port 1; worker 0
 * samples first, worker 1 sleeps through a period, a sample is still being written when the drain
 * comes. The merged file reads as one switch's: queue rows in port order with the egress bytes
 * summed over the workers' parts, PFC rows since the previous merged sample, the buffer the sum of
 * the workers' own bytes.
 */
class TraceMergeTest {

    private static final int[] OWNER = {0, 1, 0};
    private static final long EVERY = 1_000;

    private static void queue(TraceRing r, long t, int port, long ingress, long egressPart, long threshold) {
        r.offer(t, TraceRecorder.header(TraceRecorder.QUEUE, TraceRecorder.NONE, port, 3), ingress, egressPart, threshold);
    }

    private static void egressPart(TraceRing r, long t, int port, long bytes) {
        r.offer(t, TraceRecorder.header(TraceRecorder.EGRESS_PART, TraceRecorder.NONE, port, 3), bytes, 0, 0);
    }

    private static void pfc(TraceRing r, long t, int kind, int event, int port, long count) {
        r.offer(t, TraceRecorder.header(kind, event, port, 3), count, 0, 0);
    }

    private static void buffer(TraceRing r, long t, long bytes) {
        r.offer(t, TraceRecorder.header(TraceRecorder.BUFFER, TraceRecorder.NONE, 0, 0), bytes, 0, 0);
    }

    /** What a drain writes now. */
    private static String drain(TraceMerge m) throws IOException {
        StringWriter out = new StringWriter();
        TraceWriter w = new TraceWriter(m, out);
        w.drain();
        return out.toString();
    }

    @Test
    void samplesOfOnePeriodBecomeOneSampleOfTheSwitch() throws IOException {
        TraceMerge m = new TraceMerge(OWNER, EVERY, 64);
        TraceRing w0 = m.recorder(0).ring();
        TraceRing w1 = m.recorder(1).ring();

        // period 0: worker 0 only (worker 1 had not started): nothing written, its PFC frames kept
        queue(w0, 500, 0, 40, 40, 500);
        egressPart(w0, 500, 1, 0);
        queue(w0, 500, 2, 0, 0, 500);
        pfc(w0, 500, TraceRecorder.PFC_TX, TraceRecorder.XOFF, 0, 2);
        buffer(w0, 500, 40);
        assertEquals("", drain(m), "worker 1 may still sample period 0");

        // period 1: both; worker 0's parts of the egress queues 10 + 30 + 60 = its 100 bytes, worker 1's 5 + 20 + 55 = 80
        queue(w0, 1_000, 0, 100, 10, 500);
        egressPart(w0, 1_000, 1, 30);
        queue(w0, 1_000, 2, 0, 60, 500);
        pfc(w0, 1_000, TraceRecorder.PFC_TX, TraceRecorder.XOFF, 0, 1);
        buffer(w0, 1_000, 100);
        queue(w1, 1_040, 1, 80, 20, 400);
        egressPart(w1, 1_040, 0, 5);
        egressPart(w1, 1_040, 2, 55);
        assertEquals("", drain(m), "worker 1's sample of period 1 has no buffer record yet");
        buffer(w1, 1_040, 80);
        assertEquals("""
                1040,queue,0,3,100,15,500,,
                1040,queue,1,3,80,50,400,,
                1040,queue,2,3,0,115,500,,
                1040,pfc_tx,0,3,,,,xoff,3
                1040,buffer,,,180,,,,
                """, drain(m), "period 0's sample is not written, its PFC frames are, with period 1's");

        // period 2: worker 0 only, worker 1 asleep until period 3: worker 1 as at its last sample
        queue(w0, 2_000, 0, 0, 0, 500);
        egressPart(w0, 2_000, 1, 0);
        queue(w0, 2_000, 2, 0, 0, 500);
        buffer(w0, 2_000, 0);
        assertEquals("", drain(m), "worker 1 may still sample period 2");
        queue(w1, 3_010, 1, 0, 0, 400);
        egressPart(w1, 3_010, 0, 0);
        egressPart(w1, 3_010, 2, 0);
        pfc(w1, 3_010, TraceRecorder.PFC_RX, TraceRecorder.XON, 1, 2);
        buffer(w1, 3_010, 0);
        assertEquals("""
                2000,queue,0,3,0,5,500,,
                2000,queue,1,3,80,20,400,,
                2000,queue,2,3,0,55,500,,
                2000,buffer,,,80,,,,
                """, drain(m), "worker 1 began period 3, so it made no pass in period 2");

        // period 3: worker 0's sample comes in pieces; the last one is cut short by the end of the trace
        queue(w0, 3_005, 0, 7, 7, 500);
        egressPart(w0, 3_005, 1, 0);
        queue(w0, 3_005, 2, 0, 0, 500);
        buffer(w0, 3_005, 7);
        queue(w0, 4_001, 0, 9, 9, 500);
        assertEquals("""
                3010,queue,0,3,7,7,500,,
                3010,queue,1,3,0,0,400,,
                3010,queue,2,3,0,0,500,,
                3010,pfc_rx,1,3,,,,xon,2
                3010,buffer,,,7,,,,
                """, drain(m));
        m.producersStopped();
        assertEquals("""
                4001,queue,0,3,9,9,500,,
                4001,queue,1,3,0,0,400,,
                4001,queue,2,3,0,0,500,,
                4001,buffer,,,7,,,,
                """, drain(m), "once every worker stopped, what is left; the cut sample's missing records as before");
        assertEquals(4, m.samples(), "periods 1 to 4: period 0 was only worker 0's");
        assertEquals("", drain(m));
    }

    /** A merged trace reads back: queue rows of both workers' ports, the buffer rows with their bytes. */
    @Test
    void theReaderTakesBufferRows() throws IOException {
        TraceMerge m = new TraceMerge(OWNER, EVERY, 64);
        TraceRing w0 = m.recorder(0).ring();
        TraceRing w1 = m.recorder(1).ring();
        queue(w0, 1_000, 0, 100, 100, 500);
        egressPart(w0, 1_000, 1, 0);
        queue(w0, 1_000, 2, 0, 0, 500);
        buffer(w0, 1_000, 100);
        queue(w1, 1_001, 1, 30, 30, 400);
        egressPart(w1, 1_001, 0, 0);
        egressPart(w1, 1_001, 2, 0);
        buffer(w1, 1_001, 30);
        m.producersStopped();
        StringWriter out = new StringWriter();
        try (TraceWriter w = new TraceWriter(m, out)) {
            w.writeHeader(new TraceHeader("dt", EVERY, 0, "live", "switch", java.util.List.of("a", "b", "c")));
            w.drain();
        }
        TraceReader.Trace t = TraceReader.read(new java.io.BufferedReader(new java.io.StringReader(out.toString())), "merged");
        assertEquals(4, t.size());
        assertEquals(java.util.List.of(new TraceReader.Queue(0, 3), new TraceReader.Queue(1, 3), new TraceReader.Queue(2, 3)),
                t.queues());
        assertEquals(TraceRecorder.BUFFER, t.kind(3));
        assertEquals(130, t.bufferBytes(3));
        assertEquals(0, t.bufferBytes(0), "a queue row is no buffer row");
        assertEquals(0, t.count(3));
        assertEquals(true, t.complete());
    }
}

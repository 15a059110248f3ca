package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.ring.SpscLongRing;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/**
 * The hand-off of BFC pauses from an egress worker to the ingress port's worker
 * ({@link WorkerCrossings#sendUpstreamPause}, {@link WorkerCrossings#takeUpstreamPauses}): every
 * request arrives, in the order it was sent, at the ingress worker's link; the ring holds what it
 * was sized for and says when it is full instead of losing a request silently; and a warmed
 * hand-off allocates nothing.
 */
class UpstreamPauseRingTest {

    /** Ports 0 and 1 on worker 0, 2 and 3 on worker 1. */
    private static final int[] WORKER_OF = {0, 0, 1, 1};
    private static final int CAPACITY = 64;

    /** Worker 1 (egress) and worker 0 (ingress of ports 0 and 1), joined by their rings. */
    private final WorkerCrossings[] workers = crossings();

    /** What the ingress worker's link was asked, as (inPort, upstreamQueue, pause) records in arrival order. */
    private static final class Requests implements BfcBackpressure.Listener {
        final long[] seen = new long[1 << 20];
        int count;

        @Override
        public void onPauseUpstream(int inPort, int upstreamQueue, long nowNanos) {
            seen[count++ & (seen.length - 1)] = record(inPort, upstreamQueue, true);
        }

        @Override
        public void onResumeUpstream(int inPort, int upstreamQueue, long nowNanos) {
            seen[count++ & (seen.length - 1)] = record(inPort, upstreamQueue, false);
        }
    }

    private static long record(int inPort, int upstreamQueue, boolean pause) {
        return inPort | (long) upstreamQueue << 16 | (pause ? 1L << 32 : 0);
    }

    private static WorkerCrossings[] crossings() {
        SpscLongRing[][] rings = new SpscLongRing[2][2];
        rings[0][1] = new SpscLongRing(CAPACITY, WorkerCrossings.PAUSE_LONGS);
        rings[1][0] = new SpscLongRing(CAPACITY, WorkerCrossings.PAUSE_LONGS);
        WorkerCrossings[] w = new WorkerCrossings[2];
        for (int me = 0; me < 2; me++) {
            SpscLongRing[] none = new SpscLongRing[2];
            w[me] = new WorkerCrossings(me, WORKER_OF, none, none, none, rings[me], none, none, none,
                    new SpscLongRing[] {rings[0][me], rings[1][me]});
        }
        return w;
    }

    @Test
    void everyRequestArrivesInTheOrderItWasSent() {
        Requests ingress = new Requests();
        SplittableRandom random = new SplittableRandom(5);
        long[] sent = new long[200_000];
        int n = 0;
        int checked = 0;
        while (n < sent.length) {
            int burst = 1 + random.nextInt(CAPACITY);           // up to a full ring between two passes of the ingress worker
            for (int k = 0; k < burst && n < sent.length; k++) {
                int inPort = random.nextInt(2);
                int queue = random.nextInt(64);
                boolean pause = random.nextBoolean();
                assertTrue(workers[1].sendUpstreamPause(inPort, queue, pause), "a ring with room takes the request");
                sent[n++] = record(inPort, queue, pause);
            }
            workers[0].takeUpstreamPauses(ingress, 0);
            for (; checked < n; checked++) {
                assertEquals(sent[checked], ingress.seen[checked], "request " + checked);
            }
        }
        assertEquals(sent.length, ingress.count, "no request lost, none twice");
    }

    @Test
    void aFullRingRefusesAndCountsInsteadOfLosingARequestSilently() {
        for (int k = 0; k < CAPACITY; k++) {
            assertTrue(workers[1].sendUpstreamPause(0, k % 32, k % 2 == 0));
        }
        assertFalse(workers[1].sendUpstreamPause(1, 3, true), "the ring holds what it was sized for, no more");
        Requests ingress = new Requests();
        assertEquals(CAPACITY, workers[0].takeUpstreamPauses(ingress, 0));
        assertEquals(record(0, 0, true), ingress.seen[0]);
        assertEquals(record(0, (CAPACITY - 1) % 32, false), ingress.seen[CAPACITY - 1]);
        assertTrue(workers[1].sendUpstreamPause(1, 3, true), "room again once the ingress worker has taken them");
    }

    @Test
    void aRequestGoesToTheWorkerThatOwnsTheIngressPort() {
        Requests worker0 = new Requests();
        Requests worker1 = new Requests();
        assertTrue(workers[0].sendUpstreamPause(3, 7, true));      // worker 0's egress asks worker 1, owner of port 3
        assertTrue(workers[1].sendUpstreamPause(1, 9, false));     // and the other way
        assertEquals(1, workers[1].takeUpstreamPauses(worker1, 0));
        assertEquals(1, workers[0].takeUpstreamPauses(worker0, 0));
        assertEquals(record(3, 7, true), worker1.seen[0]);
        assertEquals(record(1, 9, false), worker0.seen[0]);
    }

    @Test
    void aWarmedHandOffAllocatesNothing() {
        Requests ingress = new Requests();
        exercise(ingress, 300_000);                                  // warm-up: JIT
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        exercise(ingress, 300_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(0, allocated, "the hand-off allocated " + allocated + " B");
        assertTrue(ingress.count > 0);
    }

    private void exercise(Requests ingress, int rounds) {
        for (int r = 0; r < rounds; r++) {
            workers[1].sendUpstreamPause(r & 1, r & 31, (r & 2) == 0);
            if ((r & 7) == 7) {
                workers[0].takeUpstreamPauses(ingress, r);
            }
        }
        workers[0].takeUpstreamPauses(ingress, rounds);
    }
}

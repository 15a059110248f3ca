package org.pfcswitch.mmu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.pfcswitch.mmu.scheme.Bfc;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/** BFC flow table, dynamic queue assignment and pause counters (BFC §3.3; scheme spec III.3–III.5, VI.B). */
class BfcTest {
    /** 4 × 100 Gb/s, 1 µs cables: HRTT = 2 µs, so one hop's BDP is 25,000 B (spec III.4). */
    static BfcBackpressure bfc(List<String> events) {
        return bfc(events, "dynamic");
    }

    static BfcBackpressure bfc(List<String> events, String assignment) {
        return bfc(events, assignment, 1);
    }

    static BfcBackpressure bfc(List<String> events, String assignment, int classes) {
        MmuConfig cfg = MmuConfig.builder().totalBytes(12_000_000).ports(4, 100_000_000_000L, 1_000).mtuBytes(1500)
                .losslessPriorityMask(0).privateBytes(0).headroomFormula("ieee").scheme("bfc")
                .schemeParameter("bfc", "assignment", assignment)
                .schemeParameter("bfc", "classes", Integer.toString(classes)).build();
        Mmu mmu = Mmu.create(cfg, null, RandomSource.seeded(7));
        BfcBackpressure b = ((Bfc) mmu.scheme()).backpressure();
        b.setListener(new BfcBackpressure.Listener() {
            @Override
            public void onPauseUpstream(int inPort, int upstreamQueue, long now) {
                events.add("pause " + inPort + "/" + upstreamQueue);
            }

            @Override
            public void onResumeUpstream(int inPort, int upstreamQueue, long now) {
                events.add("resume " + inPort + "/" + upstreamQueue);
            }
        });
        return b;
    }

    @Test
    void thresholdIsOneHopBdpSharedByActiveQueuesClampedAtOneMtu() {
        BfcBackpressure b = bfc(new ArrayList<>());
        assertEquals(25_000, b.threshold(1));                       // N_active = 0 counts as 1
        b.onEnqueue(0, 0, 1, 1, 11, 0, 1000, 0);
        assertEquals(25_000, b.threshold(1));
        b.onEnqueue(0, 0, 1, 2, 12, 0, 1000, 0);
        assertEquals(12_500, b.threshold(1));
        b.onDownstreamPause(1, 2, true);                            // paused queues are not active
        assertEquals(25_000, b.threshold(1));
        for (int q = 3; q < 32; q++) {
            b.onEnqueue(0, 0, 1, q, 10 + q, 0, 1000, 0);
        }
        assertEquals(1_500, b.threshold(1));                        // 25,000/30 = 833 < MTU
    }

    @Test
    void newFlowsGetDistinctEmptyQueuesAndKeepThemWhileQueued() {
        BfcBackpressure b = bfc(new ArrayList<>());
        Set<Integer> queues = new HashSet<>();
        for (int flow = 0; flow < 31; flow++) {
            int q = b.assignQueue(2, flow, 0, 0);
            assertTrue(q >= 1 && q < 32, "queue 0 is the control queue");
            b.onEnqueue(0, 0, 2, q, flow, 0, 1000, 0);
            queues.add(q);
        }
        assertEquals(31, queues.size());                            // 31 data queues, 31 flows: no sharing
        int q0 = b.assignQueue(2, 0, 0, 100_000);
        assertEquals(b.assignQueue(2, 0, 0, 100_000), q0);             // size > 0: the flow stays put
        int extra = b.assignQueue(2, 1000, 0, 0);                      // no empty queue left: random
        assertTrue(extra >= 1 && extra < 32);
    }

    /** The paper's comparison variants (App. A.10): the flow hash picks the queue, or one FIFO for all. */
    @Test
    void stochasticAssignmentHashesFlowsOntoQueuesAndSingleUsesOneFifo() {
        BfcBackpressure stochastic = bfc(new ArrayList<>(), "stochastic");
        assertEquals(1 + 5, stochastic.assignQueue(2, 5, 0, 0));
        assertEquals(stochastic.assignQueue(2, 5, 0, 0), stochastic.assignQueue(2, 5 + 31, 0, 0),
                "two flows whose hashes agree mod 31 share a queue although 29 others are empty");
        assertEquals(31, stochastic.assignQueue(2, -1, 0, 0), "negative hashes map into 1..31 too");
        BfcBackpressure single = bfc(new ArrayList<>(), "single");
        for (int flow = 0; flow < 100; flow++) {
            assertEquals(1, single.assignQueue(flow % 4, flow, 0, 0));
        }
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> bfc(new ArrayList<>(), "random"));
        assertTrue(e.getMessage().contains("assignment"), e.getMessage());
    }

    /**
     * Priority classes (App. A.3): the 31 data queues split into contiguous blocks, the highest
     * priorities in the highest block; dynamic assignment stays inside a flow's class even when
     * the class is full and other classes have empty queues.
     */
    @Test
    void classesSplitTheQueuesAndAssignmentStaysInsideAClass() {
        BfcBackpressure b = bfc(new ArrayList<>(), "dynamic", 4);
        assertEquals(4, b.classes());
        assertEquals(0xFFL << 1, b.classQueueMask(0));              // priorities 0-1: queues 1-8
        assertEquals(0xFFL << 9, b.classQueueMask(1));              // 2-3: 9-16
        assertEquals(0xFFL << 17, b.classQueueMask(2));             // 4-5: 17-24
        assertEquals(0x7FL << 25, b.classQueueMask(3));             // 6-7: 25-31
        Set<Integer> top = new HashSet<>();
        for (int flow = 0; flow < 7; flow++) {
            int q = b.assignQueue(1, flow, 7, 0);
            assertTrue(q >= 25 && q <= 31, "priority 7 belongs to the top class, got queue " + q);
            b.onEnqueue(0, 0, 1, q, flow, 7, 1000, 0);
            top.add(q);
        }
        assertEquals(7, top.size(), "seven flows, the class's seven queues");
        int crowded = b.assignQueue(1, 99, 6, 0);
        assertTrue(crowded >= 25 && crowded <= 31, "a full class shares its own queues, got " + crowded);
        int low = b.assignQueue(1, 99, 0, 0);
        assertTrue(low >= 1 && low <= 8, "the same hash in priority 0 gets a class-0 queue, got " + low);
        assertEquals(17, bfc(new ArrayList<>(), "single", 4).assignQueue(1, 5, 4, 0));
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> bfc(new ArrayList<>(), "dynamic", 9));
        assertTrue(e.getMessage().contains("classes"), e.getMessage());
    }

    @Test
    void stickyAssignmentHoldsForTwoHopRtts() {
        BfcBackpressure b = bfc(new ArrayList<>());
        int q = b.assignQueue(2, 5, 0, 0);
        b.onEnqueue(0, 0, 2, q, 5, 0, 1000, 0);
        b.onDequeue(0, 0, 2, q, 5, 0, 1000, false, 1_000);
        int other = b.assignQueue(2, 6, 0, 1_000);                     // takes the next empty queue
        b.onEnqueue(0, 0, 2, other, 6, 0, 1000, 1_000);
        assertEquals(q, b.assignQueue(2, 5, 0, 4_999));                // idle < STICKY = 4 µs: same queue
        int moved = b.assignQueue(2, 5, 0, 5_000);                     // idle >= STICKY: reassigned
        assertNotEquals(other, moved);
    }

    @Test
    void pauseCounterPausesOnFirstMarkedPacketAndResumesWhenTheLastLeaves() {
        List<String> events = new ArrayList<>();
        BfcBackpressure b = bfc(events);
        int q = b.assignQueue(3, 42, 0, 0);
        boolean[] marked = new boolean[40];
        for (int i = 0; i < 40; i++) {
            marked[i] = b.onEnqueue(1, 7, 3, q, 42, 0, 1000, i);
        }
        // marked once the queue held more than 25,000 B on arrival: packets 26..40
        for (int i = 0; i < 40; i++) {
            assertEquals(i >= 26, marked[i], "packet " + i);
        }
        assertEquals(List.of("pause 1/7"), events);
        assertEquals(14, b.pauseCounter(1, 7));
        for (int i = 0; i < 39; i++) {
            b.onDequeue(1, 7, 3, q, 42, 0, 1000, marked[i], 100 + i);
        }
        assertEquals(List.of("pause 1/7"), events);
        b.onDequeue(1, 7, 3, q, 42, 0, 1000, marked[39], 200);
        assertEquals(List.of("pause 1/7", "resume 1/7"), events);
        assertEquals(0, b.pauseCounter(1, 7));
        assertEquals(0, b.queueBytes(3, q));
        assertEquals(0, b.activeQueues(3));
        // a sender that is not BFC-capable is never counted
        assertTrue(!b.onEnqueue(1, BfcBackpressure.NO_UPSTREAM, 3, q, 42, 0, 100_000, 300));
    }
}

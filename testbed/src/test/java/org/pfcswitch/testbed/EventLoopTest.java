package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * The loop runs events by time, then the node that scheduled them (none, outside the run, first),
 * then the order that node scheduled them in, whichever queue an event waits in.
 */
class EventLoopTest {

    private static final int NODES = 4;

    @Test
    void runsEventsByTimeThenSchedulingNodeThenItsOrderWhateverQueueTheyWaitIn() {
        assertEquals(reference(7, 1), fromLoop(7, 1));
        assertEquals(reference(8, 1), fromLoop(8, 1));
    }

    /**
     * The same with the events spread over milliseconds, most due beyond the queue's timing wheel,
     * which turns around many times between them.
     */
    @Test
    void runsEventsDueBeyondTheWheelInTheSameOrder() {
        assertEquals(reference(9, 997), fromLoop(9, 997));
        assertEquals(reference(10, 3), fromLoop(10, 3));
    }

    @Test
    void aNodesFutureFlowStartsTakeOneQueueSlot() {
        EventLoop loop = new EventLoop();
        int a = loop.register((kind, port, arg, now) -> { });
        int b = loop.register((kind, port, arg, now) -> { });
        for (int i = 0; i < 10_000; i++) {
            loop.schedule(1_000L * i, i % 2 == 0 ? a : b, EventLoop.FLOW_START, 0, i);
        }
        assertEquals(2, loop.queuedSlots(), "one entry per node with flows to start, not one per flow");
        loop.runUntil(Long.MAX_VALUE);
        assertEquals(10_000, loop.eventsDispatched());
        assertEquals(0, loop.queuedSlots());
    }

    /**
     * A workload with every way in: plain events, flow starts and wire arrivals each in and out of
     * time order, ties at one nanosecond, and events scheduled while events run. Each node's reaction
     * is drawn from a random seeded by the event it handles, so both loops see the same workload
     * exactly when they run the same events in the same order.
     */
    private static void drive(Scheduler s, int[] lanes, long seed, long spread) {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 2_000; i++) {
            int node = r.nextInt(NODES);
            long at = spread * (r.nextInt(4) == 0 ? r.nextLong(20_000) : 20L * i);   // mostly rising, some not
            switch (r.nextInt(3)) {
                case 0 -> s.schedule(at, node, EventLoop.WAKE, 0, i);
                case 1 -> s.schedule(at, node, EventLoop.FLOW_START, 0, i);
                default -> s.onLane(lanes[node], node, at, i);
            }
        }
    }

    private static void react(Scheduler s, int[] lanes, int node, int kind, long arg, long now, long spread) {
        SplittableRandom r = new SplittableRandom(arg * 31 + node);
        if (r.nextInt(3) != 0 || now > 60_000 * spread) {
            return;
        }
        long at = now + (r.nextBoolean() ? 0 : spread * r.nextInt(200));      // a tie with now half the time
        int to = r.nextInt(NODES);
        long next = arg + 100_000;
        switch (r.nextInt(3)) {
            case 0 -> s.schedule(at, to, EventLoop.WAKE, 0, next);
            case 1 -> s.schedule(at, to, EventLoop.FLOW_START, 0, next);
            default -> s.onLane(lanes[to], to, at, next);
        }
    }

    private interface Scheduler {
        void schedule(long at, int node, int kind, int port, long arg);

        void onLane(int lane, int node, long at, long arg);
    }

    private static List<String> fromLoop(long seed, long spread) {
        EventLoop loop = new EventLoop();
        List<String> ran = new ArrayList<>();
        int[] lanes = new int[NODES];
        Scheduler s = new Scheduler() {
            @Override
            public void schedule(long at, int node, int kind, int port, long arg) {
                loop.schedule(at, node, kind, port, arg);
            }

            @Override
            public void onLane(int lane, int node, long at, long arg) {
                loop.scheduleOnLane(lane, at, arg);
            }
        };
        for (int n = 0; n < NODES; n++) {
            int node = n;
            loop.register((kind, port, arg, now) -> {
                ran.add(now + " " + node + " " + kind + " " + port + " " + arg);
                react(s, lanes, node, kind, arg, now, spread);
            });
            lanes[n] = loop.openLane(n, 1);
        }
        drive(s, lanes, seed, spread);
        loop.runUntil(Long.MAX_VALUE);
        return ran;
    }

    /** The same workload on a plain priority queue of (time, scheduling node, that node's sequence number). */
    private static List<String> reference(long seed, long spread) {
        record Event(long at, int from, long seq, int node, int kind, int port, long arg) {}
        PriorityQueue<Event> queue = new PriorityQueue<>((x, y) -> x.at != y.at ? Long.compare(x.at, y.at)
                : x.from != y.from ? Integer.compare(x.from, y.from) : Long.compare(x.seq, y.seq));
        long[] seq = new long[NODES + 1];
        int[] running = {-1};
        Scheduler s = new Scheduler() {
            @Override
            public void schedule(long at, int node, int kind, int port, long arg) {
                queue.add(new Event(at, running[0], seq[running[0] + 1]++, node, kind, port, arg));
            }

            @Override
            public void onLane(int lane, int node, long at, long arg) {
                queue.add(new Event(at, running[0], seq[running[0] + 1]++, node, EventLoop.FRAME, 1, arg));
            }
        };
        int[] lanes = new int[NODES];
        drive(s, lanes, seed, spread);
        List<String> ran = new ArrayList<>();
        while (!queue.isEmpty()) {
            Event e = queue.poll();
            ran.add(e.at + " " + e.node + " " + e.kind + " " + e.port + " " + e.arg);
            running[0] = e.node;
            react(s, lanes, e.node, e.kind, e.arg, e.at, spread);
            running[0] = -1;
        }
        return ran;
    }
}

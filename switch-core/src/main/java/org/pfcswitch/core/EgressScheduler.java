package org.pfcswitch.core;

import java.util.Arrays;

import org.pfcswitch.codec.MacControl;

/**
 * Picks the next queue of an egress port from the queues that may send now (non-empty and not
 * paused): strict queues first (highest number wins), then deficit round robin (Shreedhar and
 * Varghese) over the others. Under PFC each port follows its {@link SchedulerPolicy} over its eight
 * priority queues; under BFC every queue gets the same quantum (per-flow fair queuing), within
 * bands of queues (priority classes) served in strict order, the first band first. The DRR
 * visit state (the queue being visited and whether it got its quantum for this visit) persists
 * between calls, because the core dequeues one frame at a time as the line frees.
 * {@link RoundRobin} replaces the DRR by one frame per queue per turn ({@link Scheduling#ROUND_ROBIN}).
 */
class EgressScheduler {

    final int queuesPerPort;
    final int[] strictMask;           // by port
    private final int[] bands;        // DRR only among the first of these masks with an eligible queue
    private final int[] quantum;      // by port * queuesPerPort + queue
    private final long[] deficit;     // by port * queuesPerPort + queue
    private final int[] cursor;       // by port: queue being visited
    private final boolean[] credited; // by port: the visited queue got its quantum this visit

    EgressScheduler(int ports, int queuesPerPort, int[] bands) {
        this.queuesPerPort = queuesPerPort;
        this.bands = bands.clone();
        strictMask = new int[ports];
        quantum = new int[ports * queuesPerPort];
        deficit = new long[ports * queuesPerPort];
        cursor = new int[ports];
        credited = new boolean[ports];
    }

    /** One policy per port over the eight priority queues. */
    static EgressScheduler perPriority(SchedulerPolicy[] policies) {
        return configure(new EgressScheduler(policies.length, MacControl.PRIORITIES, new int[] {-1}), policies);
    }

    /** The ports' strict queues as {@code policies} say, every other queue served one frame per turn. */
    static EgressScheduler roundRobin(SchedulerPolicy[] policies) {
        return configure(new RoundRobin(policies.length), policies);
    }

    private static EgressScheduler configure(EgressScheduler s, SchedulerPolicy[] policies) {
        for (int p = 0; p < policies.length; p++) {
            s.strictMask[p] = policies[p].strictMask();
            for (int q = 0; q < MacControl.PRIORITIES; q++) {
                s.quantum[p * MacControl.PRIORITIES + q] = policies[p].weight(q) * policies[p].quantumBytes();
            }
        }
        return s;
    }

    /**
     * DRR with one quantum for every one of {@code queuesPerPort} queues, within {@code bands}
     * (queue masks, every port alike) served in strict order: the first band that has an eligible
     * queue is the only one served.
     */
    static EgressScheduler fairQueuing(int ports, int queuesPerPort, int quantumBytes, int[] bands) {
        EgressScheduler s = new EgressScheduler(ports, queuesPerPort, bands);
        Arrays.fill(s.quantum, quantumBytes);
        return s;
    }

    /**
     * The queue to send from next, among {@code eligible} (non-zero). {@code headLength} gives the
     * length of the frame at the head of each queue of the port.
     */
    int pick(int port, int eligible, EgressQueues queues, PacketSlots slots) {
        int strict = eligible & strictMask[port];
        if (strict != 0) {
            return 31 - Integer.numberOfLeadingZeros(strict);
        }
        for (int band : bands) {
            if ((eligible & band) != 0) {
                eligible &= band;
                break;
            }
        }
        int base = port * queuesPerPort;
        int q = cursor[port];
        // Terminates: every full turn adds a quantum (> 0) to each eligible queue's deficit.
        while (true) {
            if ((eligible >>> q & 1) != 0) {
                if (!credited[port]) {
                    deficit[base + q] += quantum[base + q];
                    credited[port] = true;
                }
                if (deficit[base + q] >= slots.length(queues.peek(port, q))) {
                    cursor[port] = q;
                    return q;
                }
            } else if ((queues.nonEmptyMask(port) >>> q & 1) == 0) {
                deficit[base + q] = 0;              // an idle queue banks no credit
            }
            q = q + 1 == queuesPerPort ? 0 : q + 1;
            credited[port] = false;
        }
    }

    /**
     * Packet round robin among the non-strict queues (the ns-3 datacenter simulators' switch queue,
     * {@code DequeueRR}): after the strict queues, the first eligible queue after the one served last
     * sends one frame, whatever its length; no deficit is kept.
     */
    static final class RoundRobin extends EgressScheduler {
        private final int[] last;          // by port: the non-strict queue served last

        RoundRobin(int ports) {
            super(ports, MacControl.PRIORITIES, new int[] {-1});
            last = new int[ports];
        }

        @Override
        int pick(int port, int eligible, EgressQueues queues, PacketSlots slots) {
            int strict = eligible & strictMask[port];
            if (strict != 0) {
                return 31 - Integer.numberOfLeadingZeros(strict);
            }
            int q = last[port];
            do {
                q = q + 1 == queuesPerPort ? 0 : q + 1;
            } while ((eligible >>> q & 1) == 0);          // terminates: eligible is not 0
            last[port] = q;
            return q;
        }

        @Override
        void onDequeued(int port, int queue, int frameBytes, boolean queueNowEmpty) {}
    }

    /** Whether {@code queue} of {@code port} is a strict queue: picked before any other it is eligible with, no deficit kept. */
    boolean isStrict(int port, int queue) {
        return (strictMask[port] >>> queue & 1) != 0;
    }

    /** Charges a dequeued frame to its queue; strict queues keep no deficit. */
    void onDequeued(int port, int queue, int frameBytes, boolean queueNowEmpty) {
        if ((strictMask[port] >>> queue & 1) != 0) {
            return;
        }
        int k = port * queuesPerPort + queue;
        deficit[k] = queueNowEmpty ? 0 : deficit[k] - frameBytes;
    }
}

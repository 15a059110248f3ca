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
 */
final class EgressScheduler {

    private final int queuesPerPort;
    private final int[] strictMask;   // by port
    private final int[] bands;        // DRR only among the first of these masks with an eligible queue
    private final int[] quantum;      // by port * queuesPerPort + queue
    private final long[] deficit;     // by port * queuesPerPort + queue
    private final int[] cursor;       // by port: queue being visited
    private final boolean[] credited; // by port: the visited queue got its quantum this visit

    private EgressScheduler(int ports, int queuesPerPort, int[] bands) {
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
        EgressScheduler s = new EgressScheduler(policies.length, MacControl.PRIORITIES, new int[] {-1});
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
                if (deficit[base + q] >= slots.length[queues.peek(port, q)]) {
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

    /** Charges a dequeued frame to its queue; strict queues keep no deficit. */
    void onDequeued(int port, int queue, int frameBytes, boolean queueNowEmpty) {
        if ((strictMask[port] >>> queue & 1) != 0) {
            return;
        }
        int k = port * queuesPerPort + queue;
        deficit[k] = queueNowEmpty ? 0 : deficit[k] - frameBytes;
    }
}

package org.pfcswitch.dataplane.core;

import org.pfcswitch.codec.MacControl;

/**
 * Picks the next queue of an egress port from the queues that may send now (non-empty and not
 * paused), per the port's {@link SchedulerPolicy}: strict queues first (highest number wins),
 * then deficit round robin (Shreedhar and Varghese) over the others. The DRR visit state (the
 * queue being visited and whether it got its quantum for this visit) persists between calls,
 * because the core dequeues one frame at a time as the line frees.
 */
final class EgressScheduler {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int[] strictMask;   // by port
    private final int[] quantum;      // by port * 8 + queue
    private final long[] deficit;     // by port * 8 + queue
    private final int[] cursor;       // by port: queue being visited
    private final boolean[] credited; // by port: the visited queue got its quantum this visit

    EgressScheduler(SchedulerPolicy[] policies) {
        int ports = policies.length;
        strictMask = new int[ports];
        quantum = new int[ports * PRIORITIES];
        deficit = new long[ports * PRIORITIES];
        cursor = new int[ports];
        credited = new boolean[ports];
        for (int p = 0; p < ports; p++) {
            strictMask[p] = policies[p].strictMask();
            for (int q = 0; q < PRIORITIES; q++) {
                quantum[p * PRIORITIES + q] = policies[p].weight(q) * policies[p].quantumBytes();
            }
        }
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
        int base = port * PRIORITIES;
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
            q = (q + 1) & (PRIORITIES - 1);
            credited[port] = false;
        }
    }

    /** Charges a dequeued frame to its queue; strict queues keep no deficit. */
    void onDequeued(int port, int queue, int frameBytes, boolean queueNowEmpty) {
        if ((strictMask[port] >>> queue & 1) != 0) {
            return;
        }
        int k = port * PRIORITIES + queue;
        deficit[k] = queueNowEmpty ? 0 : deficit[k] - frameBytes;
    }
}

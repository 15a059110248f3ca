package org.pfcswitch.mmu;

/**
 * The PFC state of every ingress (port, priority): what the schemes want, and what is advertised.
 *
 * <p>Three independent reasons can hold a priority paused, and the advertised state is their OR:
 * <ul>
 *   <li>queue-level XOFF of the ingress queue itself (every PFC scheme);</li>
 *   <li>port-level XOFF of the whole port, restricted to a priority mask (DSH insurance backstop);</li>
 *   <li>holds placed by egress queues that blame this input (CaPFC's E bits), counted so that a
 *       second blame of the same input does not double-count.</li>
 * </ul>
 * Advertising "queue paused OR port paused" per priority is what keeps a port-level RESUME from
 * un-pausing classes that are still queue-paused (DSH spec A10). Only changes of the advertised bit
 * reach the {@link FlowControlListener}, so hysteresis lives in the schemes' thresholds and an XOFF
 * is emitted exactly once per pause episode.
 */
public final class FlowControl {
    private final FlowControlListener listener;
    private final boolean[] queueXoff;
    private final boolean[] portXoff;
    private final int[] portMask;
    private final int[] holds;
    private final int[] advertised;      // per port, bit p = priority p advertised paused
    private final long[] xoffCount;      // per (port, priority): advertised XOFF transitions
    private long xoffEvents;
    private long xonEvents;
    private long portXoffEvents;

    public FlowControl(int ports, FlowControlListener listener) {
        this.listener = listener == null ? FlowControlListener.NONE : listener;
        int keys = ports * MmuConfig.PRIORITIES;
        queueXoff = new boolean[keys];
        portXoff = new boolean[ports];
        portMask = new int[ports];
        holds = new int[keys];
        advertised = new int[ports];
        xoffCount = new long[keys];
    }

    // ---- queue level
    public boolean isQueueXoff(int key) { return queueXoff[key]; }

    public void setQueueXoff(int port, int priority, long now) {
        int k = BufferLedger.key(port, priority);
        if (!queueXoff[k]) {
            queueXoff[k] = true;
            sync(port, priority, now);
        }
    }

    public void clearQueueXoff(int port, int priority, long now) {
        int k = BufferLedger.key(port, priority);
        if (queueXoff[k]) {
            queueXoff[k] = false;
            sync(port, priority, now);
        }
    }

    // ---- port level (DSH)
    public boolean isPortXoff(int port) { return portXoff[port]; }

    public void setPortXoff(int port, int priorityMask, long now) {
        if (!portXoff[port]) {
            portXoff[port] = true;
            portMask[port] = priorityMask;
            portXoffEvents++;
            for (int p = 0; p < MmuConfig.PRIORITIES; p++) {
                sync(port, p, now);
            }
        }
    }

    public void clearPortXoff(int port, long now) {
        if (portXoff[port]) {
            portXoff[port] = false;
            for (int p = 0; p < MmuConfig.PRIORITIES; p++) {
                sync(port, p, now);
            }
        }
    }

    // ---- holds placed by other views (CaPFC blame)
    public int holds(int key) { return holds[key]; }

    public void addHold(int port, int priority, long now) {
        if (holds[BufferLedger.key(port, priority)]++ == 0) {
            sync(port, priority, now);
        }
    }

    public void removeHold(int port, int priority, long now) {
        int k = BufferLedger.key(port, priority);
        if (holds[k] > 0 && --holds[k] == 0) {
            sync(port, priority, now);
        }
    }

    // ---- what the upstream sees
    public boolean isAdvertisedXoff(int port, int priority) {
        return (advertised[port] >>> priority & 1) != 0;
    }

    /** The 8-bit class-enable vector of priorities currently advertised paused on {@code port}. */
    public int advertisedVector(int port) {
        return advertised[port];
    }

    public long xoffEvents() { return xoffEvents; }
    public long xonEvents() { return xonEvents; }
    public long portXoffEvents() { return portXoffEvents; }
    public long xoffCount(int port, int priority) { return xoffCount[BufferLedger.key(port, priority)]; }

    private void sync(int port, int priority, long now) {
        int k = BufferLedger.key(port, priority);
        boolean want = queueXoff[k] || holds[k] > 0 || (portXoff[port] && (portMask[port] >>> priority & 1) != 0);
        int bit = 1 << priority;
        boolean have = (advertised[port] & bit) != 0;
        if (want == have) {
            return;
        }
        if (want) {
            advertised[port] |= bit;
            xoffEvents++;
            xoffCount[k]++;
            listener.onXoff(port, priority, now);
        } else {
            advertised[port] &= ~bit;
            xonEvents++;
            listener.onXon(port, priority, now);
        }
    }
}

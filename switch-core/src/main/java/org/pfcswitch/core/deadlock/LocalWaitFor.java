package org.pfcswitch.core.deadlock;


/**
 * The wait-for graph one switch can see of itself, from its public PFC state at one instant.
 *
 * <p><b>Nodes</b>: {@code port * 8 + priority}, an ingress queue; it <i>waits</i> while the switch
 * advertises XOFF on it (it pauses the neighbour behind the port).
 *
 * <p><b>Edges</b>: node (p, q) waits through egress port e (the edge slot) when e != p, egress
 * queue (e, q) holds bytes and the neighbour on e pauses it now. Who that neighbour is, the switch
 * knows from the source MAC of the last PFC frame received on e (a pause frame's source is the
 * pausing port's MAC). When that MAC is one of this switch's own ports p' (a loop cable, or a
 * bounce path back into the same switch), the edge ends at node (p', q) if p' advertises XOFF on
 * q: the wait closes inside the switch and a cycle can be found locally. Otherwise it leaves the
 * switch: only a fabric view, with the neighbour's own edges, can follow it.
 *
 * <p>As in {@code sim}'s detector, "(p, q) holds bytes bound for e" is approximated by "egress
 * (e, q) is non-empty": the core keeps no per-(ingress, egress) byte count. Allocation-free.
 */
public final class LocalWaitFor implements WaitForGraph {

    public static final int PRIORITIES = 8;

    private final PfcPortState core;
    private final int ports;
    private long now;

    public LocalWaitFor(PfcPortState core) {
        this.core = core;
        this.ports = core.ports();
    }

    /** The instant the next search reads the pauses at. */
    public void at(long nanos) {
        this.now = nanos;
    }

    @Override
    public int nodes() {
        return ports * PRIORITIES;
    }

    @Override
    public boolean waits(int node) {
        return core.isAdvertisingXoff(node / PRIORITIES, node % PRIORITIES);
    }

    @Override
    public int slots(int node) {
        return ports;
    }

    @Override
    public int successor(int node, int egress) {
        int p = node / PRIORITIES;
        int q = node % PRIORITIES;
        if (!egressWaits(core, p, q, egress, now)) {
            return -1;
        }
        int next = localPort(core, core.pfcSenderMac(egress));
        if (next < 0 || !core.isAdvertisingXoff(next, q)) {
            return -1;
        }
        return next * PRIORITIES + q;
    }

    /** Whether ingress (p, q) waits on egress (e, q): e is another port, its queue q holds bytes and is paused at {@code now}. */
    public static boolean egressWaits(PfcPortState core, int p, int q, int e, long now) {
        return e != p && core.queuedBytes(e, q) > 0 && core.isPaused(e, q, now);
    }

    /** The switch's own port whose MAC is {@code mac}, or -1 (0, no PFC frame seen yet, is no port). */
    public static int localPort(PfcPortState core, long mac) {
        if (mac == 0) {
            return -1;
        }
        for (int p = 0; p < core.ports(); p++) {
            if (core.portMac(p) == mac) {
                return p;
            }
        }
        return -1;
    }
}

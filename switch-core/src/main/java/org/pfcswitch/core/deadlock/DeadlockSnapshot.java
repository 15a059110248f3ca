package org.pfcswitch.core.deadlock;

/**
 * What {@code show deadlock} and {@code /metrics} read of one switch, copied on the thread that owns
 * the core (part of {@link org.pfcswitch.core.CoreSnapshot}): the detection's settings and counts,
 * the cycle being watched, the last reports, each port's MAC and the MAC of the last PFC sender seen
 * on it, and the wait-for edges now. An edge is (ingress port, priority) waiting on egress port e:
 * the ingress advertises XOFF and egress (e, priority) holds bytes and is paused; it leads to the
 * neighbour whose MAC paused e, which is this switch's own port {@link #edgeTarget} when the cable
 * loops back. These are the numbers a fabric view joins across switches. Preallocated: a capture
 * allocates nothing.
 */
public final class DeadlockSnapshot {

    private static final int PRIORITIES = LocalWaitFor.PRIORITIES;

    public final int ports;
    /** Whether the switch runs the detection (its settings below are 0 when not). */
    public boolean enabled;
    public long checkNanos;
    public long persistNanos;
    public long graceNanos;
    public long checks;
    public long deadlocks;
    /** A reported cycle is still found now. */
    public boolean present;
    /** The cycle the last check found (length 0: none), with its reported time (-1: not yet). */
    public final CycleRecord watched;
    /** The last reports, oldest first: {@link #reportCount} of them. */
    public final CycleRecord[] reports = new CycleRecord[DeadlockWatch.HISTORY];
    public int reportCount;

    // by port
    public final long[] portMac;
    /** The source MAC of the last PFC or PAUSE frame received on the port, 0 if none. */
    public final long[] pfcSenderMac;
    /** The own port {@link #pfcSenderMac} belongs to, -1 for another switch or host. */
    public final int[] pfcSenderPort;

    // the wait-for edges now
    public int edgeCount;
    public final int[] edgeIngress;
    public final int[] edgePriority;
    public final int[] edgeEgress;
    /** The own port whose node the edge leads to (its XOFF on the priority is asked too), or -1: it leaves the switch. */
    public final int[] edgeTarget;

    public DeadlockSnapshot(int ports) {
        this.ports = ports;
        int nodes = ports * PRIORITIES;
        watched = new CycleRecord(nodes);
        for (int i = 0; i < reports.length; i++) {
            reports[i] = new CycleRecord(nodes);
        }
        portMac = new long[ports];
        pfcSenderMac = new long[ports];
        pfcSenderPort = new int[ports];
        int edges = nodes * ports;
        edgeIngress = new int[edges];
        edgePriority = new int[edges];
        edgeEgress = new int[edges];
        edgeTarget = new int[edges];
    }

    /** Makes this a copy of {@code o} (the snapshot of the worker that searches a switch split among workers). */
    public void copyFrom(DeadlockSnapshot o) {
        enabled = o.enabled;
        checkNanos = o.checkNanos;
        persistNanos = o.persistNanos;
        graceNanos = o.graceNanos;
        checks = o.checks;
        deadlocks = o.deadlocks;
        present = o.present;
        watched.copyFrom(o.watched);
        reportCount = o.reportCount;
        for (int i = 0; i < reportCount; i++) {
            reports[i].copyFrom(o.reports[i]);
        }
        System.arraycopy(o.portMac, 0, portMac, 0, ports);
        System.arraycopy(o.pfcSenderMac, 0, pfcSenderMac, 0, ports);
        System.arraycopy(o.pfcSenderPort, 0, pfcSenderPort, 0, ports);
        edgeCount = o.edgeCount;
        System.arraycopy(o.edgeIngress, 0, edgeIngress, 0, edgeCount);
        System.arraycopy(o.edgePriority, 0, edgePriority, 0, edgeCount);
        System.arraycopy(o.edgeEgress, 0, edgeEgress, 0, edgeCount);
        System.arraycopy(o.edgeTarget, 0, edgeTarget, 0, edgeCount);
    }

    /**
     * The view of a switch split among workers whose detection is off: no edges; each port's MAC and its PFC sender from the
     * worker that owns the port ({@code parts[workerOf[p]]}).
     */
    public void mergeWithoutDetection(DeadlockSnapshot[] parts, int[] workerOf) {
        enabled = false;
        checkNanos = 0;
        persistNanos = 0;
        graceNanos = 0;
        checks = 0;
        deadlocks = 0;
        present = false;
        watched.length = 0;
        reportCount = 0;
        edgeCount = 0;
        for (int p = 0; p < ports; p++) {
            DeadlockSnapshot owner = parts[workerOf[p]];
            portMac[p] = owner.portMac[p];
            pfcSenderMac[p] = owner.pfcSenderMac[p];
        }
        for (int p = 0; p < ports; p++) {
            pfcSenderPort[p] = -1;
            for (int own = 0; own < ports && pfcSenderMac[p] != 0; own++) {
                if (portMac[own] == pfcSenderMac[p]) {
                    pfcSenderPort[p] = own;
                }
            }
        }
    }

    /** Copies the state of {@code core} and its watch {@code w} (null: off) at {@code now}. Call on the thread that owns the core. */
    public void capture(PfcPortState core, DeadlockWatch w, long now) {
        enabled = w != null;
        checkNanos = w == null ? 0 : w.config().checkNanos();
        persistNanos = w == null ? 0 : w.config().persistNanos();
        graceNanos = w == null ? 0 : w.config().graceNanos();
        checks = w == null ? 0 : w.checks();
        deadlocks = w == null ? 0 : w.deadlocks();
        present = w != null && w.present();
        watched.length = 0;
        reportCount = 0;
        if (w != null) {
            w.watched(watched);
            reportCount = (int) Math.min(deadlocks, DeadlockWatch.HISTORY);
            for (int i = 0; i < reportCount; i++) {
                reports[i].copyFrom(w.report(i));
            }
        }
        for (int p = 0; p < ports; p++) {
            portMac[p] = core.portMac(p);
            pfcSenderMac[p] = core.pfcSenderMac(p);
            pfcSenderPort[p] = LocalWaitFor.localPort(core, pfcSenderMac[p]);
        }
        edgeCount = 0;
        for (int p = 0; p < ports; p++) {
            for (int q = 0; q < PRIORITIES; q++) {
                if (!core.isAdvertisingXoff(p, q)) {
                    continue;
                }
                for (int e = 0; e < ports; e++) {
                    if (LocalWaitFor.egressWaits(core, p, q, e, now)) {
                        edgeIngress[edgeCount] = p;
                        edgePriority[edgeCount] = q;
                        edgeEgress[edgeCount] = e;
                        int t = pfcSenderPort[e];
                        edgeTarget[edgeCount] = t >= 0 && core.isAdvertisingXoff(t, q) ? t : -1;
                        edgeCount++;
                    }
                }
            }
        }
    }
}

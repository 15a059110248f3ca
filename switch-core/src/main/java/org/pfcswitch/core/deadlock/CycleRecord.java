package org.pfcswitch.core.deadlock;

/**
 * One cycle of one switch, as plain numbers (preallocated, copied, never built on the hot path):
 * for each hop the ingress port that pauses its neighbour and the egress port it waits on, the
 * priority (the same all round: a pause stops one priority), when a check first saw the cycle and
 * when it was reported (-1: not yet).
 */
public final class CycleRecord {

    public int length;
    public final int[] ingress;
    public final int[] egress;
    public int priority;
    public long sinceNanos = -1;
    public long reportedNanos = -1;

    public CycleRecord(int capacity) {
        ingress = new int[capacity];
        egress = new int[capacity];
    }

    /** The cycle {@code p} watches (nodes of a {@link LocalWaitFor}), reported at {@code reportedAt} (-1: not yet). */
    void set(CyclePersistence p, long reportedAt) {
        length = p.length();
        for (int i = 0; i < length; i++) {
            ingress[i] = p.node(i) / LocalWaitFor.PRIORITIES;
            egress[i] = p.slot(i);
        }
        priority = length == 0 ? 0 : p.node(0) % LocalWaitFor.PRIORITIES;
        sinceNanos = p.since();
        reportedNanos = reportedAt;
    }

    public void copyFrom(CycleRecord o) {
        length = o.length;
        System.arraycopy(o.ingress, 0, ingress, 0, o.length);
        System.arraycopy(o.egress, 0, egress, 0, o.length);
        priority = o.priority;
        sinceNanos = o.sinceNanos;
        reportedNanos = o.reportedNanos;
    }

    /**
     * {@code h1/3 -> out h0 -> h1/3}: each ingress queue (port name / priority), the egress it
     * waits on, back to the first. For logs and views (allocates).
     */
    public String describe(java.util.List<String> portNames) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < length; i++) {
            b.append(portNames.get(ingress[i])).append('/').append(priority).append(" -> out ")
                    .append(portNames.get(egress[i])).append(" -> ");
        }
        return b.append(portNames.get(ingress[0])).append('/').append(priority).toString();
    }
}

package org.pfcswitch.dataplane;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One worker's counters: plain {@code long} arrays with a single writer (the worker thread),
 * indexed by switch port or by {@code port * 8 + priority}. No atomics and no sharing of cache
 * lines between workers; a total is the sum over the workers' instances.
 *
 * <p>How a reader on another thread (the log at shutdown, a future Prometheus exporter) sees them:
 * the worker stores with {@code setOpaque} and readers load with {@link #get} ({@code getOpaque}),
 * so each read is a whole, recent 64-bit value that the JIT cannot hoist out of a loop; there is
 * no ordering between different counters, which a scrape does not need. After
 * {@link Forwarder#stop} joined the workers, plain reads are exact.
 */
public final class PortCounters {

    public static final int PRIORITIES = 8;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private final int ports;

    /** Frames and bytes received, by {@code port * 8 + priority} (PFC and PAUSE frames included). */
    public final long[] rxFrames;
    public final long[] rxBytes;
    /** Frames and bytes the port's TX queue took. */
    public final long[] txFrames;
    public final long[] txBytes;
    /** Frames for this egress port dropped because its TX queue stayed full after the retries. */
    public final long[] txDropFull;
    /** Frames for this egress port dropped because the owning worker's hand-off ring was full. */
    public final long[] handoffDrop;
    /** PFC frames received, by {@code port * 8 + priority}, once for each class-enable bit set. */
    public final long[] pfcRx;
    /** 802.3x PAUSE frames received (they pause all priorities), by port. */
    public final long[] pauseRx;
    /** Other link-local control frames: MAC control (0x8808) of an unknown or malformed opcode, BFC control (0x88B6): dropped, by port. */
    public final long[] macControlOtherRx;
    /** Frames shorter than an Ethernet header: dropped, by port. */
    public final long[] runtRx;
    /**
     * Frames whose VLAN tags or IPv4 header did not parse (forwarded anyway, priority from what
     * parsed). The forwarder reads no deeper ({@code PriorityClassifier.classifyRaw}), so bad
     * UDP or RoCE headers behind a good IPv4 header are not counted here.
     */
    public final long[] malformedRx;
    /** Frames flooded, by ingress port (broadcast, multicast or unknown destination). */
    public final long[] floodedRx;
    /** Frames filtered because their destination is behind their ingress port, by ingress port. */
    public final long[] filteredRx;

    public PortCounters(int ports) {
        this.ports = ports;
        rxFrames = new long[ports * PRIORITIES];
        rxBytes = new long[ports * PRIORITIES];
        txFrames = new long[ports];
        txBytes = new long[ports];
        txDropFull = new long[ports];
        handoffDrop = new long[ports];
        pfcRx = new long[ports * PRIORITIES];
        pauseRx = new long[ports];
        macControlOtherRx = new long[ports];
        runtRx = new long[ports];
        malformedRx = new long[ports];
        floodedRx = new long[ports];
        filteredRx = new long[ports];
    }

    public int ports() {
        return ports;
    }

    /** Writer side: only the owning worker calls this. */
    static void add(long[] counter, int index, long delta) {
        LONGS.setOpaque(counter, index, counter[index] + delta);
    }

    /** Reader side, from any thread. */
    public static long get(long[] counter, int index) {
        return (long) LONGS.getOpaque(counter, index);
    }

    /** Sum of {@code counter[from..to)} read opaquely, e.g. all priorities of one port. */
    public static long sum(long[] counter, int from, int to) {
        long s = 0;
        for (int i = from; i < to; i++) {
            s += get(counter, i);
        }
        return s;
    }
}

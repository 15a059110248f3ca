package org.pfcswitch.core.trace;

import java.util.Arrays;

import org.pfcswitch.core.SwitchCounters;

/**
 * A live trace of a switch whose ports are split among workers: one {@link TraceRecorder} per
 * worker, each sampling its own ports on its own thread into its own ring ({@link
 * TraceRecorder#part}), and the merge of their samples into the records one recorder of the whole
 * switch writes ({@link TraceWriter}'s format), so that a file from N workers reads exactly as one
 * from one worker. A one-worker switch goes through the same merge with one ring.
 *
 * <p><b>One merged sample per period.</b> Each worker samples at its first pass at or after each
 * multiple of the period; the merge takes the earliest period any worker has sampled and, once every
 * worker has either sampled it (its sample complete: its {@code buffer} record read, or the next
 * sample begun) or has begun a later period (it made no pass in that one, asleep or stalled: its
 * state is as at its previous sample), writes one sample: the queue records of every worker's ports
 * in port order, each queue's egress bytes the sum of the workers' parts, the PFC records that
 * arrived since the previous merged sample in port order, and a buffer record, the sum of the
 * workers' own bytes. Its time is the latest of the worker samples it joined. Nothing is written
 * before every worker has sampled once (PFC records of those first samples are kept for the first
 * merged one), and a worker whose ring is empty holds the merge up until its next sample or until
 * {@link #producersStopped}; meanwhile the other rings fill, and drop what does not fit (counted).
 *
 * <p>Memory: the rings, and per worker and queue the last egress part, allocated here; {@link
 * #drain} allocates nothing. The producers are the workers (each its own recorder); the consumer is
 * the one thread that drains (a {@link TraceWriter}).
 */
public final class TraceMerge implements TraceSource {

    private static final int PRIORITIES = SwitchCounters.PRIORITIES;
    /** PFC record types in the order a recorder writes them per (port, priority). */
    private static final int PFC_TYPES = 6;

    private final TraceRecorder[] recorders;
    private final TraceRing[] rings;
    private final long everyNanos;
    private final int ports;
    private volatile boolean producersStopped;

    // Per worker, within one drain step: the period of its head sample and that sample's records.
    private final long[] period;
    private final int[] length;
    private final boolean[] started;
    // The state of the switch as the merged samples so far left it.
    private final boolean[] traced;
    private final long[] ingress;
    private final long[] threshold;
    private final long[][] egressPart;
    private final long[] bufferPart;
    /** PFC frames since the last merged sample, by (port * 8 + priority) * 6 + type. */
    private final long[] pfcSince;
    private long samples;

    /**
     * @param ownerOf      by switch port, the worker that owns it (0 to N-1)
     * @param everyNanos   sample period
     * @param ringCapacity records each worker's ring holds (a power of two)
     */
    public TraceMerge(int[] ownerOf, long everyNanos, int ringCapacity) {
        int workers = Arrays.stream(ownerOf).max().orElse(0) + 1;
        this.everyNanos = everyNanos;
        this.ports = ownerOf.length;
        this.recorders = new TraceRecorder[workers];
        this.rings = new TraceRing[workers];
        for (int w = 0; w < workers; w++) {
            boolean[] owned = new boolean[ports];
            for (int p = 0; p < ports; p++) {
                owned[p] = ownerOf[p] == w;
            }
            recorders[w] = TraceRecorder.part(everyNanos, owned, ringCapacity);
            rings[w] = recorders[w].ring();
        }
        int keys = ports * PRIORITIES;
        this.period = new long[workers];
        this.length = new int[workers];
        this.started = new boolean[workers];
        this.traced = new boolean[keys];
        this.ingress = new long[keys];
        this.threshold = new long[keys];
        this.egressPart = new long[workers][keys];
        this.bufferPart = new long[workers];
        this.pfcSince = new long[keys * PFC_TYPES];
    }

    /** Worker {@code w}'s recorder: bind and sample it on that worker's thread only. */
    public TraceRecorder recorder(int w) {
        return recorders[w];
    }

    public int workers() {
        return recorders.length;
    }

    /** Merged samples written so far. */
    public long samples() {
        return samples;
    }

    /** Every worker took its last sample: the merge writes what the rings hold without waiting. */
    public void producersStopped() {
        producersStopped = true;
    }

    @Override
    public long dropped() {
        long n = 0;
        for (TraceRing r : rings) {
            n += r.dropped();
        }
        return n;
    }

    /**
     * Consumer only. Writes every merged sample that is ready, as long as fewer than {@code max}
     * records were handed over (so one more sample's records may pass {@code max}).
     */
    @Override
    public int drain(RecordConsumer to, int max) {
        int handed = 0;
        while (handed < max) {
            boolean stopped = producersStopped;
            long next = Long.MAX_VALUE;
            for (int w = 0; w < rings.length; w++) {
                int available = rings[w].available(Integer.MAX_VALUE);
                if (available == 0) {
                    if (!stopped) {
                        return handed;                 // it may still sample the earliest period
                    }
                    period[w] = Long.MAX_VALUE;
                    length[w] = 0;
                    continue;
                }
                period[w] = Math.floorDiv(rings[w].word(0, 0), everyNanos);
                length[w] = sampleLength(rings[w], available, stopped);
                next = Math.min(next, period[w]);
            }
            if (next == Long.MAX_VALUE) {
                return handed;
            }
            long time = Long.MIN_VALUE;
            for (int w = 0; w < rings.length; w++) {
                if (period[w] == next) {
                    if (length[w] == 0) {
                        return handed;                 // its sample of that period is still being written
                    }
                    time = Math.max(time, rings[w].word(0, 0));
                }
            }
            for (int w = 0; w < rings.length; w++) {
                if (period[w] == next) {
                    take(w);
                    rings[w].consume(length[w]);
                    started[w] = true;
                }
            }
            if (allStarted()) {
                handed += write(to, time);
                samples++;
            }
        }
        return handed;
    }

    /** The records of the ring's head sample, or 0 while it is not complete. */
    private static int sampleLength(TraceRing ring, int available, boolean stopped) {
        long time = ring.word(0, 0);
        for (int k = 0; k < available; k++) {
            if (ring.word(k, 0) != time) {
                return k;                              // its buffer record was dropped: the next sample began
            }
            if (TraceRecorder.kind(ring.word(k, 1)) == TraceRecorder.BUFFER) {
                return k + 1;
            }
        }
        return stopped ? available : 0;
    }

    /** Takes worker {@code w}'s head sample into the merged state. */
    private void take(int w) {
        TraceRing ring = rings[w];
        for (int k = 0; k < length[w]; k++) {
            long header = ring.word(k, 1);
            long a = ring.word(k, 2);
            int key = TraceRecorder.port(header) * PRIORITIES + TraceRecorder.priority(header);
            switch (TraceRecorder.kind(header)) {
                case TraceRecorder.QUEUE -> {
                    traced[key] = true;
                    ingress[key] = a;
                    egressPart[w][key] = ring.word(k, 3);
                    threshold[key] = ring.word(k, 4);
                }
                case TraceRecorder.EGRESS_PART -> egressPart[w][key] = a;
                case TraceRecorder.BUFFER -> bufferPart[w] = a;
                default -> {
                    int type = pfcType(TraceRecorder.kind(header), TraceRecorder.event(header));
                    if (type >= 0) {
                        pfcSince[key * PFC_TYPES + type] += a;
                    }
                }
            }
        }
    }

    private boolean allStarted() {
        for (boolean s : started) {
            if (!s) {
                return false;
            }
        }
        return true;
    }

    /** Writes one merged sample at {@code time}; returns its records. */
    private int write(RecordConsumer to, long time) {
        int n = 0;
        for (int key = 0; key < traced.length; key++) {
            if (traced[key]) {
                long egress = 0;
                for (long[] part : egressPart) {
                    egress += part[key];
                }
                to.accept(time, TraceRecorder.header(TraceRecorder.QUEUE, TraceRecorder.NONE, key / PRIORITIES,
                        key % PRIORITIES), ingress[key], egress, threshold[key]);
                n++;
            }
        }
        for (int i = 0; i < pfcSince.length; i++) {
            long count = pfcSince[i];
            if (count != 0) {
                int key = i / PFC_TYPES;
                int type = i % PFC_TYPES;
                to.accept(time, TraceRecorder.header(PFC_KIND[type], PFC_EVENT[type], key / PRIORITIES, key % PRIORITIES),
                        count, 0, 0);
                pfcSince[i] = 0;
                n++;
            }
        }
        long buffer = 0;
        for (long part : bufferPart) {
            buffer += part;
        }
        to.accept(time, TraceRecorder.header(TraceRecorder.BUFFER, TraceRecorder.NONE, 0, 0), buffer, 0, 0);
        return n + 1;
    }

    private static final int[] PFC_KIND = {TraceRecorder.PFC_TX, TraceRecorder.PFC_TX, TraceRecorder.PFC_RX,
        TraceRecorder.PFC_RX, TraceRecorder.PFCWD, TraceRecorder.PFCWD};
    private static final int[] PFC_EVENT = {TraceRecorder.XOFF, TraceRecorder.XON, TraceRecorder.XOFF, TraceRecorder.XON,
        TraceRecorder.STORM, TraceRecorder.RESTORE};

    private static int pfcType(int kind, int event) {
        for (int t = 0; t < PFC_TYPES; t++) {
            if (PFC_KIND[t] == kind && PFC_EVENT[t] == event) {
                return t;
            }
        }
        return -1;
    }
}

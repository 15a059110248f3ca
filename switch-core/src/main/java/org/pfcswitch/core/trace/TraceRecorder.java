package org.pfcswitch.core.trace;

import java.util.Arrays;

import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.mmu.AdmissionScheme;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Samples a {@link SwitchCore}'s ingress queues, XOFF thresholds and PFC frames into a
 * {@link TraceRing}, from the core's public state only. The driver that owns the core calls
 * {@link #sample} on every pass of its loop (live) or after every event it delivers (virtual time);
 * the recorder keeps one sample per {@code everyNanos}: the first call at or after each multiple of
 * it. A trace thread drains the ring ({@link TraceWriter}).
 *
 * <p>Per sample, for each traced (port, priority) one {@link #QUEUE} record:
 * {@code [time, header, ingress bytes, egress bytes, XOFF threshold]}, where the ingress bytes are
 * the MMU ledger's ingress view of the queue (private + shared + headroom), the egress bytes its
 * egress view of queue (port, priority) and the threshold the scheme's current one in the same units
 * ({@link org.pfcswitch.mmu.AdmissionScheme#xoffThresholdBytes}). Then for each traced port and
 * each of the 8 priorities, one {@link #PFC_TX} or {@link #PFC_RX} record per counter that moved
 * since the previous sample: {@code [time, header, count, 0, 0]}, XOFF (pause quanta &gt; 0, refreshes
 * included) or XON (quanta 0). A PFC record's time is that of the sample that saw the counter move:
 * the frame left or arrived in the sample period before it, so PFC timing is exact to one period.
 * Last, one {@link #BUFFER} record: {@code [time, header, bytes the buffer holds, 0, 0]}.
 *
 * <p>A switch split among workers is traced by one recorder per worker ({@link #part}), each on its
 * worker's thread into a ring of its own: queue and PFC records for the ports the worker owns (their
 * ingress queues and PFC state are exact there), an {@link #EGRESS_PART} record for each traced
 * queue of another worker's port (the bytes this worker charged that wait in that egress queue), and
 * as {@link #BUFFER} record the bytes this worker's ledger charged. A queue record's egress bytes
 * and the buffer record are then this worker's part; {@link TraceMerge} adds the parts up into the
 * records of one recorder of the whole switch.
 *
 * <p>The header word packs kind (bits 0-3), event (4-7), priority (8-15) and port (16-47); decode
 * with {@link #kind}, {@link #event}, {@link #priority} and {@link #port}.
 *
 * <p>Allocation: the constructor preallocates the ring; the first {@link #sample} (or an explicit
 * {@link #bind}) sizes the per-port arrays for the core it sees. After that, {@code sample} allocates
 * nothing. Not thread-safe: one producer, the core's owner. A core whose MMU is changed live
 * ({@link SwitchCore#changeMmu}) is read through its new MMU from the next sample on.
 */
public final class TraceRecorder {

    /** Record kinds. */
    public static final int QUEUE = 0;
    public static final int PFC_TX = 1;
    public static final int PFC_RX = 2;
    /** The PFC watchdog declared a storm on, or restored, egress queue (port, priority). */
    public static final int PFCWD = 3;
    /** The bytes the whole buffer holds (or, from one worker's {@link #part}, the bytes its ledger charged). */
    public static final int BUFFER = 4;
    /**
     * From one worker's {@link #part} only, never in a file: the bytes this worker charged that wait
     * in egress queue (port, priority) of a port another worker owns.
     */
    public static final int EGRESS_PART = 5;
    /** Events of PFC records ({@link #NONE} for queue records). */
    public static final int NONE = 0;
    public static final int XOFF = 1;
    public static final int XON = 2;
    /** Events of {@link #PFCWD} records. */
    public static final int STORM = 3;
    public static final int RESTORE = 4;

    private static final int PRIORITIES = SwitchCounters.PRIORITIES;

    private final long everyNanos;
    private final int[] portsWanted;
    private final int[] prioritiesWanted;
    private final TraceRing ring;
    /** By port, whether this recorder's worker owns it; null: it traces a core that owns every port. */
    private final boolean[] owned;

    private SwitchCore bound;
    /** The traced ports this recorder's core owns: their queue and PFC records. */
    private int[] ports = new int[0];
    /** The traced ports other workers own: this worker's part of their egress bytes. */
    private int[] others = new int[0];
    private int[] priorities = new int[0];
    /** Counter values at the previous sample, by port * 8 + priority. */
    private long[] lastXoffTx;
    private long[] lastXonTx;
    private long[] lastStorms;
    private long[] lastRestorations;
    private long[] lastXoffRx;
    private long[] lastXonRx;
    private long nextSampleAt = Long.MIN_VALUE;
    private long samples;
    private long lastSampleAt = Long.MIN_VALUE;

    /**
     * @param everyNanos   sample period, &gt; 0
     * @param ports        ports to trace, or null for every port of the core
     * @param priorities   priorities whose ingress queues to trace, or null for every lossless priority
     *                     of the core's MMU; PFC events are recorded for all 8 priorities of the traced ports
     * @param ringCapacity records the ring holds (a power of two); when the consumer falls behind, the
     *                     excess is dropped and counted ({@link TraceRing#dropped()})
     */
    public TraceRecorder(long everyNanos, int[] ports, int[] priorities, int ringCapacity) {
        this(everyNanos, ports, priorities, ringCapacity, null);
    }

    private TraceRecorder(long everyNanos, int[] ports, int[] priorities, int ringCapacity, boolean[] owned) {
        if (everyNanos <= 0) {
            throw new IllegalArgumentException("trace sample period must be > 0 ns, got " + everyNanos);
        }
        if (priorities != null) {
            for (int p : priorities) {
                if (p < 0 || p >= PRIORITIES) {
                    throw new IllegalArgumentException("trace priority must be 0..7, got " + p);
                }
            }
        }
        this.everyNanos = everyNanos;
        this.portsWanted = ports == null ? null : ports.clone();
        this.prioritiesWanted = priorities == null ? null : priorities.clone();
        this.ring = new TraceRing(ringCapacity);
        this.owned = owned == null ? null : owned.clone();
    }

    /**
     * One worker's part of a trace of every port and every lossless priority of a switch whose ports
     * are split among workers: {@code owned[p]} says whether this worker owns port {@code p}.
     */
    public static TraceRecorder part(long everyNanos, boolean[] owned, int ringCapacity) {
        return new TraceRecorder(everyNanos, null, null, ringCapacity, owned);
    }

    /** Every port, every lossless priority. */
    public TraceRecorder(long everyNanos, int ringCapacity) {
        this(everyNanos, null, null, ringCapacity);
    }

    /** The most records one sample writes for {@code ports} traced ports and {@code priorities} traced priorities. */
    public static int maxRecordsPerSample(int ports, int priorities) {
        return ports * priorities + ports * PRIORITIES * 4 + 1;
    }

    public TraceRing ring() {
        return ring;
    }

    public long everyNanos() {
        return everyNanos;
    }

    /** Samples taken so far. */
    public long samples() {
        return samples;
    }

    /** When the last sample was taken ({@link Long#MIN_VALUE} before the first). */
    public long lastSampleNanos() {
        return lastSampleAt;
    }

    /** The traced ports this recorder's core owns (after {@link #bind}; empty before). */
    public int[] ports() {
        return ports.clone();
    }

    /** The priorities whose queues are traced (after {@link #bind}; empty before). */
    public int[] priorities() {
        return priorities.clone();
    }

    /**
     * Binds to {@code core}: resolves the default ports and priorities, sizes the per-port arrays and
     * takes the core's PFC counters as the baseline (frames before this are not reported). Called by
     * the first {@link #sample} of a core; a driver may call it before its loop starts so the loop
     * never allocates. Owner thread only.
     */
    public void bind(SwitchCore core) {
        int n = core.ports();
        int[] p = portsWanted;
        if (p == null) {
            p = new int[n];
            for (int i = 0; i < n; i++) {
                p[i] = i;
            }
        }
        for (int port : p) {
            if (port < 0 || port >= n) {
                throw new IllegalArgumentException("trace port " + port + " is not a port of the switch (0.." + (n - 1) + ")");
            }
        }
        int[] q = prioritiesWanted;
        if (q == null) {
            MmuConfig cfg = core.mmu().config();
            q = new int[cfg.losslessCount()];
            int k = 0;
            for (int prio = 0; prio < PRIORITIES; prio++) {
                if (cfg.isLossless(prio)) {
                    q[k++] = prio;
                }
            }
            q = Arrays.copyOf(q, k);
        }
        SwitchCounters c = core.counters();
        int[] mine = p;
        int[] theirs = new int[0];
        if (owned != null) {
            mine = Arrays.stream(p).filter(port -> owned[port]).toArray();
            theirs = Arrays.stream(p).filter(port -> !owned[port]).toArray();
        }
        ports = mine;
        others = theirs;
        priorities = q;
        lastXoffTx = c.pfcXoffTx.clone();
        lastXonTx = c.pfcXonTx.clone();
        lastXoffRx = c.pfcXoffRx.clone();
        lastXonRx = c.pfcXonRx.clone();
        lastStorms = c.pfcwdStorms.clone();
        lastRestorations = c.pfcwdRestorations.clone();
        bound = core;
    }

    /**
     * Takes a sample of {@code core} if {@code nowNanos} reached the next multiple of the period;
     * otherwise returns at once. Owner thread only; allocates nothing once bound.
     */
    public void sample(SwitchCore core, long nowNanos) {
        if (nowNanos < nextSampleAt) {
            return;
        }
        sampleNow(core, nowNanos);
    }

    /**
     * Takes a sample of {@code core} now, whatever the period; the next {@link #sample} is due at
     * the next multiple of the period. For a last sample when a run or a recording ends, so that the
     * PFC rows add up to the core's counters. Owner thread only.
     */
    public void sampleNow(SwitchCore core, long nowNanos) {
        if (core != bound) {
            bind(core);
        }
        nextSampleAt = (Math.floorDiv(nowNanos, everyNanos) + 1) * everyNanos;
        lastSampleAt = nowNanos;
        samples++;
        Mmu mmu = core.mmu();
        BufferLedger ledger = mmu.ledger();
        AdmissionScheme scheme = mmu.scheme();
        int[] p = ports;
        int[] q = priorities;
        for (int i = 0; i < p.length; i++) {
            int port = p[i];
            for (int j = 0; j < q.length; j++) {
                int prio = q[j];
                int key = BufferLedger.key(port, prio);
                ring.offer(nowNanos, header(QUEUE, NONE, port, prio), ledger.ingressBytes(key), ledger.ownEgressBytes(key),
                        scheme.xoffThresholdBytes(port, prio, nowNanos));
            }
        }
        int[] o = others;
        for (int i = 0; i < o.length; i++) {
            for (int j = 0; j < q.length; j++) {
                int key = BufferLedger.key(o[i], q[j]);
                ring.offer(nowNanos, header(EGRESS_PART, NONE, o[i], q[j]), ledger.ownEgressBytes(key), 0, 0);
            }
        }
        SwitchCounters c = core.counters();
        for (int i = 0; i < p.length; i++) {
            int base = p[i] * PRIORITIES;
            for (int prio = 0; prio < PRIORITIES; prio++) {
                int k = base + prio;
                events(c.pfcXoffTx, lastXoffTx, k, PFC_TX, XOFF, nowNanos);
                events(c.pfcXonTx, lastXonTx, k, PFC_TX, XON, nowNanos);
                events(c.pfcXoffRx, lastXoffRx, k, PFC_RX, XOFF, nowNanos);
                events(c.pfcXonRx, lastXonRx, k, PFC_RX, XON, nowNanos);
                events(c.pfcwdStorms, lastStorms, k, PFCWD, STORM, nowNanos);
                events(c.pfcwdRestorations, lastRestorations, k, PFCWD, RESTORE, nowNanos);
            }
        }
        ring.offer(nowNanos, header(BUFFER, NONE, 0, 0), ledger.ownTotalUsed(), 0, 0);
    }

    private void events(long[] counter, long[] last, int k, int kind, int event, long now) {
        long v = counter[k];
        long delta = v - last[k];
        if (delta != 0) {
            last[k] = v;
            ring.offer(now, header(kind, event, k / PRIORITIES, k % PRIORITIES), delta, 0, 0);
        }
    }

    /** The header word of a record. */
    public static long header(int kind, int event, int port, int priority) {
        return (kind & 0xF) | (event & 0xF) << 4 | (long) (priority & 0xFF) << 8 | ((long) port & 0xFFFF_FFFFL) << 16;
    }

    public static int kind(long header) {
        return (int) (header & 0xF);
    }

    public static int event(long header) {
        return (int) (header >>> 4 & 0xF);
    }

    public static int priority(long header) {
        return (int) (header >>> 8 & 0xFF);
    }

    public static int port(long header) {
        return (int) (header >>> 16 & 0xFFFF_FFFFL);
    }
}

package org.pfcswitch.mmu;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One shared buffer kept by several workers' ledgers, when a switch's ports are split among
 * threads. Each worker's {@link BufferLedger} is exact for what it admitted (its own ingress
 * queues, since a port's ingress belongs to one worker); the switch-wide views (pools, totals)
 * and the egress views also hold what the other workers admitted, which each ledger reads here as
 * the others last <em>published</em> it.
 *
 * <p><b>No per-frame write to a shared line.</b> A worker publishes its switch-wide counters and
 * its egress bytes per (port, queue) into a block of its own (padded: no other worker writes the
 * lines around it), with opaque stores, when what it charged since its last publication reaches
 * {@link #quantumBytes}, and whenever its driver says so (the switch core: at the end of a pass, at
 * most every 20 us). Readers load the other blocks with opaque loads: each value is recent and
 * never torn, values of different fields need not be from the same instant, and none of that needs
 * ordering, since each field is bounded on its own (below).
 *
 * <p><b>Staleness bound.</b> What worker w has charged and not yet published is below
 * {@code quantumBytes + maxChargedBytes} at any instant (it publishes right after the charge that
 * reaches the quantum). Releases not yet published only make the others see more than is there,
 * which is safe. So a ledger's view of any switch-wide or egress counter is at most
 * {@code (workers - 1) * }{@link #stalenessBoundBytes} below the truth; a switch reserves that much of
 * its buffer from the shared pool ({@link #reserveBytes}), and no scheme can then admit past the
 * buffer it was configured with. With one worker there are no peers and nothing is reserved.
 */
public final class LedgerPeers {

    /** Field offsets in a worker's block. */
    static final int PRIVATE = 0;
    static final int SHARED_LOSSLESS = 1;
    static final int SHARED_LOSSY = 2;
    static final int HEADROOM = 3;
    static final int EGRESS_LOSSLESS = 4;
    static final int EGRESS_LOSSY = 5;
    /**
     * Sums of the fields above, published with them: the views read most often on the frame path
     * (the shared pool's occupancy, the whole buffer's) then cost one load per other worker
     * instead of two and four.
     */
    static final int SHARED = 6;
    static final int USED = 7;
    /** Then the egress bytes per key ({@code port * 8 + queue}), then per egress port. */
    static final int EGRESS_KEYS = 8;

    /** 128 bytes of longs before and after each block: adjacent-line prefetch never pairs two writers' lines. */
    private static final int PAD = 16;
    private static final VarHandle CELL = MethodHandles.arrayElementVarHandle(long[].class);

    private final int workers;
    private final int keys;
    private final int stride;
    private final long quantumBytes;
    private final long maxChargedBytes;
    private final long[] cells;

    /**
     * @param quantumBytes    what a worker charges before it must publish
     * @param maxChargedBytes the most one frame is charged (an MTU-size frame rounded to cells)
     */
    public LedgerPeers(int workers, int ports, long quantumBytes, long maxChargedBytes) {
        if (workers < 2) {
            throw new IllegalArgumentException("ledger peers need at least 2 workers, got " + workers);
        }
        if (quantumBytes < 1 || maxChargedBytes < 1) {
            throw new IllegalArgumentException("the publication quantum and the largest charge must be positive");
        }
        this.workers = workers;
        this.keys = ports * MmuConfig.PRIORITIES;
        this.quantumBytes = quantumBytes;
        this.maxChargedBytes = maxChargedBytes;
        int block = EGRESS_KEYS + keys + ports;
        this.stride = block + PAD;
        this.cells = new long[PAD + workers * stride];
    }

    public int workers() {
        return workers;
    }

    /** What a worker charges before it publishes. */
    public long quantumBytes() {
        return quantumBytes;
    }

    /** How far below the truth one other worker's published counters can be. */
    public long stalenessBoundBytes() {
        return quantumBytes + maxChargedBytes;
    }

    /** What the switch reserves from its shared pool so that stale views never admit past the buffer. */
    public long reserveBytes() {
        return (workers - 1) * stalenessBoundBytes();
    }

    private int base(int worker) {
        return PAD + worker * stride;
    }

    /** Sum of the other workers' published {@code field}. */
    long others(int me, int field) {
        long sum = 0;
        for (int w = 0; w < workers; w++) {
            if (w != me) {
                sum += (long) CELL.getOpaque(cells, base(w) + field);
            }
        }
        return sum;
    }

    /** Sum of the other workers' published egress bytes of {@code key}. */
    long othersEgress(int me, int key) {
        return others(me, EGRESS_KEYS + key);
    }

    /** Sum of the other workers' published egress bytes of port {@code port}. */
    long othersEgressPort(int me, int port) {
        return others(me, EGRESS_KEYS + keys + port);
    }

    /** Worker {@code me}'s counters, as its ledger holds them now (only {@code me}'s thread calls this). */
    void publish(int me, long privateUsed, long sharedLossless, long sharedLossy, long headroomUsed,
                 long egressLossless, long egressLossy, long[] egressByKey, long[] port, int portStride, int portEgress) {
        int b = base(me);
        CELL.setOpaque(cells, b + PRIVATE, privateUsed);
        CELL.setOpaque(cells, b + SHARED_LOSSLESS, sharedLossless);
        CELL.setOpaque(cells, b + SHARED_LOSSY, sharedLossy);
        CELL.setOpaque(cells, b + HEADROOM, headroomUsed);
        CELL.setOpaque(cells, b + EGRESS_LOSSLESS, egressLossless);
        CELL.setOpaque(cells, b + EGRESS_LOSSY, egressLossy);
        CELL.setOpaque(cells, b + SHARED, sharedLossless + sharedLossy);
        CELL.setOpaque(cells, b + USED, privateUsed + sharedLossless + sharedLossy + headroomUsed);
        for (int k = 0; k < keys; k++) {
            CELL.setOpaque(cells, b + EGRESS_KEYS + k, egressByKey[k]);
        }
        int ports = keys / MmuConfig.PRIORITIES;
        for (int p = 0; p < ports; p++) {
            CELL.setOpaque(cells, b + EGRESS_KEYS + keys + p, port[p * portStride + portEgress]);
        }
    }
}

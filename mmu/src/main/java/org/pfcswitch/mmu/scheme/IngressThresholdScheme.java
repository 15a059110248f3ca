package org.pfcswitch.mmu.scheme;

import java.util.ArrayList;
import java.util.List;
import org.pfcswitch.mmu.AdmissionScheme;
import org.pfcswitch.mmu.BufferLayout;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.FlowControl;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.ParameterDoc;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.Verdict;

/**
 * The SIH ingress pipeline that ST, DT, SPFC and CaPFC share; they differ only in the shared-pool
 * threshold of an ingress queue ({@link #sharedLimit}).
 *
 * <p>Placement (DSH Algorithm 1, with {@code ≤} boundaries): private while {@code priv + len ≤ ρ};
 * else shared while {@code shr + len ≤ limit} and the pool has room; else the queue's own headroom
 * Φ (and the headroom pool, when oversubscribed); else a {@code lossless_violation}.
 *
 * <p>Flow control (HPCC rule, DSH spec A4: the literal "ω_s &gt; T" can miss a PAUSE): XOFF after
 * admission when {@code hdrm > 0 || shr ≥ limit}; XON at a departure when {@code hdrm == 0} and
 * {@code shr == 0 || shr + xonOffset < resumeLimit}. The {@code shr == 0} escape guarantees resume
 * even when the threshold has collapsed to 0; {@code <} keeps pause and resume disjoint when the
 * offset is 0.
 */
abstract class IngressThresholdScheme implements AdmissionScheme {
    protected final MmuConfig cfg;
    protected final BufferLedger ledger;
    protected final FlowControl fc;
    protected final BufferLayout layout;
    protected final long sharedPool;
    protected final long rho;
    private final long[] headroomPerQueue;
    private final long headroomPool;
    protected final long xonOffset;
    /**
     * {@link MmuConfig#losslessPriorityMask}, kept here: the three per-frame calls test it without
     * going through the configuration (one dependent load fewer each).
     */
    private final int losslessMask;
    private final LossyEgressDt lossy;
    private final org.pfcswitch.mmu.SchemeParameters params;

    IngressThresholdScheme(SchemeContext ctx, double headroomRatio, long xonOffset, double lossyAlpha) {
        this.cfg = ctx.config();
        this.ledger = ctx.ledger();
        this.fc = ctx.flowControl();
        this.layout = BufferLayout.perQueueHeadroom(cfg, headroomRatio);
        this.sharedPool = layout.sharedPool();
        this.rho = cfg.privateBytes();
        this.headroomPerQueue = layout.headroomPerPort();
        this.headroomPool = layout.headroomTotal();
        this.xonOffset = xonOffset;
        this.losslessMask = cfg.losslessPriorityMask();
        this.lossy = new LossyEgressDt(ledger, lossyAlpha, sharedPool);
        this.params = ctx.parameters();
    }

    /** The most shared bytes ingress queue {@code key} may hold right now. */
    protected abstract long sharedLimit(int port, int priority, int key, long now);

    /** The threshold the XON test compares against; the same as {@link #sharedLimit} unless a scheme says otherwise. */
    protected long resumeLimit(int port, int priority, int key, long now) {
        return sharedLimit(port, priority, key, now);
    }

    /**
     * {@link #sharedLimit} at {@code now} without changing any state; what {@link #xoffThresholdBytes}
     * reports. The same as {@code sharedLimit} for every scheme whose limit is a pure function of the
     * ledger; SPFC overrides it because its limit rolls rate windows.
     */
    protected long currentSharedLimit(int port, int priority, int key, long now) {
        return sharedLimit(port, priority, key, now);
    }

    /** Hook: this queue's XOFF has just been asserted (SPFC's state-holder reset). */
    protected void onQueuePaused(int port, int priority, int key, long now) {}

    /** Hook: a lossless packet of this queue has left the switch (SPFC's rate counter). */
    protected void onLosslessDeparture(int port, int priority, int key, long bytes, long now) {}

    /** Hook for egress-side logic of every admitted packet (CaPFC). */
    protected void onEgressEnqueue(int inPort, int priority, int outPort, int queue, long bytes, long now) {}

    /** Hook for egress-side logic of every released packet (CaPFC). */
    protected void onEgressDequeue(int inPort, int priority, int outPort, int queue, long bytes, long now) {}

    private boolean isLossless(int priority) {
        return (losslessMask >>> priority & 1) != 0;
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!isLossless(priority)) {
            return lossy.decide(BufferLedger.key(outPort, queue), bytes);
        }
        int k = BufferLedger.key(inPort, priority);
        if (ledger.ingressPrivate(k) + bytes <= rho) {
            return Verdict.PRIVATE;
        }
        if (ledger.ingressShared(k) + bytes <= sharedLimit(inPort, priority, k, now)
                && ledger.sharedUsed() + bytes <= sharedPool) {
            return Verdict.SHARED;
        }
        if (ledger.ingressHeadroom(k) + bytes <= headroomPerQueue[inPort]
                && ledger.headroomUsed() + bytes <= headroomPool) {
            return Verdict.HEADROOM;
        }
        return Verdict.DROP_LOSSLESS_VIOLATION;
    }

    @Override
    public void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now) {
        if (isLossless(priority)) {
            int k = BufferLedger.key(inPort, priority);
            if (!fc.isQueueXoff(k) && (ledger.ingressHeadroom(k) > 0
                    || ledger.ingressShared(k) >= sharedLimit(inPort, priority, k, now))) {
                fc.setQueueXoff(inPort, priority, now);
                onQueuePaused(inPort, priority, k, now);
            }
        }
        onEgressEnqueue(inPort, priority, outPort, queue, bytes, now);
    }

    @Override
    public void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (isLossless(priority)) {
            int k = BufferLedger.key(inPort, priority);
            onLosslessDeparture(inPort, priority, k, bytes, now);
            if (fc.isQueueXoff(k) && ledger.ingressHeadroom(k) == 0) {
                long shr = ledger.ingressShared(k);
                if (shr == 0 || shr + xonOffset < resumeLimit(inPort, priority, k, now)) {
                    fc.clearQueueXoff(inPort, priority, now);
                }
            }
        }
        onEgressDequeue(inPort, priority, outPort, queue, bytes, now);
    }

    @Override
    public BufferLayout layout() {
        return layout;
    }

    @Override
    public List<ParameterDoc> parameters() {
        return params.docs();
    }

    @Override
    public long emptyBufferThreshold(int port, int priority) {
        return cfg.isLossless(priority) ? emptyLimit(port, priority) : lossy.emptyThreshold();
    }

    /**
     * XOFF is asserted when the queue's shared bytes reach the limit (its private bytes are full by
     * then), so in queue-length units the threshold is the queue's private bytes plus the limit.
     */
    @Override
    public long xoffThresholdBytes(int port, int priority, long now) {
        if (!cfg.isLossless(priority)) {
            return emptyBufferThreshold(port, priority);
        }
        int k = BufferLedger.key(port, priority);
        return ledger.ingressPrivate(k) + currentSharedLimit(port, priority, k, now);
    }

    /** The lossless shared limit with nothing in the buffer. */
    protected abstract long emptyLimit(int port, int priority);

    protected List<MmuExplanation.Threshold> commonThresholds() {
        List<MmuExplanation.Threshold> list = new ArrayList<>();
        list.add(new MmuExplanation.Threshold("lossy egress queue drop threshold", lossy.emptyThreshold(),
                "alpha_lossy * B_s (egress-accounted DT on the shared pool)"));
        list.add(new MmuExplanation.Threshold("XON offset", xonOffset, "resume when shr + offset < threshold"));
        return list;
    }
}

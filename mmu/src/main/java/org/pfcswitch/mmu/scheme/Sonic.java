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
import org.pfcswitch.mmu.SchemeParameters;
import org.pfcswitch.mmu.Thresholds;
import org.pfcswitch.mmu.Verdict;

/**
 * {@code sonic}: the SONiC/Broadcom two-view MMU of Reverie §2.2 and App. A. A packet is stored once
 * and counted twice, in its ingress (port, priority) and its egress (port, queue); it is admitted only
 * if both checks pass. The ingress pool {@code B_in = B − B_h} is shared by both classes with a
 * dynamic threshold; headroom is per lossless queue; egress has a lossless pool (= B) and a lossy
 * pool (0.8·B_in). A lossless queue's first byte above its ingress threshold goes to headroom and
 * raises XOFF; XON needs an empty headroom and {@code bytes < xon || bytes + xonOffset ≤ Γ_in}.
 * Because {@code Γ_in} sees lossy bytes while the lossy threshold ignores lossless ones, lossy traffic
 * wins under contention (the paper's Issues 1 and 2); the steady state is App. A's Eqs. 10–11.
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>alphaIngress</td><td>1</td><td>Reverie §4.1 [P]</td></tr>
 * <tr><td>alphaEgressLossy</td><td>1</td><td>Reverie §4.1 [P]</td></tr>
 * <tr><td>alphaEgressLossless</td><td>10000 ("infinite", H2)</td><td>ns3-datacenter artifact [A]</td></tr>
 * <tr><td>alphaIngressLossy</td><td>10000 ("infinite", H3)</td><td>ns3-datacenter artifact [A]</td></tr>
 * <tr><td>lossyPoolFraction</td><td>0.8 (B_eg○ = 0.8·B_in)</td><td>Reverie §4.1 [P]</td></tr>
 * <tr><td>xonBytes / xonOffsetBytes</td><td>1248 / 2496</td><td>artifact [A]</td></tr>
 * <tr><td>poolGuard</td><td>true: a lossless byte that would overflow the ingress pool goes to headroom</td><td>[I], spec II.10 item 6</td></tr>
 * </table>
 */
public final class Sonic implements AdmissionScheme {
    private final MmuConfig cfg;
    private final BufferLedger ledger;
    private final FlowControl fc;
    private final SchemeParameters params;
    private final BufferLayout layout;
    private final long total;
    private final long ingressPool;        // B_in = B − B_h
    private final long dtPool;             // B_in − R_total: the free term of Γ_in
    private final long lossyEgressPool;    // B_eg○
    private final long headroomPool;       // B_h
    private final long[] xoff;             // per port: headroom of each lossless queue
    private final long rho;
    private final double alphaIn;
    private final double alphaInLossy;
    private final double alphaEgLossless;
    private final double alphaEgLossy;
    private final long xon;
    private final long xonOffset;
    private final boolean poolGuard;

    public Sonic(SchemeContext ctx) {
        this.cfg = ctx.config();
        this.ledger = ctx.ledger();
        this.fc = ctx.flowControl();
        this.params = ctx.parameters();
        alphaIn = params.real("alphaIngress", 1, 0, 1e6, "Reverie §4.1 [P]");
        alphaEgLossy = params.real("alphaEgressLossy", 1, 0, 1e6, "Reverie §4.1 [P]");
        alphaEgLossless = params.real("alphaEgressLossless", 10_000, 0, 1e6, "artifact, 'infinite' (H2) [A]");
        alphaInLossy = params.real("alphaIngressLossy", 10_000, 0, 1e6, "artifact, 'infinite' (H3) [A]");
        double lossyFraction = params.real("lossyPoolFraction", 0.8, 0, 1, "Reverie §4.1: B_eg_lossy = 0.8 B_in [P]");
        xon = params.integer("xonBytes", 1248, 0, Long.MAX_VALUE, "artifact [A]");
        xonOffset = params.integer("xonOffsetBytes", 2496, 0, Long.MAX_VALUE, "artifact [A]");
        poolGuard = params.flag("poolGuard", true, "[I] spec II.10 item 6 (artifact: false)");
        params.rejectUnknown();

        BufferLayout sih = BufferLayout.perQueueHeadroom(cfg, 1);
        total = cfg.totalBytes();
        headroomPool = sih.headroomTotal();
        ingressPool = total - headroomPool;
        dtPool = sih.sharedPool();
        lossyEgressPool = (long) Math.floor(lossyFraction * ingressPool);
        xoff = sih.headroomPerPort();
        rho = cfg.privateBytes();
        List<MmuExplanation.Pool> extra = new ArrayList<>();
        extra.add(new MmuExplanation.Pool("ingress pool B_in", ingressPool, "B - B_h, both classes, incl. reserve"));
        extra.add(new MmuExplanation.Pool("egress lossless pool", total, "B (H2: lossless skips egress admission)"));
        extra.add(new MmuExplanation.Pool("egress lossy pool", lossyEgressPool, "lossyPoolFraction * B_in"));
        layout = new BufferLayout("per-queue", sih.privatePerQueue(), sih.privateTotal(), xoff, headroomPool, dtPool,
                List.copyOf(extra));
    }

    @Override
    public String name() {
        return "sonic";
    }

    private long ingressThreshold(double alpha, long poolUsed) {
        return Thresholds.dynamic(alpha, dtPool, poolUsed);
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (ledger.totalUsed() + bytes > total) {
            return cfg.isLossless(priority) ? Verdict.DROP_LOSSLESS_VIOLATION : Verdict.DROP_BUFFER_FULL;
        }
        int k = BufferLedger.key(inPort, priority);
        int e = BufferLedger.key(outPort, queue);
        long qBytes = ledger.ingressBytes(k);
        long poolUsed = ledger.sharedUsed();      // ing_pool_used = buf_used − hdrm_used − reserved_used
        if (!cfg.isLossless(priority)) {
            if (poolUsed + bytes > dtPool) {
                return Verdict.DROP_BUFFER_FULL;
            }
            if (qBytes + bytes > ingressThreshold(alphaInLossy, poolUsed)
                    || ledger.egressBytes(e) + bytes
                            > Thresholds.dynamic(alphaEgLossy, lossyEgressPool, ledger.egressUsedLossy())
                    || ledger.egressUsedLossy() + bytes > lossyEgressPool) {
                return Verdict.DROP_LOSSY_THRESHOLD;
            }
            return Verdict.SHARED;
        }
        if (ledger.egressBytes(e) + bytes > Thresholds.dynamic(alphaEgLossless, total, ledger.egressUsedLossless())) {
            return Verdict.DROP_EGRESS_LIMIT;
        }
        if (ledger.ingressPrivate(k) + bytes <= rho) {
            return Verdict.PRIVATE;
        }
        long hdrm = ledger.ingressHeadroom(k);
        // The artifact evaluates Γ_in with the packet already counted (I.bytes += L; buf_used += L).
        boolean toHeadroom = hdrm > 0 || qBytes + bytes > ingressThreshold(alphaIn, poolUsed + bytes)
                || (poolGuard && poolUsed + bytes > dtPool);
        if (!toHeadroom) {
            return Verdict.SHARED;
        }
        return hdrm + bytes <= xoff[inPort] && ledger.headroomUsed() + bytes <= headroomPool
                ? Verdict.HEADROOM : Verdict.DROP_LOSSLESS_VIOLATION;
    }

    @Override
    public void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now) {
        if (segment == Verdict.HEADROOM) {
            fc.setQueueXoff(inPort, priority, now);     // edge-triggered: FlowControl ignores a repeat
        }
    }

    @Override
    public void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(priority)) {
            return;
        }
        int k = BufferLedger.key(inPort, priority);
        if (fc.isQueueXoff(k) && ledger.ingressHeadroom(k) == 0) {
            long q = ledger.ingressBytes(k);
            if (q < xon || q + xonOffset <= ingressThreshold(alphaIn, ledger.sharedUsed())) {
                fc.clearQueueXoff(inPort, priority, now);
            }
        }
    }

    /** Γ_in, which the queue's whole length is compared with (its first byte above goes to headroom: XOFF). */
    @Override
    public long xoffThresholdBytes(int port, int priority, long now) {
        return cfg.isLossless(priority) ? ingressThreshold(alphaIn, ledger.sharedUsed()) : emptyBufferThreshold(port, priority);
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
        return cfg.isLossless(priority) ? ingressThreshold(alphaIn, 0)
                : Thresholds.dynamic(alphaEgLossy, lossyEgressPool, 0);
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        return List.of(
                new MmuExplanation.Threshold("lossless ingress PFC threshold Gamma_in", ingressThreshold(alphaIn, 0),
                        "alphaIngress * (B_in - R_total - ing_pool_used), Reverie Eq. 1"),
                new MmuExplanation.Threshold("lossy egress drop threshold Gamma_eg", Thresholds.dynamic(alphaEgLossy, lossyEgressPool, 0),
                        "alphaEgressLossy * (B_eg_lossy - eg_used_lossy)"),
                new MmuExplanation.Threshold("XON", xon, "resume when bytes < xon or bytes + xonOffset <= Gamma_in"),
                new MmuExplanation.Threshold("XON offset", xonOffset, "artifact hysteresis"));
    }
}

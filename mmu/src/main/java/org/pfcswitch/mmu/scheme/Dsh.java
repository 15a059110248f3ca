package org.pfcswitch.mmu.scheme;

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
 * {@code dsh}: Dynamic and Shared Headroom with two-level flow control (Shan et al., ToN 2025; DSH
 * spec A6–A12). Headroom is reserved once per port as insurance ({@code B_i = N_p·Φ}); everything
 * else but private is one DT-managed shared pool that also holds each queue's shared headroom.
 * <ul>
 *   <li>Queue level: XOFF when {@code ω_s > X_qoff = T − τ}, XON when {@code ω_s == 0 || ω_s + δ_q ≤ X_qoff};
 *       τ = φ̂ (Algorithm 2) unless the port has fed only one queue for over 10 ms (Algorithm 4).</li>
 *   <li>Port level: XOFF of all priorities when insurance is touched or {@code Σ_j ω_s > X_poff = N_q·T};
 *       XON once insurance is empty and {@code Σ_j ω_s == 0 || Σ_j ω_s + δ_p ≤ X_poff}.</li>
 *   <li>Placement: private, then shared within the port budget {@code N_q·T} (skipped while the port
 *       is paused), then the port's insurance; the shared pool is also guarded by {@code Σω_s ≤ B_s}.</li>
 * </ul>
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>alpha</td><td>1/16</td><td>DSH §V-A</td></tr>
 * <tr><td>wgShift, wvShift, kShift</td><td>2, 2, 2 (w_g = w_v = 1/4, k = 4)</td><td>DSH §V-A, Alg. 3</td></tr>
 * <tr><td>delayNs</td><td>0 = Φ/C (4.8 µs at 60 KB, 100 G)</td><td>[I] spec A2 (alternative: Eq. 1 delay)</td></tr>
 * <tr><td>singleQueueWindowNs</td><td>10 ms (0 disables Alg. 4)</td><td>DSH §IV-D</td></tr>
 * <tr><td>tauMode</td><td>phi_hat (phi = ICDCS'23 version, zero)</td><td>DSH §IV-D; spec A9</td></tr>
 * <tr><td>deltaQBytes, deltaPBytes</td><td>0, 0 (X_qon = X_qoff, X_pon = X_poff)</td><td>DSH §V-A experiments (design text: 2 MTU)</td></tr>
 * <tr><td>nqForXpoff</td><td>0 = number of lossless priorities (7)</td><td>[I] spec A2</td></tr>
 * <tr><td>portPauseMask</td><td>0xFF (all eight classes)</td><td>DSH §IV-F</td></tr>
 * <tr><td>sharedHeadroom</td><td>true (false: per-queue cap T, the ablation)</td><td>[I] spec A11.5</td></tr>
 * <tr><td>insurance</td><td>true (false: the Fig. 21 ablation, B_i = 0)</td><td>DSH §V-B</td></tr>
 * <tr><td>portResumeNeedsEmptyInsurance</td><td>true</td><td>[I] spec A9</td></tr>
 * <tr><td>lossyAlpha</td><td>1 (lossy traffic: egress DT on the shared pool)</td><td>[I] out of scope in DSH</td></tr>
 * </table>
 */
public final class Dsh implements AdmissionScheme {
    private static final int TAU_PHI_HAT = 0;
    private static final int TAU_PHI = 1;
    private static final int TAU_ZERO = 2;

    private final MmuConfig cfg;
    private final BufferLedger ledger;
    private final FlowControl fc;
    private final SchemeParameters params;
    private final BufferLayout layout;
    private final double alpha;
    private final long sharedPool;
    private final long rho;
    private final long[] insurance;       // per port
    private final long[] phi;             // per port: Φ, the clamp and τ in TAU_PHI mode
    private final long[] delayNs;         // per port: D of Eq. 8
    private final int nqForXpoff;
    private final int tauMode;
    private final long deltaQ;
    private final long deltaP;
    private final int portPauseMask;
    private final boolean sharedHeadroom;
    private final boolean portResumeNeedsEmptyInsurance;
    private final long windowNs;
    private final HeadroomEstimator estimator;
    private final int[] prevQueue;        // Algorithm 4, one detector per ingress port
    private final long[] windowStart;
    private final boolean[] singleQueue;
    private final LossyEgressDt lossy;

    public Dsh(SchemeContext ctx) {
        this.cfg = ctx.config();
        this.ledger = ctx.ledger();
        this.fc = ctx.flowControl();
        this.params = ctx.parameters();
        alpha = params.real("alpha", 1.0 / 16, 0, 1024, "DSH §V-A");
        int wg = (int) params.integer("wgShift", 2, 0, 16, "DSH §V-A: w_g = 1/4");
        int wv = (int) params.integer("wvShift", 2, 0, 16, "DSH §V-A: w_v = 1/4");
        int k = (int) params.integer("kShift", 2, 0, 16, "DSH §V-A: k = 4");
        long delay = params.integer("delayNs", 0, 0, Long.MAX_VALUE, "[I] spec A2: 0 = Phi/C");
        windowNs = params.integer("singleQueueWindowNs", 10_000_000, 0, Long.MAX_VALUE, "DSH §IV-D: 10 ms");
        String tau = params.choice("tauMode", "phi_hat", "DSH §IV-D (ICDCS'23: phi)", "phi_hat", "phi", "zero");
        deltaQ = params.integer("deltaQBytes", 0, 0, Long.MAX_VALUE, "DSH §V-A experiments (design: 2 MTU)");
        deltaP = params.integer("deltaPBytes", 0, 0, Long.MAX_VALUE, "DSH §V-A experiments (design: 2 MTU)");
        long nq = params.integer("nqForXpoff", 0, 0, 8, "[I] spec A2: 0 = lossless priorities per port");
        portPauseMask = (int) params.integer("portPauseMask", 0xFF, 0, 0xFF, "DSH §IV-F: all classes");
        sharedHeadroom = params.flag("sharedHeadroom", true, "[I] spec A11.5 (false = ablation)");
        boolean withInsurance = params.flag("insurance", true, "DSH §V-B (false = Fig. 21 ablation)");
        portResumeNeedsEmptyInsurance = params.flag("portResumeNeedsEmptyInsurance", true, "[I] spec A9");
        double lossyAlpha = params.real("lossyAlpha", 1, 0, 1e6, "[I] lossy is out of DSH's scope");
        params.rejectUnknown();

        tauMode = switch (tau) {
            case "phi" -> TAU_PHI;
            case "zero" -> TAU_ZERO;
            default -> TAU_PHI_HAT;
        };
        nqForXpoff = nq == 0 ? cfg.losslessCount() : (int) nq;
        int ports = cfg.portCount();
        phi = new long[ports];
        insurance = new long[ports];
        delayNs = new long[ports];
        long insuranceTotal = 0;
        for (int p = 0; p < ports; p++) {
            phi[p] = cfg.headroomBytes(p);
            insurance[p] = withInsurance ? phi[p] : 0;
            insuranceTotal += insurance[p];
            delayNs[p] = delay > 0 ? delay : cfg.port(p).nanosFor(phi[p]);
        }
        rho = cfg.privateBytes();
        long privateTotal = rho * cfg.losslessCount() * ports;
        long shared = cfg.totalBytes() - privateTotal - insuranceTotal;
        if (shared <= 0) {
            throw new IllegalArgumentException("mmu.totalBytes leaves no shared pool for scheme dsh: private "
                    + privateTotal + " B + insurance " + insuranceTotal + " B >= total, got " + cfg.totalBytes());
        }
        sharedPool = shared;
        layout = new BufferLayout("per-port insurance", rho, privateTotal, insurance, insuranceTotal, sharedPool,
                List.of());
        estimator = new HeadroomEstimator(ports * MmuConfig.PRIORITIES, wg, wv, k);
        prevQueue = new int[ports];
        java.util.Arrays.fill(prevQueue, -1);
        windowStart = new long[ports];
        singleQueue = new boolean[ports];
        lossy = new LossyEgressDt(ledger, lossyAlpha, sharedPool);
    }

    @Override
    public String name() {
        return "dsh";
    }

    /** T(t) = α·(B_s − Σω_s), Eq. 2. */
    private long threshold() {
        return Thresholds.dynamic(alpha, sharedPool, ledger.sharedUsed());
    }

    /** X_poff = N_q·T, Eq. 11. */
    private long portOffThreshold() {
        return nqForXpoff * threshold();
    }

    private long tau(int port, int key) {
        if (tauMode == TAU_ZERO || singleQueue[port]) {
            return 0;
        }
        return tauMode == TAU_PHI ? phi[port] : estimator.phiHat(key);
    }

    /** X_qoff = T − τ, Eq. 10, clamped at 0. */
    private long queueOffThreshold(int port, int key) {
        return Math.max(0, threshold() - tau(port, key));
    }

    /** Algorithm 4, per ingress port, lossless queues only; the window test is strict. */
    private void observeArrival(int port, int priority, long now) {
        if (windowNs == 0) {
            singleQueue[port] = false;
        } else if (priority != prevQueue[port]) {
            prevQueue[port] = priority;
            windowStart[port] = now;
            singleQueue[port] = false;
        } else if (now - windowStart[port] > windowNs) {
            singleQueue[port] = true;
        }
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(priority)) {
            return lossy.decide(BufferLedger.key(outPort, queue), bytes);
        }
        observeArrival(inPort, priority, now);
        int k = BufferLedger.key(inPort, priority);
        if (ledger.ingressPrivate(k) + bytes <= rho) {
            return Verdict.PRIVATE;
        }
        long t = threshold();
        if (!fc.isPortXoff(inPort)
                && ledger.portSharedLossless(inPort) + bytes <= nqForXpoff * t
                && ledger.sharedUsed() + bytes <= sharedPool
                && (sharedHeadroom || ledger.ingressShared(k) + bytes <= t)) {
            return Verdict.SHARED;
        }
        if (ledger.portHeadroom(inPort) + bytes <= insurance[inPort]) {
            return Verdict.HEADROOM;
        }
        return Verdict.DROP_LOSSLESS_VIOLATION;
    }

    @Override
    public void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now) {
        if (!cfg.isLossless(priority)) {
            return;
        }
        int k = BufferLedger.key(inPort, priority);
        estimator.update(k, ledger.ingressBytes(k), now, delayNs[inPort], phi[inPort]);
        if (!fc.isQueueXoff(k) && ledger.ingressShared(k) > queueOffThreshold(inPort, k)) {
            fc.setQueueXoff(inPort, priority, now);
        }
        if (!fc.isPortXoff(inPort)
                && (ledger.portHeadroom(inPort) > 0 || ledger.portSharedLossless(inPort) > portOffThreshold())) {
            fc.setPortXoff(inPort, portPauseMask, now);
        }
    }

    @Override
    public void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(priority)) {
            return;
        }
        int k = BufferLedger.key(inPort, priority);
        long shr = ledger.ingressShared(k);
        if (fc.isQueueXoff(k) && (shr == 0 || shr + deltaQ <= queueOffThreshold(inPort, k))) {
            fc.clearQueueXoff(inPort, priority, now);
        }
        if (fc.isPortXoff(inPort) && (!portResumeNeedsEmptyInsurance || ledger.portHeadroom(inPort) == 0)) {
            long portShared = ledger.portSharedLossless(inPort);
            if (portShared == 0 || portShared + deltaP <= portOffThreshold()) {
                fc.clearPortXoff(inPort, now);
            }
        }
    }

    /** X_qoff on the queue's shared bytes, plus its private bytes (full by then): queue XOFF's point now. */
    @Override
    public long xoffThresholdBytes(int port, int priority, long now) {
        if (!cfg.isLossless(priority)) {
            return emptyBufferThreshold(port, priority);
        }
        int k = BufferLedger.key(port, priority);
        return ledger.ingressPrivate(k) + queueOffThreshold(port, k);
    }

    /** The current φ̂ of ingress queue (port, priority), for metrics and tests. */
    public long phiHat(int port, int priority) {
        return estimator.phiHat(BufferLedger.key(port, priority));
    }

    /** Whether Algorithm 4 currently sets τ = 0 on this port. */
    public boolean isSingleQueue(int port) {
        return singleQueue[port];
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
        return cfg.isLossless(priority) ? Thresholds.dynamic(alpha, sharedPool, 0) : lossy.emptyThreshold();
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        long t = Thresholds.dynamic(alpha, sharedPool, 0);
        return List.of(
                new MmuExplanation.Threshold("T = alpha * B_s", t, "DSH Eq. 2, alpha = " + alpha),
                new MmuExplanation.Threshold("X_qoff = T - tau (tau = 0 until phi_hat is known)", t, "DSH Eq. 10"),
                new MmuExplanation.Threshold("X_qoff with tau = Phi (worst estimate, port 0)",
                        Math.max(0, t - phi[0]), "DSH Eq. 10, ICDCS'23"),
                new MmuExplanation.Threshold("X_poff = N_q * T", nqForXpoff * t, "DSH Eq. 11, N_q = " + nqForXpoff),
                new MmuExplanation.Threshold("insurance per port (port 0)", insurance[0], "DSH Eq. 9: Phi per port"),
                new MmuExplanation.Threshold("lossy egress queue drop threshold", lossy.emptyThreshold(),
                        "alpha_lossy * B_s"));
    }
}

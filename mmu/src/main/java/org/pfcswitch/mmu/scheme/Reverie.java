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
import org.pfcswitch.mmu.Verdict;

/**
 * {@code reverie}: unified admission on low-pass-filtered queue lengths (Addanki et al., NSDI'24;
 * scheme spec Part II). One shared pool {@code B_sh = B − B_h} serves both classes; a lossless packet
 * is counted on its ingress (port, priority), a lossy packet on its egress (port, queue), and both
 * are admitted against the same threshold {@code Γ = α_p·(B_sh − used)/n_p} (Eq. 6), with {@code n_p}
 * the saturation sum {@code Σ min(1, q̂/20480)} of the class and priority. The comparison uses the
 * filtered length q̂ (Eq. 4), so short bursts are absorbed and persistent queues are held to their
 * share. A lossless queue whose q̂ exceeds Γ sends its arrivals to its own headroom and raises XOFF;
 * it resumes once headroom is empty and {@code q̂ < xon || q̂ + xonOffset ≤ Γ}. In steady state each
 * class gets {@code α·B_sh/(1 + α_ll + α_ly)} (Theorem 1).
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>gamma</td><td>0.999</td><td>Reverie §4.1 (artifact code default 0.99)</td></tr>
 * <tr><td>filterUpdate</td><td>time (event; departure = artifact)</td><td>[D] spec II.10 item 1</td></tr>
 * <tr><td>clampToInstantaneous</td><td>true</td><td>artifact [A], spec II.10 item 2</td></tr>
 * <tr><td>alphaLossless, alphaLossy</td><td>1, 1</td><td>Reverie §4.1</td></tr>
 * <tr><td>saturationBytes</td><td>20480 (n_p reference)</td><td>artifact [A], spec II.3</td></tr>
 * <tr><td>xonBytes / xonOffsetBytes</td><td>1248 / 2496 (0/0 = the paper's rule)</td><td>artifact [A], spec II.10 item 5</td></tr>
 * <tr><td>poolGuard</td><td>true: lossless goes to headroom when the pool is full</td><td>[D] spec II.10 item 6</td></tr>
 * </table>
 * The time constant of the {@code time} filter is {@code τ = −T_MTU/ln γ} per port (83.8 µs at
 * 100 Gb/s with 1048 B frames and γ = 0.999).
 */
public final class Reverie implements AdmissionScheme {
    private static final int LOSSLESS = 0;
    private static final int LOSSY = 1;

    private final MmuConfig cfg;
    private final BufferLedger ledger;
    private final FlowControl fc;
    private final SchemeParameters params;
    private final BufferLayout layout;
    private final long total;
    private final long sharedPool;
    private final long headroomPool;
    private final long[] headroomPerQueue;
    private final long rho;
    private final double alphaLossless;
    private final double alphaLossy;
    private final double saturationBytes;
    private final double perSaturationByte;
    private final long xon;
    private final long xonOffset;
    private final boolean poolGuard;
    private final LowPassFilter losslessFilter;   // by ingress key
    private final LowPassFilter lossyFilter;      // by egress key
    private final double[] losslessSaturation;
    private final double[] lossySaturation;
    private final double[] saturationSum = new double[2 * MmuConfig.PRIORITIES];   // n_p per class and priority
    private final double[] tauNs;

    public Reverie(SchemeContext ctx) {
        this.cfg = ctx.config();
        this.ledger = ctx.ledger();
        this.fc = ctx.flowControl();
        this.params = ctx.parameters();
        double gamma = params.real("gamma", 0.999, 0, 0.99999999, "Reverie §4.1 (artifact code: 0.99)");
        String update = params.choice("filterUpdate", "time", "[D] spec II.10.1 (artifact: departure)", "time",
                "event", "departure");
        boolean clamp = params.flag("clampToInstantaneous", true, "artifact [A], spec II.10.2");
        alphaLossless = params.real("alphaLossless", 1, 0, 1e6, "Reverie §4.1");
        alphaLossy = params.real("alphaLossy", 1, 0, 1e6, "Reverie §4.1");
        saturationBytes = params.integer("saturationBytes", 20_480, 1, Long.MAX_VALUE, "artifact [A], spec II.3");
        xon = params.integer("xonBytes", 1248, 0, Long.MAX_VALUE, "artifact [A] (paper: 0)");
        xonOffset = params.integer("xonOffsetBytes", 2496, 0, Long.MAX_VALUE, "artifact [A] (paper: 0)");
        poolGuard = params.flag("poolGuard", true, "[D] spec II.10.6 (artifact: false)");
        perSaturationByte = 1.0 / saturationBytes;
        params.rejectUnknown();

        BufferLayout sih = BufferLayout.perQueueHeadroom(cfg, 1);
        total = cfg.totalBytes();
        sharedPool = sih.sharedPool();
        headroomPool = sih.headroomTotal();
        headroomPerQueue = sih.headroomPerPort();
        rho = cfg.privateBytes();
        layout = sih;
        int ports = cfg.portCount();
        tauNs = new double[ports];
        for (int p = 0; p < ports; p++) {
            double mtuTimeNs = cfg.mtuBytes() * 8e9 / cfg.port(p).speedBps();
            tauNs[p] = -mtuTimeNs / Math.log(gamma);
        }
        int mode = switch (update) {
            case "event" -> LowPassFilter.EVENT;
            case "departure" -> LowPassFilter.DEPARTURE;
            default -> LowPassFilter.TIME;
        };
        int keys = ports * MmuConfig.PRIORITIES;
        losslessFilter = new LowPassFilter(keys, mode, gamma, clamp, tauNs);
        lossyFilter = new LowPassFilter(keys, mode, gamma, clamp, tauNs);
        losslessSaturation = new double[keys];
        lossySaturation = new double[keys];
    }

    @Override
    public String name() {
        return "reverie";
    }

    /** Γ = α·max(0, B_sh − used)/max(1, n_p), Eq. 6. */
    private double threshold(int cls, int priority, long used, double alpha) {
        long free = sharedPool - used;
        return free <= 0 ? 0 : alpha * free / Math.max(1.0, saturationSum[cls * MmuConfig.PRIORITIES + priority]);
    }

    /** {@code length > Γ}, multiplied out so the per-packet test needs no division. */
    private boolean exceeds(double length, int cls, int priority, long used, double alpha) {
        long free = sharedPool - used;
        double np = Math.max(1.0, saturationSum[cls * MmuConfig.PRIORITIES + priority]);
        return free <= 0 ? length > 0 : length * np > alpha * free;
    }

    private void updateSaturation(double[] saturation, int cls, int priority, int key, double filtered) {
        double s = Math.min(1.0, filtered * perSaturationByte);
        saturationSum[cls * MmuConfig.PRIORITIES + priority] += s - saturation[key];
        saturation[key] = s;
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        long used = ledger.sharedUsed();
        if (!cfg.isLossless(priority)) {
            int e = BufferLedger.key(outPort, queue);
            if (exceeds(lossyFilter.value(e) + bytes, LOSSY, queue, used, alphaLossy)) {
                return Verdict.DROP_LOSSY_THRESHOLD;
            }
            if (used + bytes > sharedPool || ledger.totalUsed() + bytes > total) {
                return Verdict.DROP_BUFFER_FULL;
            }
            return Verdict.SHARED;
        }
        int k = BufferLedger.key(inPort, priority);
        if (ledger.ingressPrivate(k) + bytes <= rho) {
            return Verdict.PRIVATE;
        }
        if (ledger.totalUsed() + bytes > total) {
            return Verdict.DROP_LOSSLESS_VIOLATION;
        }
        long hdrm = ledger.ingressHeadroom(k);
        // Γ with the packet already counted in the pool, compared with the stored filter value (artifact order).
        boolean toHeadroom = hdrm > 0
                || exceeds(losslessFilter.value(k), LOSSLESS, priority, used + bytes, alphaLossless)
                || (poolGuard && used + bytes > sharedPool);
        if (!toHeadroom) {
            return Verdict.SHARED;
        }
        return hdrm + bytes <= headroomPerQueue[inPort] && ledger.headroomUsed() + bytes <= headroomPool
                ? Verdict.HEADROOM : Verdict.DROP_LOSSLESS_VIOLATION;
    }

    @Override
    public void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now) {
        if (cfg.isLossless(priority)) {
            int k = BufferLedger.key(inPort, priority);
            losslessFilter.update(k, ledger.ingressBytes(k), now, false);
            updateSaturation(losslessSaturation, LOSSLESS, priority, k, losslessFilter.value(k));
            if (segment == Verdict.HEADROOM) {
                fc.setQueueXoff(inPort, priority, now);
            }
        } else {
            int e = BufferLedger.key(outPort, queue);
            lossyFilter.update(e, ledger.egressBytes(e), now, false);
            updateSaturation(lossySaturation, LOSSY, queue, e, lossyFilter.value(e));
        }
    }

    @Override
    public void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(priority)) {
            int e = BufferLedger.key(outPort, queue);
            lossyFilter.update(e, ledger.egressBytes(e), now, true);
            updateSaturation(lossySaturation, LOSSY, queue, e, lossyFilter.value(e));
            return;
        }
        int k = BufferLedger.key(inPort, priority);
        losslessFilter.update(k, ledger.ingressBytes(k), now, true);
        double filtered = losslessFilter.value(k);
        updateSaturation(losslessSaturation, LOSSLESS, priority, k, filtered);
        if (fc.isQueueXoff(k) && ledger.ingressHeadroom(k) == 0 && (filtered < xon
                || filtered + xonOffset <= threshold(LOSSLESS, priority, ledger.sharedUsed(), alphaLossless))) {
            fc.clearQueueXoff(inPort, priority, now);
        }
    }

    /**
     * Γ of Eq. 6 for the lossless class: XOFF when the queue's <em>filtered</em> length q̂
     * ({@link #filteredIngress}) exceeds it, so the instantaneous length may cross it without a pause.
     */
    @Override
    public String stateName() {
        return "filtered_bytes";
    }

    /** The low-pass-filtered length of the ingress queue, the quantity Reverie admits and pauses on. */
    @Override
    public long state(int port, int priority, long now) {
        return cfg.isLossless(priority) ? (long) losslessFilter.value(BufferLedger.key(port, priority)) : 0;
    }

    @Override
    public long xoffThresholdBytes(int port, int priority, long now) {
        return cfg.isLossless(priority) ? (long) threshold(LOSSLESS, priority, ledger.sharedUsed(), alphaLossless)
                : emptyBufferThreshold(port, priority);
    }

    /** The filtered length of a lossless ingress queue, for metrics and tests. */
    public double filteredIngress(int port, int priority) {
        return losslessFilter.value(BufferLedger.key(port, priority));
    }

    /** The filtered length of a lossy egress queue. */
    public double filteredEgress(int port, int queue) {
        return lossyFilter.value(BufferLedger.key(port, queue));
    }

    /** The filter's time constant τ on a port, ns. */
    public double timeConstantNs(int port) {
        return tauNs[port];
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
        return (long) (cfg.isLossless(priority) ? alphaLossless * sharedPool : alphaLossy * sharedPool);
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        return List.of(
                new MmuExplanation.Threshold("lossless Gamma = alpha_ll * B_sh / n_p", (long) (alphaLossless
                        * sharedPool), "Reverie Eq. 6, n_p = 1 when empty"),
                new MmuExplanation.Threshold("lossy Gamma = alpha_ly * B_sh / n_p", (long) (alphaLossy * sharedPool),
                        "Reverie Eq. 6"),
                new MmuExplanation.Threshold("steady share per class, both congested",
                        (long) (alphaLossless * sharedPool / (1 + alphaLossless + alphaLossy)), "Theorem 1"),
                new MmuExplanation.Threshold("filter time constant tau (port 0), ns", (long) tauNs[0],
                        "-T_MTU / ln(gamma)"),
                new MmuExplanation.Threshold("XON / XON offset", xon, "offset " + xonOffset + " B"));
    }
}

package org.pfcswitch.mmu.scheme;

import java.util.List;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.SchemeParameters;
import org.pfcswitch.mmu.Thresholds;

/**
 * {@code dt}: dynamic threshold with static and independent per-queue headroom (SIH), the baseline of
 * the DSH paper (§II-C, Eq. 2, Algorithm 1). An ingress queue may hold {@code T = α·(B_s − Σω_s)}
 * shared bytes; n saturated queues each settle at {@code α·B_s/(1 + n·α)}.
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>alpha</td><td>1/16</td><td>DSH §V-A (after Guo et al. SIGCOMM'16)</td></tr>
 * <tr><td>xonOffsetBytes</td><td>2·MTU</td><td>DSH §IV-F δ_q = 2 MTU (the experiments use 0)</td></tr>
 * <tr><td>lossyAlpha</td><td>1</td><td>Reverie §4.1 (every finite α = 1)</td></tr>
 * <tr><td>headroomPoolRatio</td><td>1 (no oversubscription)</td><td>DSH §V-B: Azure/SONiC oversubscribe to 0.8 [I: pool = ratio·B_h]</td></tr>
 * </table>
 */
public final class DynamicThreshold extends IngressThresholdScheme {
    private final double alpha;
    /**
     * The last limit computed and the shared occupancy it was computed for: the limit is a pure
     * function of that occupancy, which most admissions and releases in a row find unchanged (a
     * frame charged to the private segment leaves it alone), so they reuse it instead of a
     * floating-point multiply and conversion each.
     */
    private long limitForUsed = Long.MIN_VALUE;
    private long limit;

    public DynamicThreshold(SchemeContext ctx) {
        SchemeParameters p = ctx.parameters();
        double a = p.real("alpha", 1.0 / 16, 0, 1024, "DSH §V-A: 1/16 (Guo et al.)");
        long xon = p.integer("xonOffsetBytes", 2L * ctx.config().mtuBytes(), 0, Long.MAX_VALUE,
                "DSH §IV-F: delta_q = 2 MTU (experiments: 0)");
        double lossyAlpha = p.real("lossyAlpha", 1, 0, 1e6, "Reverie §4.1: alpha = 1");
        double ratio = p.real("headroomPoolRatio", 1, 0, 1, "DSH §V-B: 1 = none; Azure/SONiC 0.8");
        super(ctx, ratio, xon, lossyAlpha);
        p.rejectUnknown();
        this.alpha = a;
    }

    /** Its hooks read the queue's shared and headroom bytes and the shared pool's occupancy only. */
    @Override
    public boolean privatePassesUnseen() {
        return true;
    }

    @Override
    public String name() {
        return "dt";
    }

    @Override
    protected long sharedLimit(int port, int priority, int key, long now) {
        long used = ledger.sharedUsed();
        if (used != limitForUsed) {
            limit = Thresholds.dynamic(alpha, sharedPool, used);
            limitForUsed = used;
        }
        return limit;
    }

    @Override
    protected long emptyLimit(int port, int priority) {
        return Thresholds.dynamic(alpha, sharedPool, 0);
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        List<MmuExplanation.Threshold> list = commonThresholds();
        list.addFirst(new MmuExplanation.Threshold("T = alpha * B_s (per ingress queue, buffer empty)",
                emptyLimit(0, 0), "DSH Eq. 2, alpha = " + alpha));
        return list;
    }
}

package org.pfcswitch.mmu.scheme;

import java.util.List;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.SchemeParameters;

/**
 * {@code st}: static threshold. Every lossless ingress queue may hold a fixed number of shared bytes,
 * whatever the others do; the rest of the SIH pipeline (private ρ, per-queue headroom Φ, HPCC pause
 * rule) is {@link IngressThresholdScheme}'s.
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>thresholdBytes</td><td>0 = B_s / port count</td><td>SPFC §III-A (B/32 on 32 ports), spec A19 [I: B = shared pool]</td></tr>
 * <tr><td>xonOffsetBytes</td><td>2·MTU</td><td>DSH §IV-F δ_q = 2 MTU (after DCQCN)</td></tr>
 * <tr><td>lossyAlpha</td><td>1</td><td>Reverie §4.1 (every finite α = 1)</td></tr>
 * <tr><td>headroomPoolRatio</td><td>1 (no oversubscription)</td><td>DSH §V-B: Azure/SONiC oversubscribe to 0.8</td></tr>
 * </table>
 */
public final class StaticThreshold extends IngressThresholdScheme {
    private final long threshold;

    public StaticThreshold(SchemeContext ctx) {
        SchemeParameters p = ctx.parameters();
        long configured = p.integer("thresholdBytes", 0, 0, Long.MAX_VALUE,
                "SPFC §III-A: B / port count (0 = derive) [I: B = shared pool]");
        long xon = p.integer("xonOffsetBytes", 2L * ctx.config().mtuBytes(), 0, Long.MAX_VALUE,
                "DSH §IV-F: delta_q = 2 MTU");
        double lossyAlpha = p.real("lossyAlpha", 1, 0, 1e6, "Reverie §4.1: alpha = 1");
        double ratio = p.real("headroomPoolRatio", 1, 0, 1, "DSH §V-B: 1 = none; Azure/SONiC 0.8");
        super(ctx, ratio, xon, lossyAlpha);
        p.rejectUnknown();
        this.threshold = configured > 0 ? configured : sharedPool / cfg.portCount();
    }

    /** Its hooks read the queue's shared and headroom bytes and the shared pool's occupancy only. */
    @Override
    public boolean privatePassesUnseen() {
        return true;
    }

    @Override
    public String name() {
        return "st";
    }

    @Override
    protected long sharedLimit(int port, int priority, int key, long now) {
        return threshold;
    }

    @Override
    protected long emptyLimit(int port, int priority) {
        return threshold;
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        List<MmuExplanation.Threshold> list = commonThresholds();
        list.addFirst(new MmuExplanation.Threshold("static threshold per ingress queue", threshold,
                "thresholdBytes, or B_s / ports"));
        return list;
    }
}

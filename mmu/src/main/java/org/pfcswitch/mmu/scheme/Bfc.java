package org.pfcswitch.mmu.scheme;

import java.util.List;
import org.pfcswitch.mmu.AdmissionScheme;
import org.pfcswitch.mmu.BufferLayout;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.ParameterDoc;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.SchemeParameters;
import org.pfcswitch.mmu.Thresholds;
import org.pfcswitch.mmu.Verdict;

/**
 * {@code bfc}: Backpressure Flow Control (NSDI'22). BFC has no drop logic and no PFC: the buffer only
 * guards the physical memory (and, optionally, a DT cap per egress port and class: the ledger counts
 * egress bytes per priority, the per-flow queue lengths live in {@link BfcBackpressure}), and congestion is pushed
 * back per upstream queue by {@link BfcBackpressure}, which the dataplane drives per packet. BFC is
 * not lossless (§3.1): a lossless-priority packet that finds the buffer full is counted as a
 * {@code lossless_violation}.
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>queuesPerPort</td><td>32 (queue 0 = control)</td><td>BFC §6.1 (Tofino2: 32 per 100 G port)</td></tr>
 * <tr><td>upstreamQueues</td><td>32</td><td>[D] one pause counter per upstream queue id</td></tr>
 * <tr><td>flowTableFactor</td><td>100 (entries = 100 × queues)</td><td>BFC §3.3.1</td></tr>
 * <tr><td>hrttNs</td><td>0 = 2 × the longest cable delay</td><td>BFC §6.2.1 (HRTT = 2 µs with 1 µs links)</td></tr>
 * <tr><td>handOffNs</td><td>0 (one worker)</td><td>[D] how much longer the pause loop is when a frame and its
 * pause cross between workers: part of the hop's round trip, so added to HRTT; a switch split among workers sets
 * one pass of each of the two workers unless configured</td></tr>
 * <tr><td>stickyNs</td><td>0 = 2·HRTT</td><td>BFC §3.3.2</td></tr>
 * <tr><td>thresholdMinBytes</td><td>0 = MTU</td><td>[D] spec III.4</td></tr>
 * <tr><td>preferUnpaused</td><td>false</td><td>[D] spec III.3</td></tr>
 * <tr><td>classes</td><td>1 (priorities split evenly; strict priority between classes, DRR within)</td><td>BFC App. A.3</td></tr>
 * <tr><td>assignment</td><td>dynamic (or stochastic: hash mod queues; single: one FIFO)</td><td>BFC §3.3.1, App. A.10</td></tr>
 * <tr><td>dtAlpha</td><td>0 = off (optional DT cap per egress port and class)</td><td>[D] spec III.1</td></tr>
 * </table>
 */
public final class Bfc implements AdmissionScheme {
    private final MmuConfig cfg;
    private final BufferLedger ledger;
    private final SchemeParameters params;
    private final BufferLayout layout;
    private final double dtAlpha;
    private final long hrttNs;
    private final long handOffNs;
    private final BfcBackpressure backpressure;

    public Bfc(SchemeContext ctx) {
        this.cfg = ctx.config();
        this.ledger = ctx.ledger();
        this.params = ctx.parameters();
        int queues = (int) params.integer("queuesPerPort", 32, 2, 4096, "BFC §6.1");
        int upstream = (int) params.integer("upstreamQueues", 32, 1, 4096, "[D] pause counters per ingress port");
        int factor = (int) params.integer("flowTableFactor", 100, 1, 10_000, "BFC §3.3.1");
        long hrtt = params.integer("hrttNs", 0, 0, Long.MAX_VALUE, "BFC §6.2.1: 0 = 2 x longest cable");
        long handOff = params.integer("handOffNs", 0, 0, Long.MAX_VALUE,
                "[D] a pause's hand-off between workers, added to HRTT: 0 = one worker");
        long sticky = params.integer("stickyNs", 0, 0, Long.MAX_VALUE, "BFC §3.3.2: 0 = 2 HRTT");
        long thMin = params.integer("thresholdMinBytes", 0, 0, Long.MAX_VALUE, "[D] spec III.4: 0 = MTU");
        boolean preferUnpaused = params.flag("preferUnpaused", false, "[D] spec III.3");
        String assignment = params.choice("assignment", "dynamic", "BFC §3.3.1, App. A.10 (variants)",
                "dynamic", "stochastic", "single");
        int classes = (int) params.integer("classes", 1, 1, MmuConfig.PRIORITIES, "BFC App. A.3: queues split among classes");
        dtAlpha = params.real("dtAlpha", 0, -1, 1024, "[D] spec III.1: 0 = off");
        params.rejectUnknown();
        long longest = 0;
        for (int p = 0; p < cfg.portCount(); p++) {
            longest = Math.max(longest, cfg.port(p).cableDelayNs());
        }
        hrttNs = hrtt > 0 ? hrtt : 2 * longest;
        handOffNs = handOff;
        // The pause loop is the cable's round trip plus the hand-off between workers: the threshold
        // covers the whole loop (a resumed queue does not run dry before the upstream's data is back),
        // while STICKY stays the cable's (it is about a flow's own idle gap, not the pause's delay).
        backpressure = new BfcBackpressure(cfg, queues, upstream, factor, hrttNs + handOffNs,
                sticky > 0 ? sticky : 2 * hrttNs,
                thMin > 0 ? thMin : cfg.mtuBytes(), preferUnpaused,
                BfcBackpressure.Assignment.valueOf(assignment.toUpperCase(java.util.Locale.ROOT)), classes, ctx.random());
        layout = new BufferLayout("none", 0, 0, new long[cfg.portCount()], 0, cfg.totalBytes(), List.of());
    }

    @Override
    public String name() {
        return "bfc";
    }

    /** The flow-table, queue-assignment and pause-counter state the dataplane drives per packet. */
    @Override
    public String stateName() {
        return "active_queues";
    }

    /** The active queues (N_active) of the port's egress, which divide its pause threshold. */
    @Override
    public long state(int port, int priority, long now) {
        return backpressure.activeQueues(port);
    }

    public BfcBackpressure backpressure() {
        return backpressure;
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        long used = ledger.totalUsed();
        if (used + bytes > cfg.totalBytes()) {
            return cfg.isLossless(priority) ? Verdict.DROP_LOSSLESS_VIOLATION : Verdict.DROP_BUFFER_FULL;
        }
        if (dtAlpha > 0 && ledger.egressBytes(BufferLedger.key(outPort, queue)) + bytes
                > Thresholds.dynamic(dtAlpha, cfg.totalBytes(), used)) {
            return cfg.isLossless(priority) ? Verdict.DROP_LOSSLESS_VIOLATION : Verdict.DROP_BUFFER_FULL;
        }
        return Verdict.SHARED;
    }

    @Override
    public void onAdmitted(int inPort, int priority, int outPort, int queue, long bytes, int segment, long now) {}

    @Override
    public void onReleased(int inPort, int priority, int outPort, int queue, long bytes, long now) {}

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
        return backpressure.threshold(port);
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        return List.of(
                new MmuExplanation.Threshold("pause threshold Th, 1 active queue (port 0)", backpressure.threshold(0),
                        "HRTT * mu / N_active, HRTT = " + hrttNs + " ns"
                                + (handOffNs > 0 ? " + " + handOffNs + " ns hand-off between workers" : "")),
                new MmuExplanation.Threshold("physical buffer", cfg.totalBytes(), "drop when full"));
    }
}

package org.pfcswitch.mmu.scheme;

import java.util.List;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.SchemeParameters;
import org.pfcswitch.mmu.Verdict;

/**
 * {@code capfc}: Congestion-aware PFC (IFIP Networking 2016; DSH/CaPFC spec Part B). The ingress side
 * is plain PFC with static XOFF/XON per (port, priority); on top, every egress queue counts, per input
 * port, the packets it received since it crossed WARN, and once above XOFF it blames inputs, whose
 * upstream then gets PFC XOFF although their own ingress counters are low:
 * <ul>
 *   <li>Stop-Max (Algorithm 1): the input with the most counted packets (lowest port on a tie);
 *       evaluated on every enqueue above XOFF, so inputs are added one by one while congestion lasts.</li>
 *   <li>Stop-Calibrate (Algorithm 2): the smallest set of top inputs whose counts reach CUT of the
 *       total ({@code acc ≥ CUT·total}; {@code >} with cutStrict).</li>
 * </ul>
 * Blame is sticky until the queue falls to egress XON, when every blame of that queue clears at once;
 * counters reset at or below WARN. An input is never blamed by an egress queue of its own port.
 * Blame reaches the ingress as a {@link org.pfcswitch.mmu.FlowControl} hold, so the advertised state
 * is {@code D = I ∨ ⋁ E}. Egress queues are identified with priorities (queue q carries priority q).
 *
 * <table>
 * <caption>Parameters (KB = kilobyteBytes; scaled by port speed / 1 Gb/s unless scaleWithLinkRate = false)</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>algorithm</td><td>stop_max (stop_calibrate)</td><td>CaPFC Alg. 1 / Alg. 2</td></tr>
 * <tr><td>cut, cutStrict</td><td>0.8, false (≥)</td><td>CaPFC Table II; [I] spec B7</td></tr>
 * <tr><td>inXoffKb, inXonKb</td><td>50, 40</td><td>CaPFC Table II (1 G links)</td></tr>
 * <tr><td>egWarnKb, egXoffKb, egXonKb, egMaxKb</td><td>20, 25, 20, 60</td><td>CaPFC Table II</td></tr>
 * <tr><td>kilobyteBytes</td><td>1024</td><td>[I] spec B0 (KB undefined in the paper)</td></tr>
 * <tr><td>scaleWithLinkRate</td><td>true</td><td>[I] spec B14 ("scale every threshold by link rate")</td></tr>
 * <tr><td>egressMaxDropsLossless</td><td>false</td><td>[I] our lossless promise; the paper drops at EG_MAX</td></tr>
 * <tr><td>lossyAlpha, headroomPoolRatio</td><td>1, 1</td><td>baseline (see dt)</td></tr>
 * </table>
 */
public final class Capfc extends IngressThresholdScheme {
    private static final int MAX_COUNT = 0xFFFF;      // the paper's 2-byte saturating counters

    private final boolean stopMax;
    private final long cutPermille;
    private final boolean cutStrict;
    private final boolean egressMaxDropsLossless;
    private final long[] inXoff;
    private final long[] inXon;
    private final long[] egWarn;
    private final long[] egXoff;
    private final long[] egXon;
    private final long[] egMax;
    private final int ports;
    private final int[] counts;        // [(outPort*8 + queue) * ports + inPort]
    private final boolean[] blamed;    // same index: E bit
    private final boolean[] picked;    // scratch for Stop-Calibrate, one per input port

    public Capfc(SchemeContext ctx) {
        SchemeParameters p = ctx.parameters();
        String algorithm = p.choice("algorithm", "stop_max", "CaPFC Alg. 1 / Alg. 2", "stop_max", "stop_calibrate");
        double cut = p.real("cut", 0.8, 0, 1, "CaPFC Table II");
        boolean strict = p.flag("cutStrict", false, "[I] spec B7 (>= reproduces CUT = 1)");
        long kb = p.integer("kilobyteBytes", 1024, 1, 1 << 20, "[I] KB undefined in the paper");
        boolean scale = p.flag("scaleWithLinkRate", true, "[I] spec B14");
        double inXoffKb = p.real("inXoffKb", 50, 0, 1e9, "CaPFC Table II");
        double inXonKb = p.real("inXonKb", 40, -1, 1e9, "CaPFC Table II");
        double warnKb = p.real("egWarnKb", 20, -1, 1e9, "CaPFC Table II (= XON)");
        double xoffKb = p.real("egXoffKb", 25, 0, 1e9, "CaPFC Table II");
        double xonKb = p.real("egXonKb", 20, -1, 1e9, "CaPFC Table II");
        double maxKb = p.real("egMaxKb", 60, 0, 1e9, "CaPFC Table II");
        boolean dropsLossless = p.flag("egressMaxDropsLossless", false, "[I] lossless promise (paper: drops)");
        double lossyAlpha = p.real("lossyAlpha", 1, 0, 1e6, "Reverie §4.1: alpha = 1");
        double ratio = p.real("headroomPoolRatio", 1, 0, 1, "baseline: 1 = none");
        super(ctx, ratio, 0, lossyAlpha);
        p.rejectUnknown();
        stopMax = algorithm.equals("stop_max");
        cutPermille = Math.round(cut * 1000);
        cutStrict = strict;
        egressMaxDropsLossless = dropsLossless;
        ports = cfg.portCount();
        inXoff = new long[ports];
        inXon = new long[ports];
        egWarn = new long[ports];
        egXoff = new long[ports];
        egXon = new long[ports];
        egMax = new long[ports];
        for (int port = 0; port < ports; port++) {
            double f = kb * (scale ? cfg.port(port).speedBps() / 1e9 : 1);
            inXoff[port] = (long) (inXoffKb * f);
            inXon[port] = (long) (inXonKb * f);
            egWarn[port] = (long) (warnKb * f);
            egXoff[port] = (long) (xoffKb * f);
            egXon[port] = (long) (xonKb * f);
            egMax[port] = (long) (maxKb * f);
        }
        int queues = ports * MmuConfig.PRIORITIES;
        counts = new int[queues * ports];
        blamed = new boolean[queues * ports];
        picked = new boolean[ports];
    }

    @Override
    public String name() {
        return "capfc";
    }

    @Override
    public int decide(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (ledger.egressBytes(BufferLedger.key(outPort, queue)) + bytes >= egMax[outPort]
                && (egressMaxDropsLossless || !cfg.isLossless(priority))) {
            return Verdict.DROP_EGRESS_LIMIT;             // Algorithm 1 line 3 (paper: >=)
        }
        return super.decide(inPort, priority, outPort, queue, bytes, now);
    }

    @Override
    protected long sharedLimit(int port, int priority, int key, long now) {
        return inXoff[port];
    }

    @Override
    protected long resumeLimit(int port, int priority, int key, long now) {
        return inXon[port];
    }

    @Override
    protected long emptyLimit(int port, int priority) {
        return inXoff[port];
    }

    @Override
    protected void onEgressEnqueue(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(queue)) {
            return;
        }
        int e = BufferLedger.key(outPort, queue);
        long occupancy = ledger.egressBytes(e);
        int base = e * ports;
        if (occupancy >= egWarn[outPort] && counts[base + inPort] < MAX_COUNT) {
            counts[base + inPort]++;
        }
        if (occupancy > egXoff[outPort]) {
            if (stopMax) {
                blameHeaviest(base, outPort, queue, now);
            } else {
                blameTopShare(base, inPort, outPort, queue, now);
            }
        }
    }

    /** Stop-Max: argmax of the counts over inputs other than the egress port itself, lowest index on a tie. */
    private void blameHeaviest(int base, int outPort, int queue, long now) {
        int best = -1;
        for (int i = 0; i < ports; i++) {
            if (i != outPort && counts[base + i] > 0 && (best < 0 || counts[base + i] > counts[base + best])) {
                best = i;
            }
        }
        if (best >= 0) {
            blame(base, best, outPort, queue, now);
        }
    }

    /** Stop-Calibrate: the shortest descending prefix whose cumulative count reaches CUT of the total. */
    private void blameTopShare(int base, int inPort, int outPort, int queue, long now) {
        long total = 0;
        for (int i = 0; i < ports; i++) {
            total += counts[base + i];
        }
        if (total == 0) {                                 // only with XOFF < WARN (misconfigured): blame the sender
            blame(base, inPort, outPort, queue, now);
            return;
        }
        long acc = 0;
        for (int taken = 0; taken < ports; taken++) {
            long target = cutPermille * total;
            if (cutStrict ? acc * 1000 > target : acc * 1000 >= target) {
                break;
            }
            int best = -1;
            for (int i = 0; i < ports; i++) {
                if (!picked[i] && (best < 0 || counts[base + i] > counts[base + best])) {
                    best = i;
                }
            }
            picked[best] = true;
            acc += counts[base + best];
            blame(base, best, outPort, queue, now);
        }
        java.util.Arrays.fill(picked, false);
    }

    private void blame(int base, int input, int outPort, int queue, long now) {
        if (input != outPort && !blamed[base + input]) {
            blamed[base + input] = true;
            fc.addHold(input, queue, now);
        }
    }

    @Override
    protected void onEgressDequeue(int inPort, int priority, int outPort, int queue, long bytes, long now) {
        if (!cfg.isLossless(queue)) {
            return;
        }
        int e = BufferLedger.key(outPort, queue);
        long occupancy = ledger.egressBytes(e);
        int base = e * ports;
        if (occupancy <= egWarn[outPort]) {
            java.util.Arrays.fill(counts, base, base + ports, 0);
        }
        if (occupancy <= egXon[outPort]) {
            for (int i = 0; i < ports; i++) {
                if (blamed[base + i]) {
                    blamed[base + i] = false;
                    fc.removeHold(i, queue, now);
                }
            }
        }
    }

    /** Whether egress queue (outPort, queue) currently blames {@code inPort} (its E bit). */
    public boolean blames(int outPort, int queue, int inPort) {
        return blamed[BufferLedger.key(outPort, queue) * ports + inPort];
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        List<MmuExplanation.Threshold> list = commonThresholds();
        list.removeLast();            // no single XON offset: ingress XON is absolute
        list.addFirst(new MmuExplanation.Threshold("egress MAX (port 0)", egMax[0], "drop at >= MAX"));
        list.addFirst(new MmuExplanation.Threshold("egress XON (port 0)", egXon[0], "all blames clear"));
        list.addFirst(new MmuExplanation.Threshold("egress XOFF (port 0)", egXoff[0], stopMax ? "Stop-Max"
                : "Stop-Calibrate, CUT = " + cutPermille / 1000.0));
        list.addFirst(new MmuExplanation.Threshold("egress WARN (port 0)", egWarn[0], "start counting"));
        list.addFirst(new MmuExplanation.Threshold("ingress XON (port 0)", inXon[0], "static PFC"));
        list.addFirst(new MmuExplanation.Threshold("ingress XOFF (port 0)", inXoff[0], "static PFC"));
        return list;
    }
}

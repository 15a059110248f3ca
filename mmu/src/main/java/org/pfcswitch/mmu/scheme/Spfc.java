package org.pfcswitch.mmu.scheme;

import java.util.List;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.SchemeContext;
import org.pfcswitch.mmu.SchemeParameters;
import org.pfcswitch.mmu.Thresholds;

/**
 * {@code spfc}: Selective PFC (Huang et al., ToN 2024, §IV–V; SPFC spec §2). The DT baseline, except
 * that an ingress key whose <em>departure</em> rate is above {@code C/K_spfc} is a VICTIM and may use
 * the whole shared pool; every other key is NORMAL and uses DT, whose free term also counts the
 * victims' bytes.
 * <ul>
 *   <li>Rate detector: the Ingress Rate Counter counts departed bytes in tumbling windows of TC on a
 *       global grid (lazy roll, no clock); it passes when {@code irc > C·TC/K_spfc} (strict, IV-C).
 *       The State Holder keeps the last window's result.</li>
 *   <li>State: VICTIM iff not XOFF and (SH or, with rise mode immediate, the running IRC passes).</li>
 *   <li>Penalty: this key's own XOFF resets (and holds) SH, so it is NORMAL from PAUSE to RESUME; XON
 *       is tested against the DT threshold. After RESUME it is a VICTIM again at once if the current
 *       window's IRC already passes.</li>
 * </ul>
 *
 * <table>
 * <caption>Parameters</caption>
 * <tr><th>parameter</th><th>default</th><th>source</th></tr>
 * <tr><td>alpha</td><td>2</td><td>SPFC §III footnote 2, §VII-D (§VII-C uses 1)</td></tr>
 * <tr><td>kSpfc</td><td>5</td><td>SPFC §IV-C, §VII-A</td></tr>
 * <tr><td>tcNs</td><td>100,000 (TC ≥ 4 RTT)</td><td>[I] SPFC §V-B gives only TC ≥ 4·RTT</td></tr>
 * <tr><td>epochNs</td><td>0 (window grid origin)</td><td>[I] spec A4</td></tr>
 * <tr><td>ircUnit</td><td>bytes (packets = the paper's literal counter)</td><td>[I] spec A2</td></tr>
 * <tr><td>refPacketBytes</td><td>1086 (packets mode only)</td><td>[I] spec §3</td></tr>
 * <tr><td>strictCompare</td><td>true (rate &gt; C/K)</td><td>SPFC §IV-B/IV-C, spec A6</td></tr>
 * <tr><td>riseMode</td><td>immediate (window_end)</td><td>[I] spec A5</td></tr>
 * <tr><td>granularity</td><td>port_priority (port)</td><td>[I] spec A1</td></tr>
 * <tr><td>pauseClearsHolder / pauseClearsIrc</td><td>true / false</td><td>[I] spec A8</td></tr>
 * <tr><td>victimLimit</td><td>whole_pool (dt_alpha with victimAlpha 64)</td><td>SPFC §IV-B "set to the buffer size", spec A10, A13</td></tr>
 * <tr><td>xonOffsetBytes</td><td>2·MTU (baseline's)</td><td>SPFC gives none; DSH §IV-F</td></tr>
 * <tr><td>lossyAlpha, headroomPoolRatio</td><td>1, 1</td><td>baseline (see dt)</td></tr>
 * </table>
 */
public final class Spfc extends IngressThresholdScheme {
    private final double alpha;
    private final double victimAlpha;
    private final boolean wholePool;
    private final long tcNs;
    private final long epochNs;
    private final boolean countPackets;
    private final boolean strict;
    private final boolean immediate;
    private final boolean perPort;
    private final boolean pauseClearsHolder;
    private final boolean pauseClearsIrc;
    private final double kSpfc;
    private final long[] ircThreshold;    // per port: C·TC/K in the IRC's unit
    private final long[] window;          // per state key
    private final long[] windowEnd;       // first ns of the next window, so roll() divides once per window
    private final long[] irc;
    private final boolean[] holder;

    public Spfc(SchemeContext ctx) {
        SchemeParameters p = ctx.parameters();
        double a = p.real("alpha", 2, 0, 1024, "SPFC §III fn. 2, §VII-D (§VII-C: 1)");
        double k = p.real("kSpfc", 5, 0, 1e9, "SPFC §IV-C, §VII-A");
        long tc = p.integer("tcNs", 100_000, 1, Long.MAX_VALUE, "[I] SPFC §V-B: TC >= 4 RTT");
        long epoch = p.integer("epochNs", 0, Long.MIN_VALUE, Long.MAX_VALUE, "[I] spec A4");
        String unit = p.choice("ircUnit", "bytes", "[I] spec A2 (paper: packets)", "bytes", "packets");
        long refPacket = p.integer("refPacketBytes", 1086, 1, 1 << 20, "[I] spec §3");
        boolean strictCmp = p.flag("strictCompare", true, "SPFC §IV-B/IV-C, spec A6");
        String rise = p.choice("riseMode", "immediate", "[I] spec A5", "immediate", "window_end");
        String gran = p.choice("granularity", "port_priority", "[I] spec A1", "port_priority", "port");
        boolean clearsHolder = p.flag("pauseClearsHolder", true, "[I] spec A8");
        boolean clearsIrc = p.flag("pauseClearsIrc", false, "[I] spec A8");
        String limit = p.choice("victimLimit", "whole_pool", "SPFC §IV-B, spec A10", "whole_pool", "dt_alpha");
        double vAlpha = p.real("victimAlpha", 64, 0, 1e9, "[I] spec A10 (dt_alpha only)");
        long xon = p.integer("xonOffsetBytes", 2L * ctx.config().mtuBytes(), 0, Long.MAX_VALUE,
                "baseline: DSH §IV-F 2 MTU");
        double lossyAlpha = p.real("lossyAlpha", 1, 0, 1e6, "Reverie §4.1: alpha = 1");
        double ratio = p.real("headroomPoolRatio", 1, 0, 1, "baseline: 1 = none");
        super(ctx, ratio, xon, lossyAlpha);
        p.rejectUnknown();
        alpha = a;
        kSpfc = k;
        tcNs = tc;
        epochNs = epoch;
        countPackets = unit.equals("packets");
        strict = strictCmp;
        immediate = rise.equals("immediate");
        perPort = gran.equals("port");
        pauseClearsHolder = clearsHolder;
        pauseClearsIrc = clearsIrc;
        wholePool = limit.equals("whole_pool");
        victimAlpha = vAlpha;
        int ports = cfg.portCount();
        ircThreshold = new long[ports];
        for (int port = 0; port < ports; port++) {
            // bytes per window at line rate / K; doubles because C·TC overflows long at 400 G × 10 ms
            double perWindow = (double) cfg.port(port).speedBps() * tcNs / 8e9;
            if (countPackets) {
                perWindow /= refPacket;
            }
            double thr = perWindow / kSpfc;
            ircThreshold[port] = strict ? (long) Math.floor(thr) : (long) Math.ceil(thr);
        }
        int states = perPort ? ports : ports * MmuConfig.PRIORITIES;
        window = new long[states];
        windowEnd = new long[states];
        irc = new long[states];
        holder = new boolean[states];
        long first = Math.floorDiv(-epochNs, tcNs);                     // the window containing t = 0
        java.util.Arrays.fill(window, first);
        java.util.Arrays.fill(windowEnd, epochNs + (first + 1) * tcNs);
    }

    @Override
    public String name() {
        return "spfc";
    }

    private int state(int port, int key) {
        return perPort ? port : key;
    }

    private boolean passes(long count, int port) {
        return strict ? count > ircThreshold[port] : count >= ircThreshold[port];
    }

    /** The SH reset input: this key's own XOFF (under port granularity, any lossless XOFF of the port). */
    private boolean resetActive(int port, int key) {
        if (!perPort) {
            return fc.isQueueXoff(key);
        }
        for (int prio = 0; prio < MmuConfig.PRIORITIES; prio++) {
            if (cfg.isLossless(prio) && fc.isQueueXoff(BufferLedger.key(port, prio))) {
                return true;
            }
        }
        return false;
    }

    /** Closes the windows that ended before {@code now}: SH takes the result of the last one. */
    private void roll(int s, int port, long now, boolean reset) {
        if (now < windowEnd[s]) {
            return;
        }
        long w = Math.floorDiv(now - epochNs, tcNs);
        boolean passed = w == window[s] + 1 ? passes(irc[s], port) : passes(0, port);
        holder[s] = passed && !(reset && pauseClearsHolder);
        irc[s] = 0;
        window[s] = w;
        windowEnd[s] = epochNs + (w + 1) * tcNs;
    }

    /** Whether ingress (port, priority) is a VICTIM at {@code now}. */
    public boolean isVictim(int port, int priority, long now) {
        int key = BufferLedger.key(port, priority);
        int s = state(port, key);
        boolean reset = resetActive(port, key);
        roll(s, port, now, reset);
        return !reset && (holder[s] || (immediate && passes(irc[s], port)));
    }

    /**
     * {@link #isVictim} without rolling: what a roll at {@code now} would make of the state holder and
     * the counter, computed in locals, so a trace reading the threshold never changes the scheme.
     */
    private boolean victimAt(int port, int priority, long now) {
        int key = BufferLedger.key(port, priority);
        int s = state(port, key);
        boolean reset = resetActive(port, key);
        boolean held = holder[s];
        long count = irc[s];
        if (now >= windowEnd[s]) {
            long w = Math.floorDiv(now - epochNs, tcNs);
            boolean passed = w == window[s] + 1 ? passes(irc[s], port) : passes(0, port);
            held = passed && !(reset && pauseClearsHolder);
            count = 0;
        }
        return !reset && (held || (immediate && passes(count, port)));
    }

    @Override
    public String stateName() {
        return "victim";
    }

    /** 1 while ingress (port, priority) is a VICTIM (its limit is the victim limit), else 0; read-only. */
    @Override
    public long state(int port, int priority, long now) {
        return cfg.isLossless(priority) && victimAt(port, priority, now) ? 1 : 0;
    }

    /** The IRC counting number C·TC/K_spfc of a port (bytes or packets). */
    public long ircThreshold(int port) {
        return ircThreshold[port];
    }

    private long normalLimit() {
        return Thresholds.dynamic(alpha, sharedPool, ledger.sharedUsed());
    }

    @Override
    protected long sharedLimit(int port, int priority, int key, long now) {
        if (isVictim(port, priority, now)) {
            return wholePool ? sharedPool : Thresholds.dynamic(victimAlpha, sharedPool, ledger.sharedUsed());
        }
        return normalLimit();
    }

    @Override
    protected long currentSharedLimit(int port, int priority, int key, long now) {
        if (victimAt(port, priority, now)) {
            return wholePool ? sharedPool : Thresholds.dynamic(victimAlpha, sharedPool, ledger.sharedUsed());
        }
        return normalLimit();
    }

    @Override
    protected long resumeLimit(int port, int priority, int key, long now) {
        return normalLimit();          // during XOFF the key is NORMAL by definition (spec A11)
    }

    @Override
    protected void onQueuePaused(int port, int priority, int key, long now) {
        int s = state(port, key);
        roll(s, port, now, true);
        if (pauseClearsHolder) {
            holder[s] = false;
        }
        if (pauseClearsIrc) {
            irc[s] = 0;
        }
    }

    @Override
    protected void onLosslessDeparture(int port, int priority, int key, long bytes, long now) {
        int s = state(port, key);
        roll(s, port, now, resetActive(port, key));
        irc[s] += countPackets ? 1 : bytes;
    }

    @Override
    protected long emptyLimit(int port, int priority) {
        return Thresholds.dynamic(alpha, sharedPool, 0);
    }

    @Override
    public List<MmuExplanation.Threshold> emptyBufferThresholds() {
        List<MmuExplanation.Threshold> list = commonThresholds();
        list.addFirst(new MmuExplanation.Threshold("IRC counting number C*TC/K (port 0)", ircThreshold[0],
                (countPackets ? "packets" : "bytes") + " per window of " + tcNs + " ns, K = " + kSpfc));
        list.addFirst(new MmuExplanation.Threshold("VICTIM threshold", wholePool ? sharedPool
                : Thresholds.dynamic(victimAlpha, sharedPool, 0), wholePool ? "the whole shared pool B_s"
                        : "victimAlpha * B_s"));
        list.addFirst(new MmuExplanation.Threshold("NORMAL threshold T = alpha * B_s", emptyLimit(0, 0),
                "SPFC Eq. 4 (DT), alpha = " + alpha));
        return list;
    }
}

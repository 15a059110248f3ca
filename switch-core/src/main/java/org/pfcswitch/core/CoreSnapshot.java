package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.FlowControl;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Verdict;

/**
 * A consistent copy of what a switch core shows to its operators: counters, buffer occupancy per
 * view, the XOFF threshold and PFC state of every ingress queue, the time each egress queue spent
 * paused. {@link #capture} runs on the thread that owns the core, between two driver calls, so
 * every number belongs to the same instant; readers on other threads then use the copy (after the
 * hand-off that published it) without touching the core. Preallocated: a capture allocates nothing
 * (the scheme name is the MMU's own string).
 *
 * <p>Per-queue arrays are indexed by {@code port * 8 + priority}; drops by
 * {@code (port * 8 + priority) * Verdict.DROP_REASONS + Verdict.dropIndex(verdict)}; parse errors
 * by {@code port * ParseError count + ordinal}.
 */
public final class CoreSnapshot {

    public static final int PRIORITIES = MacControl.PRIORITIES;
    public static final int PARSE_ERRORS = ParseError.values().length;

    public final int ports;
    /** When it was taken, in the core's clock. */
    public long nanos;
    public String scheme;
    public long bufferBytes;
    public int losslessMask;

    // by (port, priority)
    public final long[] rxFrames;
    public final long[] rxBytes;
    public final long[] txFrames;
    public final long[] txBytes;
    public final long[] ecnMarked;
    public final long[] pfcXoffTx;
    public final long[] pfcXonTx;
    public final long[] pfcXoffRx;
    public final long[] pfcXonRx;
    /** Bytes held for each ingress queue (every segment) and each egress queue. */
    public final long[] ingressBytes;
    public final long[] egressBytes;
    public final long[] ingressHeadroomBytes;
    /** The XOFF threshold of the ingress queue now, in queue-length units (comparable to {@link #ingressBytes}). */
    public final long[] xoffThresholdBytes;
    /** Whether the switch currently advertises XOFF to the upstream neighbour for this ingress queue. */
    public final boolean[] xoffAdvertised;
    /** Whether the downstream neighbour currently pauses this egress queue, and for how long in total. */
    public final boolean[] egressPaused;
    public final long[] egressPausedNanos;
    public final long[] drops;
    /** Lossless frames dropped at admission, by ingress (port, priority) (since the core started). */
    public final long[] losslessDrops;
    /** PFC watchdog by egress (port, priority): stormed now, storms declared, restorations, frames dropped while stormed. */
    public final boolean[] pfcwdStormed;
    public final long[] pfcwdStorms;
    public final long[] pfcwdRestorations;
    public final long[] pfcwdDrops;
    /** The watchdog's settings, or null when it is off. */
    public PfcWatchdogConfig pfcwd;
    /** The scheme's own state of each ingress queue ({@link #schemeStateName}, e.g. SPFC's victim flag), 0 if none. */
    public final long[] schemeState;
    public String schemeStateName;

    // by port
    public final long[] pauseFramesRx;
    public final long[] pfcFramesTx;
    public final long[] pfcFramesRx;
    public final long[] malformed;
    public final long[] flooded;
    public final long[] filtered;
    public final long[] parseErrors;
    /** Port-level XOFF (DSH pauses a whole port): advertised for every lossless priority of the port. */
    public final boolean[] portXoff;
    /** Whether the sender behind the port ignores PFC (a clone port with pfc: ignore); fixed by the config. */
    public final boolean[] senderIgnoresPfc;

    // the whole buffer
    public long privateUsed;
    public long sharedLosslessUsed;
    public long sharedLossyUsed;
    public long headroomUsed;
    public long totalUsed;
    public long maxBufferBytes;
    public long losslessViolations;
    /** Lossless drops since the core started, of frames from senders that obey PFC and from senders that do not. */
    public long losslessViolationsObeying;
    public long losslessViolationsIgnoring;

    public CoreSnapshot(int ports) {
        this.ports = ports;
        int keys = ports * PRIORITIES;
        rxFrames = new long[keys];
        rxBytes = new long[keys];
        txFrames = new long[keys];
        txBytes = new long[keys];
        ecnMarked = new long[keys];
        pfcXoffTx = new long[keys];
        pfcXonTx = new long[keys];
        pfcXoffRx = new long[keys];
        pfcXonRx = new long[keys];
        ingressBytes = new long[keys];
        egressBytes = new long[keys];
        ingressHeadroomBytes = new long[keys];
        xoffThresholdBytes = new long[keys];
        xoffAdvertised = new boolean[keys];
        egressPaused = new boolean[keys];
        egressPausedNanos = new long[keys];
        drops = new long[keys * Verdict.DROP_REASONS];
        losslessDrops = new long[keys];
        pfcwdStormed = new boolean[keys];
        pfcwdStorms = new long[keys];
        pfcwdRestorations = new long[keys];
        pfcwdDrops = new long[keys];
        senderIgnoresPfc = new boolean[ports];
        schemeState = new long[keys];
        portXoff = new boolean[ports];
        pauseFramesRx = new long[ports];
        pfcFramesTx = new long[ports];
        pfcFramesRx = new long[ports];
        malformed = new long[ports];
        flooded = new long[ports];
        filtered = new long[ports];
        parseErrors = new long[ports * PARSE_ERRORS];
    }

    /** Copies the state of {@code core} at {@code now}. Call on the thread that owns the core. */
    public void capture(SwitchCore core, long now) {
        if (core.ports() != ports) {
            throw new IllegalArgumentException("snapshot of " + ports + " ports, core of " + core.ports());
        }
        SwitchCounters c = core.counters();
        Mmu mmu = core.mmu();
        MmuConfig config = mmu.config();
        BufferLedger ledger = mmu.ledger();
        FlowControl flow = mmu.flowControl();
        nanos = now;
        scheme = mmu.schemeName();
        bufferBytes = config.totalBytes();
        losslessMask = config.losslessPriorityMask();
        System.arraycopy(c.rxFrames, 0, rxFrames, 0, rxFrames.length);
        System.arraycopy(c.rxBytes, 0, rxBytes, 0, rxBytes.length);
        System.arraycopy(c.txFrames, 0, txFrames, 0, txFrames.length);
        System.arraycopy(c.txBytes, 0, txBytes, 0, txBytes.length);
        System.arraycopy(c.ecnMarked, 0, ecnMarked, 0, ecnMarked.length);
        System.arraycopy(c.pfcXoffTx, 0, pfcXoffTx, 0, pfcXoffTx.length);
        System.arraycopy(c.pfcXonTx, 0, pfcXonTx, 0, pfcXonTx.length);
        System.arraycopy(c.pfcXoffRx, 0, pfcXoffRx, 0, pfcXoffRx.length);
        System.arraycopy(c.pfcXonRx, 0, pfcXonRx, 0, pfcXonRx.length);
        System.arraycopy(c.drops, 0, drops, 0, drops.length);
        System.arraycopy(c.losslessDrops, 0, losslessDrops, 0, losslessDrops.length);
        System.arraycopy(c.pfcwdStorms, 0, pfcwdStorms, 0, pfcwdStorms.length);
        System.arraycopy(c.pfcwdRestorations, 0, pfcwdRestorations, 0, pfcwdRestorations.length);
        System.arraycopy(c.pfcwdDrops, 0, pfcwdDrops, 0, pfcwdDrops.length);
        pfcwd = core.pfcWatchdog();
        System.arraycopy(c.pauseFramesRx, 0, pauseFramesRx, 0, ports);
        System.arraycopy(c.pfcFramesTx, 0, pfcFramesTx, 0, ports);
        System.arraycopy(c.pfcFramesRx, 0, pfcFramesRx, 0, ports);
        System.arraycopy(c.malformed, 0, malformed, 0, ports);
        System.arraycopy(c.flooded, 0, flooded, 0, ports);
        System.arraycopy(c.filtered, 0, filtered, 0, ports);
        System.arraycopy(c.parseErrors, 0, parseErrors, 0, parseErrors.length);
        boolean perPriorityQueues = core.queuesPerPort() == PRIORITIES;
        schemeStateName = mmu.scheme().stateName();
        for (int p = 0; p < ports; p++) {
            portXoff[p] = flow.isPortXoff(p);
            senderIgnoresPfc[p] = core.senderIgnoresPfc(p);
            for (int q = 0; q < PRIORITIES; q++) {
                int k = BufferLedger.key(p, q);
                ingressBytes[k] = ledger.ingressBytes(k);
                ingressHeadroomBytes[k] = ledger.ingressHeadroom(k);
                egressBytes[k] = ledger.egressBytes(k);
                xoffThresholdBytes[k] = mmu.scheme().xoffThresholdBytes(p, q, now);
                xoffAdvertised[k] = flow.isAdvertisedXoff(p, q);
                schemeState[k] = schemeStateName == null ? 0 : mmu.scheme().state(p, q, now);
                egressPaused[k] = perPriorityQueues && core.isPaused(p, q, now);
                pfcwdStormed[k] = core.isStormed(p, q);
                egressPausedNanos[k] = perPriorityQueues ? core.pausedNanos(p, q, now) : 0;
            }
        }
        privateUsed = ledger.privateUsed();
        sharedLosslessUsed = ledger.sharedUsedLossless();
        sharedLossyUsed = ledger.sharedUsedLossy();
        headroomUsed = ledger.headroomUsed();
        totalUsed = ledger.totalUsed();
        maxBufferBytes = c.maxBufferBytes();
        losslessViolations = mmu.losslessViolations();
        losslessViolationsObeying = core.losslessViolations(false);
        losslessViolationsIgnoring = core.losslessViolations(true);
    }

    public boolean isLossless(int priority) {
        return (losslessMask >>> priority & 1) != 0;
    }

    /** Drops of frames from {@code (port, priority)} for {@code verdict} (a {@code Verdict.DROP_*}). */
    public long drops(int port, int priority, int verdict) {
        return drops[(port * PRIORITIES + priority) * Verdict.DROP_REASONS + Verdict.dropIndex(verdict)];
    }

    /** Lossless frames from {@code port} dropped at admission, every priority. */
    public long losslessDrops(int port) {
        long n = 0;
        for (int q = 0; q < PRIORITIES; q++) {
            n += losslessDrops[port * PRIORITIES + q];
        }
        return n;
    }

    public long parseErrors(int port, ParseError error) {
        return parseErrors[port * PARSE_ERRORS + error.ordinal()];
    }
}

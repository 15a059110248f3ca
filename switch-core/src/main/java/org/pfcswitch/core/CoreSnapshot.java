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

    /** The core's counters, copied (frames, bytes, drops, PFC frames in and out, parse errors...). */
    public final SwitchCounters counters;

    // by (port, priority)
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
    /** PFC watchdog by egress (port, priority): stormed now (its counters are in {@link #counters}). */
    public final boolean[] pfcwdStormed;
    /** The watchdog's settings in the switch's config (every port from the start), or null when it had none. */
    public PfcWatchdogConfig pfcwd;
    /** By port: the watchdog's settings now, or null when the port is not watched; the priorities it watches (a mask). */
    public final PfcWatchdogConfig[] pfcwdByPort;
    public final int[] pfcwdPriorities;
    /** The scheme's own state of each ingress queue ({@link #schemeStateName}, e.g. SPFC's victim flag), 0 if none. */
    public final long[] schemeState;
    public String schemeStateName;

    // by port
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
    /**
     * {@code run --record}: writes that failed and stopped the recording (0 or 1), and the arrivals
     * not recorded since. The driver fills them (it owns the recorder); 0 without a recording.
     */
    public long recordWriteFailures;
    public long recordArrivalsAfterFailure;

    /** Deadlock detection: counts, the watched cycle, reports, PFC sender MACs, wait-for edges. */
    public final org.pfcswitch.core.deadlock.DeadlockSnapshot deadlock;
    /**
     * The active MMU's decisions (XOFF transitions, drops, lossless drops; since its last scheme
     * change), beside the shadow schemes' would-be ones ({@link ShadowMmus}).
     */
    public final SchemeCounters active;
    /** Shadow schemes: the first {@link #shadowCount} entries of {@link #shadows}, in the configured order. */
    public int shadowCount;
    public final SchemeCounters[] shadows;

    public CoreSnapshot(int ports) {
        this.ports = ports;
        this.counters = new SwitchCounters(ports);
        int keys = ports * PRIORITIES;
        ingressBytes = new long[keys];
        egressBytes = new long[keys];
        ingressHeadroomBytes = new long[keys];
        xoffThresholdBytes = new long[keys];
        xoffAdvertised = new boolean[keys];
        egressPaused = new boolean[keys];
        egressPausedNanos = new long[keys];
        pfcwdStormed = new boolean[keys];
        pfcwdByPort = new PfcWatchdogConfig[ports];
        pfcwdPriorities = new int[ports];
        senderIgnoresPfc = new boolean[ports];
        schemeState = new long[keys];
        portXoff = new boolean[ports];
        deadlock = new org.pfcswitch.core.deadlock.DeadlockSnapshot(ports);
        active = new SchemeCounters(ports);
        shadows = new SchemeCounters[ShadowMmus.MAX];
        for (int i = 0; i < shadows.length; i++) {
            shadows[i] = new SchemeCounters(ports);
        }
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
        counters.copyFrom(c);
        losslessMask = config.losslessPriorityMask();
        pfcwd = core.pfcWatchdog();
        boolean perPriorityQueues = core.queuesPerPort() == PRIORITIES;
        schemeStateName = mmu.scheme().stateName();
        for (int p = 0; p < ports; p++) {
            portXoff[p] = flow.isPortXoff(p);
            senderIgnoresPfc[p] = core.senderIgnoresPfc(p);
            pfcwdByPort[p] = core.pfcWatchdog(p);
            pfcwdPriorities[p] = core.pfcWatchdogPriorities(p);
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
        deadlock.capture(core.deadlockView(), core.deadlockWatch(), now);
        active.copyFrom(mmu, c.maxBufferBytes());
        ShadowMmus shadowMmus = core.shadows();
        shadowCount = shadowMmus == null ? 0 : shadowMmus.count();
        for (int i = 0; i < shadowCount; i++) {
            shadows[i].copyFrom(shadowMmus.mmu(i), shadowMmus.maxBufferBytes(i));
        }
    }

    /**
     * {@link #capture}, then the core's watermarks restarted ({@link SwitchCore#resetWatermarks}) in
     * the same task: the copy holds every maximum reached up to the reset.
     */
    public void captureAndResetWatermarks(SwitchCore core, long now) {
        capture(core, now);
        core.resetWatermarks();
    }

    /**
     * Makes this the snapshot of a switch split among workers from each worker's own capture
     * ({@code parts[w]}, taken on worker w's thread; {@link SwitchWorkers}): what belongs to a port
     * comes from the worker that owns it (its ingress queues' bytes, thresholds and XOFF state, its
     * egress queues' pauses), counters add up ({@link SwitchCounters#addFrom}), and the buffer-wide
     * views, which each worker sees whole up to the staleness bound, take the largest. An ingress
     * priority group's watermark comes from its owner (the only worker that charges it), an egress
     * queue's is the largest any worker saw in its view of the queue.
     */
    public void merge(CoreSnapshot[] parts, int[] workerOf) {
        CoreSnapshot first = parts[0];
        nanos = first.nanos;
        scheme = first.scheme;
        bufferBytes = first.bufferBytes;
        losslessMask = first.losslessMask;
        pfcwd = first.pfcwd;
        schemeStateName = first.schemeStateName;
        counters.copyFrom(first.counters);
        active.copyFrom(first.active);
        for (int w = 1; w < parts.length; w++) {
            counters.addFrom(parts[w].counters);
            active.addFrom(parts[w].active);
        }
        for (int p = 0; p < ports; p++) {
            CoreSnapshot owner = parts[workerOf[p]];
            portXoff[p] = owner.portXoff[p];
            senderIgnoresPfc[p] = owner.senderIgnoresPfc[p];
            pfcwdByPort[p] = owner.pfcwdByPort[p];
            pfcwdPriorities[p] = owner.pfcwdPriorities[p];
            for (int q = 0; q < PRIORITIES; q++) {
                int k = p * PRIORITIES + q;
                ingressBytes[k] = owner.ingressBytes[k];
                ingressHeadroomBytes[k] = owner.ingressHeadroomBytes[k];
                egressBytes[k] = owner.egressBytes[k];
                xoffThresholdBytes[k] = owner.xoffThresholdBytes[k];
                xoffAdvertised[k] = owner.xoffAdvertised[k];
                schemeState[k] = owner.schemeState[k];
                egressPaused[k] = owner.egressPaused[k];
                pfcwdStormed[k] = owner.pfcwdStormed[k];
                egressPausedNanos[k] = owner.egressPausedNanos[k];
            }
        }
        privateUsed = 0;
        sharedLosslessUsed = 0;
        sharedLossyUsed = 0;
        headroomUsed = 0;
        totalUsed = 0;
        maxBufferBytes = 0;
        losslessViolations = 0;
        losslessViolationsObeying = 0;
        losslessViolationsIgnoring = 0;
        for (CoreSnapshot part : parts) {
            privateUsed = Math.max(privateUsed, part.privateUsed);
            sharedLosslessUsed = Math.max(sharedLosslessUsed, part.sharedLosslessUsed);
            sharedLossyUsed = Math.max(sharedLossyUsed, part.sharedLossyUsed);
            headroomUsed = Math.max(headroomUsed, part.headroomUsed);
            totalUsed = Math.max(totalUsed, part.totalUsed);
            maxBufferBytes = Math.max(maxBufferBytes, part.maxBufferBytes);
            losslessViolations += part.losslessViolations;
            losslessViolationsObeying += part.losslessViolationsObeying;
            losslessViolationsIgnoring += part.losslessViolationsIgnoring;
        }
        org.pfcswitch.core.deadlock.DeadlockSnapshot[] views = new org.pfcswitch.core.deadlock.DeadlockSnapshot[parts.length];
        for (int w = 0; w < parts.length; w++) {
            views[w] = parts[w].deadlock;
        }
        if (views[SwitchCore.DEADLOCK_SEARCHER].enabled) {
            deadlock.copyFrom(views[SwitchCore.DEADLOCK_SEARCHER]);    // its search and edges cover every port
        } else {
            deadlock.mergeWithoutDetection(views, workerOf);
        }
        shadowCount = first.shadowCount;     // each worker runs the same shadows, over its own ingress ports
        for (int i = 0; i < shadowCount; i++) {
            shadows[i].copyFrom(first.shadows[i]);
            for (int w = 1; w < parts.length; w++) {
                shadows[i].addFrom(parts[w].shadows[i]);
            }
        }
    }

    public boolean isLossless(int priority) {
        return (losslessMask >>> priority & 1) != 0;
    }

    /** Drops of frames from {@code (port, priority)} for {@code verdict} (a {@code Verdict.DROP_*}). */
    public long drops(int port, int priority, int verdict) {
        return counters.drops(port, priority, verdict);
    }

    /** Lossless frames from {@code port} dropped at admission, every priority. */
    public long losslessDrops(int port) {
        long n = 0;
        for (int q = 0; q < PRIORITIES; q++) {
            n += counters.losslessDrops[port * PRIORITIES + q];
        }
        return n;
    }

    public long parseErrors(int port, ParseError error) {
        return counters.parseErrors(port, error);
    }
}

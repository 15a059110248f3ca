package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.mmu.Verdict;

/**
 * The core's counters: plain {@code long} arrays with one writer (the thread that owns the core),
 * indexed by port or by {@code port * 8 + priority}. Data frames are counted by priority; PFC
 * frames separately, per priority bit. Readers on other threads see recent but unordered values;
 * a virtual-time run reads them after the run, exactly.
 */
public final class SwitchCounters {

    public static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;

    /** Data frames and bytes received, by (ingress port, priority). */
    public final long[] rxFrames;
    public final long[] rxBytes;
    /** Data frames and bytes transmitted, by (egress port, priority). */
    public final long[] txFrames;
    public final long[] txBytes;
    /** Frames dropped at admission, by {@code ((ingress port * 8 + priority) * 4 + Verdict.dropIndex)}. */
    public final long[] drops;
    /**
     * Lossless frames dropped at admission (a lossless violation), by (ingress port, priority): the
     * ingress port says whose frame it was, so a violation can be put on a sender that obeys PFC or
     * one that does not ({@link SwitchCore#losslessViolations(boolean)}).
     */
    public final long[] losslessDrops;
    /**
     * By (ingress port, priority): when the first PFC frame of the current XOFF episode went out
     * (the switch asked the sender to stop), or -1 outside an episode (an XON ended it).
     */
    public final long[] xoffSentSince;
    /**
     * Diagnosis of lossless drops (what a drop tells about its cause): drops that came before any XOFF
     * frame of the episode had gone out (the scheme paused too late, or not at all), the longest time
     * between the episode's first XOFF frame and a drop (how long the sender kept sending after being
     * told to stop), and the last drop's port, priority, time, reason, queue bytes and headroom bytes.
     */
    public long losslessDropsBeforeXoffSent;
    /**
     * The same two facts for the drops of senders that obey PFC only: how many came before any
     * XOFF had gone out to them, and the shortest time from the episode's first XOFF to a drop
     * (-1: none). A drop later than the headroom's worth of line time after the XOFF means the
     * sender kept sending after it was told to stop; an earlier one, or one before any XOFF, is
     * the switch's (its scheme paused too late or its headroom is too small).
     */
    public long obeyingDropsBeforeXoffSent;
    public long obeyingDropMinNanosAfterXoff = -1;
    public long losslessDropMaxNanosAfterXoff = -1;
    public int lastLosslessDropPort = -1;
    public int lastLosslessDropPriority;
    public int lastLosslessDropVerdict;
    public long lastLosslessDropAt;
    public long lastLosslessDropIngressBytes;
    public long lastLosslessDropHeadroomBytes;
    public long lastLosslessDropNanosAfterXoff;
    /** PFC watchdog, by (egress port, priority): storms declared, restorations, frames dropped while stormed (action drop). */
    public final long[] pfcwdStorms;
    public final long[] pfcwdRestorations;
    public final long[] pfcwdDrops;
    /** By (ingress port, priority): frames received from a neighbour whose queue of that priority is stormed (action drop). */
    public final long[] pfcwdIngressDrops;
    /** PFC frames received and sent, by port (one frame may carry several priorities). */
    public final long[] pfcFramesRx;
    public final long[] pfcFramesTx;
    /** Per priority bit of the PFC frames: pause (quanta &gt; 0) and resume (quanta 0), received and sent. */
    public final long[] pfcXoffRx;
    public final long[] pfcXonRx;
    public final long[] pfcXoffTx;
    public final long[] pfcXonTx;
    /** 802.3x PAUSE frames received (they pause every priority), by port. */
    public final long[] pauseFramesRx;
    /** Control frames (PFC, BFC) the core wanted to send but got no buffer for (sent later), by port. */
    public final long[] controlNoBuffer;
    /** BFC control frames sent, by port and kind: PAUSE and RESUME of one upstream queue, periodic BITMAP. */
    public final long[] bfcPauseTx;
    public final long[] bfcResumeTx;
    public final long[] bfcBitmapTx;
    /** BFC control frames received and applied, by port. */
    public final long[] bfcControlRx;
    /** BFC control frames received and ignored, by port: stale sequence number or a queue out of range. */
    public final long[] bfcControlIgnored;
    /** Data frames whose BFC shim names an upstream queue we keep no pause counter for (not backpressured), by ingress port. */
    public final long[] bfcBadUpstreamQueue;
    /** Control frames of a flow control the port does not run (PFC on a BFC switch, BFC on a PFC switch), by port. */
    public final long[] foreignControl;
    /** Frames marked CE at dequeue, by (egress port, priority). */
    public final long[] ecnMarked;
    /**
     * Watermarks since they were last reset ({@link SwitchCore#resetWatermarks}; since start until then):
     * the most bytes of one class waiting at an egress port (the MMU's egress view), by (egress port,
     * priority), and the most bytes one ingress priority group held, by (ingress port, priority).
     */
    public final long[] maxQueueBytes;
    public final long[] maxIngressBytes;
    /** Sum and maximum of the time frames waited in an egress queue, by (egress port, priority). */
    public final long[] queueDelaySumNanos;
    public final long[] queueDelayMaxNanos;
    /** Frames whose destination sat behind their ingress port (filtered), by ingress port. */
    public final long[] filtered;
    /** Frames copied to every other port (multicast or unknown destination), by ingress port. */
    public final long[] flooded;
    /**
     * Of the malformed frames ({@link #malformed(int)}), those dropped before admission because
     * nothing could be done with them (shorter than a header, a MAC-control opcode other than PFC
     * and PAUSE, a BFC control frame that does not parse), by ingress port.
     */
    public final long[] malformedDropped;
    /**
     * Frames whose parse found something wrong, by {@code port * ParseError count + ordinal}
     * ({@link #parseErrors(int, ParseError)}), whatever happened to them next: a runt or a MAC-control
     * frame of an unknown opcode is dropped ({@link #malformedDropped}), a PFC frame with reserved bits set
     * is obeyed for its eight priorities, an IPv4 header that does not add up is forwarded on the
     * priority read so far.
     */
    public final long[] parseErrors;
    /**
     * Port security, by the port a station was seen on ({@link PortLearning}): learned stations that
     * moved to it; stations learned elsewhere (or static) that were seen on it and did not move (a
     * spoofed source, or a station the port's {@code moves: deny} keeps where it was); new sources it
     * did not learn because it had learned its {@code maxMacs}.
     */
    public final long[] macMoves;
    public final long[] macMovesDenied;
    public final long[] macOverLimit;
    /** Flood copies that got no buffer, by ingress port. */
    public final long[] floodNoBuffer;
    /** Most bytes the whole shared buffer ever held (the MMU ledger's total). */
    long maxBufferBytes;
    /**
     * With several workers: frames and releases a worker could not hand to another because the ring
     * between them was full ({@link WorkerCrossings}); 0 in a correct run, since the rings hold as
     * many frames as the switch can. A frame counted here was dropped and released.
     */
    public long crossingRingFull;
    /** Every per-port and per-queue counter array above, in one fixed order (for {@link #copyFrom} and {@link #addFrom}). */
    private final long[][] all;

    public SwitchCounters(int ports) {
        this.ports = ports;
        int keys = ports * PRIORITIES;
        rxFrames = new long[keys];
        rxBytes = new long[keys];
        txFrames = new long[keys];
        txBytes = new long[keys];
        drops = new long[keys * Verdict.DROP_REASONS];
        losslessDrops = new long[keys];
        xoffSentSince = new long[keys];
        java.util.Arrays.fill(xoffSentSince, -1);
        pfcwdStorms = new long[keys];
        pfcwdRestorations = new long[keys];
        pfcwdDrops = new long[keys];
        pfcwdIngressDrops = new long[keys];
        pfcFramesRx = new long[ports];
        pfcFramesTx = new long[ports];
        pfcXoffRx = new long[keys];
        pfcXonRx = new long[keys];
        pfcXoffTx = new long[keys];
        pfcXonTx = new long[keys];
        pauseFramesRx = new long[ports];
        controlNoBuffer = new long[ports];
        bfcPauseTx = new long[ports];
        bfcResumeTx = new long[ports];
        bfcBitmapTx = new long[ports];
        bfcControlRx = new long[ports];
        bfcControlIgnored = new long[ports];
        bfcBadUpstreamQueue = new long[ports];
        foreignControl = new long[ports];
        ecnMarked = new long[keys];
        maxQueueBytes = new long[keys];
        maxIngressBytes = new long[keys];
        queueDelaySumNanos = new long[keys];
        queueDelayMaxNanos = new long[keys];
        filtered = new long[ports];
        flooded = new long[ports];
        malformedDropped = new long[ports];
        macMoves = new long[ports];
        macMovesDenied = new long[ports];
        macOverLimit = new long[ports];
        floodNoBuffer = new long[ports];
        parseErrors = new long[ports * PARSE_ERRORS];
        all = new long[][] {
            rxFrames, rxBytes, txFrames, txBytes, drops, losslessDrops, xoffSentSince, pfcwdStorms,
            pfcwdRestorations, pfcwdDrops, pfcwdIngressDrops, pfcFramesRx, pfcFramesTx, pfcXoffRx, pfcXonRx,
            pfcXoffTx, pfcXonTx, pauseFramesRx, controlNoBuffer, bfcPauseTx, bfcResumeTx, bfcBitmapTx, bfcControlRx,
            bfcControlIgnored, bfcBadUpstreamQueue, foreignControl, ecnMarked, maxQueueBytes, queueDelaySumNanos,
            queueDelayMaxNanos, filtered, flooded, malformedDropped, parseErrors, floodNoBuffer, macMoves, macMovesDenied,
            macOverLimit, maxIngressBytes};
    }

    private static final int PARSE_ERRORS = ParseError.values().length;

    /**
     * Makes this a copy of {@code from} (a switch of the same port count): a snapshot for readers on
     * other threads, taken by the thread that owns {@code from}. Allocates nothing.
     */
    public void copyFrom(SwitchCounters from) {
        checkSameSize(from);
        long[][] to = all;
        long[][] source = from.all;
        for (int i = 0; i < to.length; i++) {
            System.arraycopy(source[i], 0, to[i], 0, to[i].length);
        }
        losslessDropsBeforeXoffSent = from.losslessDropsBeforeXoffSent;
        obeyingDropsBeforeXoffSent = from.obeyingDropsBeforeXoffSent;
        obeyingDropMinNanosAfterXoff = from.obeyingDropMinNanosAfterXoff;
        losslessDropMaxNanosAfterXoff = from.losslessDropMaxNanosAfterXoff;
        copyLastLosslessDrop(from);
        maxBufferBytes = from.maxBufferBytes;
        crossingRingFull = from.crossingRingFull;
    }

    /**
     * Adds {@code from}, the counters of another worker of the same switch ({@link SwitchWorkers}):
     * counts add up, maxima take the larger, the last lossless drop is the later of the two, and a
     * per-queue state (when an XOFF episode began) comes from the worker that owns the queue (the
     * other one never set it). The most buffer used is the larger worker's view of the whole buffer.
     */
    public void addFrom(SwitchCounters from) {
        checkSameSize(from);
        long[][] to = all;
        long[][] source = from.all;
        for (int i = 0; i < to.length; i++) {
            long[] a = to[i];
            long[] b = source[i];
            boolean max = isMaximumOrState(a);
            for (int k = 0; k < a.length; k++) {
                a[k] = max ? Math.max(a[k], b[k]) : a[k] + b[k];
            }
        }
        losslessDropsBeforeXoffSent += from.losslessDropsBeforeXoffSent;
        obeyingDropsBeforeXoffSent += from.obeyingDropsBeforeXoffSent;
        if (from.obeyingDropMinNanosAfterXoff >= 0 && (obeyingDropMinNanosAfterXoff < 0
                || from.obeyingDropMinNanosAfterXoff < obeyingDropMinNanosAfterXoff)) {
            obeyingDropMinNanosAfterXoff = from.obeyingDropMinNanosAfterXoff;
        }
        losslessDropMaxNanosAfterXoff = Math.max(losslessDropMaxNanosAfterXoff, from.losslessDropMaxNanosAfterXoff);
        if (from.lastLosslessDropPort >= 0 && (lastLosslessDropPort < 0 || from.lastLosslessDropAt > lastLosslessDropAt)) {
            copyLastLosslessDrop(from);
        }
        maxBufferBytes = Math.max(maxBufferBytes, from.maxBufferBytes);
        crossingRingFull += from.crossingRingFull;
    }

    /**
     * Makes every count of this copy relative to {@code baseline}, an earlier copy of the same
     * switch's counters (what an operator's clear keeps): counts subtract, while maxima and
     * per-queue state ({@link #isMaximumOrState}) and the scalars stay as they are.
     */
    public void subtract(SwitchCounters baseline) {
        checkSameSize(baseline);
        long[][] to = all;
        long[][] source = baseline.all;
        for (int i = 0; i < to.length; i++) {
            long[] a = to[i];
            if (!isMaximumOrState(a)) {
                long[] b = source[i];
                for (int k = 0; k < a.length; k++) {
                    a[k] -= b[k];
                }
            }
        }
    }

    /** Arrays that are not counts: they merge by the larger value and a clear leaves them alone. */
    private boolean isMaximumOrState(long[] array) {
        return array == maxQueueBytes || array == maxIngressBytes || array == queueDelayMaxNanos || array == xoffSentSince;
    }

    private void copyLastLosslessDrop(SwitchCounters from) {
        lastLosslessDropPort = from.lastLosslessDropPort;
        lastLosslessDropPriority = from.lastLosslessDropPriority;
        lastLosslessDropVerdict = from.lastLosslessDropVerdict;
        lastLosslessDropAt = from.lastLosslessDropAt;
        lastLosslessDropIngressBytes = from.lastLosslessDropIngressBytes;
        lastLosslessDropHeadroomBytes = from.lastLosslessDropHeadroomBytes;
        lastLosslessDropNanosAfterXoff = from.lastLosslessDropNanosAfterXoff;
    }

    private void checkSameSize(SwitchCounters from) {
        if (from.ports != ports) {
            throw new IllegalArgumentException("counters of " + from.ports + " ports copied into " + ports);
        }
    }


    /** Frames received on {@code port} whose parse ended with {@code error}. */
    public long parseErrors(int port, ParseError error) {
        return parseErrors[port * PARSE_ERRORS + error.ordinal()];
    }

    /**
     * The malformed frames received on {@code port}: every frame whose parse found something wrong,
     * whatever reason ({@link #parseErrors(int, ParseError)}) and whatever happened to it next. The
     * one total that the shutdown log, {@code show ports} and {@code /metrics} (as the sum over its
     * {@code reason} label) give.
     */
    public long malformed(int port) {
        long n = 0;
        for (ParseError e : ParseError.values()) {
            n += e.isError() ? parseErrors(port, e) : 0;
        }
        return n;
    }

    void countParseError(int port, ParseError error) {
        parseErrors[port * PARSE_ERRORS + error.ordinal()]++;
    }

    public int ports() {
        return ports;
    }

    public long maxBufferBytes() {
        return maxBufferBytes;
    }

    /** Drops of frames from {@code (port, priority)} for {@code verdict} (a {@code Verdict.DROP_*}). */
    public long drops(int port, int priority, int verdict) {
        return drops[(port * PRIORITIES + priority) * Verdict.DROP_REASONS + Verdict.dropIndex(verdict)];
    }

    /** Admission drops of every reason, priority and port. */
    public long totalDrops() {
        return sum(drops);
    }

    public long rxFrames(int port) { return sumPort(rxFrames, port); }
    public long rxBytes(int port) { return sumPort(rxBytes, port); }
    public long txFrames(int port) { return sumPort(txFrames, port); }
    public long txBytes(int port) { return sumPort(txBytes, port); }

    static long sum(long[] counter) {
        long s = 0;
        for (long v : counter) {
            s += v;
        }
        return s;
    }

    private static long sumPort(long[] counter, int port) {
        long s = 0;
        for (int q = 0; q < PRIORITIES; q++) {
            s += counter[port * PRIORITIES + q];
        }
        return s;
    }
}

package org.pfcswitch.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.StringJoiner;

import org.pfcswitch.codec.ParseError;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.core.SwitchWorkers;
import org.pfcswitch.mmu.UpstreamPausing;
import org.pfcswitch.mmu.Verdict;

/**
 * What {@code run} logs about a live switch: a status line per port while it runs (rates since
 * the last line, PFC sent and received, buffer) and every counter at shutdown. The counters are
 * written by the worker thread; these reads see recent values, exact once the switch stopped.
 */
final class SwitchStatus {

    private static final int PRIORITIES = SwitchCounters.PRIORITIES;
    private static final int[] DROPS = {Verdict.DROP_LOSSY_THRESHOLD, Verdict.DROP_BUFFER_FULL,
        Verdict.DROP_LOSSLESS_VIOLATION, Verdict.DROP_EGRESS_LIMIT};

    private final DpdkSwitch sw;
    private final long[] lastRxBytes;
    private final long[] lastTxBytes;
    private final long[] lastXoff;
    private long lastAt = System.nanoTime();

    SwitchStatus(DpdkSwitch sw) {
        this.sw = sw;
        int ports = sw.config().ports().size();
        lastRxBytes = new long[ports];
        lastTxBytes = new long[ports];
        lastXoff = new long[ports];
    }

    /** One line per port: rates since the previous call, pauses sent and received, queued bytes; then the buffer. */
    List<String> lines() {
        SwitchWorkers cores = sw.cores();
        SwitchCounters c = cores.counters();
        long now = System.nanoTime();
        double seconds = Math.max(1e-9, (now - lastAt) / 1e9);
        lastAt = now;
        List<String> lines = new ArrayList<>();
        for (int p = 0; p < c.ports(); p++) {
            long rx = c.rxBytes(p);
            long tx = c.txBytes(p);
            lines.add(String.format("status %-8s rx %8.1f Mb/s  tx %8.1f Mb/s  pfc sent xoff %d xon %d  pfc rcvd xoff %d xon %d"
                            + "  pause rcvd %d  queued %d B  drops %d",
                    name(p), (rx - lastRxBytes[p]) * 8 / seconds / 1e6, (tx - lastTxBytes[p]) * 8 / seconds / 1e6,
                    sumPort(c.pfcXoffTx, p), sumPort(c.pfcXonTx, p), sumPort(c.pfcXoffRx, p), sumPort(c.pfcXonRx, p),
                    c.pauseFramesRx[p], cores.ownerOf(p).queuedBytes(p), portDrops(c, p)));
            lastRxBytes[p] = rx;
            lastTxBytes[p] = tx;
        }
        lines.add("status buffer " + cores.bufferUsed() + " B used, most " + c.maxBufferBytes() + " B"
                + ", lossless violations " + cores.mmuLosslessViolations() + ", rx missed " + sw.rxMissed() + ", mbufs in use "
                + sw.mbufsInUse() + " of " + sw.poolSize() + ", " + stalls());
        return lines;
    }

    /**
     * One line for a live display: per port the rates since the previous call (Mb/s in and out)
     * and the PFC pauses sent since then, then the shared buffer in use and lossless drops.
     */
    String compactLine() {
        SwitchWorkers cores = sw.cores();
        SwitchCounters c = cores.counters();
        long now = System.nanoTime();
        double seconds = Math.max(1e-9, (now - lastAt) / 1e9);
        lastAt = now;
        StringBuilder s = new StringBuilder();
        for (int p = 0; p < c.ports(); p++) {
            long rx = c.rxBytes(p);
            long tx = c.txBytes(p);
            long xoff = sumPort(c.pfcXoffTx, p);
            s.append(String.format(Locale.ROOT, "%s %.0f/%.0f%s | ", name(p), (rx - lastRxBytes[p]) * 8 / seconds / 1e6,
                    (tx - lastTxBytes[p]) * 8 / seconds / 1e6, xoff > lastXoff[p] ? " pfc " + (xoff - lastXoff[p]) : ""));
            lastRxBytes[p] = rx;
            lastTxBytes[p] = tx;
            lastXoff[p] = xoff;
        }
        return s.append(String.format(Locale.ROOT, "buffer %.0f KB, lossless drops %d (Mb/s in/out, PFC pauses sent)",
                cores.bufferUsed() / 1e3, cores.mmuLosslessViolations())).toString();
    }

    /** Every counter of every port, for the shutdown log. */
    List<String> counters() {
        SwitchWorkers cores = sw.cores();
        SwitchCore core = cores.core(0);            // what every worker's core shares: configuration
        SwitchCounters c = cores.counters();
        boolean perQueue = core.mmu().config().upstreamPausing() == UpstreamPausing.PER_QUEUE;
        List<String> lines = new ArrayList<>();
        for (int p = 0; p < c.ports(); p++) {
            StringBuilder line = new StringBuilder("counters ").append(name(p)).append(':')
                    .append(" rx ").append(c.rxFrames(p)).append(byPriority(c.rxFrames, p))
                    .append(", tx ").append(c.txFrames(p)).append(byPriority(c.txFrames, p))
                    .append(", tx-full drops ").append(sw.txRefused(p))
                    .append(", pfc rx").append(byPriorityOrZero(c.pfcXoffRx, p))
                    .append(", xon rx").append(byPriorityOrZero(c.pfcXonRx, p))
                    .append(", pfc tx").append(byPriorityOrZero(c.pfcXoffTx, p))
                    .append(", xon tx").append(byPriorityOrZero(c.pfcXonTx, p))
                    .append(", pause rx ").append(c.pauseFramesRx[p])
                    .append(", ecn marked ").append(sumPort(c.ecnMarked, p))
                    .append(", flooded ").append(c.flooded[p])
                    .append(", filtered ").append(c.filtered[p])
                    .append(", malformed ").append(c.malformed(p)).append(malformedByReason(c, p))
                    .append(", malformed dropped ").append(c.malformedDropped[p])
                    .append(", foreign control ").append(c.foreignControl[p]);
            if (perQueue) {
                line.append(", bfc pause tx ").append(c.bfcPauseTx[p]).append(", bfc resume tx ").append(c.bfcResumeTx[p])
                        .append(", bfc control rx ").append(c.bfcControlRx[p]);
            }
            for (int verdict : DROPS) {
                long n = 0;
                for (int prio = 0; prio < PRIORITIES; prio++) {
                    n += c.drops(p, prio, verdict);
                }
                line.append(", drops ").append(Verdict.name(verdict)).append(' ').append(n);
            }
            line.append(", lossless drops ").append(sumPort(c.losslessDrops, p))
                    .append(core.senderIgnoresPfc(p) ? " (sender ignores PFC)" : " (sender obeys PFC)");
            lines.add(line.toString());
        }
        for (int p = 0; p < c.ports(); p++) {
            if (sumPort(c.pfcwdStorms, p) > 0) {
                lines.add("pfcwd " + name(p) + ": storms" + byPriorityOrZero(c.pfcwdStorms, p) + ", restorations"
                        + byPriorityOrZero(c.pfcwdRestorations, p) + ", dropped" + byPriorityOrZero(c.pfcwdDrops, p)
                        + ", dropped from it" + byPriorityOrZero(c.pfcwdIngressDrops, p)
                        + ", stormed now" + stormedNow(cores.ownerOf(p), p));
            }
        }
        org.pfcswitch.core.deadlock.DeadlockWatch deadlock = core.deadlockWatch();
        if (deadlock != null) {
            lines.add("deadlock detection: " + deadlock.checks() + " checks, " + deadlock.deadlocks() + " deadlock(s) reported"
                    + (deadlock.present() ? ", one still present at shutdown" : ""));
        }
        if (c.lastLosslessDropPort >= 0) {
            lines.add(losslessDropLine());
        }
        lines.add("buffer: most " + c.maxBufferBytes() + " B used, lossless violations " + cores.mmuLosslessViolations()
                + " (since start: from senders that obey PFC " + cores.losslessViolations(false) + ", that ignore it "
                + cores.losslessViolations(true) + ")"
                + ", forwarding table " + cores.forwardingTableSize() + " stations, mbuf pool empty " + sw.allocationFailures() + " times"
                + ", " + sw.passes() + " poll-loop passes");
        lines.add(stalls());
        return lines;
    }

    /**
     * What the lossless drops say about their cause (call only when there was one): how many came
     * before the episode's first XOFF frame, the longest time after it, and the last drop's port,
     * verdict, ingress and headroom bytes; then {@link #obeyingDrops}. {@code run} logs it at
     * shutdown and {@code lab} after each live scheme.
     */
    String losslessDropLine() {
        SwitchWorkers cores = sw.cores();
        SwitchCounters c = cores.counters();
        return String.format(Locale.ROOT, "lossless drops: %d before the episode's first XOFF frame went out; the longest"
                        + " after it %s; the last: %s priority %d, %s, ingress queue %d B of which headroom %d B (headroom"
                        + " per queue %d B), %s", c.losslessDropsBeforeXoffSent,
                c.losslessDropMaxNanosAfterXoff < 0 ? "none" : String.format(Locale.ROOT, "%.3f ms", c.losslessDropMaxNanosAfterXoff / 1e6),
                name(c.lastLosslessDropPort), c.lastLosslessDropPriority, Verdict.name(c.lastLosslessDropVerdict),
                c.lastLosslessDropIngressBytes, c.lastLosslessDropHeadroomBytes,
                cores.core(0).mmu().config().headroomBytes(c.lastLosslessDropPort),
                c.lastLosslessDropNanosAfterXoff < 0 ? "no XOFF frame sent yet in this episode"
                        : String.format(Locale.ROOT, "%.3f ms after the episode's first XOFF frame",
                                c.lastLosslessDropNanosAfterXoff / 1e6)) + "; " + obeyingDrops(cores);
    }

    /**
     * The lossless drops of senders that obey PFC, timed against their XOFF: {@code from senders
     * that obey PFC: N, M of them before any XOFF to them, the earliest T ms after their XOFF}. A
     * drop before any XOFF is the switch's; after it, timing alone cannot say whose a drop is when
     * frames spend milliseconds on the way (emulated wires): the sender's own log can
     * ({@code run --drop-log}, {@link LiveDropReport}). {@code run} and {@code lab} print the same words.
     */
    static String obeyingDrops(SwitchWorkers cores) {
        SwitchCounters c = cores.counters();
        return String.format(Locale.ROOT, "from senders that obey PFC: %d, %d of them before any XOFF to them, the earliest %s"
                        + " after their XOFF", cores.losslessViolations(false), c.obeyingDropsBeforeXoffSent,
                c.obeyingDropMinNanosAfterXoff < 0 ? "none" : String.format(Locale.ROOT, "%.3f ms", c.obeyingDropMinNanosAfterXoff / 1e6));
    }

    private static String stormedNow(SwitchCore core, int port) {
        StringBuilder b = new StringBuilder();
        for (int q = 0; q < PRIORITIES; q++) {
            if (core.isStormed(port, q)) {
                b.append(" p").append(q);
            }
        }
        return b.isEmpty() ? " none" : b.toString();
    }

    /**
     * "poll-loop stalls >= 100us 3, >= 1ms 1, ...; longest 1234 us, held past an idle sleep up to 900 us":
     * how late timers and PFC refreshes could have been, and the longest of those stalls that the
     * OS added to a worker's idle sleep.
     */
    private String stalls() {
        long[] counts = sw.stalls();
        StringBuilder s = new StringBuilder("poll-loop stalls");
        for (int b = 0; b < counts.length; b++) {
            long bound = DpdkSwitch.STALL_BOUNDS_NANOS[b];
            s.append(b == 0 ? " " : ", ").append(">= ").append(bound >= 1_000_000 ? bound / 1_000_000 + "ms" : bound / 1000 + "us")
                    .append(' ').append(counts[b]);
        }
        s.append("; longest ").append(sw.longestPassNanos() / 1000).append(" us");
        long pastSleep = sw.longestHeldPastSleepNanos();
        return pastSleep == 0 ? s.toString() : s.append(", held past an idle sleep up to ").append(pastSleep / 1000).append(" us").toString();
    }

    private String name(int port) {
        return sw.config().ports().get(port).name();
    }

    /** " (runt 2, pfc_reserved_bits_set 1)" for the malformed frames seen on {@code port}, "" when none. */
    private static String malformedByReason(SwitchCounters c, int port) {
        StringJoiner s = new StringJoiner(", ", " (", ")").setEmptyValue("");
        for (ParseError e : ParseError.values()) {
            long n = e.isError() ? c.parseErrors(port, e) : 0;
            if (n > 0) {
                s.add(e.label() + " " + n);
            }
        }
        return s.toString();
    }

    private static long portDrops(SwitchCounters c, int port) {
        long n = 0;
        for (int i = port * PRIORITIES * Verdict.DROP_REASONS; i < (port + 1) * PRIORITIES * Verdict.DROP_REASONS; i++) {
            n += c.drops[i];
        }
        return n;
    }

    private static long sumPort(long[] counter, int port) {
        long n = 0;
        for (int prio = 0; prio < PRIORITIES; prio++) {
            n += counter[port * PRIORITIES + prio];
        }
        return n;
    }

    /** " (p3=12 p4=1)" for the priorities with frames, "" when none. */
    private static String byPriority(long[] counter, int port) {
        StringBuilder s = new StringBuilder();
        for (int prio = 0; prio < PRIORITIES; prio++) {
            long n = counter[port * PRIORITIES + prio];
            if (n > 0) {
                s.append(s.isEmpty() ? " (" : " ").append('p').append(prio).append('=').append(n);
            }
        }
        return s.isEmpty() ? "" : s.append(')').toString();
    }

    /** " p3=12 p4=1" for the priorities with frames, " 0" when none. */
    private static String byPriorityOrZero(long[] counter, int port) {
        String s = byPriority(counter, port);
        return s.isEmpty() ? " 0" : " " + s.substring(2, s.length() - 1);
    }
}

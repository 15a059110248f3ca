package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a live test judges the lossless drops of senders that obey PFC, from the words {@code run}
 * and {@code lab} print ({@link SwitchStatus#obeyingDrops}).
 *
 * <p>Live, the headroom holds while the switch's worker is scheduled and each sender stops within
 * the headroom's line time of its XOFF. Two things on two shared cores eat into that time and are
 * not the scheme's: the worker's own stalls (frames that arrived while the OS held the worker wait
 * in the rx ring, so the XOFF goes out up to one stall late and those frames land after it), and
 * the emulated hosts, themselves threads, which react late when descheduled. So a drop before any
 * XOFF went out to its sender, or sooner after it than the headroom's line time less the worker's
 * longest stall, is the switch's and fails the test; a later one is reported. A run whose worker
 * stalled 10 ms or more is not held to either.
 */
final class LosslessJudgement {

    private static final Pattern OBEYING = Pattern.compile("from senders that obey PFC: (\\d+), (\\d+) of them before"
            + " any XOFF to them, the earliest (none|[0-9.]+)(?: ms)? after their XOFF");

    private LosslessJudgement() {}

    /**
     * Judges the first obeying-drops phrase in {@code text}; returns the number of such drops (0 when
     * the phrase is absent: {@code run} prints it only when a lossless frame was dropped).
     */
    static long judge(String label, String text, long headroomNanos, long longestStallNanos, String context) {
        Matcher m = OBEYING.matcher(text);
        if (!m.find()) {
            return 0;
        }
        long obeying = Long.parseLong(m.group(1));
        long beforeXoff = Long.parseLong(m.group(2));
        if (obeying == 0) {
            return 0;
        }
        String fault = switchFault(text, headroomNanos, longestStallNanos);
        assertNull(fault, () -> label + ": " + fault + "\n" + context);
        double earliestMs = Double.parseDouble(m.group(3));
        System.out.println(label + ": " + obeying + " lossless drops, the earliest " + earliestMs + " ms after the sender's XOFF,"
                + " not sooner than the headroom's " + headroomNanos / 1e6 + " ms less the worker's longest stall "
                + longestStallNanos / 1e6 + " ms (a late stall or a late host)");
        return obeying;
    }

    /**
     * The drops of senders that obey PFC in {@code text} that are the switch's, in words, or null when
     * there are none: drops before any XOFF, or one sooner after it than the headroom's line time less
     * the worker's longest stall.
     */
    static String switchFault(String text, long headroomNanos, long longestStallNanos) {
        Matcher m = OBEYING.matcher(text);
        if (!m.find() || Long.parseLong(m.group(1)) == 0) {
            return null;
        }
        long beforeXoff = Long.parseLong(m.group(2));
        if (beforeXoff > 0) {
            return beforeXoff + " lossless drops before the switch paused their sender";
        }
        double earliestMs = Double.parseDouble(m.group(3));
        if (earliestMs * 1e6 >= headroomNanos - longestStallNanos) {
            return null;
        }
        return "a sender that obeys PFC lost a frame " + earliestMs + " ms after its XOFF, within the headroom's "
                + headroomNanos / 1e6 + " ms less the worker's longest stall " + longestStallNanos / 1e6 + " ms";
    }

    /**
     * Whether the worker stalled 10 ms or more, from {@code text}: run's "poll-loop stalls ... >= 10ms N"
     * or lab's "stalls >= 1 ms N, >= 10 ms M"; such a run is not judged.
     */
    static boolean stalledTenMs(String text) {
        Matcher m = Pattern.compile(">= 10 ?ms (\\d+)").matcher(text);
        if (!m.find()) {
            throw new AssertionError("no stall counts in the log:\n" + text);
        }
        return Long.parseLong(m.group(1)) > 0;
    }

    /** The worker's longest stall in {@code text}: "longest N us" (run's shutdown line) or "longest X ms" (lab's), in ns. */
    static long longestStallNanos(String text) {
        Matcher us = Pattern.compile("poll-loop stalls .*; longest (\\d+) us").matcher(text);
        if (us.find()) {
            return Long.parseLong(us.group(1)) * 1_000;
        }
        Matcher ms = Pattern.compile("stalls >= 1 ms \\d+, >= 10 ms \\d+, longest ([0-9.]+) ms").matcher(text);
        if (ms.find()) {
            return (long) (Double.parseDouble(ms.group(1)) * 1e6);
        }
        throw new AssertionError("no longest stall in the log:\n" + text);
    }

    /** Line time of {@code bytes} at {@code bitsPerSecond}, in nanoseconds. */
    static long lineNanos(long bytes, long bitsPerSecond) {
        return bytes * 8 * 1_000_000_000L / bitsPerSecond;
    }
}

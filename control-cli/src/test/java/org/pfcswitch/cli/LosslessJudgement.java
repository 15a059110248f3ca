package org.pfcswitch.cli;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a live test judges the lossless drops of senders that obey PFC: by the attribution line of
 * {@link LiveDropReport}, which traces each drop the switch logged to its sender's own send log.
 * A drop is the emulated wires' when the sender obeyed and the headroom held all the sender had
 * honestly put in flight (the pause took longer than the headroom's line time to stop it: kernel
 * queues, a descheduled thread on two shared cores); any other drop is the switch's, the host's,
 * or untraceable, and fails the test. Every run is judged, however long the OS held a thread.
 *
 * <p>One kind of the switch's drops is let through, printed: frames lost in the switch ports' own
 * rx rings while the worker was off its CPU. The report rightly calls them the switch's (in a lab
 * those rings are its NICs'), but on this two-CPU machine, shared by the emulated hosts, the kernel
 * and the build, the worker cannot be given a CPU of its own, and no ring size rides out every
 * stall (docs/performance.md, "Measured: lossless drops of the live scheme tests on two shared
 * CPUs"). A drop the switch made anywhere else (its MMU, its headroom, no XOFF sent) still fails.
 * {@link #none} lets nothing through, for a lab sized for its machine's stalls.
 */
final class LosslessJudgement {

    private static final Pattern ATTRIBUTED = Pattern.compile("lossless drops of senders that obey PFC, by whose they are:"
            + " wire (\\d+), switch (\\d+), host (\\d+), unmatched (\\d+)[^\\n]*");
    /** The part of the switch's drops that its ports' rx rings lost (LiveDropReport's wording). */
    private static final Pattern IN_RX_RINGS = Pattern.compile("; (\\d+) of the switch's in its ports' rx rings");

    private LosslessJudgement() {}

    /**
     * Judges the run of {@code scheme} in {@code text} strictly: no lossless drop of a sender that
     * obeys PFC at all, whoever's the attribution line says it is (the emulated wires', the switch's
     * rx rings' or MMU's, the host's, untraceable). For a lab whose rings and headroom are sized for
     * the stalls of the machine it runs on, as {@link LiveSchemesTest}'s.
     */
    static void none(String label, String scheme, String text) {
        Matcher m = Pattern.compile(Pattern.quote(scheme) + " " + ATTRIBUTED.pattern()).matcher(text);
        if (!m.find()) {
            throw new AssertionError(label + ": no attribution line for " + scheme + "\n" + text);
        }
        long drops = 0;
        for (int g = 1; g <= 4; g++) {
            drops += Long.parseLong(m.group(g));
        }
        if (drops > 0) {
            throw new AssertionError(label + ": " + m.group() + "\n" + text);
        }
    }

    /**
     * Judges the run of {@code scheme} in {@code text} by its attribution line (prefixed with the
     * scheme's name): no drop may be the switch's (save in its ports' rx rings, above), the sender's,
     * or untraceable; the emulated wires' and the rx rings' drops are printed. Returns those.
     */
    static long attributed(String label, String scheme, String text) {
        Matcher m = Pattern.compile(Pattern.quote(scheme) + " " + ATTRIBUTED.pattern()).matcher(text);
        if (!m.find()) {
            throw new AssertionError(label + ": no attribution line for " + scheme + "\n" + text);
        }
        long wire = Long.parseLong(m.group(1));
        long switchDrops = Long.parseLong(m.group(2));
        Matcher rings = IN_RX_RINGS.matcher(m.group());
        long inRxRings = rings.find() ? Long.parseLong(rings.group(1)) : 0;
        long failing = switchDrops - inRxRings + Long.parseLong(m.group(3)) + Long.parseLong(m.group(4));
        if (failing > 0) {
            throw new AssertionError(label + ": " + m.group() + "\n" + text);
        }
        if (wire + inRxRings > 0) {
            System.out.println(label + ": " + m.group());
        }
        return wire + inRxRings;
    }
}

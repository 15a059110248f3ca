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
 */
final class LosslessJudgement {

    private static final Pattern ATTRIBUTED = Pattern.compile("lossless drops of senders that obey PFC, by whose they are:"
            + " wire (\\d+), switch (\\d+), host (\\d+), unmatched (\\d+)[^\\n]*");

    private LosslessJudgement() {}

    /**
     * Judges the run of {@code scheme} in {@code text} by its attribution line (prefixed with the
     * scheme's name): no drop may be the switch's, the sender's, or untraceable; the emulated wires'
     * drops are printed. Returns those.
     */
    static long attributed(String label, String scheme, String text) {
        Matcher m = Pattern.compile(Pattern.quote(scheme) + " " + ATTRIBUTED.pattern()).matcher(text);
        if (!m.find()) {
            throw new AssertionError(label + ": no attribution line for " + scheme + "\n" + text);
        }
        long wire = Long.parseLong(m.group(1));
        long notWire = Long.parseLong(m.group(2)) + Long.parseLong(m.group(3)) + Long.parseLong(m.group(4));
        if (notWire > 0) {
            throw new AssertionError(label + ": " + m.group() + "\n" + text);
        }
        if (wire > 0) {
            System.out.println(label + ": " + m.group());
        }
        return wire;
    }
}

package org.pfcswitch.config;

import java.util.Locale;

import org.pfcswitch.core.PfcWatchdogConfig;

/**
 * The {@code pfcwd:} section of a scenario or a switch config (the same in both):
 *
 * <pre>
 * pfcwd: {detection: 200ms, restoration: 400ms, action: drop}   # action: drop | forward
 *                                                                # poll: 20ms (default detection / 10)
 * </pre>
 *
 * Absent: no watchdog.
 */
public final class PfcWatchdogLoader {

    private PfcWatchdogLoader() {}

    /** The watchdog {@code root}'s {@code pfcwd} section configures, or null when there is none. */
    public static PfcWatchdogConfig read(ConfigNode root) {
        if (!root.has("pfcwd")) {
            return null;
        }
        ConfigNode w = root.child("pfcwd").allowOnly("detection", "restoration", "action", "poll");
        long detection = w.nanos("detection");
        if (detection <= 0) {
            throw w.error("detection", "must be > 0, got " + detection + " ns");
        }
        long restoration = w.nanos("restoration");
        if (restoration <= 0) {
            throw w.error("restoration", "must be > 0, got " + restoration + " ns");
        }
        String action = w.string("action", "drop").toLowerCase(Locale.ROOT);
        PfcWatchdogConfig.Action a = switch (action) {
            case "drop" -> PfcWatchdogConfig.Action.DROP;
            case "forward" -> PfcWatchdogConfig.Action.FORWARD;
            default -> throw w.error("action", "expected drop or forward, got '" + action + "'");
        };
        long poll = w.nanos("poll", Math.max(1, detection / 10));
        if (poll <= 0 || poll > detection) {
            throw w.error("poll", "must be > 0 and at most the detection time (" + detection + " ns), got " + poll + " ns");
        }
        return new PfcWatchdogConfig(detection, restoration, a, poll);
    }
}

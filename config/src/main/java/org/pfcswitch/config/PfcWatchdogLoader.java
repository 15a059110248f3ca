package org.pfcswitch.config;

import java.util.Locale;

import org.pfcswitch.core.PfcWatchdogConfig;

/**
 * The PFC watchdog's settings, checked in one place whether they come from the {@code pfcwd:}
 * section of a scenario or a switch config (the same in both) or from {@code pfcwd start} on a
 * running switch:
 *
 * <pre>
 * pfcwd: {detection: 200ms, restoration: 400ms, action: drop}   # action: drop | forward | alert
 *                                                                # poll: 20ms (default detection / 10)
 * </pre>
 *
 * Absent: no watchdog. At run time ({@link #runtime}) the times are whole milliseconds in the
 * ranges SONiC's {@code pfcwd start} allows ({@value #MIN_DETECTION_MS}-{@value #MAX_DETECTION_MS}
 * ms detection, {@value #MIN_RESTORATION_MS}-{@value #MAX_RESTORATION_MS} ms restoration, by
 * default twice the detection time); a config file may give any positive time (a simulated run
 * lasts milliseconds).
 */
public final class PfcWatchdogLoader {

    public static final long MIN_DETECTION_MS = 100, MAX_DETECTION_MS = 5_000;
    public static final long MIN_RESTORATION_MS = 100, MAX_RESTORATION_MS = 60_000;

    /** Builds the error for a setting ({@code key}: detection, restoration, action, poll) that is wrong. */
    @FunctionalInterface
    public interface Problem {
        RuntimeException at(String key, String message);
    }

    private PfcWatchdogLoader() {}

    /** The watchdog {@code root}'s {@code pfcwd} section configures, or null when there is none. */
    public static PfcWatchdogConfig read(ConfigNode root) {
        if (!root.has("pfcwd")) {
            return null;
        }
        ConfigNode w = root.child("pfcwd").allowOnly("detection", "restoration", "action", "poll");
        long detection = w.nanos("detection");
        long restoration = w.nanos("restoration");
        String action = w.string("action", "drop");
        long poll = w.nanos("poll", Math.max(1, detection / 10));
        return settings(detection, restoration, action, poll, w::error);
    }

    /**
     * Settings for {@code pfcwd start} on a running switch: {@code restorationMs} null means twice the
     * detection time, {@code action} null means drop; the poll is a tenth of the detection time.
     */
    public static PfcWatchdogConfig runtime(long detectionMs, Long restorationMs, String action, Problem problem) {
        if (detectionMs < MIN_DETECTION_MS || detectionMs > MAX_DETECTION_MS) {
            throw problem.at("detection", "must be " + MIN_DETECTION_MS + "-" + MAX_DETECTION_MS + " ms, got " + detectionMs);
        }
        long restoration = restorationMs == null ? 2 * detectionMs : restorationMs;
        if (restoration < MIN_RESTORATION_MS || restoration > MAX_RESTORATION_MS) {
            throw problem.at("restoration", "must be " + MIN_RESTORATION_MS + "-" + MAX_RESTORATION_MS + " ms, got " + restoration);
        }
        long detection = detectionMs * 1_000_000;
        return settings(detection, restoration * 1_000_000, action == null ? "drop" : action, detection / 10, problem);
    }

    /** The one check of every watchdog setting, whatever its source. */
    public static PfcWatchdogConfig settings(long detection, long restoration, String action, long poll, Problem problem) {
        if (detection <= 0) {
            throw problem.at("detection", "must be > 0, got " + detection + " ns");
        }
        if (restoration <= 0) {
            throw problem.at("restoration", "must be > 0, got " + restoration + " ns");
        }
        PfcWatchdogConfig.Action a = switch (action.toLowerCase(Locale.ROOT)) {
            case "drop" -> PfcWatchdogConfig.Action.DROP;
            case "forward" -> PfcWatchdogConfig.Action.FORWARD;
            case "alert" -> PfcWatchdogConfig.Action.ALERT;
            default -> throw problem.at("action", "expected drop, forward or alert, got '" + action + "'");
        };
        if (poll <= 0 || poll > detection) {
            throw problem.at("poll", "must be > 0 and at most the detection time (" + detection + " ns), got " + poll + " ns");
        }
        return new PfcWatchdogConfig(detection, restoration, a, poll);
    }
}

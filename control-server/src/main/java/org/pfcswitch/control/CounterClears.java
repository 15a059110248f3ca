package org.pfcswitch.control;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.SwitchCounters;

/**
 * What an operator cleared ({@code pfcswitch clear counters|queues|pfc|watermarks}) and since when,
 * kept on the control side so that the worker never does more than it did before: {@code show}
 * reads each family of counters relative to a copy taken at its last clear, while the switch's own
 * counters, and so {@code /metrics}, stay monotonic as Prometheus requires.
 *
 * <p>Watermarks are the exception, because a maximum cannot be subtracted: the worker keeps one
 * maximum per ingress priority group and egress queue since its last reset, and a clear resets it
 * in the same task that copies it ({@code CoreSnapshot#captureAndResetWatermarks}). The maximum
 * since start is kept here, as the largest of every copy {@link #observe} saw; since every value
 * the worker held before a reset is in the copy taken with the reset, none is lost. One maximum in
 * the worker (not two with a clear epoch) is the cheaper design: one compare and store per
 * admission, and a clear costs one mailbox task.
 *
 * <p>Not thread-safe: the control server calls it under the lock that guards its snapshot.
 */
public final class CounterClears {

    /** The families a clear resets, each with the views that read relative to it. */
    public enum Family {
        COUNTERS("counters", List.of("ports")),
        QUEUES("queues", List.of("queues")),
        PFC("pfc", List.of("pfc")),
        WATERMARKS("watermarks", List.of("watermark"));

        public final String label;
        final List<String> views;

        Family(String label, List<String> views) {
            this.label = label;
            this.views = views;
        }

        /** @throws IllegalArgumentException not a family, naming the ones there are */
        public static Family of(String label) {
            for (Family f : values()) {
                if (f.label.equals(label)) {
                    return f;
                }
            }
            throw new IllegalArgumentException("nothing called '" + label + "' to clear (allowed: " + labels() + ")");
        }

        public static String labels() {
            return String.join(", ", Arrays.stream(values()).map(f -> f.label).toList());
        }

        /** The family {@code view} reads relative to, or null when it reads the switch's counters as they are. */
        static Family ofView(String view) {
            for (Family f : values()) {
                if (f.views.contains(view)) {
                    return f;
                }
            }
            return null;
        }
    }

    private static final int COUNTER_FAMILIES = 3;

    private final int ports;
    /** Per counter family: the counters at its last clear (null: never cleared), and the driver's counts then. */
    private final SwitchCounters[] baseline = new SwitchCounters[COUNTER_FAMILIES];
    private final long[] pausedNanosAtClear;
    private final long[] txRefusedAtClear;
    private final long[] rxMissedAtClear;
    /** Scratch: a view's counters made relative, one per family (allocated once). */
    private final SwitchCounters[] relative = new SwitchCounters[COUNTER_FAMILIES];
    /** Per family, when it was last cleared in milliseconds since the epoch; 0 never. */
    private final long[] clearedAtMillis = new long[Family.values().length];
    /** The most bytes each ingress priority group and egress queue held since start. */
    private final long[] pgSinceStart;
    private final long[] queueSinceStart;

    public CounterClears(int ports) {
        this.ports = ports;
        int keys = ports * CoreSnapshot.PRIORITIES;
        pausedNanosAtClear = new long[keys];
        txRefusedAtClear = new long[ports];
        rxMissedAtClear = new long[ports];
        pgSinceStart = new long[keys];
        queueSinceStart = new long[keys];
        for (int f = 0; f < COUNTER_FAMILIES; f++) {
            relative[f] = new SwitchCounters(ports);
        }
    }

    /** Folds a fresh snapshot's watermarks into the maxima since start. Call after every snapshot. */
    public void observe(CoreSnapshot s) {
        for (int k = 0; k < pgSinceStart.length; k++) {
            pgSinceStart[k] = Math.max(pgSinceStart[k], s.counters.maxIngressBytes[k]);
            queueSinceStart[k] = Math.max(queueSinceStart[k], s.counters.maxQueueBytes[k]);
        }
    }

    /**
     * Clears {@code family} at {@code s}, a snapshot taken just now ({@link #observe}d already; for
     * {@link Family#WATERMARKS} the one taken with the worker's reset).
     */
    public void clear(Family family, CoreSnapshot s, SwitchMetrics.Driver driver, long nowMillis) {
        clearedAtMillis[family.ordinal()] = nowMillis;
        if (family == Family.WATERMARKS) {
            return;
        }
        SwitchCounters copy = baseline[family.ordinal()];
        if (copy == null) {
            copy = baseline[family.ordinal()] = new SwitchCounters(ports);
        }
        copy.copyFrom(s.counters);
        if (family == Family.PFC) {
            System.arraycopy(s.egressPausedNanos, 0, pausedNanosAtClear, 0, pausedNanosAtClear.length);
        }
        if (family == Family.COUNTERS) {
            for (int p = 0; p < ports; p++) {
                txRefusedAtClear[p] = driver.txRefused(p);
                rxMissedAtClear[p] = driver.rxMissed(p);
            }
        }
    }

    /** The counters {@code view} shows: {@code s}'s own, or relative to the last clear of the view's family. */
    SwitchCounters counters(String view, CoreSnapshot s) {
        Family f = Family.ofView(view);
        if (f == null || f == Family.WATERMARKS || baseline[f.ordinal()] == null) {
            return s.counters;
        }
        SwitchCounters out = relative[f.ordinal()];
        out.copyFrom(s.counters);
        out.subtract(baseline[f.ordinal()]);
        return out;
    }

    /** Time egress queue {@code k} spent paused, since the last clear of pfc. */
    long pausedNanos(CoreSnapshot s, int k) {
        return s.egressPausedNanos[k] - (baseline[Family.PFC.ordinal()] == null ? 0 : pausedNanosAtClear[k]);
    }

    /** The driver's counts since the last clear of counters. */
    SwitchMetrics.Driver driverSinceClear(SwitchMetrics.Driver driver) {
        if (driver == null || baseline[Family.COUNTERS.ordinal()] == null) {
            return driver;
        }
        return new SwitchMetrics.Driver() {
            @Override
            public long txRefused(int port) {
                return driver.txRefused(port) - txRefusedAtClear[port];
            }

            @Override
            public long rxMissed(int port) {
                return driver.rxMissed(port) - rxMissedAtClear[port];
            }

            @Override
            public long stalls(int bucket) {
                return driver.stalls(bucket);
            }
        };
    }

    public long pgWatermarkSinceStart(int key) {
        return pgSinceStart[key];
    }

    public long queueWatermarkSinceStart(int key) {
        return queueSinceStart[key];
    }

    /** When {@code family} was last cleared, in milliseconds since the epoch, or 0 if never. */
    public long clearedAtMillis(Family family) {
        return clearedAtMillis[family.ordinal()];
    }

    /** "since start" or "since clear at 17:02:11" (the switch host's local time). */
    static String sinceText(long clearedAtMillis) {
        if (clearedAtMillis == 0) {
            return "since start";
        }
        return "since clear at " + java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
                .format(java.time.Instant.ofEpochMilli(clearedAtMillis).atZone(java.time.ZoneId.systemDefault()));
    }
}

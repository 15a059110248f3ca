package org.pfcswitch.cli.scenario;

import java.util.Locale;

/**
 * Round axis ticks: steps of 1, 2 or 5 times a power of ten, labels with just the decimals the
 * step needs, and for a time axis the unit (ns, µs, ms, s) that suits its span.
 */
public final class Ticks {
    private Ticks() {}

    /** The unit a time axis is labelled in: its name and its length in nanoseconds. */
    public record TimeUnit(String name, double nanos) {}

    /** The largest unit the span covers at least once: 1.5 ms of trace reads in ms, 800 µs in µs. */
    public static TimeUnit timeUnit(double spanNanos) {
        if (spanNanos >= 1e9) {
            return new TimeUnit("s", 1e9);
        }
        if (spanNanos >= 1e6) {
            return new TimeUnit("ms", 1e6);
        }
        if (spanNanos >= 1e3) {
            return new TimeUnit("µs", 1e3);
        }
        return new TimeUnit("ns", 1);
    }

    /** The smallest step of 1, 2 or 5 x 10^k that cuts {@code span} into at most {@code most} intervals. */
    public static double step(double span, int most) {
        if (!(span > 0) || !Double.isFinite(span)) {
            return 1;
        }
        double raw = span / most;
        double mag = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            double s = m * mag;
            if (s >= raw * (1 - 1e-9)) {
                return s;
            }
        }
        return 10 * mag;
    }

    /** The multiples of {@code step} from {@code lo} to {@code hi}, both included when they are multiples. */
    public static double[] at(double lo, double hi, double step) {
        long first = (long) Math.ceil(lo / step - 1e-9);
        long last = (long) Math.floor(hi / step + 1e-9);
        double[] ticks = new double[(int) Math.max(0, last - first + 1)];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = (first + i) * step;
        }
        return ticks;
    }

    /** The top of a value axis from 0: {@code max} rounded up to a whole step (1 when there is nothing to show). */
    public static double top(double max, int most) {
        if (!(max > 0)) {
            return 1;
        }
        double step = step(max, most);
        return Math.ceil(max / step - 1e-9) * step;
    }

    /** A tick's label: as many decimals as the step has (0.2 steps: "1.4"; 5 steps: "15"). */
    public static String label(double value, double step) {
        int decimals = Math.max(0, (int) -Math.floor(Math.log10(step) + 1e-9));
        String s = String.format(Locale.ROOT, "%." + decimals + "f", value);
        return s.matches("-0(\\.0*)?") ? s.substring(1) : s;
    }
}

package org.pfcswitch.dataplane;

/** Human-readable rates for logs. */
public final class Rates {
    private Rates() {}

    public static String format(long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            return "unset";
        }
        String[] units = {"bit/s", "Kbit/s", "Mbit/s", "Gbit/s", "Tbit/s"};
        double v = bitsPerSecond;
        int u = 0;
        while (v >= 1000 && u < units.length - 1) {
            v /= 1000;
            u++;
        }
        return (v == Math.rint(v) ? String.valueOf((long) v) : String.format("%.1f", v)) + " " + units[u];
    }
}

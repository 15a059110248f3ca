package org.pfcswitch.config;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Numbers with units, as lab people write them in configs: sizes ({@code 16MiB}, {@code 2.5MB},
 * {@code 9KB}), rates ({@code 100G}, {@code 25Gbps}) and times ({@code 9us}, {@code 1ms}).
 * A bare number means bytes, bits per second or nanoseconds. Decimal prefixes are powers of
 * 1000, binary ones (KiB, MiB, GiB) powers of 1024.
 */
public final class Units {
    private static final Pattern NUMBER_UNIT = Pattern.compile("\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Zµ/]*)\\s*");

    private Units() {}

    /** Bytes; throws IllegalArgumentException saying what was expected. */
    public static long bytes(String text) {
        return scaled(text, "a size like 16MiB, 9KB or 1500", switch (unit(text)) {
            case "", "b" -> 1L;
            case "kb", "k" -> 1_000L;
            case "kib" -> 1L << 10;
            case "mb", "m" -> 1_000_000L;
            case "mib" -> 1L << 20;
            case "gb", "g" -> 1_000_000_000L;
            case "gib" -> 1L << 30;
            default -> -1L;
        });
    }

    /** Bits per second. */
    public static long bitsPerSecond(String text) {
        return scaled(text, "a rate like 100G, 25Gbps or 10000000000", switch (unit(text)) {
            case "", "bps", "b/s" -> 1L;
            case "k", "kbps", "kb/s" -> 1_000L;
            case "m", "mbps", "mb/s" -> 1_000_000L;
            case "g", "gbps", "gb/s" -> 1_000_000_000L;
            case "t", "tbps", "tb/s" -> 1_000_000_000_000L;
            default -> -1L;
        });
    }

    /** Nanoseconds. */
    public static long nanos(String text) {
        return scaled(text, "a time like 9us, 1ms or 500ns", switch (unit(text)) {
            case "", "ns" -> 1L;
            case "us", "µs" -> 1_000L;
            case "ms" -> 1_000_000L;
            case "s" -> 1_000_000_000L;
            default -> -1L;
        });
    }

    private static String unit(String text) {
        Matcher m = NUMBER_UNIT.matcher(text);
        return m.matches() ? m.group(2).toLowerCase(Locale.ROOT) : "?";
    }

    private static long scaled(String text, String expected, long multiplier) {
        Matcher m = NUMBER_UNIT.matcher(text);
        if (multiplier < 0 || !m.matches()) {
            throw new IllegalArgumentException("expected " + expected + ", got '" + text + "'");
        }
        double value = Double.parseDouble(m.group(1)) * multiplier;
        if (value > Long.MAX_VALUE) {
            throw new IllegalArgumentException("too large: '" + text + "'");
        }
        long rounded = Math.round(value);
        if (Math.abs(value - rounded) > 1e-6 * Math.max(1, value)) {
            throw new IllegalArgumentException("not a whole number of base units: '" + text + "'");
        }
        return rounded;
    }
}

package org.pfcswitch.testbed.config;

import org.pfcswitch.config.Units;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.pfcswitch.testbed.FlowList;

/**
 * Reads a flow list: one flow a line, {@code src dst bytes start [priority] [sport=N]}, separated by
 * spaces, tabs or commas; {@code #} starts a comment; blank lines are skipped.
 * <ul>
 *   <li>{@code src}, {@code dst}: a host name of the scenario ({@code H3}, {@code L1H0}) or a host
 *       index (0 = the first host, in the scenario's host order);</li>
 *   <li>{@code bytes}: a size ({@code 65536}, {@code 64KiB}, {@code 1.5MB}), &gt; 0;</li>
 *   <li>{@code start}: a bare number is <em>seconds</em> (as in ns-3's flow.txt: {@code 0.0015}),
 *       exact to the nanosecond (more digits are rounded); with a unit it is a time like
 *       {@code 1.5ms}, {@code 20us}, {@code 300ns};</li>
 *   <li>{@code priority}: 0..7, optional; without it the traffic's {@code priority};</li>
 *   <li>{@code sport=N}: optional, last: the UDP source port (1..65535) of the flow's frames, which
 *       a 5-tuple ECMP hash reads (e.g. the port ns-3 gave the same flow, to replay its paths);
 *       without it the testbed picks one from the flow's id.</li>
 * </ul>
 * Every mistake is an {@link IllegalArgumentException} whose message starts {@code FILE:LINE:} and
 * says what was wrong. The lines need not be in time order.
 */
public final class FlowListReader {

    /** Turns a host token of the file into a host index, or throws IllegalArgumentException saying why not. */
    @FunctionalInterface
    public interface HostResolver {
        int resolve(String token);
    }

    private FlowListReader() {}

    /**
     * Resolves names first, then plain indices below {@code names.size()}; {@code endpoint} says
     * whether a host may send or receive flows (null when every host may), {@code why} why not.
     */
    public static HostResolver byName(List<String> names, java.util.function.IntPredicate endpoint,
                                      java.util.function.IntFunction<String> why) {
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < names.size(); i++) {
            index.put(names.get(i), i);
        }
        return token -> {
            Integer i = index.get(token);
            int h = i != null ? i : digits(token) ? parseIndex(token, names.size()) : -1;
            if (h < 0) {
                throw new IllegalArgumentException("unknown host '" + token + "' (hosts: " + names.getFirst() + " .. "
                        + names.getLast() + ", or an index 0.." + (names.size() - 1) + ")");
            }
            if (endpoint != null && !endpoint.test(h)) {
                throw new IllegalArgumentException(why.apply(h));
            }
            return h;
        };
    }

    /** Plain host indices only, 0..hosts-1 (no scenario to name them); hosts <= 0: any index. */
    public static HostResolver byIndex(int hosts) {
        return token -> {
            if (!digits(token)) {
                throw new IllegalArgumentException("expected a host index, got '" + token + "'"
                        + " (host names need the scenario that defines them)");
            }
            int h = parseIndex(token, hosts > 0 ? hosts : Integer.MAX_VALUE);
            if (h < 0) {
                throw new IllegalArgumentException("host index " + token + " is out of range (0.." + (hosts - 1) + ")");
            }
            return h;
        };
    }

    /** Reads {@code file}; flows without a priority column get {@code defaultPriority}. */
    public static FlowList read(Path file, HostResolver hosts, int defaultPriority) {
        try (BufferedReader in = Files.newBufferedReader(file)) {
            return read(file.toString(), in, hosts, defaultPriority);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IllegalArgumentException(file + ": not UTF-8 text; save the file as UTF-8");
        } catch (IOException e) {
            throw new IllegalArgumentException(file + ": cannot read: " + e.getMessage());
        }
    }

    /** Reads a flow list from {@code in}; {@code name} is what error messages call it. */
    public static FlowList read(String name, Reader in, HostResolver hosts, int defaultPriority) throws IOException {
        BufferedReader lines = in instanceof BufferedReader b ? b : new BufferedReader(in);
        FlowList.Builder out = new FlowList.Builder();
        String[] cols = new String[7];
        int lineNo = 0;
        boolean firstData = true;
        for (String line = lines.readLine(); line != null; line = lines.readLine()) {
            lineNo++;
            int n = split(line, cols);
            if (n == 0) {
                continue;
            }
            try {
                if (firstData && n == 1 && digits(cols[0])) {
                    throw new IllegalArgumentException("a lone number on the first line looks like the flow count of an"
                            + " ns-3 flow.txt; convert it with: pfcswitch flows from-ns3 FILE --out FLOWS");
                }
                firstData = false;
                int sport = FlowList.DEFAULT_PORT;
                if (n > 4 && cols[n - 1].startsWith(SPORT)) {
                    sport = udpPort(cols[n - 1].substring(SPORT.length()));
                    n--;
                }
                if (n != 4 && n != 5) {
                    throw new IllegalArgumentException("expected 4 or 5 columns (src dst bytes start [priority]) and"
                            + " optionally sport=N, got " + (n > 5 ? "more than 5" : n));
                }
                int src = hosts.resolve(cols[0]);
                int dst = hosts.resolve(cols[1]);
                if (src == dst) {
                    throw new IllegalArgumentException("source and destination are the same host (" + cols[0] + ")");
                }
                long bytes = bytes(cols[2]);
                long start = startNanos(cols[3]);
                int priority = n == 5 ? priority(cols[4]) : defaultPriority;
                out.add(src, dst, bytes, start, priority, sport);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ":" + lineNo + ": " + e.getMessage(), e);
            }
        }
        return out.build();
    }

    /**
     * Splits {@code line} at spaces, tabs and commas, up to a '#', into {@code cols}; returns the
     * column count, or {@code cols.length} when there are that many or more.
     */
    public static int split(String line, String[] cols) {
        int n = 0;
        int i = 0;
        int len = line.length();
        while (i < len) {
            char c = line.charAt(i);
            if (c == '#') {
                break;
            }
            if (c == ' ' || c == '\t' || c == ',' || c == '\r') {
                i++;
                continue;
            }
            int from = i;
            while (i < len && (c = line.charAt(i)) != ' ' && c != '\t' && c != ',' && c != '\r' && c != '#') {
                i++;
            }
            if (n == cols.length) {
                return n;
            }
            cols[n++] = line.substring(from, i);
        }
        return n;
    }

    /** The key of the optional last column: the UDP source port of the flow's frames. */
    public static final String SPORT = "sport=";

    private static int udpPort(String s) {
        if (!digits(s) || s.length() > 5 || Integer.parseInt(s) < 1 || Integer.parseInt(s) > 65535) {
            throw new IllegalArgumentException("sport= expects a UDP port 1..65535, got '" + s + "'");
        }
        return Integer.parseInt(s);
    }

    /** A flow's size column: plain bytes or a size with a unit, > 0. */
    public static long bytes(String s) {
        if (s.startsWith("-")) {
            throw new IllegalArgumentException("negative bytes: '" + s + "'");
        }
        long b;
        if (digits(s)) {
            try {
                b = Long.parseLong(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("bytes too large: '" + s + "'");
            }
        } else {
            b = Units.bytes(s);
        }
        if (b <= 0) {
            throw new IllegalArgumentException("a flow needs > 0 bytes, got '" + s + "'");
        }
        return b;
    }

    /** A start column in nanoseconds: a bare number is seconds, exact to the nanosecond; else a time with a unit (Units.nanos). */
    public static long startNanos(String s) {
        if (s.startsWith("-")) {
            throw new IllegalArgumentException("negative start time: '" + s + "'");
        }
        // Fast paths without a regex (a list is mostly these): seconds, or a decimal with ns/us/ms/s.
        int unitAt = s.length();
        while (unitAt > 0 && Character.isLetter(s.charAt(unitAt - 1))) {
            unitAt--;
        }
        int scale = switch (s.substring(unitAt)) {
            case "", "s" -> 9;
            case "ms" -> 6;
            case "us" -> 3;
            case "ns" -> 0;
            default -> -1;
        };
        String number = s.substring(0, unitAt);
        int dot = number.indexOf('.');
        String whole = dot < 0 ? number : number.substring(0, dot);
        String frac = dot < 0 ? "" : number.substring(dot + 1);
        if (scale >= 0 && !whole.isEmpty() && digits(whole) && (frac.isEmpty() ? dot < 0 : digits(frac))) {
            return scaled(whole, frac, scale, s);
        }
        if (Character.isDigit(s.charAt(0)) && (s.indexOf('e') > 0 || s.indexOf('E') > 0)) {
            try {       // 1e-3, as printf's %g may write it
                return new BigDecimal(s).movePointRight(9).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
            } catch (NumberFormatException | ArithmeticException e) {
                // not a number after all: the message below
            }
        }
        try {
            return Units.nanos(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad start time '" + s + "': expected seconds (0.0015) or a time with a"
                    + " unit (1.5ms, 20us, 300ns)");
        }
    }

    /** whole.frac x 10^scale nanoseconds, exact; digits beyond the nanosecond are rounded half up. */
    private static long scaled(String whole, String frac, int scale, String text) {
        try {
            long nanos = Math.multiplyExact(Long.parseLong(whole), POWERS[scale]);
            long f = 0;
            for (int i = 0; i < scale; i++) {
                f = f * 10 + (i < frac.length() ? frac.charAt(i) - '0' : 0);
            }
            if (frac.length() > scale && frac.charAt(scale) >= '5') {
                f++;
            }
            return Math.addExact(nanos, f);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("start time too large: '" + text + "'");
        }
    }

    private static final long[] POWERS = {1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000,
            1_000_000_000};

    public static int priority(String s) {
        if (!digits(s) || s.length() > 1 || s.charAt(0) > '7') {
            throw new IllegalArgumentException("priority must be 0..7, got '" + s + "'");
        }
        return s.charAt(0) - '0';
    }

    public static boolean digits(String s) {
        if (s.isEmpty()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    /** The index {@code s} names below {@code limit}, or -1. */
    private static int parseIndex(String s, int limit) {
        if (s.length() > 9) {
            return -1;
        }
        int v = Integer.parseInt(s);
        return v < limit ? v : -1;
    }
}

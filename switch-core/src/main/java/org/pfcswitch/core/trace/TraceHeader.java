package org.pfcswitch.core.trace;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What a trace file says about itself on its first line (format in {@link TraceWriter}).
 *
 * @param version     format version, {@link #VERSION} when written
 * @param scheme      the MMU scheme the switch ran when the trace started
 * @param everyNanos  sample period
 * @param originNanos time the trace's clock counts from (0 in virtual time; the start of the recording live);
 *                    plots show {@code time_ns - originNanos}
 * @param source      who wrote it: {@code sim}, {@code live}, ...
 * @param switchName  which switch ({@code switch} for the only one, {@code leaf0}, {@code spine1}, ...)
 * @param portNames   port i's name, for every port of the switch; names are made safe on the way in
 *                    (whitespace, comma, {@code =} and {@code #} become {@code _}; an empty name becomes {@code pN})
 */
public record TraceHeader(int version, String scheme, long everyNanos, long originNanos, String source,
                          String switchName, List<String> portNames) {

    public static final int VERSION = 1;
    /** The first line of every trace starts with this. */
    public static final String MAGIC = "# pfcswitch-trace";

    public TraceHeader {
        scheme = safe(scheme, "unknown");
        source = safe(source, "unknown");
        switchName = safe(switchName, "switch");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < portNames.size(); i++) {
            names.add(safe(portNames.get(i), "p" + i));
        }
        portNames = List.copyOf(names);
    }

    /** A header of the current version. */
    public TraceHeader(String scheme, long everyNanos, long originNanos, String source, String switchName,
                       List<String> portNames) {
        this(VERSION, scheme, everyNanos, originNanos, source, switchName, portNames);
    }

    /** Port {@code i}'s name, or {@code pN} for a port the header does not name. */
    public String portName(int i) {
        return i >= 0 && i < portNames.size() ? portNames.get(i) : "p" + i;
    }

    /** The index of the port named {@code nameOrIndex} (or given by its number), or -1. */
    public int portIndex(String nameOrIndex) {
        int i = portNames.indexOf(nameOrIndex);
        if (i >= 0) {
            return i;
        }
        try {
            int n = Integer.parseInt(nameOrIndex.trim());
            return n >= 0 ? n : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The first line of a trace file, without the line end. */
    public String line() {
        return String.format(Locale.ROOT, "%s v%d scheme=%s every_ns=%d origin_ns=%d source=%s switch=%s ports=%s",
                MAGIC, version, scheme, everyNanos, originNanos, source, switchName, String.join(",", portNames));
    }

    private static String safe(String s, String orElse) {
        if (s == null || s.isBlank()) {
            return orElse;
        }
        return s.strip().replaceAll("[\\s,=#]", "_");
    }
}

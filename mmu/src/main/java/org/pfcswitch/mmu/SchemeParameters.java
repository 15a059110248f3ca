package org.pfcswitch.mmu;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Typed, documented access to one scheme's string parameters. Each read names the default and its
 * source, so parsing a scheme's parameters also produces its parameter table (for {@code mmu explain}
 * and docs/schemes.md). Errors name the full key and the value, e.g.
 * {@code mmu.schemes.dt.alpha must be a number in (0, 1024], got 'x'}.
 */
public final class SchemeParameters {
    private final String scheme;
    private final Map<String, String> values;
    private final Set<String> read = new HashSet<>();
    private final List<ParameterDoc> docs = new ArrayList<>();

    public SchemeParameters(String scheme, Map<String, String> values) {
        this.scheme = scheme;
        this.values = values;
    }

    /** A real number; accepts fractions such as {@code 1/16}. */
    public double real(String name, double dflt, double min, double max, String source) {
        String raw = raw(name);
        double v = dflt;
        if (raw != null) {
            try {
                int slash = raw.indexOf('/');
                v = slash < 0 ? Double.parseDouble(raw)
                        : Double.parseDouble(raw.substring(0, slash).trim())
                                / Double.parseDouble(raw.substring(slash + 1).trim());
            } catch (NumberFormatException e) {
                throw bad(name, "must be a number in (" + min + ", " + max + "]", raw);
            }
            if (!(v > min && v <= max)) {
                throw bad(name, "must be a number in (" + min + ", " + max + "]", raw);
            }
        }
        record(name, v, dflt, source);
        return v;
    }

    /** A non-negative integer count of bytes, ns, packets... */
    public long integer(String name, long dflt, long min, long max, String source) {
        String raw = raw(name);
        long v = dflt;
        if (raw != null) {
            try {
                v = Long.parseLong(raw.replace("_", ""));
            } catch (NumberFormatException e) {
                throw bad(name, "must be an integer in [" + min + ", " + max + "]", raw);
            }
            if (v < min || v > max) {
                throw bad(name, "must be an integer in [" + min + ", " + max + "]", raw);
            }
        }
        record(name, v, dflt, source);
        return v;
    }

    public boolean flag(String name, boolean dflt, String source) {
        String raw = raw(name);
        boolean v = dflt;
        if (raw != null) {
            switch (raw.toLowerCase(Locale.ROOT)) {
                case "true", "yes", "on" -> v = true;
                case "false", "no", "off" -> v = false;
                default -> throw bad(name, "must be true or false", raw);
            }
        }
        record(name, v, dflt, source);
        return v;
    }

    /** One of a fixed set of lower-case names. */
    public String choice(String name, String dflt, String source, String... options) {
        String raw = raw(name);
        String v = raw == null ? dflt : raw.toLowerCase(Locale.ROOT).replace('-', '_');
        if (!List.of(options).contains(v)) {
            throw bad(name, "must be one of " + String.join(", ", options), raw);
        }
        record(name, v, dflt, source);
        return v;
    }

    /** Rejects keys that no read asked for (typos), listing the known ones. */
    public void rejectUnknown() {
        for (String key : values.keySet()) {
            if (!read.contains(key)) {
                List<String> known = docs.stream().map(ParameterDoc::name).toList();
                throw new IllegalArgumentException("mmu.schemes." + scheme + "." + key + " is not a parameter of "
                        + scheme + " (known: " + String.join(", ", known) + "), got '" + values.get(key) + "'");
            }
        }
    }

    public List<ParameterDoc> docs() {
        return List.copyOf(docs);
    }

    private String raw(String name) {
        read.add(name);
        String v = values.get(name);
        return v == null ? null : v.trim();
    }

    private void record(String name, Object value, Object dflt, String source) {
        docs.add(new ParameterDoc(name, String.valueOf(value), String.valueOf(dflt), source));
    }

    private IllegalArgumentException bad(String name, String rule, String raw) {
        return new IllegalArgumentException("mmu.schemes." + scheme + "." + name + " " + rule + ", got '" + raw + "'");
    }
}

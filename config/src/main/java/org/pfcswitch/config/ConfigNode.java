package org.pfcswitch.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * One YAML mapping of a configuration file, read with types and units, whose every error
 * names the file and the key path. Unknown keys are errors too (a typo must not silently
 * fall back to a default): call {@link #allowOnly} once per mapping.
 */
public final class ConfigNode {
    private final String file;
    private final String path;
    private final Map<String, Object> map;

    private ConfigNode(String file, String path, Map<String, Object> map) {
        this.file = file;
        this.path = path;
        this.map = map;
    }

    /** Loads a YAML file whose top level is a mapping. */
    public static ConfigNode load(Path file) {
        return parse(file.toString(), readText(file));
    }

    /** A config file's text (see {@link ConfigText}); every problem is a one-line {@link ConfigException}. */
    public static String readText(Path file) {
        return ConfigText.read(file);
    }

    /** Parses YAML text; {@code name} is used in error messages. */
    public static ConfigNode parse(String name, String text) {
        Object root = YamlLoader.load(name, text);
        if (root == null) {
            root = Map.of();
        }
        if (!(root instanceof Map<?, ?> m)) {
            throw new ConfigException(name + ": expected a mapping of keys at the top level");
        }
        return new ConfigNode(name, "", stringKeys(m));
    }

    public String file() {
        return file;
    }

    /** The key path of this mapping, e.g. {@code ports[2]}; empty at the top. */
    public String path() {
        return path;
    }

    public boolean has(String key) {
        return map.containsKey(key);
    }

    /** True when {@code key} holds a list (as opposed to a mapping or a single value). */
    public boolean isList(String key) {
        return map.get(key) instanceof List;
    }

    public Set<String> keys() {
        return map.keySet();
    }

    /** Fails on any key not in {@code allowed}, naming the closest allowed keys. */
    public ConfigNode allowOnly(String... allowed) {
        Set<String> ok = new LinkedHashSet<>(Arrays.asList(allowed));
        for (String key : map.keySet()) {
            if (!ok.contains(key)) {
                throw error(key, "unknown key (allowed here: " + String.join(", ", ok) + ")");
            }
        }
        return this;
    }

    public ConfigNode child(String key) {
        return optionalChild(key).orElseThrow(() -> error(key, "required key is missing"));
    }

    public Optional<ConfigNode> optionalChild(String key) {
        Object v = map.get(key);
        if (v == null) {
            return Optional.empty();
        }
        if (!(v instanceof Map<?, ?> m)) {
            throw error(key, "expected a mapping of keys, got " + describe(v));
        }
        return Optional.of(new ConfigNode(file, join(key), stringKeys(m)));
    }

    /** A list of mappings; an absent key is an empty list. */
    public List<ConfigNode> children(String key) {
        Object v = map.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            throw error(key, "expected a list, got " + describe(v));
        }
        List<ConfigNode> out = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            String p = join(key) + "[" + i + "]";
            if (!(list.get(i) instanceof Map<?, ?> m)) {
                throw new ConfigException(file + ": " + p + ": expected a mapping of keys, got " + describe(list.get(i)));
            }
            out.add(new ConfigNode(file, p, stringKeys(m)));
        }
        return out;
    }

    public String string(String key) {
        return required(key, this::string);
    }

    public String string(String key, String fallback) {
        return map.containsKey(key) ? string(key) : fallback;
    }

    private String string(String key, Object v) {
        if (v instanceof Map || v instanceof List) {
            throw error(key, "expected a single value, got " + describe(v));
        }
        return String.valueOf(v);
    }

    public long integer(String key) {
        return required(key, (k, v) -> {
            if (v instanceof Integer || v instanceof Long) {
                return ((Number) v).longValue();
            }
            throw error(k, "expected a whole number, got " + describe(v));
        });
    }

    public long integer(String key, long fallback) {
        return map.containsKey(key) ? integer(key) : fallback;
    }

    /** A whole number within [min, max]. */
    public int integer(String key, long fallback, int min, int max) {
        long v = integer(key, fallback);
        if (v < min || v > max) {
            throw error(key, "must be between " + min + " and " + max + ", got " + v);
        }
        return (int) v;
    }

    /** A finite number (NaN and infinities are refused). */
    public double number(String key) {
        return required(key, (k, v) -> {
            if (v instanceof Number n && Double.isFinite(n.doubleValue())) {
                return n.doubleValue();
            }
            throw error(k, "expected a finite number, got " + describe(v));
        });
    }

    public double number(String key, double fallback) {
        return map.containsKey(key) ? number(key) : fallback;
    }

    public boolean bool(String key, boolean fallback) {
        if (!map.containsKey(key)) {
            return fallback;
        }
        return required(key, (k, v) -> {
            if (v instanceof Boolean b) {
                return b;
            }
            throw error(k, "expected true or false, got " + describe(v));
        });
    }

    /** A size in bytes: a number or text such as {@code 16MiB}. */
    public long bytes(String key) {
        return withUnits(key, Units::bytes);
    }

    public long bytes(String key, long fallback) {
        return map.containsKey(key) ? bytes(key) : fallback;
    }

    /** A rate in bits per second: a number or text such as {@code 100G}. */
    public long bitsPerSecond(String key) {
        return withUnits(key, Units::bitsPerSecond);
    }

    public long bitsPerSecond(String key, long fallback) {
        return map.containsKey(key) ? bitsPerSecond(key) : fallback;
    }

    /** A link's line rate: a rate above 0 (a port of speed 0 could never send, and its timers would divide by it). */
    public long lineRate(String key) {
        long bps = bitsPerSecond(key);
        if (bps <= 0) {
            throw error(key, "a line rate must be above 0, got " + describe(map.get(key)) + " (e.g. 10G, 100G)");
        }
        return bps;
    }

    public long lineRate(String key, long fallback) {
        return map.containsKey(key) ? lineRate(key) : fallback;
    }

    /** A time in nanoseconds: a number or text such as {@code 9us}. */
    public long nanos(String key) {
        return withUnits(key, Units::nanos);
    }

    public long nanos(String key, long fallback) {
        return map.containsKey(key) ? nanos(key) : fallback;
    }

    /** A list of scalars, e.g. {@code [3, 4]}; an absent key is an empty list. */
    public List<String> strings(String key) {
        Object v = map.get(key);
        if (v == null) {
            return List.of();
        }
        if (!(v instanceof List<?> list)) {
            return List.of(string(key, v));
        }
        List<String> out = new ArrayList<>(list.size());
        for (Object o : list) {
            out.add(string(key, o));
        }
        return out;
    }

    /** A list of whole numbers each within [min, max]. */
    public List<Integer> integers(String key, int min, int max) {
        List<Integer> out = new ArrayList<>();
        for (String s : strings(key)) {
            int v;
            try {
                v = Integer.parseInt(s.trim());
            } catch (NumberFormatException e) {
                throw error(key, "expected whole numbers, got '" + s + "'");
            }
            if (v < min || v > max) {
                throw error(key, "values must be between " + min + " and " + max + ", got " + v);
            }
            out.add(v);
        }
        return out;
    }

    /** An error about {@code key} of this mapping, for checks the caller makes itself. */
    public ConfigException error(String key, String problem) {
        return new ConfigException(file + ": " + join(key) + ": " + problem);
    }

    /** A size, rate or time: never negative (text with a minus sign fails the unit pattern). */
    private long withUnits(String key, Function<String, Long> parse) {
        return required(key, (k, v) -> {
            if (v instanceof Integer || v instanceof Long) {
                long n = ((Number) v).longValue();
                if (n < 0) {
                    throw error(k, "must not be negative, got " + n);
                }
                return n;
            }
            try {
                return parse.apply(String.valueOf(v));
            } catch (IllegalArgumentException e) {
                throw error(k, e.getMessage());
            }
        });
    }

    private interface Reader<T> {
        T read(String key, Object value);
    }

    private <T> T required(String key, Reader<T> reader) {
        Object v = map.get(key);
        if (v == null) {
            throw error(key, "required key is missing");
        }
        return reader.read(key, v);
    }

    private String join(String key) {
        return path.isEmpty() ? key : path + "." + key;
    }

    private static String describe(Object v) {
        if (v instanceof Map) {
            return "a mapping";
        }
        if (v instanceof List) {
            return "a list";
        }
        return "'" + v + "'";
    }

    private static Map<String, Object> stringKeys(Map<?, ?> m) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (Map.Entry<?, ?> e : m.entrySet()) {
            out.put(String.valueOf(e.getKey()), e.getValue());
        }
        return out;
    }
}

package org.pfcswitch.cli.sweep;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A grid of simulation runs: the cross product of the swept keys (first key outermost, values in
 * the order given), then each scheme, then each seed. Run {@code i} of the grid is always the same
 * run, so a shard ({@code i mod N == I}) and a merge are deterministic. The fingerprint names the
 * grid (scenario file content, --set overrides, keys and values, seeds, schemes): shards of one
 * grid carry the same fingerprint, shards of another grid a different one.
 */
public final class Grid {

    /** One swept key and its values. */
    public record Axis(String key, List<String> values) {}

    /**
     * One run: its index in the grid, the value of each axis (in axis order), the scheme and the seed.
     */
    public record Run(int index, List<String> point, String scheme, long seed) {}

    private final List<Axis> axes;
    private final List<String> schemes;
    private final List<Long> seeds;
    private final String fingerprint;
    private final List<Run> runs;

    /**
     * @param scenarioText the scenario file's bytes, into the fingerprint
     * @param sets         the --set overrides every run gets, into the fingerprint
     */
    public Grid(List<Axis> axes, List<String> schemes, List<Long> seeds, byte[] scenarioText, List<String> sets) {
        if (schemes.isEmpty() || seeds.isEmpty()) {
            throw new IllegalArgumentException("a grid needs at least one scheme and one seed");
        }
        for (String s : schemes) {
            if (schemes.indexOf(s) != schemes.lastIndexOf(s)) {
                throw new IllegalArgumentException("--scheme " + s + " is given twice");
            }
        }
        this.axes = List.copyOf(axes);
        this.schemes = List.copyOf(schemes);
        this.seeds = List.copyOf(seeds);
        this.fingerprint = fingerprint(scenarioText, sets);
        List<Run> all = new ArrayList<>();
        for (List<String> point : points()) {
            for (String scheme : schemes) {
                for (long seed : seeds) {
                    all.add(new Run(all.size(), point, scheme, seed));
                }
            }
        }
        this.runs = List.copyOf(all);
    }

    /** Parses {@code KEY=V1,V2,...} of --sweep; one-line messages for a missing key, an empty list or value. */
    public static Axis parseAxis(String sweep) {
        int eq = sweep.indexOf('=');
        if (eq <= 0) {
            throw new IllegalArgumentException("--sweep wants KEY=V1,V2,..., e.g. traffic.bursts.count=8,16,24; got '"
                    + sweep + "'");
        }
        String key = sweep.substring(0, eq).strip();
        String list = sweep.substring(eq + 1);
        if (list.isBlank()) {
            throw new IllegalArgumentException("--sweep " + key + ": empty value list; give KEY=V1,V2,...");
        }
        List<String> values = new ArrayList<>();
        for (String v : list.split(",", -1)) {
            if (v.isBlank()) {
                throw new IllegalArgumentException("--sweep " + key + ": empty value in '" + list + "'");
            }
            values.add(v.strip());
        }
        if (new HashSet<>(values).size() != values.size()) {
            throw new IllegalArgumentException("--sweep " + key + ": a value appears twice in '" + list + "'");
        }
        return new Axis(key, values);
    }

    /** Checks that no key is swept twice. */
    public static List<Axis> parseAxes(List<String> sweeps) {
        List<Axis> axes = new ArrayList<>();
        Set<String> keys = new HashSet<>();
        for (String s : sweeps) {
            Axis a = parseAxis(s);
            if (!keys.add(a.key())) {
                throw new IllegalArgumentException("--sweep " + a.key() + " is given twice; give all its values in one --sweep");
            }
            axes.add(a);
        }
        return axes;
    }

    /** Most seeds of one grid: every run is kept in memory until the table is written. */
    static final int MAX_SEEDS = 100_000;

    /**
     * Seeds from {@code --seed N}, {@code --seed A..B} or {@code --seeds N} (1..N); {@code fileSeed}
     * when neither is given.
     */
    public static List<Long> parseSeeds(String seed, Integer count, long fileSeed) {
        if (seed != null && count != null) {
            throw new IllegalArgumentException("give --seed or --seeds, not both");
        }
        if (count != null) {
            if (count < 1 || count > MAX_SEEDS) {
                throw new IllegalArgumentException("--seeds " + count + ": give 1.." + MAX_SEEDS);
            }
            return range(1, count);
        }
        if (seed == null) {
            return List.of(fileSeed);
        }
        String s = seed.strip();
        int dots = s.indexOf("..");
        try {
            if (dots < 0) {
                return List.of(Long.parseLong(s));
            }
            long a = Long.parseLong(s.substring(0, dots).strip());
            long b = Long.parseLong(s.substring(dots + 2).strip());
            if (b < a) {
                throw new IllegalArgumentException("--seed " + seed + ": the range is empty (B < A)");
            }
            if (b - a >= MAX_SEEDS) {
                throw new IllegalArgumentException("--seed " + seed + ": more than " + MAX_SEEDS + " seeds");
            }
            return range(a, b);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--seed wants N or A..B (integers), got '" + seed + "'");
        }
    }

    private static List<Long> range(long a, long b) {
        List<Long> out = new ArrayList<>();
        for (long s = a; s <= b; s++) {
            out.add(s);
        }
        return out;
    }

    /** Parses {@code I/N} of --shard (0 <= I < N). */
    public static int[] parseShard(String shard) {
        int slash = shard.indexOf('/');
        int i;
        int n;
        try {
            if (slash < 0) {
                throw new NumberFormatException();
            }
            i = Integer.parseInt(shard.substring(0, slash).strip());
            n = Integer.parseInt(shard.substring(slash + 1).strip());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--shard wants I/N, e.g. 0/8 (I from 0 to N-1), got '" + shard + "'");
        }
        if (n < 1) {
            throw new IllegalArgumentException("--shard " + shard + ": N must be at least 1");
        }
        if (i < 0 || i >= n) {
            throw new IllegalArgumentException("--shard " + shard + ": index " + i + " out of range 0.." + (n - 1));
        }
        return new int[] {i, n};
    }

    /** Every point of the cross product, first axis outermost. */
    public List<List<String>> points() {
        List<List<String>> points = new ArrayList<>();
        points.add(List.of());
        for (Axis a : axes) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> p : points) {
                for (String v : a.values()) {
                    List<String> q = new ArrayList<>(p);
                    q.add(v);
                    next.add(List.copyOf(q));
                }
            }
            points = next;
        }
        return points;
    }

    /** The --set overrides that make {@code point} (after the command's own --set). */
    public List<String> overrides(List<String> point) {
        List<String> out = new ArrayList<>();
        for (int k = 0; k < axes.size(); k++) {
            out.add(axes.get(k).key() + "=" + point.get(k));
        }
        return out;
    }

    public List<Run> runs() {
        return runs;
    }

    /** The runs of shard {@code i} of {@code n}: those whose index is {@code i} modulo {@code n}. */
    public List<Run> shard(int i, int n) {
        List<Run> out = new ArrayList<>();
        for (Run r : runs) {
            if (r.index() % n == i) {
                out.add(r);
            }
        }
        return out;
    }

    public List<Axis> axes() {
        return axes;
    }

    public List<String> keys() {
        return axes.stream().map(Axis::key).toList();
    }

    public List<String> schemes() {
        return schemes;
    }

    public List<Long> seeds() {
        return seeds;
    }

    public String fingerprint() {
        return fingerprint;
    }

    private String fingerprint(byte[] scenarioText, List<String> sets) {
        try {
            MessageDigest md = MessageDigest.getInstance("SHA-256");
            md.update("pfcswitch-grid v1\n".getBytes(StandardCharsets.UTF_8));
            md.update(scenarioText);
            StringBuilder sb = new StringBuilder("\n");
            sets.forEach(s -> sb.append("set ").append(s).append('\n'));
            axes.forEach(a -> sb.append("sweep ").append(a.key()).append('=').append(String.join(",", a.values())).append('\n'));
            sb.append("schemes ").append(String.join(",", schemes)).append('\n');
            sb.append("seeds ").append(seeds).append('\n');
            md.update(sb.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(md.digest(), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

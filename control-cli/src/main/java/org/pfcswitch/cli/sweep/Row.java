package org.pfcswitch.cli.sweep;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SequencedMap;

import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.SchemeResult;

/**
 * One row of a grid's results table: one run (point, scheme, seed) as named cells, in column
 * order, each a text formatted with {@link Locale#ROOT} (the same run gives the same text). An
 * empty cell means "no value" (e.g. no flow completed in a size bin). The swept keys and
 * {@code scheme} are text; every other cell is a number. {@link #MACHINE} are the only cells that
 * depend on the machine.
 *
 * @param run   the run's index in the grid
 * @param cells column name to text, in column order
 */
public record Row(int run, SequencedMap<String, String> cells) {

    /** The wall-clock seconds of the run: the one column that differs between two runs of a grid. */
    public static final String WALL = "wall_s";
    /**
     * Java heap the run allocated, in MB: every object its thread created from the scenario's build to
     * its result (ThreadMXBean's allocated bytes, which count each run alone even with runs in
     * parallel). What the run holds at once is at most this; it depends on the JIT, so it differs a
     * little between two runs of a grid.
     */
    public static final String HEAP = "heap_alloc_mb";
    /** The frames' memory in MB, outside the heap: the most frames the run held at once, in slab slots. */
    public static final String FRAMES = "frames_mb";
    /** The columns that depend on the machine and the JVM, not on the run: last, in this order, so tools can cut them off. */
    public static final List<String> MACHINE = List.of(HEAP, WALL);
    public static final String SCHEME = "scheme";
    public static final String SEED = "seed";

    /**
     * The row of one run: the point's values, scheme, seed, then the scenario's figures as
     * {@code sim} reports them: PFC pauses (all, to hosts, across the fabric, to each report port),
     * XOFF episodes, pause time, first pause, throughput per traffic, flows, FCT p50/p99 overall
     * and per size bin (with the p99 slowdown), drops, lossless violations (all, then of senders that
     * obey PFC and of senders that ignore it, as {@code sim} splits them), the most buffer used,
     * events, the frames' memory, then the heap the run allocated and its wall time.
     */
    public static Row of(Grid.Run run, List<String> keys, Scenario s, SchemeResult r, long heapAllocatedBytes,
                         double wallSeconds) {
        LinkedHashMap<String, String> c = new LinkedHashMap<>();
        for (int k = 0; k < keys.size(); k++) {
            c.put(keys.get(k), run.point().get(k));
        }
        c.put(SCHEME, r.scheme());
        c.put(SEED, Long.toString(s.seed()));
        long toHosts = 0;
        for (long v : r.pausesSentByPort()) {
            toHosts += v;
        }
        c.put("pfc_pauses", Long.toString(r.pausesSent()));
        c.put("pfc_pauses_to_hosts", Long.toString(toHosts));
        c.put("pfc_pauses_fabric", Long.toString(r.fabricPausesSent()));
        for (int p : s.reportPorts()) {
            c.put("pfc_pauses_to_" + s.hosts().get(p).name(), Long.toString(r.pausesSentByPort()[p]));
        }
        c.put("xoffs", Long.toString(r.xoffEdges()));
        c.put("pause_time_ns", Long.toString(r.pausedNanos()));
        c.put("first_pause_ns", r.firstPauseNanos() < 0 ? "" : Long.toString(r.firstPauseNanos()));
        for (int t = 0; t < s.traffic().size(); t++) {
            c.put("gbps_" + s.traffic().get(t).name(), String.format(Locale.ROOT, "%.4f", r.throughputBps()[t] / 1e9));
        }
        c.put("flows_started", Integer.toString(r.flowsStarted()));
        c.put("flows_done", Integer.toString(r.flowsCompleted()));
        c.put("fct_p50_ns", nanos(r.fctP50Nanos()));
        c.put("fct_p99_ns", nanos(r.fctP99Nanos()));
        for (SchemeResult.Bin b : r.bins()) {
            String bin = binName(b);
            c.put("flows_done_" + bin, Integer.toString(b.count()));
            c.put("fct_p50_ns_" + bin, nanos(b.fctP50Nanos()));
            c.put("fct_p99_ns_" + bin, nanos(b.fctP99Nanos()));
            c.put("slowdown_p99_" + bin, Double.isFinite(b.slowdownP99())
                    ? String.format(Locale.ROOT, "%.4f", b.slowdownP99()) : "");
        }
        c.put("drops", Long.toString(r.drops()));
        c.put("lossless_violations", Long.toString(r.losslessViolations()));
        c.put("lossless_violations_obeying", Long.toString(r.losslessViolationsObeying()));
        c.put("lossless_violations_ignoring", Long.toString(r.losslessViolationsIgnoring()));
        c.put("max_buffer_bytes", Long.toString(r.maxBufferBytes()));
        c.put("events", Long.toString(r.events()));
        c.put(FRAMES, megabytes(r.frameMemoryBytes()));
        c.put(HEAP, megabytes(heapAllocatedBytes));
        c.put(WALL, String.format(Locale.ROOT, "%.3f", wallSeconds));
        return new Row(run.index(), c);
    }

    /** Whether column {@code name} holds text rather than a number, in a grid sweeping {@code keys}. */
    public static boolean isText(String name, List<String> keys) {
        return name.equals(SCHEME) || keys.contains(name);
    }

    public String get(String column) {
        return cells.getOrDefault(column, "");
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("run ").append(run);
        for (Map.Entry<String, String> e : cells.entrySet()) {
            sb.append(' ').append(e.getKey()).append('=').append(e.getValue());
        }
        return sb.toString();
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f", bytes / 1e6);
    }

    private static String nanos(long v) {
        return v < 0 ? "" : Long.toString(v);
    }

    /** {@code lt10KB}, {@code 10KB-100KB}, {@code ge1MB}. */
    static String binName(SchemeResult.Bin b) {
        if (b.lowBytes() == 0) {
            return "lt" + size(b.highBytes());
        }
        if (b.highBytes() == Long.MAX_VALUE) {
            return "ge" + size(b.lowBytes());
        }
        return size(b.lowBytes()) + "-" + size(b.highBytes());
    }

    private static String size(long bytes) {
        if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
            return bytes / 1_000_000 + "MB";
        }
        if (bytes >= 1_000 && bytes % 1_000 == 0) {
            return bytes / 1_000 + "KB";
        }
        return bytes + "B";
    }
}

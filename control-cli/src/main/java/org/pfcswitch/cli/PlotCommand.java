package org.pfcswitch.cli;

import java.awt.Color;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.scenario.ErrorBarPlot;
import org.pfcswitch.cli.scenario.FigureFormat;
import org.pfcswitch.cli.scenario.LinePlot;
import org.pfcswitch.cli.sweep.ResultTable;
import org.pfcswitch.core.trace.TraceHeader;
import org.pfcswitch.core.trace.TraceReader;
import org.pfcswitch.core.trace.TraceRecorder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "plot",
        mixinStandardHelpOptions = true,
        description = {
            "Draws a trace (sim --trace, trace) as a figure: PNG, SVG or PDF by --out's extension.",
            "",
            "One panel per traced ingress queue: its bytes and the scheme's XOFF threshold",
            "over time, with a rug beneath the axis marking each PFC XOFF the switch sent on that",
            "port and priority (purple, first row; refreshes included) and each XON (green,",
            "second row); then a panel of egress bytes. Without --port, queues that stayed empty",
            "and sent no PFC frame are left out. Time runs from the trace's origin, in the unit",
            "its span suits (us, ms, s); --from and --to show a part of it.",
            "",
            "With --x KEY --y METRIC, FILE is a grid's summary (sim --summary s.csv, or sim",
            "merge --summary s.csv) and the figure is the papers' sweep figure: METRIC's mean",
            "against the swept KEY, one line per scheme (and per value of any other swept key),",
            "error bars of +- the 95%% confidence interval over the seeds."
        },
        footer = {"", "Examples:",
            "  pfcswitch sim -c testbed-configs/scenarios/spfc-victim.yaml --scheme dt,spfc --trace t.csv --trace-every 1us",
            "  pfcswitch plot t-spfc.csv --out spfc-h0.png --port H0",
            "  pfcswitch plot t-dt.csv --out dt.svg --from 1ms --to 1.2ms",
            "  pfcswitch sim -c testbed-configs/scenarios/websearch-load.yaml --scheme dt,spfc \\",
            "      --sweep traffic.web.load=0.3,0.5,0.7 --seeds 5 --summary s.csv",
            "  pfcswitch plot s.csv --x traffic.web.load --y fct_p99_ns_lt10KB --out fct.png"})
final class PlotCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "FILE", description = "A trace written by sim --trace; with --x, a "
            + "grid's summary CSV (sim --summary).")
    Path file;

    @Option(names = "--x", paramLabel = "KEY", description = "Draw a summary: the swept key on the x axis.")
    String x;

    @Option(names = "--y", paramLabel = "METRIC", description = "With --x: the figure on the y axis, a column of "
            + "the results table, e.g. fct_p99_ns, pfc_pauses, max_buffer_bytes (its _mean, with _ci95 as error bars).")
    String y;

    @Option(names = "--out", required = true, paramLabel = "FIG.png|FIG.svg|FIG.pdf", description = "The figure to "
            + "write (replaced): .png for a screen, .svg or .pdf (vector) for a paper.")
    Path out;

    @Option(names = "--from", paramLabel = "TIME", description = "Draw a trace from this time since its origin (e.g. 1ms).")
    String from;

    @Option(names = "--to", paramLabel = "TIME", description = "Draw a trace up to this time since its origin (e.g. 1.2ms).")
    String to;

    @Option(names = "--port", paramLabel = "NAME", description = "Only this port's queues: its name in the trace (e.g. H0) or its number.")
    String port;

    @Option(names = "--priority", paramLabel = "P", description = "Only the queues of this priority (0-7).")
    Integer priority;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        FigureFormat.of(out);                      // a bad extension fails before any work
        if (x != null || y != null) {
            return sweepFigure();
        }
        long fromNanos = time("--from", from, 0);
        long toNanos = time("--to", to, Long.MAX_VALUE);
        if (fromNanos >= toNanos) {
            throw new ParameterException(spec.commandLine(), "--from " + from + " must come before --to " + to);
        }
        if (priority != null && (priority < 0 || priority > 7)) {
            throw new ParameterException(spec.commandLine(), "--priority: expected 0-7, got " + priority);
        }
        TraceReader.Trace t = read();
        TraceHeader h = t.header();
        int portIndex = -1;
        if (port != null) {
            portIndex = h.portIndex(port.trim());
            if (portIndex < 0 || (!h.portNames().isEmpty() && portIndex >= h.portNames().size())) {
                throw new IllegalArgumentException("no port '" + port + "' in " + file + "; its ports: "
                        + String.join(", ", h.portNames()));
            }
        }
        List<TraceReader.Queue> queues = new ArrayList<>();
        for (TraceReader.Queue q : t.queues()) {
            if ((portIndex < 0 || q.port() == portIndex) && (priority == null || q.priority() == priority)) {
                queues.add(q);
            }
        }
        if (queues.isEmpty()) {
            throw new IllegalArgumentException(file + " has no queue rows" + (port != null ? " for port " + port : "")
                    + (priority != null ? " of priority " + priority : "") + "; " + describe(t.queues()));
        }
        Series s = series(t, queues);
        int inWindow = 0;
        for (long time : s.times) {
            inWindow += time - h.originNanos() >= fromNanos && time - h.originNanos() <= toNanos ? 1 : 0;
        }
        if (inWindow == 0) {
            throw new IllegalArgumentException(file + " has no sample from " + (from == null ? "its start" : from) + " to "
                    + (to == null ? "its end" : to) + (s.times.length == 0 ? "; it has no samples at all" : "; its samples run from "
                    + since(h, s.times[0]) + " to " + since(h, s.times[s.times.length - 1])));
        }
        List<Integer> drawn = new ArrayList<>();
        for (int k = 0; k < queues.size(); k++) {
            if (port != null || s.active(k)) {
                drawn.add(k);
            }
        }
        PrintWriter err = spec.commandLine().getErr();
        if (drawn.isEmpty()) {
            drawn.add(0);
        }

        LinePlot plot = new LinePlot(String.format(Locale.ROOT, "%s: %s on %s, sampled every %s", file.getFileName(),
                h.scheme(), h.switchName(), micros(h.everyNanos())), s.times, h.originNanos()).window(fromNanos, toNanos);
        List<LinePlot.Line> egress = new ArrayList<>();
        for (int k : drawn) {
            TraceReader.Queue q = queues.get(k);
            String name = h.portName(q.port()) + " prio " + q.priority();
            plot.panel(name + ": ingress queue (KB)",
                    List.of(new LinePlot.Line("ingress bytes", s.ingress[k]), new LinePlot.Line("XOFF threshold", s.threshold[k])),
                    List.of(new LinePlot.Marks("XOFF sent", pfc(t, q, TraceRecorder.XOFF), new Color(0x9467bd), false),
                            new LinePlot.Marks("XON sent", pfc(t, q, TraceRecorder.XON), new Color(0x2ca02c), true)));
            if (port != null || s.egressActive(k)) {
                egress.add(new LinePlot.Line(name, s.egress[k]));
            }
        }
        if (!egress.isEmpty()) {
            plot.panel("egress queue (KB)", egress);
        }
        writeFigure(out, plot::write);
        if (drawn.size() < queues.size()) {
            err.println("left out " + (queues.size() - drawn.size()) + " queues that stayed empty and sent no PFC frame"
                    + " (--port draws one anyway)");
        }
        err.println("wrote " + out + " (" + drawn.size() + " queue" + (drawn.size() == 1 ? "" : "s") + ", "
                + s.times.length + " samples)");
        return 0;
    }

    private TraceReader.Trace read() {
        try {
            return TraceReader.read(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException("no such file: " + file);
        } catch (IOException e) {
            throw new IllegalArgumentException(e instanceof TraceReader.TraceFormatException ? e.getMessage()
                    : "cannot read " + file + ": " + e.getMessage());
        }
    }

    /** What a trace traces, in a few words: "it traces priorities [3] on 32 ports". */
    private static String describe(List<TraceReader.Queue> queues) {
        if (queues.isEmpty()) {
            return "it holds no queue rows at all";
        }
        return "it traces priorities " + queues.stream().map(TraceReader.Queue::priority).distinct().sorted().toList()
                + " on " + queues.stream().map(TraceReader.Queue::port).distinct().count() + " ports";
    }

    /** A --from or --to value in nanoseconds, or {@code otherwise} when not given. */
    private long time(String option, String value, long otherwise) {
        if (value == null) {
            return otherwise;
        }
        try {
            return org.pfcswitch.config.Units.nanos(value.trim());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage());
        }
    }

    /** A trace time as its distance from the origin, in the unit the axis would use. */
    private static String since(TraceHeader h, long nanos) {
        double t = nanos - h.originNanos();
        org.pfcswitch.cli.scenario.Ticks.TimeUnit unit = org.pfcswitch.cli.scenario.Ticks.timeUnit(Math.abs(t));
        return String.format(Locale.ROOT, "%.3f %s", t / unit.nanos(), unit.name()).replaceAll("\\.?0+ ", " ");
    }

    private static String micros(long nanos) {
        return nanos % 1000 == 0 ? nanos / 1000 + " us" : nanos + " ns";
    }

    /** Times of the PFC rows sent on {@code q}'s port and priority with {@code event}. */
    private static long[] pfc(TraceReader.Trace t, TraceReader.Queue q, int event) {
        long[] times = new long[16];
        int n = 0;
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == TraceRecorder.PFC_TX && t.event(i) == event && t.port(i) == q.port()
                    && t.priority(i) == q.priority()) {
                if (n == times.length) {
                    times = Arrays.copyOf(times, 2 * n);
                }
                times[n++] = t.time(i);
            }
        }
        return Arrays.copyOf(times, n);
    }

    /** The queue rows as one time axis (every queue is sampled at every sample) and KB per queue. */
    private record Series(long[] times, double[][] ingress, double[][] egress, double[][] threshold, boolean[] pfc) {
        boolean active(int k) {
            return pfc[k] || Arrays.stream(ingress[k]).anyMatch(v -> v > 0);
        }

        boolean egressActive(int k) {
            return Arrays.stream(egress[k]).anyMatch(v -> v > 0);
        }
    }

    private static Series series(TraceReader.Trace t, List<TraceReader.Queue> queues) {
        int[] byKey = new int[(t.queues().stream().mapToInt(TraceReader.Queue::port).max().orElse(0) + 1) * 8];
        Arrays.fill(byKey, -1);
        for (int k = 0; k < queues.size(); k++) {
            byKey[queues.get(k).port() * 8 + queues.get(k).priority()] = k;
        }
        long[] times = new long[16];
        int n = 0;
        for (int i = 0; i < t.size(); i++) {
            if (t.kind(i) == TraceRecorder.QUEUE && key(t, i, byKey) == 0) {
                if (n == times.length) {
                    times = Arrays.copyOf(times, 2 * n);
                }
                times[n++] = t.time(i);
            }
        }
        times = Arrays.copyOf(times, n);
        double[][] in = new double[queues.size()][n];
        double[][] eg = new double[queues.size()][n];
        double[][] th = new double[queues.size()][n];
        boolean[] pfc = new boolean[queues.size()];
        int[] next = new int[queues.size()];
        for (int i = 0; i < t.size(); i++) {
            int k = key(t, i, byKey);
            if (k < 0) {
                continue;
            }
            if (t.kind(i) != TraceRecorder.QUEUE) {
                pfc[k] |= t.kind(i) == TraceRecorder.PFC_TX;
            } else if (next[k] < n) {           // every sample has a row of every queue: the j-th row is sample j
                int j = next[k]++;
                in[k][j] = t.ingressBytes(i) / 1e3;
                eg[k][j] = t.egressBytes(i) / 1e3;
                th[k][j] = t.thresholdBytes(i) / 1e3;
            }
        }
        return new Series(times, in, eg, th, pfc);
    }

    /** The index in the plotted queues of row {@code i}'s (port, priority), or -1. */
    private static int key(TraceReader.Trace t, int i, int[] byKey) {
        int k = t.port(i) * 8 + t.priority(i);
        return k < byKey.length ? byKey[k] : -1;
    }

    /** The sweep figure of a summary CSV: METRIC's mean against KEY, a line per scheme, 95 % CI bars. */
    private int sweepFigure() {
        if (x == null || y == null) {
            throw new ParameterException(spec.commandLine(), "a sweep figure needs both --x KEY and --y METRIC");
        }
        if (port != null || priority != null || from != null || to != null) {
            throw new ParameterException(spec.commandLine(), "--port, --priority, --from and --to are for traces, not with --x");
        }
        List<List<String>> lines;
        try {
            lines = ResultTable.readCsv(Files.readString(file));
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        List<String> header = lines.isEmpty() ? List.of() : lines.getFirst();
        int scheme = header.indexOf("scheme");
        if (scheme < 0 || !header.contains("seeds")) {
            throw new IllegalArgumentException(file + " is not a grid's summary (sim --summary FILE.csv): no scheme and "
                    + "seeds columns");
        }
        List<String> keys = header.subList(0, scheme);
        int xi = keys.indexOf(x);
        if (xi < 0) {
            throw new IllegalArgumentException("--x " + x + ": not a swept key of " + file + "; its keys: "
                    + (keys.isEmpty() ? "none" : String.join(", ", keys)));
        }
        int mean = header.indexOf(y + "_mean");
        int ci = header.indexOf(y + "_ci95");
        if (mean < 0) {
            List<String> metrics = header.stream().filter(h -> h.endsWith("_mean"))
                    .map(h -> h.substring(0, h.length() - 5)).toList();
            throw new IllegalArgumentException("--y " + y + ": no such figure in " + file + "; its figures: "
                    + String.join(", ", metrics));
        }
        LinkedHashMap<String, List<ErrorBarPlot.Point>> series = new LinkedHashMap<>();
        for (List<String> row : lines.subList(1, lines.size())) {
            StringBuilder label = new StringBuilder(row.get(scheme));
            for (int k = 0; k < keys.size(); k++) {
                if (k != xi) {
                    label.append(' ').append(keys.get(k)).append('=').append(row.get(k));
                }
            }
            series.computeIfAbsent(label.toString(), l -> new ArrayList<>()).add(new ErrorBarPlot.Point(
                    row.get(xi), number(row.get(mean)), ci < 0 ? Double.NaN : number(row.get(ci))));
        }
        ErrorBarPlot plot = new ErrorBarPlot(
                file.getFileName() + ": " + y + " against " + x, x, y + " (mean)");
        series.forEach((label, points) -> plot.series(new ErrorBarPlot.Series(label, points)));
        writeFigure(out, plot::write);
        spec.commandLine().getErr().println("wrote " + out + ": " + series.size() + " lines, " + (lines.size() - 1) + " points");
        return 0;
    }

    private static double number(String s) {
        return s.isEmpty() ? Double.NaN : Double.parseDouble(s);
    }

    private interface Figure {
        void write(Path out) throws IOException;
    }

    /** Writes a figure to {@code out}, making its folder; a failure is one line naming the file. */
    private static void writeFigure(Path out, Figure figure) {
        if (Files.isDirectory(out)) {
            throw new IllegalArgumentException("cannot write " + out + ": it is a folder; give a file name such as "
                    + out.resolve("figure.png"));
        }
        try {
            Path parent = out.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            figure.write(out);
        } catch (java.nio.file.AccessDeniedException e) {
            throw new IllegalArgumentException("cannot write " + out + ": permission denied", e);
        } catch (java.nio.file.FileAlreadyExistsException e) {     // from createDirectories: a file is in the way
            throw new IllegalArgumentException("cannot write " + out + ": " + e.getFile() + " is a file, not a folder", e);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("cannot write " + out + ": the file cannot be created there", e);
        } catch (java.nio.file.FileSystemException e) {
            throw new IllegalArgumentException("cannot write " + out + ": "
                    + (e.getReason() != null ? e.getReason() : e.getMessage()), e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + out + ": " + e.getMessage(), e);
        }
    }
}

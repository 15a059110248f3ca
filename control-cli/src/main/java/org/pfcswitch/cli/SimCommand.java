package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.scenario.FigureFormat;
import org.pfcswitch.cli.scenario.SimReport;
import org.pfcswitch.cli.sweep.Grid;
import org.pfcswitch.cli.sweep.ResultTable;
import org.pfcswitch.cli.sweep.Row;
import org.pfcswitch.cli.sweep.RunPool;
import org.pfcswitch.cli.sweep.ShardFile;
import org.pfcswitch.cli.sweep.ThreadHeap;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeResult;
import org.pfcswitch.testbed.config.ScenarioLoader;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

@Command(name = "sim",
        mixinStandardHelpOptions = true,
        subcommands = MergeCommand.class,
        description = {
            "Runs a scenario in virtual time once per scheme and compares them.",
            "",
            "The switch core runs against emulated RoCEv2 hosts (DCQCN or line rate) on",
            "the scenario's links and traffic. Prints a table per scheme: PFC pause frames",
            "the switch sent (total and per reported port), time hosts were paused, when",
            "the first pause arrived, throughput of each named traffic in the measure",
            "window, flows completed and FCT percentiles (by size bin below), the most",
            "buffer used, drops and lossless violations. Results depend only on the",
            "scenario, the scheme and the seed.",
            "",
            "Every scheme of the MMU runs: st, dt, sonic, dsh, spfc, reverie, capfc with",
            "PFC, and bfc with per-flow queues and BFC pauses (the hosts then have BFC",
            "NICs; the pause columns count BFC PAUSE frames).",
            "",
            "Scenarios: testbed-configs/scenarios/ (spfc-victim, spfc-testbed-9port,",
            "spfc-websearch, dsh-collateral, websearch-load, leafspine-incast,",
            "leafspine-flows, bfc-two-flows, bfc-websearch-incast). A scenario can",
            "give its flows as a list (kind: flows; see 'pfcswitch flows --help').",
            "Sweep a parameter with --sweep,",
            "e.g. the number of burst senders: --sweep traffic.bursts.count=8,16,24."
        },
        footer = {"", "Examples:",
            "  S=testbed-configs/scenarios",
            "  pfcswitch sim -c $S/spfc-victim.yaml --scheme dt,spfc,dsh",
            "  pfcswitch sim -c $S/spfc-victim.yaml --set traffic.bursts.count=24 --json",
            "  pfcswitch sim -c $S/spfc-victim.yaml --scheme dt,spfc --sweep traffic.bursts.count=8,16,24",
            "  pfcswitch sim -c $S/websearch-load.yaml --sweep traffic.web.load=0.3,0.5,0.7",
            "  pfcswitch sim -c $S/dsh-collateral.yaml --out target/dsh",
            "  pfcswitch sim -c $S/bfc-two-flows.yaml --scheme bfc,dt --out target/bfc",
            "  pfcswitch sim -c $S/spfc-victim.yaml --scheme dt,spfc --trace trace.csv --trace-every 1us",
            "  pfcswitch sim -c $S/spfc-victim.yaml --scheme dt --shadow dsh,spfc   (would-be XOFFs and drops)",
            "  pfcswitch plot trace-spfc.csv --out spfc.png --port H0",
            "",
            "Grids (docs/experiments.md, 'Grids' and 'Shards'):",
            "  pfcswitch sim -c $S/websearch-load.yaml --scheme dt,spfc --sweep traffic.web.load=0.3,0.5,0.7 \\",
            "      --seeds 5 --table load.csv --summary load-summary.csv",
            "  pfcswitch sim -c ... --sweep ... --seeds 5 --shard 3/8 --out results/   (one slice of 8)",
            "  pfcswitch sim merge results/ --table load.csv"})
final class SimCommand implements Callable<Integer> {

    // Required, but checked in call(): picocli would ask for it before 'sim merge' too.
    @Option(names = {"-c", "--config"}, paramLabel = "SCENARIO", description = "A scenario YAML file (required).")
    Path config;

    @Mixin
    SchemesOption schemes;

    @Mixin
    ShadowsOption shadowOption;

    @Option(names = "--replay", paramLabel = "FILE",
            description = "Replay an arrival record (run --record, record from-pcap) open-loop through each --scheme "
                    + "(default dt) instead of a scenario; prints pauses, drops, buffer and queueing delay per scheme.")
    Path replay;

    @Option(names = "--buffer", paramLabel = "BYTES", defaultValue = "16777216",
            description = "With --replay: the shared buffer in bytes (default: ${DEFAULT-VALUE}).")
    long replayBuffer;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a value by its dotted path, e.g. duration=2ms or traffic.bursts.count=24 (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N|A..B",
            description = "Seed of the run (default: the file's seed); A..B runs every seed from A to B (a grid).")
    String seed;

    @Option(names = "--seeds", paramLabel = "N", description = "Run seeds 1..N (a grid; same as --seed 1..N).")
    Integer seeds;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Write CSV time series, flow records and figures (--figures) here; with --shard, the "
                    + "shard's file shard-I-of-N.json.")
    Path out;

    @Option(names = "--figures", paramLabel = "FORMAT", split = ",", defaultValue = "png",
            converter = FigureFormatConverter.class, completionCandidates = FigureFormatNames.class,
            description = "Formats of the figures --out writes: png (for a screen; the default), svg or pdf (vector, "
                    + "for a paper); e.g. --figures svg,pdf.")
    Set<FigureFormat> figures;

    @Option(names = "--json", description = "Print one JSON document instead of the table (in a grid: the table "
            + "of --table FILE.json).")
    boolean json;

    @Option(names = "--sweep", paramLabel = "KEY=V1,V2,...",
            description = {"Run the scenario once per value of KEY (a dotted path as for --set), e.g. "
                    + "traffic.bursts.count=8,16,24. Repeatable: several --sweep run the cross product of their "
                    + "values, the first key outermost.",
                    "One --sweep alone prints one table per value; with --json one document "
                    + "{\"sweep\": KEY, \"runs\": [{\"value\": V, \"result\": {...}}]}; with --out one folder per value."})
    List<String> sweeps = new ArrayList<>();

    @Option(names = "--jobs", paramLabel = "J",
            description = "Runs at once (default: the number of processors). Every run is deterministic: the results "
                    + "are the same whatever J is. Each run takes --threads threads, so J x N threads run at once: on "
                    + "P processors, give J x N <= P.")
    Integer jobs;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "Threads per run (default 1): each switch with its hosts is a partition, the partitions are "
                    + "dealt out to N threads and run in parallel in windows of virtual time as long as the shortest "
                    + "link between two partitions. The results are the same for any N, the frame memory "
                    + "(frames_mb) aside. N is at most the topology's switches; traffic that adds flows as the run "
                    + "goes (an incast with repeatUntil) needs N = 1. Many runs (--sweep, --seeds) keep more cores "
                    + "busy with --jobs.")
    int threads;

    @Option(names = "--table", paramLabel = "FILE",
            description = {"Write the grid's results table to FILE: one row per (point, scheme, seed) with the swept "
                    + "values, scheme, seed, PFC pauses (all, to hosts, across the fabric, to each report port), XOFFs, "
                    + "pause time, first pause, throughput per traffic, flows, FCT p50/p99 overall and per size bin, "
                    + "p99 slowdown per bin, drops, lossless violations, max buffer, events, the frames' memory (frames_mb), "
                    + "then the two columns that depend on the machine: the Java heap the run allocated (heap_alloc_mb) "
                    + "and wall_s.",
                    "FILE.csv: the rows as CSV; FILE.json: {grid, keys, columns, rows, summary}. Repeatable "
                    + "(--table t.csv --table t.json)."})
    List<Path> tables = new ArrayList<>();

    @Option(names = "--summary", paramLabel = "FILE",
            description = "Write the summary over seeds to FILE (.csv or .json): per (point, scheme) the number of "
                    + "seeds and for every figure METRIC_mean and METRIC_ci95, the half-width of its 95%% confidence "
                    + "interval (Student t; empty below 2 seeds). Repeatable.")
    List<Path> summaries = new ArrayList<>();

    @Option(names = "--shard", paramLabel = "I/N",
            description = "Run only the I-th of N slices of the grid (the runs whose index is I mod N, I from 0 to "
                    + "N-1) and write their rows to --out DIR as shard-I-of-N.json (written under a temporary name, "
                    + "then renamed). A shard whose file is already complete is not run again. 'pfcswitch sim merge "
                    + "DIR' joins the shards into the table of a local run.")
    String shard;

    @Option(names = "--trace", paramLabel = "FILE",
            description = {"Write a trace of one switch to FILE: every ingress queue of a lossless priority "
                    + "(ingress and egress bytes, the scheme's current XOFF threshold) once per --trace-every, and "
                    + "every PFC frame sent and received (CSV; 'pfcswitch plot FILE' draws it; format in docs/experiments.md, "
                    + "'Traces and plots').",
                    "With several schemes one file per scheme, the scheme's name inserted before the extension: "
                    + "trace.csv -> trace-dt.csv, trace-spfc.csv; with --sweep also KEY=VALUE "
                    + "(trace-traffic.bursts.count=8-dt.csv)."})
    Path trace;

    @Option(names = "--record-arrivals", paramLabel = "FILE",
            description = "Record every frame arriving at the switch of a single-switch scenario into FILE, in the "
                    + "arrival-record format of 'run --record' (one --scheme): the scenario's closed-loop traffic as an "
                    + "open-loop recording that 'sim --replay FILE' runs through any scheme.")
    Path recordArrivals;

    /** Most samples per queue one --trace writes (a row per queue each): bounds the file a typo could make. */
    static final long MAX_TRACE_SAMPLES = 1_000_000;

    @Option(names = "--trace-every", paramLabel = "TIME",
            description = "Sample period of --trace, e.g. 1us or 500ns (default: 10us). PFC rows are exact to one period.")
    String traceEvery;

    @Option(names = "--trace-switch", paramLabel = "NAME",
            description = "The switch --trace follows on a leaf-spine: leaf0, leaf1, ..., spine0, ... (default: the "
                    + "first, leaf0; a single switch is called 'switch').")
    String traceSwitch;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        CommandLine cl = spec.commandLine();
        PrintWriter stdout = cl.getOut();
        List<String> shadows = shadowOption.checked();
        if (replay != null) {
            if (!shadows.isEmpty()) {
                throw new ParameterException(cl, "--shadow does not go with --replay: a replay is open loop, so every --scheme"
                        + " already sees the same arrivals; compare them with --scheme dt,dsh,spfc");
            }
            return replay(cl, stdout);
        }
        if (config == null) {
            throw new ParameterException(cl, "Missing required option: '--config=SCENARIO'");
        }
        if (trace == null && (traceEvery != null || traceSwitch != null)) {
            throw new ParameterException(cl, (traceEvery != null ? "--trace-every" : "--trace-switch")
                    + " needs --trace FILE");
        }
        List<Grid.Axis> axes;
        int[] slice = null;
        try {
            axes = Grid.parseAxes(sweeps);
            if (shard != null) {
                slice = Grid.parseShard(shard);
            }
            if (jobs != null && jobs < 1) {
                throw new IllegalArgumentException("--jobs must be at least 1, got " + jobs);
            }
            if (threads < 1) {
                throw new IllegalArgumentException("--threads must be at least 1, got " + threads);
            }
            tables.forEach(ResultTable::format);
            summaries.forEach(ResultTable::format);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
        boolean grid = axes.size() > 1 || seeds != null || (seed != null && seed.contains(".."))
                || !tables.isEmpty() || !summaries.isEmpty() || shard != null;
        if (recordArrivals != null && (grid || axes.size() == 1 || trace != null)) {
            throw new ParameterException(cl, "--record-arrivals records one run: it does not go with --sweep, --seeds, "
                    + "--seed A..B, --table, --summary, --shard or --trace");
        }
        if (grid) {
            if (!shadows.isEmpty()) {
                throw new ParameterException(cl, "--shadow prints a table beside single runs; it does not go with a grid "
                        + "(several --sweep, --seeds, --seed A..B, --table, --summary, --shard)");
            }
            if (trace != null) {
                throw new ParameterException(cl, "--trace records single runs; it does not go with a grid "
                        + "(several --sweep, --seeds, --seed A..B, --table, --summary, --shard)");
            }
            if (shard == null && out != null) {
                throw new ParameterException(cl, "--out in a grid is where --shard writes its file; "
                        + "for the table use --table FILE.csv or FILE.json");
            }
            if (shard != null && out == null) {
                throw new ParameterException(cl, "--shard needs --out DIR for its file");
            }
            if (shard != null && (!tables.isEmpty() || !summaries.isEmpty() || json)) {
                throw new ParameterException(cl, "a shard writes only its file; 'pfcswitch merge DIR...' writes "
                        + "--table, --summary and --json from all the shards");
            }
        }
        ScenarioLoader.Loaded base = ScenarioLoader.load(config, overrides);
        List<Long> seedList;
        try {
            seedList = Grid.parseSeeds(seed, seeds, base.scenario().seed());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
        byte[] scenarioText;
        try {
            // A flow list is part of the scenario: shards of runs over different lists must not merge.
            java.io.ByteArrayOutputStream text = new java.io.ByteArrayOutputStream();
            text.write(Files.readAllBytes(config));
            for (Path f : base.flowFiles()) {
                text.write(("\nflow list " + f.getFileName() + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                text.write(Files.readAllBytes(f));
            }
            scenarioText = text.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + config + ": " + e.getMessage(), e);
        }
        Grid g;
        try {
            g = new Grid(axes, schemes.orElse(base.schemes()), seedList, scenarioText, overrides);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, e.getMessage());
        }
        Map<String, Scenario> scenarios = loadAll(g);       // every point and seed, so a bad value fails before any run
        for (Scenario s : scenarios.values()) {
            int switches = ScenarioRunner.switchNames(s).size();
            if (threads > switches) {
                throw new ParameterException(cl, "--threads " + threads + ": " + s.name() + " has " + switches
                        + (switches == 1 ? " switch" : " switches") + ", and a thread runs one switch at least: give --threads 1.."
                        + switches);
            }
        }
        int runsAtOnce = jobs != null ? jobs : Math.max(1, Runtime.getRuntime().availableProcessors() / threads);
        int runCount = slice == null ? g.runs().size() : g.shard(slice[0], slice[1]).size();
        warnIfBeyondHeap(scenarios.values(), Math.min(runsAtOnce, runCount), Runtime.getRuntime().maxMemory(), cl.getErr());
        if (grid) {
            return runGrid(g, scenarios, slice, runsAtOnce, stdout);
        }
        List<Grid.Run> runs = g.runs();
        if (recordArrivals != null && (runs.size() != 1 || ScenarioRunner.switchNames(base.scenario()).size() != 1)) {
            throw new ParameterException(cl, "--record-arrivals records one scheme on a single-switch scenario; got "
                    + runs.size() + " schemes and " + ScenarioRunner.switchNames(base.scenario()).size() + " switches");
        }
        long every = trace == null ? 0 : traceEvery == null ? 10_000
                : TimeOption.nanos(cl, "--trace-every", traceEvery, false);
        long duration = base.scenario().durationNanos();
        if (trace != null && duration / every > MAX_TRACE_SAMPLES) {
            throw new ParameterException(cl, "--trace-every " + (traceEvery == null ? "10us" : traceEvery) + " over "
                    + duration + " ns is more than " + MAX_TRACE_SAMPLES + " samples per queue: give at least "
                    + (duration / MAX_TRACE_SAMPLES + 1) + " ns (e.g. --trace-every " + ((duration / MAX_TRACE_SAMPLES)
                    / 1000 + 1) + "us)");
        }
        int traced = trace == null ? -1 : tracedSwitch(base.scenario());
        boolean perRunProgress = runsAtOnce == 1 || runs.size() == 1;
        Progress overall = perRunProgress ? null : new Progress(cl.getErr(), base.scenario().name(), "runs");
        List<SchemeResult> results = RunPool.run(runs, runsAtOnce, r -> {
            Scenario scenario = scenarios.get(scenarioKey(g, r));
            String sweepPart = axes.isEmpty() ? null : String.join(",", g.overrides(r.point()));
            ScenarioRunner.Tracing tracing = trace == null ? null
                    : new ScenarioRunner.Tracing(traceFile(trace, sweepPart, g.schemes().size() > 1 ? r.scheme() : null),
                            every, traced);
            return runOne(scenario, r.scheme(), shadows, tracing, perRunProgress);
        }, done -> {
            if (overall != null) {
                overall.runs(done, runs.size());
            }
        });
        if (overall != null) {
            overall.done(null);
        }
        JsonOutput document = axes.isEmpty() ? null
                : new JsonOutput().beginObject().field("sweep", axes.getFirst().key()).beginArray("runs");
        int perPoint = g.schemes().size();
        for (int p = 0; p * perPoint < results.size(); p++) {
            Grid.Run first = runs.get(p * perPoint);
            SimReport report = new SimReport(scenarios.get(scenarioKey(g, first)),
                    results.subList(p * perPoint, (p + 1) * perPoint));
            if (document == null) {
                print(report, stdout);
                writeFiles(report, out);
                continue;
            }
            String value = first.point().getFirst();
            String key = axes.getFirst().key();
            if (json) {
                report.writeJson(document.beginObject().field("value", value).name("result"));
                document.endObject();
            } else {
                stdout.println("== " + key + " = " + value);
                report.printTable(stdout);
                stdout.println();
            }
            writeFiles(report, out == null ? null : out.resolve(key + "=" + value));
        }
        if (document != null && json) {
            document.endArray().endObject().println(stdout);
        }
        return 0;
    }

    /** Runs a grid (or one shard of it) on the pool: the results table and summary, or the shard's file. */
    private int runGrid(Grid g, Map<String, Scenario> scenarios, int[] slice, int runsAtOnce, PrintWriter stdout) {
        PrintWriter err = spec.commandLine().getErr();
        List<Grid.Run> runs = slice == null ? g.runs() : g.shard(slice[0], slice[1]);
        Path shardPath = slice == null ? null : out.resolve(ShardFile.fileName(slice[0], slice[1]));
        String what = slice == null ? "grid " + g.fingerprint() : "shard " + shard + " of grid " + g.fingerprint();
        if (shardPath != null && Files.exists(shardPath)) {
            ShardFile existing = null;
            try {
                existing = ShardFile.read(shardPath);
            } catch (IllegalArgumentException e) {
                err.println(shardPath + " is incomplete; running the shard again");
            }
            if (existing != null) {
                if (!existing.fingerprint().equals(g.fingerprint())) {
                    throw new IllegalArgumentException(shardPath + " holds shard " + shard + " of another grid ("
                            + existing.fingerprint() + ", this one is " + g.fingerprint() + "); remove it or use another --out");
                }
                stdout.println(what + ": already complete in " + shardPath + "; nothing to run");
                return 0;
            }
        }
        Scenario any = scenarios.values().iterator().next();
        Progress progress = new Progress(err, any.name() + " " + what, "runs");
        long t0 = System.nanoTime();
        List<Row> rows = RunPool.run(runs, runsAtOnce, r -> {
            Scenario scenario = scenarios.get(scenarioKey(g, r));
            long start = System.nanoTime();
            long heapBefore = ThreadHeap.allocatedBytes();
            SchemeResult result = ScenarioRunner.run(scenario, r.scheme(), List.of(), ScenarioRunner.Progress.NONE, null,
                    threads);
            long heap = ThreadHeap.allocatedBytes() - heapBefore;
            return Row.of(r, g.keys(), scenario, result, heap, (System.nanoTime() - start) / 1e9);
        }, done -> progress.runs(done, runs.size()));
        progress.done(String.format(Locale.ROOT, "%s: %d runs in %.1f s wall on %d threads; a run took at most %s MB of "
                + "Java heap allocated and %s MB of frames (the heap_alloc_mb and frames_mb columns)", what, runs.size(),
                (System.nanoTime() - t0) / 1e9, Math.min(runsAtOnce, runs.size()) * threads, largest(rows, Row.HEAP),
                largest(rows, Row.FRAMES)));
        try {
            if (shardPath != null) {
                new ShardFile(null, g.fingerprint(), slice[0], slice[1], g.runs().size(), g.keys(),
                        runs.stream().map(Grid.Run::index).toList(), rows).write(out);
                stdout.println(what + ": " + rows.size() + " of " + g.runs().size() + " runs -> " + shardPath);
                return 0;
            }
            writeTable(new ResultTable(g.fingerprint(), g.keys(), rows), tables, summaries, json, stdout, err);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        return 0;
    }

    /**
     * Warns on {@code err} when {@code atOnce} runs of the largest of {@code scenarios} could take
     * more than {@code maxHeap} (the frames live outside the heap, but the heap is what the user sized
     * the JVM by): better a line now than running out of memory an hour into a grid.
     */
    static void warnIfBeyondHeap(Iterable<Scenario> scenarios, int atOnce, long maxHeap, PrintWriter err) {
        Scenario largest = null;
        ScenarioRunner.MemoryEstimate most = null;
        for (Scenario s : scenarios) {
            ScenarioRunner.MemoryEstimate e = ScenarioRunner.estimateMemory(s);
            if (most == null || e.totalBytes() > most.totalBytes()) {
                most = e;
                largest = s;
            }
        }
        if (most == null || most.totalBytes() * atOnce <= maxHeap) {
            return;
        }
        err.println(String.format(Locale.ROOT, "warning: a run of %s may take up to %,d MiB (%,d MiB of frames if every "
                + "buffer filled, %,d MiB of heap); %d at once is more than the %,d MiB heap: give fewer --jobs or a larger "
                + "heap (PFCSWITCH_JAVA_OPTS=-Xmx...)", largest.name(), most.totalBytes() >> 20, most.frameBytes() >> 20,
                most.heapBytes() >> 20, atOnce, maxHeap >> 20));
    }

    /** The largest value of numeric column {@code column} over {@code rows}, as its cells write it. */
    private static String largest(List<Row> rows, String column) {
        return rows.stream().map(r -> r.get(column)).max(java.util.Comparator.comparingDouble(Double::parseDouble))
                .orElse("0");
    }

    /** Writes --table and --summary files and prints the summary (or, with --json, the table's JSON). */
    static void writeTable(ResultTable table, List<Path> tables, List<Path> summaries, boolean json, PrintWriter stdout,
                           PrintWriter err) throws IOException {
        for (Path t : tables) {
            table.write(t, ResultTable.Content.ROWS);
            err.println("wrote " + table.rows().size() + " rows to " + t);
        }
        for (Path s : summaries) {
            table.write(s, ResultTable.Content.SUMMARY);
            err.println("wrote the summary to " + s);
        }
        if (json) {
            stdout.println(table.json());
        } else {
            table.printSummary(stdout);
        }
    }

    /** Loads the scenario of every (point, seed) of the grid once: a bad key or value fails here, before any run. */
    private Map<String, Scenario> loadAll(Grid g) {
        Map<String, Scenario> out = new HashMap<>();
        for (Grid.Run r : g.runs()) {
            String key = scenarioKey(g, r);
            if (!out.containsKey(key)) {
                List<String> sets = new ArrayList<>(overrides);
                sets.addAll(g.overrides(r.point()));
                sets.add("seed=" + r.seed());
                try {
                    out.put(key, ScenarioLoader.load(config, sets).scenario());
                } catch (ConfigException e) {
                    if (g.axes().isEmpty()) {
                        throw e;
                    }
                    throw new ConfigException("--sweep " + String.join(" ", g.overrides(r.point())) + ": " + e.getMessage());
                }
            }
        }
        return out;
    }

    private static String scenarioKey(Grid g, Grid.Run r) {
        return String.join("\u0000", g.overrides(r.point())) + "\u0000seed=" + r.seed();
    }

    /** Runs one scheme on {@code scenario}; a progress bar of its own when it runs alone, and its speed on stderr. */
    private SchemeResult runOne(Scenario scenario, String s, List<String> shadows, ScenarioRunner.Tracing tracing,
                                boolean withProgress) {
        PrintWriter err = spec.commandLine().getErr();
        Progress progress = withProgress ? new Progress(err, scenario.name() + " " + s, "simulated") : null;
        long t0 = System.nanoTime();
        ScenarioRunner.Progress shown = progress == null ? ScenarioRunner.Progress.NONE : progress;
        SchemeResult r = recordArrivals != null ? ScenarioRunner.runRecorded(scenario, s, shadows, shown, recordArrivals)
                : ScenarioRunner.run(scenario, s, shadows, shown, tracing, threads);
        double wall = (System.nanoTime() - t0) / 1e9;
        // Speed goes to stderr only: wall time must never reach the results (stdout, JSON, files).
        String line = String.format(Locale.ROOT, "%s %s: %.3f ms simulated, %,d events in %.2f s wall = %.2f M events/s; "
                + "%.1f MB of frames at most", scenario.name(), s, scenario.durationNanos() / 1e6, r.events(), wall,
                r.events() / wall / 1e6, r.frameMemoryBytes() / 1e6);
        if (progress != null) {
            progress.done(line);
        } else {
            err.println(line);
        }
        if (tracing != null) {
            err.println("wrote trace " + tracing.file());
        }
        if (recordArrivals != null) {
            err.println("wrote arrival record " + recordArrivals + " (replay: pfcswitch sim --replay " + recordArrivals + ")");
        }
        return r;
    }

    /** The index of the switch --trace-switch names (default the first), or a usage error listing the names. */
    private int tracedSwitch(Scenario scenario) {
        List<String> names = ScenarioRunner.switchNames(scenario);
        if (traceSwitch == null) {
            return 0;
        }
        int i = names.indexOf(traceSwitch.trim());
        if (i < 0) {
            throw new ParameterException(spec.commandLine(), "--trace-switch: no switch '" + traceSwitch + "' in "
                    + config + "; its switches: " + String.join(", ", names));
        }
        return i;
    }

    /** {@code base} with {@code -PART} inserted before the extension for each part given: trace.csv -> trace-dt.csv. */
    static Path traceFile(Path base, String sweepPart, String scheme) {
        String name = base.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String stem = dot > 0 ? name.substring(0, dot) : name;
        String ext = dot > 0 ? name.substring(dot) : "";
        if (sweepPart != null) {
            stem += "-" + sweepPart;
        }
        if (scheme != null) {
            stem += "-" + scheme;
        }
        return base.resolveSibling(stem + ext);
    }

    private int replay(CommandLine cl, PrintWriter stdout) {
        if (config != null || !sweeps.isEmpty() || trace != null || shard != null) {
            throw new ParameterException(cl, "--replay FILE runs a recording: it does not go with --config, --sweep, --trace or --shard");
        }
        if (replayBuffer < 1 << 16) {
            throw new ParameterException(cl, "--buffer must be at least 65536 bytes, got " + replayBuffer);
        }
        List<String> run = schemes.orElse(List.of("dt"));
        try {
            var header = ReplayRun.header(replay);
            long s = seed == null ? 1 : Long.parseLong(seed);
            long t0 = System.nanoTime();
            var results = ReplayRun.run(replay, run, replayBuffer, s);
            double secs = (System.nanoTime() - t0) / 1e9;
            ReplayRun.print(replay, header, replayBuffer, results, stdout);
            long events = results.stream().mapToLong(org.pfcswitch.core.record.ReplayResult::events).sum();
            cl.getErr().printf(Locale.ROOT, "replay: %d schemes, %d events (arrivals and timers) in %.2f s: %.2f M events/s%n",
                    results.size(), events, secs, events / secs / 1e6);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new ParameterException(cl, "--replay: no such file " + replay);
        } catch (org.pfcswitch.core.record.ArrivalReader.ArrivalFormatException e) {
            throw new ParameterException(cl, "--replay " + replay + ": " + e.getMessage());
        } catch (NumberFormatException e) {
            throw new ParameterException(cl, "--seed with --replay takes one number, got " + seed);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cl, "--replay " + replay + ": " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + replay + ": " + e.getMessage(), e);
        }
        return 0;
    }

    private void print(SimReport report, PrintWriter stdout) {
        if (json) {
            stdout.println(report.json());
        } else {
            report.printTable(stdout);
        }
    }

    private void writeFiles(SimReport report, Path dir) {
        if (dir == null) {
            return;
        }
        try {
            List<Path> files = report.write(dir, EnumSet.copyOf(figures));
            spec.commandLine().getErr().println("wrote " + files.size() + " files to " + dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }

    /** png, svg and pdf, as --figures takes them, for shell completion. */
    static final class FigureFormatNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.Arrays.stream(FigureFormat.values()).map(FigureFormat::extension).iterator();
        }
    }

    /** png, svg or pdf (any case), one clear line for anything else. */
    static final class FigureFormatConverter implements CommandLine.ITypeConverter<FigureFormat> {
        @Override
        public FigureFormat convert(String value) {
            for (FigureFormat f : FigureFormat.values()) {
                if (f.extension().equalsIgnoreCase(value.strip())) {
                    return f;
                }
            }
            throw new CommandLine.TypeConversionException("'" + value + "' is not a figure format: png, svg or pdf");
        }
    }
}

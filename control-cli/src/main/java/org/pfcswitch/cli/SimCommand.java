package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.json.JsonOutput;
import org.pfcswitch.testbed.config.ScenarioLoader;
import org.pfcswitch.cli.scenario.SimReport;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "sim",
        mixinStandardHelpOptions = true,
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
            "bfc-two-flows, bfc-websearch-incast). Sweep a parameter with --sweep,",
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
            "  pfcswitch plot trace-spfc.csv --out spfc.png --port H0"})
final class SimCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "SCENARIO", description = "A scenario YAML file.")
    Path config;

    @Mixin
    SchemesOption schemes;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a value by its dotted path, e.g. duration=2ms or traffic.bursts.count=24 (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--seed", paramLabel = "N", description = "Seed of the run (default: the file's seed).")
    Long seed;

    @Option(names = "--out", paramLabel = "DIR", description = "Write CSV time series, flow records and PNG figures here.")
    Path out;

    @Option(names = "--json", description = "Print one JSON document instead of the table.")
    boolean json;

    @Option(names = "--sweep", paramLabel = "KEY=V1,V2,...",
            description = "Run the scenario once per value of KEY (a dotted path as for --set), e.g. "
                    + "traffic.bursts.count=8,16,24: one table per value; with --json one document "
                    + "{\"sweep\": KEY, \"runs\": [{\"value\": V, \"result\": {...}}]}; with --out one folder per value.")
    String sweep;

    @Option(names = "--trace", paramLabel = "FILE",
            description = {"Write a trace of one switch to FILE: every ingress queue of a lossless priority "
                    + "(ingress and egress bytes, the scheme's current XOFF threshold) once per --trace-every, and "
                    + "every PFC frame sent and received (CSV; 'pfcswitch plot FILE' draws it; format in the README, "
                    + "'Traces and plots').",
                    "With several schemes one file per scheme, the scheme's name inserted before the extension: "
                    + "trace.csv -> trace-dt.csv, trace-spfc.csv; with --sweep also KEY=VALUE "
                    + "(trace-traffic.bursts.count=8-dt.csv)."})
    Path trace;

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
        List<String> sets = new ArrayList<>(overrides);
        if (seed != null) {
            sets.add("seed=" + seed);
        }
        PrintWriter stdout = spec.commandLine().getOut();
        if (trace == null && (traceEvery != null || traceSwitch != null)) {
            throw new ParameterException(spec.commandLine(), (traceEvery != null ? "--trace-every" : "--trace-switch")
                    + " needs --trace FILE");
        }
        if (sweep == null) {
            SimReport report = runOnce(sets, null);
            print(report, stdout);
            writeFiles(report, out);
            return 0;
        }
        int eq = sweep.indexOf('=');
        if (eq <= 0 || eq == sweep.length() - 1) {
            throw new ParameterException(spec.commandLine(), "--sweep wants KEY=V1,V2,..., e.g. traffic.bursts.count=8,16,24; got '"
                    + sweep + "'");
        }
        String key = sweep.substring(0, eq);
        List<String> values = List.of(sweep.substring(eq + 1).split(","));
        JsonOutput document = new JsonOutput().beginObject().field("sweep", key).beginArray("runs");
        for (String value : values) {
            List<String> withValue = new ArrayList<>(sets);
            withValue.add(key + "=" + value.trim());
            SimReport report = runOnce(withValue, key + "=" + value.trim());
            if (json) {
                report.writeJson(document.beginObject().field("value", value.trim()).name("result"));
                document.endObject();
            } else {
                stdout.println("== " + key + " = " + value.trim());
                report.printTable(stdout);
                stdout.println();
            }
            writeFiles(report, out == null ? null : out.resolve(key + "=" + value.trim()));
        }
        if (json) {
            document.endArray().endObject().println(stdout);
        }
        return 0;
    }

    /**
     * Loads the scenario with {@code sets} applied and runs every requested scheme on it;
     * {@code sweepPart} ({@code KEY=VALUE} or null) goes into trace file names.
     */
    private SimReport runOnce(List<String> sets, String sweepPart) {
        ScenarioLoader.Loaded loaded = ScenarioLoader.load(config, sets);
        Scenario scenario = loaded.scenario();
        List<String> run = schemes.orElse(loaded.schemes());
        PrintWriter err = spec.commandLine().getErr();
        List<SchemeResult> results = new ArrayList<>();
        long every = trace == null ? 0 : traceEvery == null ? 10_000
                : TimeOption.nanos(spec.commandLine(), "--trace-every", traceEvery, false);
        int traced = trace == null ? -1 : tracedSwitch(scenario);
        for (String s : run) {
            Progress progress = new Progress(err, scenario.name() + " " + s, "simulated");
            long t0 = System.nanoTime();
            ScenarioRunner.Tracing tracing = trace == null ? null
                    : new ScenarioRunner.Tracing(traceFile(trace, sweepPart, run.size() > 1 ? s : null), every, traced);
            SchemeResult r = ScenarioRunner.run(scenario, s, progress, tracing);
            double wall = (System.nanoTime() - t0) / 1e9;
            results.add(r);
            // Speed goes to stderr only: wall time must never reach the results (stdout, JSON, files).
            progress.done(String.format(Locale.ROOT, "%s %s: %.3f ms simulated, %,d events in %.2f s wall = %.2f M events/s",
                    scenario.name(), s, scenario.durationNanos() / 1e6, r.events(), wall, r.events() / wall / 1e6));
            if (tracing != null) {
                err.println("wrote trace " + tracing.file());
            }
        }
        return new SimReport(scenario, results);
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
            List<Path> files = report.write(dir);
            spec.commandLine().getErr().println("wrote " + files.size() + " files to " + dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write to " + dir + ": " + e.getMessage(), e);
        }
    }
}

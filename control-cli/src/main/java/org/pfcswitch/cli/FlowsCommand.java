package org.pfcswitch.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.flows.Ns3FctFile;
import org.pfcswitch.cli.flows.Ns3FlowFile;
import org.pfcswitch.cli.flows.Ns3Topology;
import org.pfcswitch.testbed.FlowList;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.config.ConfigException;
import org.pfcswitch.testbed.config.FlowListReader;
import org.pfcswitch.testbed.config.FlowListWriter;
import org.pfcswitch.testbed.config.ScenarioLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code pfcswitch flows}: flow lists for {@code kind: flows} traffic, and ns-3's flow and FCT files. */
@Command(name = "flows", mixinStandardHelpOptions = true,
        header = "Checks flow lists (sim's 'kind: flows') and converts ns-3 flow and FCT files.",
        description = {"Flow lists: what 'traffic: {x: {kind: flows, file: F}}' in a scenario reads,",
            "one flow a line: 'src dst bytes start [priority]'. Hosts by name or index",
            "(the scenario's host order); start in seconds (0.0015) or with a unit (1.5ms,",
            "20us); '#' starts a comment. These commands check a list and convert to and",
            "from the HPCC-family ns-3 simulators (HPCC, PowerTCP, Reverie), so that both",
            "simulators run the same flows and their FCTs can be compared.",
            "",
            "ns-3 node ids count switches too. Its leaf-spine topologies number the",
            "servers first (server j of ToR i is node i x serversPerTor + j, switches",
            "after them): our leaf-spine's host order (L<i>H<j>). So a node id is taken",
            "as a host index."},
        footer = {"", "Examples:",
            "  pfcswitch flows from-ns3 flow.txt --hosts 256 --rebase --out flows.txt",
            "  pfcswitch flows check flows.txt -c scenario.yaml",
            "  pfcswitch sim -c scenario.yaml --out res   (traffic: {x: {kind: flows,",
            "      file: flows.txt}}; per-flow FCTs in res/flows-dt.csv)",
            "  pfcswitch flows to-ns3 flows.txt -c scenario.yaml --out flow.txt",
            "  pfcswitch flows fct-from-ns3 ns3-run.fct -c scenario.yaml --out ns3.csv",
            "      (the columns of res/flows-dt.csv: compare, plot with the same scripts)"},
        subcommands = {FlowsCommand.FromNs3.class, FlowsCommand.ToNs3.class, FlowsCommand.FctFromNs3.class,
            FlowsCommand.Check.class})
final class FlowsCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getOut());
        return 0;
    }

    @Command(name = "from-ns3", mixinStandardHelpOptions = true,
            header = "An ns-3 flow file (flow.txt) to a flow list.",
            description = {"Converts an ns-3 flow file (the flow count on the first line, then",
                "'src dst pg dport size start_seconds' a line) to a flow list: node ids",
                "become host indices, pg the priority column, dport is dropped. Like ns-3,",
                "reads the declared number of flows (lines after them are counted, not",
                "read). The list is sorted by start (ties keep the file's order)."},
            footer = {"", "Examples:",
                "  pfcswitch flows from-ns3 flow.txt --hosts 256 --out flows.txt",
                "  pfcswitch flows from-ns3 flow.txt --rebase --no-priority --out flows.txt",
                "      (the first flow starts at 0; the scenario's 'priority:' applies)"})
    static final class FromNs3 implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FLOW.txt", description = "The ns-3 flow file.")
        Path in;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The flow list to write.")
        Path out;

        @Option(names = "--hosts", paramLabel = "N", defaultValue = "0",
                description = "Nodes 0..N-1 are the hosts: a flow from or to a node >= N (a switch) is an error. Default: no check.")
        int hosts;

        @Option(names = "--rebase", description = "Subtract the earliest start, so the first flow starts at 0 (ns-3 runs often start flows at 2 s).")
        boolean rebase;

        @Option(names = "--no-priority", description = "Leave out the priority column (the scenario's 'priority:' applies).")
        boolean noPriority;

        @Override
        public Integer call() {
            Ns3FlowFile.Read read = io(spec, () -> {
                try (BufferedReader r = Files.newBufferedReader(in)) {
                    return Ns3FlowFile.read(in.toString(), r, hosts, rebase);
                } catch (CharacterCodingException e) {
                    throw notText(in);
                }
            });
            FlowList list = read.flows();
            io(spec, () -> {
                try (Writer w = Files.newBufferedWriter(out)) {
                    List<String> header = List.of("from the ns-3 flow file " + in.getFileName()
                            + (rebase ? " (starts rebased to 0)" : ""), "src dst bytes start_seconds"
                            + (noPriority ? "" : " priority"));
                    FlowListWriter.write(list, w, null, header, !noPriority);
                }
                return null;
            });
            spec.commandLine().getOut().printf("%s: %d flows%s%s%n", out, list.size(), span(list),
                    read.ignoredLines() == 0 ? "" : "; " + read.ignoredLines()
                            + " lines after the declared flow count ignored, as ns-3 does");
            return 0;
        }
    }

    @Command(name = "to-ns3", mixinStandardHelpOptions = true,
            header = "A flow list to an ns-3 flow file.",
            description = {"Converts a flow list to an ns-3 flow file (the flow count, then",
                "'src dst pg dport size start_seconds' a line): host indices become node",
                "ids, the priority the pg, dports count up from --dport (by --dport-step).",
                "Host names need the scenario that defines them (-c).",
                "",
                "ns-3 keys no queue pair by the destination port, but its switches hash it",
                "to pick an ECMP uplink: '--dport 4791 --dport-step 0' gives every flow",
                "RoCEv2's port, as sim's frames carry, so that with ns-3's source ports",
                "(sport=N in the list) sim can replay ns-3's paths (docs/papers.md, 'On ns-3's",
                "paths')."},
            footer = {"", "Examples:",
                "  pfcswitch flows to-ns3 flows.txt --out flow.txt     (hosts by index)",
                "  pfcswitch flows to-ns3 mix.txt -c leafspine-flows.yaml --out flow.txt",
                "  pfcswitch flows to-ns3 mix.txt -c leafspine-flows.yaml --out flow.txt \\",
                "      --topology topology.txt          (the same fabric for ns-3)",
                "  pfcswitch flows to-ns3 flows.txt --dport 4791 --dport-step 0 --out flow.txt"})
    static final class ToNs3 implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FLOWS", description = "The flow list.")
        Path in;

        @Option(names = "--out", required = true, paramLabel = "FILE", description = "The ns-3 flow file to write.")
        Path out;

        @Option(names = {"-c", "--config"}, paramLabel = "SCENARIO", description = "A scenario whose host names the list may use.")
        Path config;

        @Option(names = "--priority", paramLabel = "P", defaultValue = "3",
                description = "pg of lines without a priority column (default: ${DEFAULT-VALUE}).")
        int priority;

        @Option(names = "--dport", paramLabel = "PORT", defaultValue = "10000",
                description = "Destination port of the first flow; each next flow +1 (default: ${DEFAULT-VALUE}).")
        int dport;

        @Option(names = "--dport-step", paramLabel = "N", defaultValue = "1",
                description = "What each next flow adds to the destination port, wrapping below 65536; 0: every flow --dport (default: ${DEFAULT-VALUE}).")
        int dportStep;

        @Option(names = "--topology", paramLabel = "FILE",
                description = "Also write -c SCENARIO's leaf-spine as an ns-3 topology file (hosts first, then leaves, spines).")
        Path topology;

        @Option(names = "--topology-format", paramLabel = "FORMAT", defaultValue = "reverie",
                description = "The topology header: reverie (with the two link rates) or hpcc (PowerTCP, HPCC). Default: ${DEFAULT-VALUE}.")
        String topologyFormat;

        @Override
        public Integer call() {
            if (dport < 1 || dport > 65535) {
                throw new ParameterException(spec.commandLine(), "--dport must be 1..65535, got " + dport);
            }
            if (dportStep < 0) {
                throw new ParameterException(spec.commandLine(), "--dport-step must be >= 0, got " + dportStep);
            }
            Ns3Topology.Format format = switch (topologyFormat) {
                case "reverie" -> Ns3Topology.Format.REVERIE;
                case "hpcc" -> Ns3Topology.Format.HPCC;
                default -> throw new ParameterException(spec.commandLine(), "--topology-format: expected reverie or hpcc, got '"
                        + topologyFormat + "'");
            };
            if (topology != null && config == null) {
                throw new ParameterException(spec.commandLine(), "--topology needs -c SCENARIO (the leaf-spine to write)");
            }
            FlowList list = readList(spec, in, config, priority);
            io(spec, () -> {
                try (Writer w = Files.newBufferedWriter(out)) {
                    Ns3FlowFile.write(list, w, dport, dportStep);
                }
                if (topology != null) {
                    try (Writer w = Files.newBufferedWriter(topology)) {
                        Ns3Topology.write(scenario(config), format, w);
                    }
                }
                return null;
            });
            spec.commandLine().getOut().printf("%s: %d flows%s%n", out, list.size(), span(list));
            return 0;
        }
    }

    @Command(name = "fct-from-ns3", mixinStandardHelpOptions = true,
            header = "An ns-3 FCT file to the CSV of sim --out's flows-SCHEME.csv.",
            description = {"Converts an ns-3 FCT file to the columns of sim --out's flows-SCHEME.csv:",
                "flow,src,dst,size_bytes,start_ns,end_ns,fct_ns,ideal_ns,slowdown",
                "(ideal = ns-3's standalone FCT). Reads both layouts:",
                "  HPCC/PowerTCP .fct: 'sip dip sport dport size start_ns fct_ns",
                "    standalone_ns', IPs in hex; src/dst = node ids ((ip >> 8) & 0xffff);",
                "  Reverie: a 'timestamp flowsize fctus ...' header, values in ns; no",
                "    endpoints (src/dst empty); start = end - fct, as exact as the six",
                "    digits ns-3 prints the end time with.",
                "Rows keep the file's order (completion order)."},
            footer = {"", "Examples:",
                "  pfcswitch flows fct-from-ns3 powertcp.fct --out ns3.csv",
                "  pfcswitch flows fct-from-ns3 powertcp.fct -c leafspine.yaml --out ns3.csv",
                "  pfcswitch flows fct-from-ns3 reverie-evaluation.fct --out ns3.csv"})
    static final class FctFromNs3 implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FILE.fct", description = "The FCT file ns-3 wrote.")
        Path in;

        @Option(names = "--out", required = true, paramLabel = "FILE.csv", description = "The CSV to write.")
        Path out;

        @Option(names = {"-c", "--config"}, paramLabel = "SCENARIO",
                description = "Write src and dst as this scenario's host names (node id = host index), as sim --out does.")
        Path config;

        @Override
        public Integer call() {
            List<String> names = config == null ? null : hostNames(config);
            long rows = io(spec, () -> {
                try (BufferedReader r = Files.newBufferedReader(in); Writer w = Files.newBufferedWriter(out)) {
                    return Ns3FctFile.convert(in.toString(), r, w, names);
                } catch (CharacterCodingException e) {
                    throw notText(in);
                }
            });
            spec.commandLine().getOut().printf("%s: %d flows%n", out, rows);
            return 0;
        }
    }

    @Command(name = "check", mixinStandardHelpOptions = true,
            header = "Reads a flow list as sim would: flows, bytes, span, read time.",
            description = {"Reads a flow list as 'sim' would (host names from -c SCENARIO, else",
                "indices only) and prints its flows, bytes, time span and how long reading",
                "took; the first bad line is an error."},
            footer = {"", "Example:", "  pfcswitch flows check testbed-configs/workloads/leafspine-flows.txt \\",
                "      -c testbed-configs/scenarios/leafspine-flows.yaml"})
    static final class Check implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "FLOWS", description = "The flow list.")
        Path in;

        @Option(names = {"-c", "--config"}, paramLabel = "SCENARIO", description = "A scenario whose host names the list may use.")
        Path config;

        @Option(names = "--priority", paramLabel = "P", defaultValue = "3", description = "Priority of lines without one.")
        int priority;

        @Override
        public Integer call() {
            long t0 = System.nanoTime();
            FlowList list = readList(spec, in, config, priority);
            long took = System.nanoTime() - t0;
            long bytes = 0;
            for (int i = 0; i < list.size(); i++) {
                bytes += list.bytes(i);
            }
            spec.commandLine().getOut().printf("%s: %d flows, %d bytes%s; read in %.0f ms%n", in, list.size(), bytes,
                    span(list), took / 1e6);
            return 0;
        }
    }

    /** The list in {@code in}, hosts resolved through {@code config}'s names when given, else by index. */
    static FlowList readList(CommandSpec spec, Path in, Path config, int priority) {
        if (priority < 0 || priority > 7) {
            throw new ParameterException(spec.commandLine(), "--priority must be 0..7, got " + priority);
        }
        // With a scenario, hosts resolve as sim resolves them: names or indices, clone ports refused.
        FlowListReader.HostResolver hosts = config != null ? ScenarioLoader.endpoints(scenario(config).hosts())
                : FlowListReader.byIndex(0);
        try {
            return FlowListReader.read(in, hosts, priority);
        } catch (IllegalArgumentException e) {
            throw new FileProblem(e.getMessage());
        }
    }

    /** The host names of a scenario, in host (index) order. */
    static List<String> hostNames(Path config) {
        return scenario(config).hosts().stream().map(Scenario.Host::name).toList();
    }

    /** The scenario at {@code config}, or a one-line error. */
    private static Scenario scenario(Path config) {
        try {
            return ScenarioLoader.load(config, List.of()).scenario();
        } catch (ConfigException e) {
            throw new FileProblem(e.getMessage());
        }
    }

    private static String span(FlowList list) {
        if (list.size() == 0) {
            return "";
        }
        StringBuilder b = new StringBuilder(", starts ");
        FlowListWriter.seconds(b, list.startNanos(0)).append(" s .. ");
        return FlowListWriter.seconds(b, list.startNanos(list.size() - 1)).append(" s").toString();
    }

    private interface IoAction<T> {
        T run() throws IOException;
    }

    /** A file that cannot be read or written, or a bad line: one error line and exit 1 (not the usage, the options were fine). */
    static final class FileProblem extends RuntimeException {
        FileProblem(String message) {
            super(message);
        }
    }

    /** Runs {@code a}, turning a missing file, an unreadable one or a bad line into a {@link FileProblem}. */
    /** An ns-3 flow or FCT file is plain ASCII; a decoder's "Input length = 1" would not say which file or why. */
    private static IOException notText(Path file) {
        return new IOException(file + ": not UTF-8 text (ns-3's flow and FCT files are plain ASCII); is it the right file?");
    }

    private static <T> T io(CommandSpec spec, IoAction<T> a) {
        try {
            return a.run();
        } catch (NoSuchFileException e) {
            throw new FileProblem("no such file " + e.getFile());
        } catch (IOException e) {
            throw new FileProblem(e.getMessage());
        } catch (UncheckedIOException e) {
            throw new FileProblem(e.getCause().getMessage());
        } catch (IllegalArgumentException e) {
            throw new FileProblem(e.getMessage());
        }
    }
}

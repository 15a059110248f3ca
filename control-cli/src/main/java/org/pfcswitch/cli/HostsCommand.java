package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.BitSet;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.pfcswitch.config.ConfigException;
import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.cli.scenario.HostsReport;
import org.pfcswitch.control.json.JsonInput;
import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.dataplane.CpuReservation;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.ThreadAffinity;
import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.testbed.config.ScenarioLoader;
import org.pfcswitch.cli.switchconfig.TestbedConfig;
import org.pfcswitch.testbed.LiveHosts;
import org.pfcswitch.testbed.LiveResult;
import org.pfcswitch.testbed.LiveRun;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.netns.PacketSocket;
import com.fasterxml.jackson.databind.node.ObjectNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "hosts",
        mixinStandardHelpOptions = true,
        header = "Runs a scenario's traffic on emulated RoCEv2 hosts in a testbed's namespaces.",
        description = {
            "Runs a scenario's traffic in real time on emulated RoCEv2 hosts in a testbed's",
            "network namespaces.",
            "",
            "Each host of the scenario runs in the testbed host of the same name (scenario",
            "host H0 in testbed host H0, i.e. namespace PREFIX + H0), sending and receiving",
            "real frames on that namespace's eth0 through a raw packet socket: RDMA WRITE",
            "flows with PSNs, ACKs, DCQCN (CNPs when frames arrive ECN-marked), and PFC",
            "honoured per priority as a ConnectX NIC would (a veth ignores PFC; these hosts",
            "do not): an 802.1Qbb frame pauses its priorities for quanta x 512 bit times at",
            "the host's speed, an 802.3x PAUSE pauses all of them.",
            "",
            "From the scenario: the hosts' speeds (hosts: speed), cc, payloadMtu, seed and",
            "the traffic (flow, incast, poisson with a CDF). Not used: mmu, pfc, topology and",
            "link delays, which are the real switch's and cables' business here; nor its clone",
            "ports and replay traffic (kind: replay), which the switch's own clone ports play",
            "(kind: clone in its config): they must come after the other hosts. Testbed hosts",
            "the scenario does not name stay idle. Frames carry each host's eth0 MAC and its",
            "testbed IP.",
            "",
            "One thread drives all hosts (busy-polling one core). Times are on the hosts'",
            "clock, which follows real time but slips when a pass comes late (JIT warm-up in",
            "the first ~0.5 s, GC, an overloaded CPU); the slip is printed. Needs root.",
            "",
            "Prints per traffic the flows and throughput, FCT by size bin as 'sim' does, and",
            "per host frames, PFC and PAUSE frames received, pause time, CNPs, ACKs, and",
            "frames dropped as malformed or not addressed to it.",
            "",
            "Then what the switch counted during the run, read through its control API (--api)",
            "at the start and the end: lossless drops from senders that obey PFC and from those",
            "that ignore it, PFC frames sent and received, and frames its ports' rx rings had",
            "no room for. A switch that does not answer is said in one line and left out.",
            "",
            "Exit status: 0; " + SwitchRunSummary.EXIT_LOSSLESS_DROPS + " when the switch dropped lossless frames from"
                + " senders that obey PFC."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml &",
            "  ./pfcswitch hosts -c testbed-configs/netns-3hosts.yaml \\",
            "      --scenario testbed-configs/scenarios/netns-3hosts-incast.yaml --duration 10s",
            "  ./pfcswitch hosts -c testbed-configs/netns-3hosts.yaml \\",
            "      --scenario testbed-configs/scenarios/netns-3hosts-incast.yaml --set traffic.web.load=0.5 --json"})
final class HostsCommand implements Callable<Integer> {

    @Mixin
    TestbedCommand.ConfigOption testbed;

    @Option(names = "--scenario", required = true, paramLabel = "SCENARIO",
            description = "A scenario YAML file as for 'sim'; its host names must be testbed host names.")
    Path scenario;

    @Option(names = "--duration", paramLabel = "TIME",
            description = "How long to run, e.g. 10s or 500ms (default: the scenario's duration). Also the end of "
                    + "poisson arrivals that give no stop.")
    String duration;

    @Option(names = "--set", paramLabel = "KEY=VALUE",
            description = "Override a scenario value by its dotted path, as for 'sim' (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--json", description = "Print one JSON document instead of the table.")
    boolean json;

    @Option(names = "--api", paramLabel = "URL", defaultValue = ControlClient.DEFAULT_URL,
            description = "The running switch's control API, read at the start and end of the run (default: ${DEFAULT-VALUE}).")
    String api;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        List<String> sets = new ArrayList<>(overrides);
        if (duration != null) {
            TimeOption.nanos(spec.commandLine(), "--duration", duration, false);
            sets.add("duration=" + duration);
        }
        Path config = testbed.file;
        TestbedConfig tb = testbed.read();
        Scenario s = ScenarioLoader.load(scenario, sets).scenario();
        try (CpuReservation offWorkers = keepOffTheSwitchWorkers(config);
             LiveTestbedHosts live = LiveTestbedHosts.open(s, tb, scenario, config)) {
            PrintWriter err = spec.commandLine().getErr();
            if (offWorkers != null) {
                err.printf(Locale.ROOT, "hosts: kept on CPUs %s, off the switch workers' (workers: in %s)%n",
                        ThreadAffinity.format(offWorkers.others()), config);
            }
            err.printf(Locale.ROOT, "hosts: %s on %d hosts of %s for %.3f s in real time%n", s.name(), live.count(), config,
                    s.durationNanos() / 1e9);
            err.flush();
            ControlClient client = ControlClient.forCommand(spec, api);
            String switchBefore = SwitchRunSummary.readMetrics(client, err);
            Progress progress = new Progress(err, "hosts " + s.name(), "on the hosts' clock");
            LiveResult r = LiveRun.run(s, live.hosts(), s.durationNanos(), progress);
            progress.done(String.format(Locale.ROOT, "hosts: %s done after %.3f s on the hosts' clock, clock slip %.3f ms",
                    s.name(), r.durationNanos() / 1e9, r.slipNanos() / 1e6));
            HostsReport report = new HostsReport(s.name(), config.toString(), r);
            String switchAfter = switchBefore == null ? null : SwitchRunSummary.readMetrics(client, err);
            SwitchRunSummary sw = switchAfter == null ? null
                    : SwitchRunSummary.fromMetrics("its control API at " + api, switchBefore, switchAfter);
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(sw == null ? report.json() : withSwitch(report.json(), sw));
            } else {
                report.printTable(out);
                if (sw != null) {
                    sw.lines().forEach(out::println);
                }
            }
            return sw != null && sw.obeyingLosslessDrops() > 0 ? SwitchRunSummary.EXIT_LOSSLESS_DROPS : 0;
        }
    }

    /** The hosts' JSON report with the switch's counts added as {@code "switch"}. */
    private static String withSwitch(String hostsJson, SwitchRunSummary sw) throws java.io.IOException {
        JsonOutput j = new JsonOutput().beginObject();
        sw.json(j);
        var report = (ObjectNode) JsonInput.read(hostsJson);
        report.set("switch", JsonInput.read(j.endObject().toString()).get("switch"));
        return report.toString();
    }

    /**
     * The emulated hosts share the machine with the switch: when the config pins the switch's
     * workers, every thread of this process is kept off their CPUs (null: none pinned, or the
     * workers' CPUs are all there are).
     */
    private static CpuReservation keepOffTheSwitchWorkers(Path config) {
        BitSet workers = DpdkSwitch.workerCpus(SwitchConfigReader.read(ConfigNode.load(config)));
        BitSet others = ThreadAffinity.onlineCpus();
        others.andNot(workers);
        return workers.isEmpty() || others.isEmpty() ? null : CpuReservation.reserve(workers);
    }
}

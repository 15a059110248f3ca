package org.pfcswitch.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.config.PfcWatchdogLoader;
import org.pfcswitch.core.PfcWatchdogConfig;
import org.pfcswitch.control.json.JsonOutput;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "pfcwd",
        mixinStandardHelpOptions = true,
        header = "Starts, stops and shows the PFC watchdog of a running switch, after SONiC's pfcwd.",
        description = {
            "Starts, stops and shows the PFC watchdog of a running switch through its control API,",
            "after SONiC's pfcwd command.",
            "",
            "An egress queue its neighbour keeps paused for the detection time without a break is",
            "declared stormed; then, by the port's action, its frames are dropped (drop: those",
            "queued, those that arrive for it, and the stormed neighbour's own frames of that",
            "priority), sent through the pauses (forward), or the storm is only counted and",
            "logged (alert). It is restored once no pause frame for it has come for the",
            "restoration time. The change reaches each port's worker between two bursts;",
            "stopping the watchdog on a stormed queue restores it first (counted as a",
            "restoration), so it obeys its neighbour's pauses again at once.",
            "",
            "start and stop need the token the switch wrote at start-up (see 'set')."
        },
        subcommands = {PfcwdCommand.Start.class, PfcwdCommand.Stop.class, PfcwdCommand.Show.class})
final class PfcwdCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(),
                "say what to do: 'pfcwd start ...', 'pfcwd stop [PORTS]', 'pfcwd show config' or 'pfcwd show stats'");
    }

    private static JsonOutput ports(JsonOutput body, List<String> ports) {
        if (!ports.isEmpty()) {
            body.beginArray("ports");
            ports.forEach(body::value);
            body.endArray();
        }
        return body;
    }

    /** "h2 priority 3, h3 priority 3" for the answer's restored queues, or null when there are none. */
    private static String restored(JsonNode answer) {
        List<String> out = new ArrayList<>();
        answer.path("restored").forEach(q -> out.add(q.path("port").asText() + " priority " + q.path("priority").asInt()));
        return out.isEmpty() ? null : String.join(", ", out);
    }

    private static String portList(JsonNode answer) {
        List<String> out = new ArrayList<>();
        answer.path("ports").forEach(p -> out.add(p.asText()));
        return String.join(", ", out);
    }

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = {"Starts the watchdog on PORTS (names from the switch config, or all), or changes it",
                "where it runs. DETECTION_TIME_MS: " + PfcWatchdogLoader.MIN_DETECTION_MS + "-"
                    + PfcWatchdogLoader.MAX_DETECTION_MS + " ms."},
            footer = {"", "Examples:", "  ./pfcswitch pfcwd start --action drop all 400",
                "  ./pfcswitch pfcwd start --action forward --restoration-time 800 h2 h3 200"})
    static final class Start implements Callable<Integer> {
        @Option(names = {"--action", "-a"}, paramLabel = "ACTION", defaultValue = "drop", completionCandidates = Actions.class,
                description = "drop, forward or alert (default: ${DEFAULT-VALUE}).")
        String action;

        @Option(names = {"--restoration-time", "-r"}, paramLabel = "MS",
                description = PfcWatchdogLoader.MIN_RESTORATION_MS + "-" + PfcWatchdogLoader.MAX_RESTORATION_MS
                        + " ms (default: twice the detection time).")
        Long restorationMs;

        @Option(names = "--priority", paramLabel = "P", split = ",",
                description = "The priorities to watch (default: the switch's lossless priorities).")
        List<Integer> priorities;

        @Parameters(arity = "0..*", paramLabel = "PORTS... DETECTION_TIME_MS")
        List<String> args = List.of();

        @Mixin
        SetCommand.Target target;

        @Spec
        CommandSpec spec;

        /** The watchdog's actions as the pfcwd: section and the API name them, for shell completion. */
        static final class Actions implements Iterable<String> {
            @Override
            public java.util.Iterator<String> iterator() {
                return java.util.Arrays.stream(PfcWatchdogConfig.Action.values()).map(PfcWatchdogConfig.Action::label).iterator();
            }
        }

        @Override
        public Integer call() throws Exception {
            if (args.size() < 2) {
                throw new ParameterException(spec.commandLine(), "pfcwd start takes the ports (names, or all) and then the"
                        + " detection time in ms, e.g. 'pfcwd start all 400'" + (args.isEmpty() ? "" : "; got only '"
                        + args.getFirst() + "'"));
            }
            String last = args.getLast();
            long detection;
            try {
                detection = Long.parseLong(last);
            } catch (NumberFormatException e) {
                throw new ParameterException(spec.commandLine(), "DETECTION_TIME_MS: expected whole milliseconds after the"
                        + " ports, got '" + last + "'");
            }
            JsonOutput body = ports(new JsonOutput().beginObject(), args.subList(0, args.size() - 1))
                    .field("detection_ms", detection).field("action", action);
            if (restorationMs != null) {
                body.field("restoration_ms", restorationMs);
            }
            if (priorities != null) {
                body.beginArray("priorities");
                priorities.forEach(p -> body.value(p));
                body.endArray();
            }
            return target.post(spec, "/api/v1/pfcwd/start", body.endObject().toString(), Start::inWords);
        }

        /** "pfcwd started on h2, h3 (priority 3): action drop, detection 400 ms, restoration 800 ms". */
        static String inWords(JsonNode a) {
            List<String> prios = new ArrayList<>();
            a.path("priorities").forEach(p -> prios.add(p.asText()));
            String s = "pfcwd started on " + portList(a) + " (priorit" + (prios.size() == 1 ? "y " : "ies ")
                    + String.join(",", prios) + "): action " + a.path("action").asText() + ", detection "
                    + a.path("detection_ms").asLong() + " ms, restoration " + a.path("restoration_ms").asLong() + " ms";
            String r = restored(a);
            return r == null ? s : s + "\nrestored (no longer watched): " + r;
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = "Stops the watchdog on PORTS (default: all); a stormed queue there is restored first.",
            footer = {"", "Example:", "  ./pfcswitch pfcwd stop h2"})
    static final class Stop implements Callable<Integer> {
        @Parameters(arity = "0..*", paramLabel = "PORTS")
        List<String> ports = new ArrayList<>();

        @Mixin
        SetCommand.Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return target.post(spec, "/api/v1/pfcwd/stop", ports(new JsonOutput().beginObject(), ports).endObject().toString(),
                    Stop::inWords);
        }

        /** "pfcwd stopped on h2; restored h2 priority 3 (it was stormed: it obeys the pauses again)". */
        static String inWords(JsonNode a) {
            String r = restored(a);
            return "pfcwd stopped on " + portList(a) + (r == null ? "" : "; restored " + r
                    + " (it was stormed: it obeys its neighbour's pauses again)");
        }
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            description = {"config: each watched port's action, detection and restoration times and priorities.",
                "stats: each egress queue paused, stormed now or ever: storms, restorations and frames dropped",
                "(the same as 'show pfcwd')."})
    static final class Show implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "config|stats", description = "${COMPLETION-CANDIDATES}")
        What what;

        @Option(names = "--api", paramLabel = "URL", defaultValue = ControlClient.DEFAULT_URL,
                description = "The switch's control API (default: ${DEFAULT-VALUE}).")
        String api;

        @Option(names = "--json", description = "Print the API's JSON instead of the table.")
        boolean json;

        @Spec
        CommandSpec spec;

        enum What { config, stats }

        @Override
        public Integer call() throws Exception {
            ControlClient client = ControlClient.forCommand(spec, api);
            String path = (what == What.config ? "/api/v1/pfcwd/config" : "/api/v1/show/pfcwd") + (json ? "" : "?format=text");
            try {
                String body = client.get(path);
                spec.commandLine().getOut().println(body.stripTrailing());
                return 0;
            } catch (ControlClient.Failure f) {
                spec.commandLine().getErr().println("pfcswitch pfcwd show: " + f.getMessage());
                return f.status == 0 ? 1 : 2;
            }
        }
    }
}

package org.pfcswitch.cli;

import java.util.concurrent.Callable;

import org.pfcswitch.control.CounterClears;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "clear",
        mixinStandardHelpOptions = true,
        header = "Clears counters, queue or PFC counters, or watermarks of a running switch, as show reads them.",
        description = {
            "Clears a family of counters of a running switch, through its control API: from",
            "then on show reads them relative to now and says since when it counts.",
            "",
            "  counters    the ports view: frames, bytes, drops, PFC frames, TX refusals, rx-ring",
            "              misses per port (sonic-clear counters)",
            "  queues      the queues view: frames, drops and ECN marks per (port, priority)",
            "              (sonic-clear queuecounters)",
            "  pfc         the pfc view: PFC frames per priority, time paused",
            "              (sonic-clear pfccounters)",
            "  watermarks  the since-clear watermarks of show watermark pg|queue; the persistent",
            "              ones keep counting since start (sonic-clear watermarks)",
            "",
            "/metrics never goes back: Prometheus counters stay monotonic, and the watermark",
            "gauges there are the persistent ones. Needs the token the switch wrote at",
            "start-up, as set does. Exit codes: 0, 1 no switch answers or no token, 2 refused."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch clear counters",
            "  ./pfcswitch clear watermarks --api http://127.0.0.1:9464"})
final class ClearCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "WHAT", description = "One of: ${COMPLETION-CANDIDATES}.",
            completionCandidates = Families.class)
    String what;

    @Mixin
    SetCommand.Target target;

    @Spec
    CommandSpec spec;

    static final class Families extends java.util.ArrayList<String> {
        Families() {
            for (CounterClears.Family f : CounterClears.Family.values()) {
                add(f.label);
            }
        }
    }

    @Override
    public Integer call() throws Exception {
        try {
            CounterClears.Family.of(what);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage());
        }
        return target.post(spec, "/api/v1/clear/" + what, "{}",
                answer -> "cleared " + answer.path("cleared").asText() + " at " + answer.path("at").asText());
    }
}

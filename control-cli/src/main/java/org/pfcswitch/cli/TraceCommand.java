package org.pfcswitch.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.config.Units;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "trace",
        mixinStandardHelpOptions = true,
        header = "Records a microsecond trace of a running switch's queues, thresholds and PFC frames.",
        description = {
            "Records a trace of a running switch: every lossless ingress queue's bytes, egress",
            "bytes and current XOFF threshold once per --every, the PFC frames sent and",
            "received in between, and the bytes the whole buffer holds, for --duration, into",
            "--out (CSV; the format 'sim --trace' writes, so 'pfcswitch plot' draws both).",
            "",
            "Each of the switch's workers writes its ports' records into a preallocated ring as",
            "it polls; the control thread merges them into one sample per period and streams",
            "them out while it records. The file's last line says how many records there were",
            "and how many the workers dropped (ring full: sample less often). Reads need no token."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch trace --duration 2s --every 10us --out trace.csv",
            "  ./pfcswitch plot trace.csv --out trace.png"})
final class TraceCommand implements Callable<Integer> {

    @Option(names = "--duration", paramLabel = "TIME", defaultValue = "1s", description = "How long to record (default ${DEFAULT-VALUE}, at most 60s).")
    String duration;

    @Option(names = "--every", paramLabel = "TIME", defaultValue = "10us", description = "Sample period (default ${DEFAULT-VALUE}, at least 1us).")
    String every;

    @Option(names = "--out", paramLabel = "FILE", required = true, description = "Where to write the trace.")
    Path out;

    @Option(names = "--api", paramLabel = "URL", defaultValue = ControlClient.DEFAULT_URL,
            description = "The switch's control API (default: ${DEFAULT-VALUE}).")
    String api;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        long durationNanos;
        try {
            durationNanos = Units.nanos(duration);
            Units.nanos(every);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), "--duration/--every: " + e.getMessage());
        }
        ControlClient client = ControlClient.forCommand(spec, api);
        spec.commandLine().getErr().println("pfcswitch trace: recording " + duration + " every " + every + " into " + out);
        try {
            client.download("/api/v1/trace?duration=" + duration + "&every=" + every, out,
                    Duration.ofNanos(durationNanos).plusSeconds(30));
        } catch (ControlClient.Failure f) {
            spec.commandLine().getErr().println("pfcswitch trace: " + f.getMessage());
            return f.status == 0 ? 1 : 2;
        }
        List<String> lines = Files.readAllLines(out);
        String end = lines.isEmpty() ? "" : lines.getLast();
        spec.commandLine().getOut().println("pfcswitch trace: " + out + ": " + (lines.size() - 3) + " rows; "
                + (end.startsWith("# end") ? end.substring(2) : "cut short (no end line)"));
        return end.startsWith("# end") ? 0 : 1;
    }
}

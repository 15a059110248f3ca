package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.pfcswitch.core.record.ArrivalHeader;
import org.pfcswitch.core.record.ArrivalReader;
import org.pfcswitch.core.record.Replay;
import org.pfcswitch.core.record.ReplayResult;

/** {@code sim --replay FILE}: a recording through every scheme, one compact comparison table. */
final class ReplayRun {

    private ReplayRun() {}

    static List<ReplayResult> run(Path file, List<String> schemes, long bufferBytes, long seed) throws IOException {
        List<ReplayResult> results = new ArrayList<>();
        for (String s : schemes) {
            results.add(Replay.run(file, Replay.config(file, s, bufferBytes), seed));
        }
        return results;
    }

    static void print(Path file, ArrivalHeader header, long bufferBytes, List<ReplayResult> results, PrintWriter out) {
        ReplayResult first = results.getFirst();
        out.printf(Locale.ROOT, "replay %s: %d arrivals over %.3f ms on %d ports, %d MiB buffer (open loop, no hosts)%n",
                file.getFileName(), first.arrivals(), first.lastArrivalNanos() / 1e6, header.ports(), bufferBytes >> 20);
        if (first.stoppedEarly()) {
            out.println("warning: the recording is truncated: it stopped early when a write to it failed (a full disk, an"
                    + " I/O error); these are the arrivals before that, the rest were never written");
        }
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-8s %8s %8s", "scheme", "pfc_tx", "xoff"));
        for (int p = 0; p < header.ports(); p++) {
            head.append(String.format(Locale.ROOT, " %7s", "xoff_p" + p));
        }
        head.append(String.format(Locale.ROOT, " %8s %9s %12s %12s %12s", "drops", "lossless", "max_buf_B", "qdelay_us",
                "qdelay_max_us"));
        out.println(head);
        for (ReplayResult r : results) {
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%-8s %8d %8d", r.scheme(),
                    r.pfcFramesSentTotal(), r.xoffSentTotal()));
            for (int p = 0; p < header.ports(); p++) {
                row.append(String.format(Locale.ROOT, " %7d", r.xoffSent()[p]));
            }
            row.append(String.format(Locale.ROOT, " %8d %9d %12d %12.2f %12.2f", r.drops(), r.losslessViolations(),
                    r.maxBufferBytes(), r.meanQueueDelayNanos() / 1e3, r.maxQueueDelayNanos() / 1e3));
            out.println(row);
        }
        out.println("pfc_tx: PFC frames the switch sent; xoff: pause priority bits sent (total, per ingress port);"
                + " lossless: lossless frames dropped (the recorded senders do not react to pauses)");
    }

    static ArrivalHeader header(Path file) throws IOException {
        try (ArrivalReader r = ArrivalReader.open(file)) {
            return r.header();
        }
    }
}

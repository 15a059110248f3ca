package org.pfcswitch.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.core.SwitchWorkers;

/**
 * What the switch counted during a run of the emulated hosts, put beside the hosts' own counters
 * at the end of {@code hosts} and {@code lab}: lossless drops by whose senders they were (those
 * that obey PFC, which a lossless switch must never drop, and those configured as ignoring it),
 * PFC frames sent and received, and frames the ports' rx rings had no room for. A lossless drop
 * from a sender that obeys PFC is said plainly and makes the command exit with
 * {@value #EXIT_LOSSLESS_DROPS}.
 */
final class SwitchRunSummary {

    /** The exit status of a run in which the switch dropped lossless frames from senders that obey PFC. */
    static final int EXIT_LOSSLESS_DROPS = 4;

    /** One switch port's counts during the run. */
    record Port(String name, boolean senderObeysPfc, long losslessDrops, long pfcSent, long pfcReceived, long rxMissed) {}

    private final String source;
    private final List<Port> ports;

    SwitchRunSummary(String source, List<Port> ports) {
        this.source = source;
        this.ports = List.copyOf(ports);
    }

    /**
     * The switch's counters as its {@code /metrics} exports them, scraped at the start and the end of
     * a run: their differences, per port in the order the switch lists its ports. {@code /metrics}
     * never goes back, so an operator's {@code clear} during the run changes nothing here (what
     * {@code show} reads restarts at a clear).
     */
    static SwitchRunSummary fromMetrics(String source, String before, String after) {
        Map<String, long[]> start = portCounts(before);
        List<Port> out = new ArrayList<>();
        portCounts(after).forEach((port, end) -> {
            long[] b = start.getOrDefault(port, new long[COUNTS]);
            out.add(new Port(port, end[IGNORING_SENDER] == 0, end[LOSSLESS] - b[LOSSLESS], end[PFC_SENT] - b[PFC_SENT],
                    end[PFC_RECEIVED] - b[PFC_RECEIVED], end[RX_MISSED] - b[RX_MISSED]));
        });
        return new SwitchRunSummary(source, out);
    }

    private static final int LOSSLESS = 0, PFC_SENT = 1, PFC_RECEIVED = 2, RX_MISSED = 3, IGNORING_SENDER = 4, COUNTS = 5;
    private static final Pattern SAMPLE = Pattern.compile("(pfcswitch_[a-z_]+)\\{([^}]*)} (\\S+)");
    private static final Pattern PORT = Pattern.compile("(?:^|,)port=\"([^\"]*)\"");

    /** Per port, in the order of the exposition: lossless drops, PFC frames sent and received, rx missed, ignoring sender (1). */
    private static Map<String, long[]> portCounts(String exposition) {
        Map<String, long[]> ports = new LinkedHashMap<>();
        for (String line : exposition.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches()) {
                continue;
            }
            int counter = switch (m.group(1)) {
                case "pfcswitch_lossless_drops_total" -> LOSSLESS;
                case "pfcswitch_pfc_frames_sent_total" -> PFC_SENT;
                case "pfcswitch_pfc_frames_received_total" -> PFC_RECEIVED;
                case "pfcswitch_rx_missed_frames_total" -> RX_MISSED;
                default -> -1;
            };
            Matcher port = PORT.matcher(m.group(2));
            if (counter < 0 || !port.find()) {
                continue;
            }
            long[] counts = ports.computeIfAbsent(port.group(1), p -> new long[COUNTS]);
            counts[counter] += (long) Double.parseDouble(m.group(3));
            if (counter == LOSSLESS && m.group(2).contains("sender=\"ignores_pfc\"")) {
                counts[IGNORING_SENDER] = 1;
            }
        }
        return ports;
    }

    /** The counters of a switch run in this process whose cores started the run fresh; {@code rxMissed} by port, during the run. */
    static SwitchRunSummary fromCores(String source, List<String> portNames, SwitchWorkers cores, long[] rxMissed) {
        SwitchCounters c = cores.counters();
        List<Port> out = new ArrayList<>();
        for (int p = 0; p < portNames.size(); p++) {
            long lossless = 0;
            for (int q = 0; q < SwitchCounters.PRIORITIES; q++) {
                lossless += c.losslessDrops[p * SwitchCounters.PRIORITIES + q];
            }
            out.add(new Port(portNames.get(p), !cores.ownerOf(p).senderIgnoresPfc(p), lossless, c.pfcFramesTx[p],
                    c.pfcFramesRx[p], rxMissed[p]));
        }
        return new SwitchRunSummary(source, out);
    }

    /**
     * Scrapes the switch's {@code /metrics} through {@code client}; null, with one line on {@code warn}
     * saying why, when the switch does not answer (the run goes on with the hosts' counters only).
     */
    static String readMetrics(ControlClient client, java.io.PrintWriter warn) throws InterruptedException {
        try {
            return client.get("/metrics");
        } catch (ControlClient.Failure f) {
            warn.println("switch: not read (" + f.getMessage() + "): only the hosts' counters below; give --api URL"
                    + " of the running switch");
            warn.flush();
            return null;
        }
    }

    long obeyingLosslessDrops() {
        return sum(true);
    }

    private long sum(boolean obeying) {
        long n = 0;
        for (Port p : ports) {
            n += p.senderObeysPfc() == obeying ? p.losslessDrops() : 0;
        }
        return n;
    }

    /** "h0 12, h2 3": the ports of {@code obeying} senders that dropped lossless frames. */
    private String byPort(boolean obeying) {
        List<String> out = new ArrayList<>();
        for (Port p : ports) {
            if (p.senderObeysPfc() == obeying && p.losslessDrops() > 0) {
                out.add(p.name() + " " + p.losslessDrops());
            }
        }
        return out.isEmpty() ? "" : " (by ingress port: " + String.join(", ", out) + ")";
    }

    /** The lines printed at the end of the run. */
    List<String> lines() {
        long pfcSent = 0, pfcReceived = 0, rxMissed = 0;
        for (Port p : ports) {
            pfcSent += p.pfcSent();
            pfcReceived += p.pfcReceived();
            rxMissed += p.rxMissed();
        }
        List<String> out = new ArrayList<>();
        out.add("switch, during the run (" + source + "):");
        long obeying = sum(true);
        out.add(String.format(Locale.ROOT, "  lossless drops: %d from senders that obey PFC%s, %d from senders that ignore"
                + " it%s", obeying, byPort(true), sum(false), byPort(false)));
        out.add(String.format(Locale.ROOT, "  PFC frames sent %d, received %d; frames its ports' rx rings had no room for %d",
                pfcSent, pfcReceived, rxMissed));
        if (obeying > 0) {
            out.add(String.format(Locale.ROOT, "  NOT LOSSLESS: the switch dropped %d lossless frames from senders that obey"
                    + " PFC (exit status %d)", obeying, EXIT_LOSSLESS_DROPS));
        }
        return out;
    }

    void json(JsonOutput j) {
        j.beginObject("switch").field("source", source).field("lossless_drops_obeying", sum(true))
                .field("lossless_drops_ignoring", sum(false)).beginArray("ports");
        for (Port p : ports) {
            j.beginObject().field("port", p.name()).field("sender_obeys_pfc", p.senderObeysPfc())
                    .field("lossless_drops", p.losslessDrops()).field("pfc_frames_sent", p.pfcSent())
                    .field("pfc_frames_received", p.pfcReceived()).field("rx_missed", p.rxMissed()).endObject();
        }
        j.endArray().endObject();
    }
}

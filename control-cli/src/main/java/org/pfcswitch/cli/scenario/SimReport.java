package org.pfcswitch.cli.scenario;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.testbed.FlowRecords;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.SchemeResult;

/**
 * Turns the per-scheme results of one scenario into what {@code pfcswitch sim} shows and writes:
 * the comparison table, the JSON document, CSV time series and flow records, figures (PNG, SVG or PDF). Output
 * depends only on the results (numbers formatted with {@link Locale#ROOT}), so the same run gives
 * the same bytes.
 */
public final class SimReport {

    /** More traffics than this get one summed throughput column in the table (890 kind: flow entries made 890 columns). */
    static final int MAX_TRAFFIC_COLUMNS = 8;


    private final Scenario scenario;
    private final List<SchemeResult> results;

    public SimReport(Scenario scenario, List<SchemeResult> results) {
        this.scenario = scenario;
        this.results = List.copyOf(results);
    }

    // ------------------------------------------------------------------ table

    public void printTable(PrintWriter out) {
        out.printf(Locale.ROOT, "scenario %s: %d hosts, %.3f ms simulated, seed %d, throughput window %.3f-%.3f ms%n",
                scenario.name(), scenario.hosts().size(), scenario.durationNanos() / 1e6, scenario.seed(),
                scenario.measureFromNanos() / 1e6, scenario.measureToNanos() / 1e6);
        if (!scenario.model().equals(org.pfcswitch.testbed.SimModel.DEFAULT)) {    // only then: default output unchanged
            out.println("model: " + scenario.model().describe());
        }
        Scenario.Topology topo = scenario.topology();
        if (topo.isLeafSpine()) {              // only then: single-switch output stays as it was
            out.printf(Locale.ROOT, "leaf-spine: %d leaves x %d spines, %d hosts per leaf, fabric links %.0f Gb/s %.3f us;"
                            + " PFC pauses count every switch (fabric links too), @host columns what a leaf sent its host%n",
                    topo.leaves(), topo.spines(), topo.hostsPerLeaf(), topo.fabricBps() / 1e9, topo.fabricDelayNanos() / 1e3);
        }
        if (topo.isFabric()) {
            String line = topo.plan().describe(scenario.hosts().getFirst().rateBps());
            out.println(topo.isLeafSpine() ? "leaf-spine " + line
                    : line + "; PFC pauses count every switch (fabric links too), @host columns what a ToR sent its host");
        }
        if (topo.isRing()) {
            out.printf(Locale.ROOT, "ring: %d switches sw0..sw%d, one host each on port 0 (port 1 to the next switch, 2 to the"
                            + " previous), routes %s, ring links %.0f Gb/s %.3f us%n", topo.ringSwitches(),
                    topo.ringSwitches() - 1, topo.ringOneWay() ? "one way round" : "the short way", topo.fabricBps() / 1e9,
                    topo.fabricDelayNanos() / 1e3);
        }
        List<String> header = new ArrayList<>(List.of("scheme", "PFC pauses"));
        for (int p : scenario.reportPorts()) {
            header.add("@" + portName(p));
        }
        header.addAll(List.of("XOFFs", "pause time", "1st pause"));
        boolean perTraffic = scenario.traffic().size() <= MAX_TRAFFIC_COLUMNS;
        if (perTraffic) {
            for (Scenario.TrafficSpec t : scenario.traffic()) {
                header.add(t.name() + " Gb/s");
            }
        } else {
            header.add("traffic Gb/s");
        }
        header.addAll(List.of("flows done", "FCT p50", "FCT p99", "max buffer", "drops", "lossless viol.",
                "viol. obeying", "viol. ignoring"));
        if (scenario.deadlock() != null) {
            header.add("deadlocks");
        }
        List<List<String>> rows = new ArrayList<>();
        for (SchemeResult r : results) {
            List<String> row = new ArrayList<>(List.of(r.scheme(), Long.toString(r.pausesSent())));
            for (int p : scenario.reportPorts()) {
                row.add(Long.toString(r.pausesSentByPort()[p]));
            }
            row.add(Long.toString(r.xoffEdges()));
            row.add(micros(r.pausedNanos()));
            row.add(r.firstPauseNanos() < 0 ? "none" : micros(r.firstPauseNanos()));
            double all = 0;
            for (double bps : r.throughputBps()) {
                all += bps;
                if (perTraffic) {
                    row.add(String.format(Locale.ROOT, "%.2f", bps / 1e9));
                }
            }
            if (!perTraffic) {
                row.add(String.format(Locale.ROOT, "%.2f", all / 1e9));
            }
            row.add(r.flowsCompleted() + "/" + r.flowsStarted());
            row.add(r.fctP50Nanos() < 0 ? "-" : micros(r.fctP50Nanos()));
            row.add(r.fctP99Nanos() < 0 ? "-" : micros(r.fctP99Nanos()));
            row.add(String.format(Locale.ROOT, "%.2f MB", r.maxBufferBytes() / 1e6));
            row.add(Long.toString(r.drops()));
            row.add(Long.toString(r.losslessViolations()));
            row.add(Long.toString(r.losslessViolationsObeying()));
            row.add(Long.toString(r.losslessViolationsIgnoring()));
            if (r.deadlock() != null) {
                row.add(Long.toString(r.deadlock().deadlocks()));
            }
            rows.add(row);
        }
        printAligned(out, header, rows);
        if (!perTraffic) {
            out.printf(Locale.ROOT, "traffic Gb/s: all %d traffics together (more than %d: per traffic in --json and --out)%n",
                    scenario.traffic().size(), MAX_TRAFFIC_COLUMNS);
        }
        if (topo.isFabric()) {
            for (SchemeResult r : results) {
                StringBuilder line = new StringBuilder("fabric pauses by switch, " + r.scheme() + ":");
                for (int sw = 0; sw < r.fabricPausesBySwitch().length; sw++) {
                    line.append(sw == 0 ? " " : ", ").append(switchName(sw)).append(' ').append(r.fabricPausesBySwitch()[sw]);
                }
                out.println(line);
            }
        }

        printShadows(out);

        if (scenario.pfcwd() != null) {
            var w = scenario.pfcwd();
            out.printf(Locale.ROOT, "PFC watchdog: detection %.1f ms, restoration %.1f ms, action %s, poll %.1f ms%n",
                    w.detectionNanos() / 1e6, w.restorationNanos() / 1e6, w.action().label(), w.pollNanos() / 1e6);
            for (SchemeResult r : results) {
                SchemeResult.Pfcwd wd = r.pfcwd();
                out.printf(Locale.ROOT, "  %s: %d storms, %d restorations, %d frames dropped in stormed queues and from their stormed neighbours%n", r.scheme(),
                        wd.storms(), wd.restorations(), wd.droppedFrames());
                for (SchemeResult.Pfcwd.Event e : wd.events()) {
                    out.printf(Locale.ROOT, "    %.3f ms %s %s/%d (%s %.3f ms)%n", e.atNanos() / 1e6,
                            e.kind().equals("storm") ? "storm on" : "restored", wdPort(e), e.priority(),
                            e.kind().equals("storm") ? "paused without a break for" : "stormed for", e.durationNanos() / 1e6);
                }
            }
        }

        if (scenario.deadlock() != null) {
            var d = scenario.deadlock();
            out.printf(Locale.ROOT, "deadlock detection: a check every %.1f us, reported after %.3f ms%n",
                    d.checkNanos() / 1e3, d.persistNanos() / 1e6);
            for (SchemeResult r : results) {
                SchemeResult.Deadlock dl = r.deadlock();
                out.printf(Locale.ROOT, "  %s: %d deadlocks in %d checks%n", r.scheme(), dl.deadlocks(), dl.checks());
                for (var rep : dl.reports()) {
                    out.printf(Locale.ROOT, "    deadlock: %s (a cycle since %.3f ms, reported at %.3f ms)%n", rep.cycle(),
                            rep.firstSeenNs() / 1e6, rep.reportedNs() / 1e6);
                }
            }
        }

        out.println();
        out.println("FCT by flow size (completed flows; slowdown = FCT / FCT alone on an idle network):");
        List<String> h2 = List.of("scheme", "size", "flows", "FCT p50", "FCT p99", "slowdown mean", "slowdown p95",
                "slowdown p99");
        List<List<String>> rows2 = new ArrayList<>();
        for (SchemeResult r : results) {
            for (SchemeResult.Bin b : r.bins()) {
                if (b.count() == 0) {
                    continue;
                }
                rows2.add(List.of(r.scheme(), binName(b), Integer.toString(b.count()), micros(b.fctP50Nanos()),
                        micros(b.fctP99Nanos()), String.format(Locale.ROOT, "%.2f", b.slowdownMean()),
                        String.format(Locale.ROOT, "%.2f", b.slowdownP95()),
                        String.format(Locale.ROOT, "%.2f", b.slowdownP99())));
            }
        }
        if (rows2.isEmpty()) {
            out.println("  (no flow completed)");
        } else {
            printAligned(out, h2, rows2);
        }
        if (scenario.fctByTraffic()) {
            out.println();
            out.println("FCT by traffic and flow size (done = completed of those started):");
            List<String> h3 = List.of("scheme", "traffic", "size", "done", "FCT p50", "FCT p99", "slowdown mean",
                    "slowdown p95", "slowdown p99");
            List<List<String>> rows3 = new ArrayList<>();
            for (SchemeResult r : results) {
                for (SchemeResult.TrafficBins t : r.binsByTraffic()) {
                    for (SchemeResult.Bin b : t.bins()) {
                        if (b.started() == 0) {
                            continue;
                        }
                        boolean none = b.count() == 0;
                        rows3.add(List.of(r.scheme(), t.traffic(), binName(b), b.count() + "/" + b.started(),
                                none ? "-" : micros(b.fctP50Nanos()), none ? "-" : micros(b.fctP99Nanos()),
                                none ? "-" : String.format(Locale.ROOT, "%.2f", b.slowdownMean()),
                                none ? "-" : String.format(Locale.ROOT, "%.2f", b.slowdownP95()),
                                none ? "-" : String.format(Locale.ROOT, "%.2f", b.slowdownP99())));
                    }
                }
            }
            if (rows3.isEmpty()) {
                out.println("  (no flow started)");
            } else {
                printAligned(out, h3, rows3);
            }
        }
        out.println("PFC pauses: PFC frames with a pause time the switch sent (refreshes included; under bfc, BFC "
                + "PAUSE frames, one per upstream queue paused); XOFFs: pause episodes on host ports (XOFF transitions, "
                + "refreshes not counted; 0 under bfc); pause time: time hosts were held by PFC (under bfc: "
                + "with any NIC queue paused); 1st pause: when the first reached a host.");
    }

    /**
     * Per active scheme with shadows (sim --shadow): its real XOFFs and drops, then each shadow's
     * would-be ones on the same arrivals and departures.
     */
    private void printShadows(PrintWriter out) {
        if (results.stream().allMatch(r -> r.shadows() == null)) {
            return;
        }
        out.println("shadow schemes (would-be XOFFs and drops on the active scheme's arrivals and departures; never"
                + " sent or made; all switches):");
        List<String> header = List.of("run", "scheme", "role", "XOFFs", "drops", "lossless drops", "max buffer");
        List<List<String>> rows = new ArrayList<>();
        for (SchemeResult r : results) {
            if (r.shadows() == null) {
                continue;
            }
            rows.add(decisionsRow(r.scheme(), r.shadows().active(), "active"));
            for (SchemeResult.Decisions d : r.shadows().shadows()) {
                rows.add(decisionsRow(r.scheme(), d, "shadow"));
            }
        }
        printAligned(out, header, rows);
        out.println("A shadow's XOFFs were never sent, so the senders went on through them: its lossless drops are what"
                + " arrived past its headroom after it would have paused (a shadow that pauses where the active scheme"
                + " does not shows them); its queues never hold more than the real buffer did.");
    }

    private static List<String> decisionsRow(String active, SchemeResult.Decisions d, String kind) {
        return List.of(active, d.scheme(), kind, Long.toString(d.xoffs()), Long.toString(d.drops()),
                Long.toString(d.losslessDrops()), String.format(Locale.ROOT, "%.2f MB", d.maxBufferBytes() / 1e6));
    }

    private static void printAligned(PrintWriter out, List<String> header, List<List<String>> rows) {
        int[] w = new int[header.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = header.get(i).length();
            for (List<String> r : rows) {
                w[i] = Math.max(w[i], r.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        line(sb, header, w);
        for (int i = 0; i < w.length; i++) {
            sb.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append('\n');
        for (List<String> r : rows) {
            line(sb, r, w);
        }
        out.print(sb);
    }

    private static void line(StringBuilder sb, List<String> cells, int[] w) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            sb.append(i == 0 ? "" : "  ");
            sb.append(i == 0 ? c + " ".repeat(w[i] - c.length()) : " ".repeat(w[i] - c.length()) + c);
        }
        sb.append('\n');
    }

    // ------------------------------------------------------------------ JSON

    /**
     * {@code {"scenario", "seed", "schemes": {name: {pfcPausesSent, pfcPausesSentByPort, pauseTimeNs, flows,
     * throughputGbpsByFlow, losslessViolations, losslessViolationsObeying, losslessViolationsIgnoring, drops, pfcXoffEdges, pfcXoffEdgesByPort, pauseTimeNsByPort, fctBySize, fctByTraffic
     * (with report.fctByTraffic), pfcwd (with a pfcwd section: storms, restorations, droppedFrames, events
     * [{kind, port, priority, atNs, durationNs}]), fabricPausesSentBySwitch (leaf-spine: pauses each switch sent on its fabric ports,
     * by leafN / spineN), shadows (with sim --shadow: {active: DECISIONS, schemes: {name: DECISIONS}}, DECISIONS =
     * {scheme, xoffs, drops, losslessDrops, maxBufferBytes})}}}}.
     */
    public String json() {
        JsonOutput j = new JsonOutput();
        writeJson(j);
        return j.toString();
    }

    /** Writes {@link #json()}'s document into {@code j} (a sweep nests one per value). */
    public void writeJson(JsonOutput j) {
        j.beginObject().field("scenario", scenario.name()).field("seed", scenario.seed());
        if (!scenario.model().equals(org.pfcswitch.testbed.SimModel.DEFAULT)) {
            j.field("model", scenario.model().describe());
        }
        j.beginObject("schemes");
        for (SchemeResult r : results) {
            j.beginObject(r.scheme());
            j.field("pfcPausesSent", r.pausesSent());
            byPort(j, "pfcPausesSentByPort", r.pausesSentByPort());
            j.field("pauseTimeNs", r.pausedNanos());
            j.beginObject("flows").field("count", r.flowsCompleted()).field("fctP50Ns", r.fctP50Nanos())
                    .field("fctP99Ns", r.fctP99Nanos()).endObject();
            j.beginObject("throughputGbpsByFlow");
            for (int t = 0; t < scenario.traffic().size(); t++) {
                j.field(scenario.traffic().get(t).name(), r.throughputBps()[t] / 1e9, 4);
            }
            j.endObject();
            j.field("losslessViolations", r.losslessViolations());
            j.field("losslessViolationsObeying", r.losslessViolationsObeying());
            j.field("losslessViolationsIgnoring", r.losslessViolationsIgnoring());
            j.field("drops", r.drops());
            j.field("maxBufferBytes", r.maxBufferBytes());
            j.field("pfcXoffEdges", r.xoffEdges());
            byPort(j, "pfcXoffEdgesByPort", r.xoffEdgesByPort());
            byPort(j, "pauseTimeNsByPort", r.pausedNanosByPort());
            if (scenario.topology().isFabric()) {
                j.beginObject("fabricPausesSentBySwitch");
                for (int sw = 0; sw < r.fabricPausesBySwitch().length; sw++) {
                    j.field(switchName(sw), r.fabricPausesBySwitch()[sw]);
                }
                j.endObject();
            }
            if (r.pfcwd() != null) {
                SchemeResult.Pfcwd wd = r.pfcwd();
                j.beginObject("pfcwd").field("storms", wd.storms()).field("restorations", wd.restorations())
                        .field("droppedFrames", wd.droppedFrames()).name("events").beginArray();
                for (SchemeResult.Pfcwd.Event e : wd.events()) {
                    j.beginObject().field("kind", e.kind());
                    if (scenario.topology().isFabric()) {
                        j.field("switch", switchName(e.switchIndex()));
                    }
                    j.field("port", wdPort(e)).field("priority", e.priority()).field("atNs", e.atNanos())
                            .field("durationNs", e.durationNanos()).endObject();
                }
                j.endArray().endObject();
            }
            if (r.deadlock() != null) {
                SchemeResult.Deadlock dl = r.deadlock();
                j.beginObject("deadlock").field("checkNs", dl.checkNanos()).field("persistNs", dl.persistNanos())
                        .field("checks", dl.checks()).field("deadlocks", dl.deadlocks()).name("reports").beginArray();
                for (var rep : dl.reports()) {
                    j.beginObject().field("cycle", rep.cycle()).field("firstSeenNs", rep.firstSeenNs())
                            .field("reportedNs", rep.reportedNs()).endObject();
                }
                j.endArray().endObject();
            }
            if (r.shadows() != null) {
                j.beginObject("shadows");
                decisionsJson(j.name("active"), r.shadows().active());
                j.beginObject("schemes");
                for (SchemeResult.Decisions d : r.shadows().shadows()) {
                    decisionsJson(j.name(d.scheme()), d);
                }
                j.endObject().endObject();
            }
            binsJson(j.name("fctBySize"), r.bins());
            if (scenario.fctByTraffic()) {
                j.beginObject("fctByTraffic");
                for (SchemeResult.TrafficBins tb : r.binsByTraffic()) {
                    binsJson(j.name(tb.traffic()), tb.bins());
                }
                j.endObject();
            }
            j.endObject();
        }
        j.endObject().endObject();
    }

    private static void decisionsJson(JsonOutput j, SchemeResult.Decisions d) {
        j.beginObject().field("scheme", d.scheme()).field("xoffs", d.xoffs()).field("drops", d.drops())
                .field("losslessDrops", d.losslessDrops()).field("maxBufferBytes", d.maxBufferBytes()).endObject();
    }

    /** {@code {host name: value}} over the scenario's hosts. */
    private void byPort(JsonOutput j, String name, long[] values) {
        j.beginObject(name);
        for (int p = 0; p < scenario.hosts().size(); p++) {
            j.field(portName(p), values[p]);
        }
        j.endObject();
    }

    /** {@code [{lowBytes, highBytes, count, started, fctP50Ns, fctP99Ns, slowdownMean, slowdownP95, slowdownP99}]}; null when no flow completed. */
    private static void binsJson(JsonOutput j, List<SchemeResult.Bin> bins) {
        j.beginArray();
        for (SchemeResult.Bin b : bins) {
            j.beginObject().field("lowBytes", b.lowBytes());
            if (b.highBytes() == Long.MAX_VALUE) {
                j.nullField("highBytes");
            } else {
                j.field("highBytes", b.highBytes());
            }
            j.field("count", b.count()).field("started", b.started())
                    .field("fctP50Ns", b.fctP50Nanos()).field("fctP99Ns", b.fctP99Nanos())
                    .field("slowdownMean", b.slowdownMean(), 4)
                    .field("slowdownP95", b.slowdownP95(), 4)
                    .field("slowdownP99", b.slowdownP99(), 4).endObject();
        }
        j.endArray();
    }

    // ------------------------------------------------------------------ files

    /** {@link #write(Path, Set)} with PNG figures. */
    public List<Path> write(Path dir) throws IOException {
        return write(dir, EnumSet.of(FigureFormat.PNG));
    }

    /**
     * Writes {@code timeseries-SCHEME.csv}, {@code flows-SCHEME.csv}, the figure {@code SCHEME.EXT} and one
     * comparison figure per traffic ({@code throughput-TRAFFIC.EXT}), each figure once per format.
     */
    public List<Path> write(Path dir, Set<FigureFormat> formats) throws IOException {
        Files.createDirectories(dir);
        List<Path> written = new ArrayList<>();
        for (SchemeResult r : results) {
            written.add(writeSeries(dir.resolve("timeseries-" + r.scheme() + ".csv"), r));
            written.add(writeFlows(dir.resolve("flows-" + r.scheme() + ".csv"), r));
            LinePlot figure = schemeFigure(r);
            for (FigureFormat f : formats) {
                written.add(figure.write(dir.resolve(r.scheme() + "." + f.extension())));
            }
        }
        if (!results.isEmpty()) {
            for (int t = 0; t < scenario.traffic().size(); t++) {
                String name = scenario.traffic().get(t).name();
                List<LinePlot.Line> lines = new ArrayList<>();
                for (SchemeResult r : results) {
                    lines.add(new LinePlot.Line(r.scheme(), gbps(r.series().throughputBps()[t])));
                }
                LinePlot figure = new LinePlot(scenario.name() + ": throughput of " + name + " by scheme",
                        results.getFirst().series().timeNanos()).panel(name + " (Gb/s)", lines);
                for (FigureFormat f : formats) {
                    written.add(figure.write(dir.resolve("throughput-" + fileSafe(name) + "." + f.extension())));
                }
            }
        }
        return written;
    }

    private Path writeSeries(Path file, SchemeResult r) throws IOException {
        SchemeResult.Series s = r.series();
        try (Writer w = Files.newBufferedWriter(file)) {
            StringBuilder sb = new StringBuilder("time_us");
            for (int p : s.ports()) {
                sb.append(",queue_bytes_").append(portName(p)).append(",paused_").append(portName(p));
            }
            for (Scenario.TrafficSpec t : scenario.traffic()) {
                sb.append(",gbps_").append(t.name());
            }
            w.write(sb.append('\n').toString());
            for (int i = 0; i < s.timeNanos().length; i++) {
                sb.setLength(0);
                sb.append(String.format(Locale.ROOT, "%.3f", s.timeNanos()[i] / 1e3));
                for (int k = 0; k < s.ports().length; k++) {
                    sb.append(',').append(s.queueBytes()[k][i]).append(',').append(s.paused()[k][i] ? 1 : 0);
                }
                for (int t = 0; t < s.throughputBps().length; t++) {
                    sb.append(',').append(String.format(Locale.ROOT, "%.3f", s.throughputBps()[t][i] / 1e9));
                }
                w.write(sb.append('\n').toString());
            }
        }
        return file;
    }

    private Path writeFlows(Path file, SchemeResult r) throws IOException {
        FlowRecords f = r.flows();
        try (Writer w = Files.newBufferedWriter(file)) {
            w.write("flow,src,dst,size_bytes,start_ns,end_ns,fct_ns,ideal_ns,slowdown\n");
            StringBuilder sb = new StringBuilder();
            for (int i = 0; i < f.count(); i++) {
                sb.setLength(0);
                sb.append(i).append(',').append(portName(f.src(i))).append(',').append(portName(f.dst(i))).append(',')
                        .append(f.sizeBytes(i)).append(',').append(f.startNanos(i)).append(',').append(f.endNanos(i))
                        .append(',').append(f.fctNanos(i)).append(',').append(f.idealNanos(i)).append(',')
                        .append(f.completed(i) ? String.format(Locale.ROOT, "%.4f", f.slowdown(i)) : "").append('\n');
                w.write(sb.toString());
            }
        }
        return file;
    }

    private LinePlot schemeFigure(SchemeResult r) {
        SchemeResult.Series s = r.series();
        List<LinePlot.Line> thr = new ArrayList<>();
        for (int t = 0; t < scenario.traffic().size(); t++) {
            thr.add(new LinePlot.Line(scenario.traffic().get(t).name(), gbps(s.throughputBps()[t])));
        }
        List<LinePlot.Line> queues = new ArrayList<>();
        List<LinePlot.Line> paused = new ArrayList<>();
        for (int k = 0; k < s.ports().length; k++) {
            double[] kb = new double[s.timeNanos().length];
            double[] on = new double[s.timeNanos().length];
            for (int i = 0; i < kb.length; i++) {
                kb[i] = s.queueBytes()[k][i] / 1e3;
                on[i] = s.paused()[k][i] ? 1 + 0.05 * k : 0;
            }
            queues.add(new LinePlot.Line("egress " + portName(s.ports()[k]), kb));
            paused.add(new LinePlot.Line(portName(s.ports()[k]) + " paused", on));
        }
        LinePlot plot = new LinePlot(scenario.name() + " under " + r.scheme(), s.timeNanos())
                .panel("throughput (Gb/s)", thr);
        if (!queues.isEmpty()) {
            plot.panel("egress queue (KB)", queues).panel("host paused by PFC (1 = yes)", paused);
        }
        return plot;
    }

    private static double[] gbps(double[] bps) {
        double[] out = new double[bps.length];
        for (int i = 0; i < bps.length; i++) {
            out[i] = bps[i] / 1e9;
        }
        return out;
    }

    /** Switch {@code i} by the testbed's numbering: a ring's sw0.., a fabric's leaves (or ToRs, aggregation switches) then spines. */
    private String switchName(int i) {
        if (scenario.topology().isRing()) {
            return "sw" + i;
        }
        return scenario.topology().plan().switchName(i);
    }

    /** A watchdog event's port: the host behind it, or (leaf-spine) switch:port as {@code ScenarioRunner.portNames} names it. */
    private String wdPort(SchemeResult.Pfcwd.Event e) {
        if (!scenario.topology().isFabric() && !scenario.topology().isRing()) {
            return portName(e.port());
        }
        return switchName(e.switchIndex()) + ":" + org.pfcswitch.testbed.ScenarioRunner.portNames(scenario, e.switchIndex()).get(e.port());
    }

    private String portName(int p) {
        return scenario.hosts().get(p).name();
    }

    private static String fileSafe(String s) {
        return s.replaceAll("[^A-Za-z0-9_.-]", "_");
    }

    private static String binName(SchemeResult.Bin b) {
        if (b.lowBytes() == 0) {
            return "< " + size(b.highBytes());
        }
        if (b.highBytes() == Long.MAX_VALUE) {
            return ">= " + size(b.lowBytes());
        }
        return size(b.lowBytes()) + "-" + size(b.highBytes());
    }

    private static String size(long bytes) {
        if (bytes >= 1_000_000 && bytes % 1_000_000 == 0) {
            return bytes / 1_000_000 + " MB";
        }
        if (bytes >= 1_000 && bytes % 1_000 == 0) {
            return bytes / 1_000 + " KB";
        }
        return bytes + " B";
    }

    static String micros(long nanos) {
        return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }
}

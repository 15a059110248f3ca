package org.pfcswitch.cli.scenario;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.testbed.LiveResult;
import org.pfcswitch.testbed.SchemeResult;

/**
 * The table and JSON of {@code pfcswitch hosts}: a scenario's traffic run in real time on the
 * emulated hosts of a namespace testbed. Same FCT bins as {@code sim}; per host what its NIC saw.
 */
public record HostsReport(String scenario, String testbed, LiveResult result) {

    public void printTable(PrintWriter out) {
        LiveResult r = result;
        out.printf(Locale.ROOT, "scenario %s on testbed %s: %.3f s on the hosts' clock, %,d passes, clock slip %.3f ms%s%n",
                scenario, testbed, r.durationNanos() / 1e9, r.passes(), r.slipNanos() / 1e6,
                r.slipNanos() * 20 > r.durationNanos() ? "  (over 5 %: the driver did not keep up; see docs/operations.md, 'Real-time emulated hosts')" : "");
        out.println();
        out.printf(Locale.ROOT, "%-16s %8s %10s %14s %12s%n", "traffic", "flows", "completed", "received", "Gb/s");
        for (LiveResult.Traffic t : r.traffic()) {
            out.printf(Locale.ROOT, "%-16s %8d %10d %,14d %12.4f%n", t.name(), t.flows(), t.completed(), t.receivedBytes(),
                    t.throughputBps() / 1e9);
        }
        out.println();
        out.printf(Locale.ROOT, "%-20s %7s %7s %11s %11s %9s %9s %9s%n", "FCT by size", "flows", "started", "p50 us",
                "p99 us", "slow avg", "slow p95", "slow p99");
        for (SchemeResult.Bin b : r.bins()) {
            out.printf(Locale.ROOT, "%-20s %7d %7d %11s %11s %9s %9s %9s%n", binName(b), b.count(), b.started(),
                    micros(b.fctP50Nanos()), micros(b.fctP99Nanos()), ratio(b.slowdownMean()), ratio(b.slowdownP95()),
                    ratio(b.slowdownP99()));
        }
        out.println();
        out.printf(Locale.ROOT, "%-10s %10s %10s %7s %7s %10s %7s %7s %7s %9s %8s %8s %6s%n", "host", "frames tx", "frames rx",
                "pfc rx", "pause rx", "paused ms", "cnp tx", "cnp rx", "ack tx", "malformed", "foreign", "rx drops", "lost");
        for (LiveResult.Host h : r.hosts()) {
            out.printf(Locale.ROOT, "%-10s %10d %10d %7d %7d %10.3f %7d %7d %7d %9d %8d %8d %6d%n", h.name(), h.framesSent(),
                    h.framesReceived(), h.pfcFramesReceived(), h.pauseFramesReceived(), h.pausedNanos() / 1e6, h.cnpsSent(),
                    h.cnpsReceived(), h.acksSent(), h.malformedFrames(), h.foreignFrames(), h.kernelDrops(), h.framesLost());
        }
        long missing = 0;
        int flowsWithGaps = 0;
        for (int id = 0; id < r.flows().count(); id++) {
            missing += r.flows().missingPackets(id);
            flowsWithGaps += r.flows().missingPackets(id) > 0 ? 1 : 0;
        }
        out.println();
        out.println(lossLine(missing, flowsWithGaps));
    }

    /**
     * What a user reading only this command's output must know: whether packets were lost between
     * the hosts. The hosts' own columns count only their sockets; a frame the switch dropped (in its
     * buffer or its ports' rx rings) shows only as a PSN that never reached its receiver.
     */
    static String lossLine(long missingPackets, int flowsWithGaps) {
        if (missingPackets <= 0) {
            return "packets lost between the hosts: none (no PSN missing at any receiver)";
        }
        return String.format(Locale.ROOT, "packets lost between the hosts: %,d PSNs of %d flows never reached their receivers"
                + " (dropped by the switch, in its ports' rx rings or by the kernel; a lossless class should lose none: the"
                + " switch's log, 'show ports' and /metrics say where)", missingPackets, flowsWithGaps);
    }

    public String json() {
        LiveResult r = result;
        JsonOutput j = new JsonOutput().beginObject().field("scenario", scenario).field("testbed", testbed)
                .field("durationNs", r.durationNanos()).field("slipNs", r.slipNanos()).field("passes", r.passes())
                .beginObject("traffic");
        for (LiveResult.Traffic t : r.traffic()) {
            j.beginObject(t.name()).field("flows", t.flows()).field("completed", t.completed())
                    .field("receivedBytes", t.receivedBytes()).field("throughputGbps", t.throughputBps() / 1e9, 4)
                    .endObject();
        }
        j.endObject().beginArray("fctBins");
        for (SchemeResult.Bin b : r.bins()) {
            j.beginObject().field("lowBytes", b.lowBytes());
            if (b.highBytes() == Long.MAX_VALUE) {
                j.nullField("highBytes");
            } else {
                j.field("highBytes", b.highBytes());
            }
            j.field("count", b.count()).field("started", b.started()).field("fctP50Ns", b.fctP50Nanos())
                    .field("fctP99Ns", b.fctP99Nanos()).field("slowdownMean", b.slowdownMean(), 4).endObject();
        }
        j.endArray().beginObject("hosts");
        List<LiveResult.Host> hosts = r.hosts();
        for (LiveResult.Host h : hosts) {
            j.beginObject(h.name()).field("framesSent", h.framesSent())
                    .field("framesReceived", h.framesReceived())
                    .field("pfcFramesReceived", h.pfcFramesReceived())
                    .field("pauseFramesReceived", h.pauseFramesReceived())
                    .field("pausedNs", h.pausedNanos()).field("cnpsSent", h.cnpsSent())
                    .field("cnpsReceived", h.cnpsReceived()).field("acksSent", h.acksSent())
                    .field("malformedFrames", h.malformedFrames())
                    .field("foreignFrames", h.foreignFrames())
                    .field("kernelDrops", h.kernelDrops()).field("framesLost", h.framesLost())
                    .endObject();
        }
        j.endObject().beginArray("flows");
        var f = r.flows();
        for (int id = 0; id < f.count(); id++) {
            j.beginObject().field("id", id).field("src", hosts.get(f.src(id)).name())
                    .field("dst", hosts.get(f.dst(id)).name())
                    .field("bytes", f.sizeBytes(id)).field("startNs", f.startNanos(id))
                    .field("fctNs", f.fctNanos(id)).field("receivedBytes", f.receivedPayloadBytes(id))
                    .field("outOfOrder", f.outOfOrder(id)).field("missingPackets", f.missingPackets(id)).endObject();
        }
        return j.endArray().endObject().toString();
    }

    private static String binName(SchemeResult.Bin b) {
        return b.highBytes() == Long.MAX_VALUE ? ">= " + b.lowBytes() + " B" : b.lowBytes() + ".." + b.highBytes() + " B";
    }

    private static String micros(long nanos) {
        return nanos < 0 ? "-" : String.format(Locale.ROOT, "%.1f", nanos / 1e3);
    }

    private static String ratio(double v) {
        return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.2f", v);
    }
}

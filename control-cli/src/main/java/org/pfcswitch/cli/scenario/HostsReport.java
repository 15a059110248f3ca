package org.pfcswitch.cli.scenario;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;

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
                r.slipNanos() * 20 > r.durationNanos() ? "  (over 5 %: the driver did not keep up; see README)" : "");
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
    }

    public String json() {
        LiveResult r = result;
        StringBuilder sb = new StringBuilder();
        sb.append("{\"scenario\":").append(quote(scenario)).append(",\"testbed\":").append(quote(testbed))
                .append(",\"durationNs\":").append(r.durationNanos()).append(",\"slipNs\":").append(r.slipNanos())
                .append(",\"passes\":").append(r.passes()).append(",\"traffic\":{");
        List<LiveResult.Traffic> traffic = r.traffic();
        for (int i = 0; i < traffic.size(); i++) {
            LiveResult.Traffic t = traffic.get(i);
            sb.append(i == 0 ? "" : ",").append(quote(t.name())).append(":{\"flows\":").append(t.flows())
                    .append(",\"completed\":").append(t.completed()).append(",\"receivedBytes\":").append(t.receivedBytes())
                    .append(",\"throughputGbps\":").append(String.format(Locale.ROOT, "%.4f", t.throughputBps() / 1e9))
                    .append('}');
        }
        sb.append("},\"fctBins\":[");
        List<SchemeResult.Bin> bins = r.bins();
        for (int i = 0; i < bins.size(); i++) {
            SchemeResult.Bin b = bins.get(i);
            sb.append(i == 0 ? "" : ",").append("{\"lowBytes\":").append(b.lowBytes()).append(",\"highBytes\":")
                    .append(b.highBytes() == Long.MAX_VALUE ? "null" : String.valueOf(b.highBytes()))
                    .append(",\"count\":").append(b.count()).append(",\"started\":").append(b.started())
                    .append(",\"fctP50Ns\":").append(b.fctP50Nanos()).append(",\"fctP99Ns\":").append(b.fctP99Nanos())
                    .append(",\"slowdownMean\":").append(number(b.slowdownMean())).append('}');
        }
        sb.append("],\"hosts\":{");
        List<LiveResult.Host> hosts = r.hosts();
        for (int i = 0; i < hosts.size(); i++) {
            LiveResult.Host h = hosts.get(i);
            sb.append(i == 0 ? "" : ",").append(quote(h.name())).append(":{\"framesSent\":").append(h.framesSent())
                    .append(",\"framesReceived\":").append(h.framesReceived())
                    .append(",\"pfcFramesReceived\":").append(h.pfcFramesReceived())
                    .append(",\"pauseFramesReceived\":").append(h.pauseFramesReceived())
                    .append(",\"pausedNs\":").append(h.pausedNanos()).append(",\"cnpsSent\":").append(h.cnpsSent())
                    .append(",\"cnpsReceived\":").append(h.cnpsReceived()).append(",\"acksSent\":").append(h.acksSent())
                    .append(",\"malformedFrames\":").append(h.malformedFrames())
                    .append(",\"foreignFrames\":").append(h.foreignFrames())
                    .append(",\"kernelDrops\":").append(h.kernelDrops()).append(",\"framesLost\":").append(h.framesLost())
                    .append('}');
        }
        sb.append("},\"flows\":[");
        var f = r.flows();
        for (int id = 0; id < f.count(); id++) {
            sb.append(id == 0 ? "" : ",").append("{\"id\":").append(id).append(",\"src\":")
                    .append(quote(hosts.get(f.src(id)).name())).append(",\"dst\":").append(quote(hosts.get(f.dst(id)).name()))
                    .append(",\"bytes\":").append(f.sizeBytes(id)).append(",\"startNs\":").append(f.startNanos(id))
                    .append(",\"fctNs\":").append(f.fctNanos(id)).append(",\"receivedBytes\":").append(f.receivedPayloadBytes(id))
                    .append(",\"outOfOrder\":").append(f.outOfOrder(id)).append('}');
        }
        return sb.append("]}").toString();
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

    private static String number(double v) {
        return Double.isNaN(v) ? "null" : String.format(Locale.ROOT, "%.4f", v);
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}

package org.pfcswitch.control;

import java.util.List;
import java.util.Locale;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.deadlock.CycleRecord;
import org.pfcswitch.core.deadlock.DeadlockSnapshot;

/**
 * {@code show deadlock}: the switch's own deadlock detection (settings, checks, reports), the cycle
 * it sees now, each port's MAC and the MAC of the last PFC sender on it (who pauses that port's
 * egress), the ingress queues advertising XOFF and the wait-for edges now. The JSON carries what a
 * fabric view needs to join several switches ({@code FabricDeadlock}): {@code ports[].mac},
 * {@code ports[].pfc_sender_mac}, {@code xoff}, {@code edges}.
 */
final class DeadlockView {

    private final CoreSnapshot s;
    private final DeadlockSnapshot d;
    private final List<String> names;

    DeadlockView(CoreSnapshot snapshot, List<String> portNames) {
        this.s = snapshot;
        this.d = snapshot.deadlock;
        this.names = portNames;
    }

    private static String mac(long mac) {
        return mac == 0 ? null : MacAddress.format(mac);
    }

    private String port(int p) {
        return p < 0 ? null : names.get(p);
    }

    void json(JsonOutput j) {
        j.field("enabled", d.enabled).field("check_seconds", d.checkNanos / 1e9, 6).field("persist_seconds", d.persistNanos / 1e9, 6)
                .field("grace_seconds", d.graceNanos / 1e9, 6)
                .field("checks", d.checks).field("deadlocks", d.deadlocks).field("present", d.present)
                .field("uptime_seconds", s.nanos / 1e9, 6);
        if (d.watched.length == 0) {
            j.nullField("cycle");
        } else {
            j.name("cycle");
            cycle(j, d.watched);
        }
        j.beginArray("reports");
        for (int i = 0; i < d.reportCount; i++) {
            cycle(j, d.reports[i]);
        }
        j.endArray();
        j.beginArray("ports");
        for (int p = 0; p < d.ports; p++) {
            j.beginObject().field("port", names.get(p)).field("mac", mac(d.portMac[p]))
                    .field("pfc_sender_mac", mac(d.pfcSenderMac[p])).field("pfc_sender_port", port(d.pfcSenderPort[p])).endObject();
        }
        j.endArray();
        j.beginArray("xoff");
        for (int p = 0; p < d.ports; p++) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                if (s.xoffAdvertised[p * CoreSnapshot.PRIORITIES + q]) {
                    j.beginObject().field("port", names.get(p)).field("priority", q).endObject();
                }
            }
        }
        j.endArray();
        j.beginArray("edges");
        for (int i = 0; i < d.edgeCount; i++) {
            int e = d.edgeEgress[i];
            j.beginObject().field("ingress", names.get(d.edgeIngress[i])).field("priority", d.edgePriority[i])
                    .field("egress", names.get(e)).field("neighbour_mac", mac(d.pfcSenderMac[e]))
                    .field("neighbour_port", port(d.edgeTarget[i])).endObject();
        }
        j.endArray();
    }

    /** {@code {description, priority, hops: [{ingress, egress}], since_uptime_seconds, lasted_seconds, reported_uptime_seconds}}. */
    private void cycle(JsonOutput j, CycleRecord r) {
        j.beginObject().field("description", r.describe(names)).field("priority", r.priority);
        j.beginArray("hops");
        for (int i = 0; i < r.length; i++) {
            j.beginObject().field("ingress", names.get(r.ingress[i])).field("egress", names.get(r.egress[i])).endObject();
        }
        j.endArray();
        j.field("since_uptime_seconds", r.sinceNanos / 1e9, 6);
        j.field("reported", r.reportedNanos >= 0);
        if (r.reportedNanos >= 0) {
            j.field("reported_uptime_seconds", r.reportedNanos / 1e9, 6);
        }
        j.endObject();
    }

    String text() {
        StringBuilder out = new StringBuilder();
        if (!d.enabled) {
            out.append("deadlock detection: off (deadlock: {enabled: false} in the switch config)\n");
        } else {
            out.append(String.format(Locale.ROOT, "deadlock detection: a check every %.1f ms, a cycle reported after %.1f ms"
                    + " (misses under %.1f ms forgiven); %d checks, %d deadlock(s) reported%n", d.checkNanos / 1e6,
                    d.persistNanos / 1e6, d.graceNanos / 1e6, d.checks, d.deadlocks));
        }
        if (d.watched.length == 0) {
            out.append("cycle now: none\n");
        } else {
            out.append(String.format(Locale.ROOT, "cycle now: %s, for %.3f s (%s)%n", d.watched.describe(names),
                    (s.nanos - d.watched.sinceNanos) / 1e9, d.present ? "DEADLOCK, reported" : "not yet reported"));
        }
        TextTable ports = new TextTable("PORT", "MAC", "PFC_SENDER_MAC", "PFC_SENDER");
        for (int p = 0; p < d.ports; p++) {
            ports.row(names.get(p), MacAddress.format(d.portMac[p]), d.pfcSenderMac[p] == 0 ? "-" : MacAddress.format(d.pfcSenderMac[p]),
                    d.pfcSenderPort[p] >= 0 ? names.get(d.pfcSenderPort[p]) + " (this switch)" : d.pfcSenderMac[p] == 0 ? "-" : "neighbour");
        }
        out.append(ports).append('\n');
        if (d.edgeCount == 0) {
            out.append("wait-for edges now: none\n");
        } else {
            out.append("wait-for edges now (a paused ingress waits on a paused, non-empty egress):\n");
            TextTable edges = new TextTable("INGRESS", "PRIO", "EGRESS", "PAUSED_BY", "LEADS_TO");
            for (int i = 0; i < d.edgeCount; i++) {
                int e = d.edgeEgress[i];
                edges.row(names.get(d.edgeIngress[i]), d.edgePriority[i], names.get(e),
                        d.pfcSenderMac[e] == 0 ? "-" : MacAddress.format(d.pfcSenderMac[e]),
                        d.edgeTarget[i] >= 0 ? names.get(d.edgeTarget[i]) + "/" + d.edgePriority[i] + " (this switch)"
                                : "the neighbour");
            }
            out.append(edges).append('\n');
        }
        if (d.reportCount == 0) {
            out.append("reports: none");
        } else {
            TextTable reports = new TextTable("SINCE_S", "REPORTED_S", "CYCLE");
            for (int i = 0; i < d.reportCount; i++) {
                CycleRecord r = d.reports[i];
                reports.row(String.format(Locale.ROOT, "%.3f", r.sinceNanos / 1e9), String.format(Locale.ROOT, "%.3f",
                        r.reportedNanos / 1e9), r.describe(names));
            }
            out.append("reports (the last ").append(d.reportCount).append(", times since the switch started):\n").append(reports);
        }
        return out.toString().stripTrailing();
    }
}

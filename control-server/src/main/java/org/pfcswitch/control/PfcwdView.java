package org.pfcswitch.control;

import java.util.List;
import java.util.Locale;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.core.PfcWatchdogConfig;

/**
 * The PFC watchdog as {@code show pfcwd} and {@code pfcwd show stats} print it (one rendering,
 * after SONiC's {@code pfcwd show stats}: each egress queue paused, stormed now or ever, with its
 * storms, restorations and drops) and as {@code pfcwd show config} prints it (each watched port's
 * action, detection and restoration times and priorities), as JSON and as text, from one
 * {@link CoreSnapshot}.
 */
final class PfcwdView {

    private static final int PRIORITIES = CoreSnapshot.PRIORITIES;

    private final CoreSnapshot s;
    private final List<String> names;
    /** The counters shown: the snapshot's, or those since an operator's clear. */
    private final SwitchCounters c;
    /** The ports whose rows are shown (show --port), in port order. */
    private final int[] shown;

    /** Every port, counters since start. */
    PfcwdView(CoreSnapshot snapshot, List<String> portNames) {
        this(snapshot, portNames, snapshot.counters, java.util.stream.IntStream.range(0, snapshot.ports).toArray());
    }

    PfcwdView(CoreSnapshot snapshot, List<String> portNames, SwitchCounters counters, int[] shown) {
        this.s = snapshot;
        this.names = portNames;
        this.c = counters;
        this.shown = shown;
    }

    /** The settings every port shares, when every port is watched alike (a pfcwd: section at start); else null. */
    private PfcWatchdogConfig shared() {
        PfcWatchdogConfig first = s.pfcwdByPort[0];
        for (int p = 0; p < s.ports; p++) {
            if (s.pfcwdByPort[p] == null || !s.pfcwdByPort[p].equals(first) || s.pfcwdPriorities[p] != s.pfcwdPriorities[0]) {
                return null;
            }
        }
        return first;
    }

    private int watchedPorts() {
        int n = 0;
        for (PfcWatchdogConfig w : s.pfcwdByPort) {
            n += w == null ? 0 : 1;
        }
        return n;
    }

    // ------------------------------------------------------------------ stats (show pfcwd)

    /**
     * {@code {"enabled", ["detection_seconds", "restoration_seconds", "action", "poll_seconds" when every port
     * shares them,] "ports": [...] (as configJson), "queues": [{port, priority, stormed, egress_paused, storms,
     * restorations, dropped_frames, dropped_rx_frames}]}}.
     */
    void json(JsonOutput j) {
        configJson(j);
        PfcWatchdogConfig all = shared();
        if (all != null) {
            j.field("detection_seconds", all.detectionNanos() / 1e9, 6).field("restoration_seconds",
                    all.restorationNanos() / 1e9, 6).field("action", all.action().label())
                    .field("poll_seconds", all.pollNanos() / 1e9, 6);
        }
        j.beginArray("queues");
        for (int p : shown) {
            for (int q = 0; q < PRIORITIES; q++) {
                int k = p * PRIORITIES + q;
                if (statsRow(k)) {
                    j.beginObject().field("port", names.get(p)).field("priority", q).field("stormed", s.pfcwdStormed[k])
                            .field("egress_paused", s.egressPaused[k]).field("storms", c.pfcwdStorms[k])
                            .field("restorations", c.pfcwdRestorations[k]).field("dropped_frames", c.pfcwdDrops[k])
                            .field("dropped_rx_frames", c.pfcwdIngressDrops[k]).endObject();
                }
            }
        }
        j.endArray();
    }

    /** A queue worth a row: stormed now or ever, or paused now. */
    private boolean statsRow(int k) {
        return s.pfcwdStormed[k] || c.pfcwdStorms[k] > 0 || s.egressPaused[k];
    }

    String text() {
        StringBuilder out = new StringBuilder(summary()).append('\n');
        TextTable t = new TextTable("PORT", "PRIO", "STATUS", "STORMS", "RESTORED", "TX_DROP", "RX_DROP");
        boolean any = false;
        for (int p : shown) {
            for (int q = 0; q < PRIORITIES; q++) {
                int k = p * PRIORITIES + q;
                if (statsRow(k)) {
                    any = true;
                    t.row(names.get(p), q, s.pfcwdStormed[k] ? "stormed" : s.egressPaused[k] ? "paused" : "operational",
                            c.pfcwdStorms[k], c.pfcwdRestorations[k], c.pfcwdDrops[k],
                            c.pfcwdIngressDrops[k]);
                }
            }
        }
        return out.append(any ? t.toString() : "no queue paused or stormed, now or before").toString();
    }

    private String summary() {
        PfcWatchdogConfig all = shared();
        if (all != null) {
            return String.format(Locale.ROOT, "PFC watchdog: detection %.1f ms, restoration %.1f ms, action %s, poll %.1f ms",
                    all.detectionNanos() / 1e6, all.restorationNanos() / 1e6, all.action().label(), all.pollNanos() / 1e6);
        }
        int watched = watchedPorts();
        return watched == 0
                ? "PFC watchdog: off (pfcwd start PORTS DETECTION_MS, or a pfcwd: section in the switch config)"
                : "PFC watchdog: on " + watched + " of " + s.ports + " ports (pfcwd show config)";
    }

    // ------------------------------------------------------------------ config (pfcwd show config)

    /** {@code "enabled", "ports": [{port, action, detection_seconds, restoration_seconds, poll_seconds, priorities}]}: the watched ports. */
    void configJson(JsonOutput j) {
        j.field("enabled", watchedPorts() > 0).beginArray("ports");
        for (int p : shown) {
            PfcWatchdogConfig w = s.pfcwdByPort[p];
            if (w != null) {
                j.beginObject().field("port", names.get(p)).field("action", w.action().label())
                        .field("detection_seconds", w.detectionNanos() / 1e9, 6)
                        .field("restoration_seconds", w.restorationNanos() / 1e9, 6)
                        .field("poll_seconds", w.pollNanos() / 1e9, 6)
                        .field("priorities", priorities(s.pfcwdPriorities[p])).endObject();
            }
        }
        j.endArray();
    }

    String configText() {
        if (watchedPorts() == 0) {
            return summary();
        }
        TextTable t = new TextTable("PORT", "ACTION", "DETECTION TIME", "RESTORATION TIME", "POLL", "PRIORITIES");
        for (int p : shown) {
            PfcWatchdogConfig w = s.pfcwdByPort[p];
            if (w != null) {
                t.row(names.get(p), w.action().label(), millis(w.detectionNanos()), millis(w.restorationNanos()),
                        millis(w.pollNanos()), priorityList(s.pfcwdPriorities[p]));
            }
        }
        return t.toString();
    }

    private static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.1f ms", nanos / 1e6);
    }

    private static int[] priorities(int mask) {
        int[] out = new int[Integer.bitCount(mask)];
        int i = 0;
        for (int v = mask; v != 0; v &= v - 1) {
            out[i++] = Integer.numberOfTrailingZeros(v);
        }
        return out;
    }

    private static String priorityList(int mask) {
        StringBuilder b = new StringBuilder();
        for (int q : priorities(mask)) {
            b.append(b.isEmpty() ? "" : ",").append(q);
        }
        return b.toString();
    }
}

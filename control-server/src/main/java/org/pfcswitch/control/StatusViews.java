package org.pfcswitch.control;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.SchemeCounters;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.mmu.FlowControlListener;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.ParameterDoc;
import org.pfcswitch.mmu.Verdict;

/**
 * What {@code pfcswitch show VIEW} prints, as JSON (the API's answer) and as the text table a lab
 * reads (after SONiC's {@code show interfaces counters}, {@code pfcstat} and {@code show buffer}).
 * Both renderings come from one {@link CoreSnapshot}, so they always agree.
 */
public final class StatusViews {

    /** The views {@code show} offers, in the order of its help. */
    public static final List<String> VIEWS = List.of("ports", "queues", "buffer", "pfc", "thresholds", "scheme", "pfcwd",
            "deadlock", "shadow", "watermark");
    /** The views whose rows belong to ports, which {@code ?port=} filters. */
    public static final List<String> PER_PORT_VIEWS = List.of("ports", "queues", "pfc", "thresholds", "scheme", "pfcwd",
            "shadow", "watermark");
    /** What {@code watermark} shows: ingress priority groups, egress queues, or both. */
    public static final List<String> WATERMARK_KINDS = List.of("pg", "queue");

    private static final int[] DROP_VERDICTS = {Verdict.DROP_LOSSY_THRESHOLD, Verdict.DROP_BUFFER_FULL,
            Verdict.DROP_LOSSLESS_VIOLATION, Verdict.DROP_EGRESS_LIMIT};

    private final CoreSnapshot s;
    private final List<String> names;
    private final SwitchMetrics.Driver driver;
    private final MmuConfig mmu;
    private final CounterClears clears;
    /** The ports whose rows are shown, in port order. */
    private final int[] shown;
    /** The counters and driver counts of the view being rendered (relative to its family's last clear). */
    private SwitchCounters c;
    private SwitchMetrics.Driver d;
    private String view;
    private List<String> watermarkKinds = WATERMARK_KINDS;

    /** Every port, every counter since start. */
    public StatusViews(CoreSnapshot snapshot, List<String> portNames, SwitchMetrics.Driver driver, MmuConfig mmu) {
        this(snapshot, portNames, driver, mmu, null, null);
    }

    /**
     * @param clears what operators cleared (null: nothing ever was)
     * @param ports  the ports to show (null: every one), as {@link #portFilter} reads them
     */
    public StatusViews(CoreSnapshot snapshot, List<String> portNames, SwitchMetrics.Driver driver, MmuConfig mmu,
                       CounterClears clears, int[] ports) {
        this.s = snapshot;
        this.names = portNames;
        this.driver = driver;
        this.mmu = mmu;
        this.clears = clears;
        this.shown = ports != null ? ports : java.util.stream.IntStream.range(0, snapshot.ports).toArray();
    }

    /**
     * The ports {@code list} names ("h0,h2"), in port order.
     *
     * @throws IllegalArgumentException a name that is no port, with the ports there are
     */
    public static int[] portFilter(String list, List<String> portNames) {
        java.util.BitSet chosen = new java.util.BitSet();
        for (String name : list.split(",", -1)) {
            int p = portNames.indexOf(name.trim());
            if (p < 0) {
                throw new IllegalArgumentException("no port '" + name.trim() + "' (ports: " + String.join(", ", portNames) + ")");
            }
            chosen.set(p);
        }
        return chosen.stream().toArray();
    }

    /** Restricts the watermark view to {@code kind} ({@link #WATERMARK_KINDS}). */
    public StatusViews watermarkKind(String kind) {
        if (!WATERMARK_KINDS.contains(kind)) {
            throw new IllegalArgumentException("no watermark '" + kind + "' (allowed: " + String.join(", ", WATERMARK_KINDS) + ")");
        }
        this.watermarkKinds = List.of(kind);
        return this;
    }

    private void select(String view) {
        this.view = view;
        this.c = clears == null ? s.counters : clears.counters(view, s);
        this.d = clears == null || !view.equals("ports") ? driver : clears.driverSinceClear(driver);
    }

    /** When the view's counters were last cleared, in milliseconds since the epoch (0: never, or a view no clear resets). */
    private long clearedAt() {
        CounterClears.Family f = CounterClears.Family.ofView(view);
        return clears == null || f == null ? 0 : clears.clearedAtMillis(f);
    }

    private long pausedNanos(int k) {
        return clears == null ? s.egressPausedNanos[k] : clears.pausedNanos(s, k);
    }

    private long losslessDrops(int port) {
        long n = 0;
        for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
            n += c.losslessDrops[port * CoreSnapshot.PRIORITIES + q];
        }
        return n;
    }

    public String json(String view) {
        select(view);
        JsonOutput j = new JsonOutput().beginObject().field("view", view).field("scheme", s.scheme)
                .field("core_nanos", s.nanos);
        if (CounterClears.Family.ofView(view) != null) {
            long at = clearedAt();
            j.field("since", at == 0 ? "start" : java.time.Instant.ofEpochMilli(at).toString());
        }
        switch (view) {
            case "ports" -> portsJson(j);
            case "queues" -> queuesJson(j, false);
            case "thresholds" -> queuesJson(j, true);
            case "buffer" -> bufferJson(j);
            case "pfc" -> pfcJson(j);
            case "scheme" -> schemeJson(j);
            case "pfcwd" -> new PfcwdView(s, names, c, shown).json(j);
            case "deadlock" -> new DeadlockView(s, names).json(j);
            case "shadow" -> shadowJson(j);
            case "watermark" -> watermarkJson(j);
            default -> throw new IllegalArgumentException("unknown view '" + view + "' (views: " + String.join(", ", VIEWS) + ")");
        }
        return j.endObject().toString();
    }

    public String text(String view) {
        select(view);
        String table = switch (view) {
            case "ports" -> portsText();
            case "queues" -> queuesText(false);
            case "thresholds" -> queuesText(true);
            case "buffer" -> bufferText();
            case "pfc" -> pfcText();
            case "scheme" -> schemeText();
            case "pfcwd" -> new PfcwdView(s, names, c, shown).text();
            case "deadlock" -> new DeadlockView(s, names).text();
            case "shadow" -> shadowText();
            case "watermark" -> watermarkText();
            default -> throw new IllegalArgumentException("unknown view '" + view + "' (views: " + String.join(", ", VIEWS) + ")");
        };
        CounterClears.Family f = CounterClears.Family.ofView(view);
        return f == null || f == CounterClears.Family.WATERMARKS ? table
                : "counters " + CounterClears.sinceText(clearedAt()) + "\n" + table;
    }

    // ------------------------------------------------------------------ watermarks

    /** Since clear: the worker's maxima since its last reset; since start: {@link CounterClears}'s. */
    private long watermark(boolean pg, boolean sinceStart, int k) {
        long sinceClear = pg ? c.maxIngressBytes[k] : c.maxQueueBytes[k];
        if (!sinceStart || clears == null) {
            return sinceClear;
        }
        return Math.max(sinceClear, pg ? clears.pgWatermarkSinceStart(k) : clears.queueWatermarkSinceStart(k));
    }

    /**
     * {@code {"since": ..., "priority_groups": [{port, since_clear_bytes: [8], since_start_bytes: [8]}],
     * "queues": [...]}}: the most bytes each ingress (port, priority) and egress (port, queue) held.
     */
    private void watermarkJson(JsonOutput j) {
        for (String kind : watermarkKinds) {
            boolean pg = kind.equals("pg");
            j.beginArray(pg ? "priority_groups" : "queues");
            for (int p : shown) {
                j.beginObject().field("port", names.get(p));
                for (boolean sinceStart : new boolean[] {false, true}) {
                    j.name(sinceStart ? "since_start_bytes" : "since_clear_bytes").beginArray();
                    for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                        j.value(watermark(pg, sinceStart, p * CoreSnapshot.PRIORITIES + q));
                    }
                    j.endArray();
                }
                j.endObject();
            }
            j.endArray();
        }
    }

    private String watermarkText() {
        StringBuilder out = new StringBuilder();
        String since = CounterClears.sinceText(clearedAt());
        for (String kind : watermarkKinds) {
            boolean pg = kind.equals("pg");
            for (boolean sinceStart : new boolean[] {false, true}) {
                String what = pg ? "Ingress priority group watermark (bytes held)" : "Egress queue watermark (bytes queued)";
                out.append(what).append(sinceStart ? ", persistent (since start)" : ", " + since).append('\n');
                String[] header = new String[1 + CoreSnapshot.PRIORITIES];
                header[0] = "PORT";
                for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                    header[1 + q] = (pg ? "PG" : "UC") + q;
                }
                TextTable t = new TextTable(header);
                for (int p : shown) {
                    Object[] row = new Object[header.length];
                    row[0] = names.get(p);
                    for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                        row[1 + q] = watermark(pg, sinceStart, p * CoreSnapshot.PRIORITIES + q);
                    }
                    t.row(row);
                }
                out.append(t).append("\n\n");
            }
        }
        return out.toString().stripTrailing();
    }

    // ------------------------------------------------------------------ per-port sums

    private long sum(long[] perKey, int port) {
        long v = 0;
        for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
            v += perKey[port * CoreSnapshot.PRIORITIES + q];
        }
        return v;
    }

    private long drops(int port, int priority) {
        long v = 0;
        for (int verdict : DROP_VERDICTS) {
            v += c.drops(port, priority, verdict);
        }
        return v;
    }

    private long portDrops(int port) {
        long v = 0;
        for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
            v += drops(port, q);
        }
        return v;
    }

    private long malformed(int port) {
        return c.malformed(port);
    }

    // ------------------------------------------------------------------ JSON

    private void portsJson(JsonOutput j) {
        j.beginArray("ports");
        for (int p : shown) {
            j.beginObject().field("port", names.get(p)).field("rx_frames", sum(c.rxFrames, p)).field("rx_bytes", sum(c.rxBytes, p))
                    .field("tx_frames", sum(c.txFrames, p)).field("tx_bytes", sum(c.txBytes, p))
                    .field("drops", portDrops(p)).field("tx_refused", d.txRefused(p))
                    .field("rx_missed", d.rxMissed(p))
                    .field("pfc_frames_sent", c.pfcFramesTx[p]).field("pfc_frames_received", c.pfcFramesRx[p])
                    .field("pause_frames_received", c.pauseFramesRx[p]).field("malformed", malformed(p))
                    .field("flooded", c.flooded[p]).field("filtered", c.filtered[p])
                    .field("mac_moves", c.macMoves[p]).field("mac_moves_denied", c.macMovesDenied[p])
                    .field("mac_learn_limit", c.macOverLimit[p])
                    .field("lossless_drops", losslessDrops(p)).field("sender_obeys_pfc", !s.senderIgnoresPfc[p]);
            j.beginObject("parse_errors");
            for (ParseError e : ParseError.values()) {
                if (e != ParseError.NONE && c.parseErrors(p, e) > 0) {
                    j.field(e.label(), c.parseErrors(p, e));
                }
            }
            j.endObject().endObject();
        }
        j.endArray();
    }

    private void queuesJson(JsonOutput j, boolean losslessOnly) {
        j.beginArray("queues");
        for (int p : shown) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                if (losslessOnly && !s.isLossless(q)) {
                    continue;
                }
                int k = p * CoreSnapshot.PRIORITIES + q;
                j.beginObject().field("port", names.get(p)).field("priority", q).field("lossless", s.isLossless(q))
                        .field("ingress_bytes", s.ingressBytes[k]).field("headroom_bytes", s.ingressHeadroomBytes[k])
                        .field("xoff_threshold_bytes", s.xoffThresholdBytes[k]).field("xoff", s.xoffAdvertised[k]);
                if (!losslessOnly) {
                    j.field("egress_bytes", s.egressBytes[k]).field("egress_paused", s.egressPaused[k])
                            .field("paused_seconds", s.egressPausedNanos[k] / 1e9, 6)
                            .field("rx_frames", c.rxFrames[k]).field("tx_frames", c.txFrames[k])
                            .field("ecn_marked", c.ecnMarked[k]);
                    j.beginObject("drops");
                    for (int verdict : DROP_VERDICTS) {
                        j.field(Verdict.name(verdict), c.drops(p, q, verdict));
                    }
                    j.endObject();
                }
                j.endObject();
            }
        }
        j.endArray();
    }

    private void bufferJson(JsonOutput j) {
        j.field("size_bytes", s.bufferBytes).beginObject("used_bytes").field("private", s.privateUsed)
                .field("shared_lossless", s.sharedLosslessUsed).field("shared_lossy", s.sharedLossyUsed)
                .field("headroom", s.headroomUsed).field("total", s.totalUsed).endObject()
                .field("max_used_bytes", s.maxBufferBytes).field("lossless_violations", s.losslessViolations)
                .field("lossless_violations_obeying", s.losslessViolationsObeying)
                .field("lossless_violations_ignoring", s.losslessViolationsIgnoring);
    }

    private void pfcJson(JsonOutput j) {
        j.beginArray("ports");
        for (int p : shown) {
            j.beginObject().field("port", names.get(p));
            array(j, "pause_sent", c.pfcXoffTx, p);
            array(j, "resume_sent", c.pfcXonTx, p);
            array(j, "pause_received", c.pfcXoffRx, p);
            array(j, "resume_received", c.pfcXonRx, p);
            j.name("paused_seconds").beginArray();
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                j.value(pausedNanos(p * CoreSnapshot.PRIORITIES + q) / 1e9, 6);
            }
            j.endArray().field("pause_frames_received", c.pauseFramesRx[p]).endObject();
        }
        j.endArray();
    }

    private static void array(JsonOutput j, String name, long[] perKey, int port) {
        j.name(name).beginArray();
        for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
            j.value(perKey[port * CoreSnapshot.PRIORITIES + q]);
        }
        j.endArray();
    }

    private void schemeJson(JsonOutput j) {
        j.beginArray("parameters");
        for (ParameterDoc d : parameters()) {
            j.beginObject().field("name", d.name()).field("value", d.value()).field("default", d.defaultValue())
                    .field("source", d.source()).endObject();
        }
        j.endArray();
        j.beginObject("ecn").field("kmin_bytes", mmu.ecnKminBytes()).field("kmax_bytes", mmu.ecnKmaxBytes())
                .field("pmax", mmu.ecnPmax(), 4).endObject();
        j.beginArray("headroom");
        for (int p : shown) {
            j.beginObject().field("port", names.get(p)).field("bytes", mmu.headroomBytes(p))
                    .field("formula", mmu.headroomDescription(p)).endObject();
        }
        j.endArray();
        j.field("state_name", s.schemeStateName);
        j.beginArray("state");
        if (s.schemeStateName != null) {
            for (int p : shown) {
                for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                    if (s.isLossless(q)) {
                        j.beginObject().field("port", names.get(p)).field("priority", q)
                                .field(s.schemeStateName, s.schemeState[p * CoreSnapshot.PRIORITIES + q]).endObject();
                    }
                }
            }
        }
        j.endArray();
        j.beginArray("port_xoff");
        for (int p : shown) {
            if (s.portXoff[p]) {
                j.value(names.get(p));
            }
        }
        j.endArray();
        j.beginArray("paused_ingress_queues");
        for (int p : shown) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                if (s.xoffAdvertised[p * CoreSnapshot.PRIORITIES + q]) {
                    j.value(names.get(p) + "/" + q);
                }
            }
        }
        j.endArray();
    }

    // ------------------------------------------------------------------ shadow schemes

    /** The active scheme's counters, then each shadow's (the active's are since its last scheme change). */
    private List<SchemeCounters> schemesSideBySide() {
        List<SchemeCounters> all = new ArrayList<>();
        all.add(s.active);
        for (int i = 0; i < s.shadowCount; i++) {
            all.add(s.shadows[i]);
        }
        return all;
    }

    /**
     * {@code {"enabled", "schemes": [{scheme, role (active|shadow), xoffs, xons, drops: {reason: n}, lossless_drops,
     * admitted, buffer_bytes, max_buffer_bytes, xoffs_by_queue: [{port, priority, xoffs}] (lossless queues)}]}}.
     */
    private void shadowJson(JsonOutput j) {
        j.field("enabled", s.shadowCount > 0).beginArray("schemes");
        List<SchemeCounters> all = schemesSideBySide();
        for (int i = 0; i < all.size(); i++) {
            SchemeCounters c = all.get(i);
            j.beginObject().field("scheme", c.scheme).field("role", i == 0 ? "active" : "shadow")
                    .field("xoffs", c.xoffTotal).field("xons", c.xonTotal);
            j.beginObject("drops");
            for (int verdict : DROP_VERDICTS) {
                j.field(Verdict.name(verdict), c.drops(verdict));
            }
            j.endObject().field("lossless_drops", c.losslessDrops).field("admitted", c.admitted)
                    .field("buffer_bytes", c.bufferBytes).field("max_buffer_bytes", c.maxBufferBytes);
            j.beginArray("xoffs_by_queue");
            for (int p : shown) {
                for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                    if (s.isLossless(q)) {
                        j.beginObject().field("port", names.get(p)).field("priority", q).field("xoffs", c.xoff(p, q)).endObject();
                    }
                }
            }
            j.endArray().endObject();
        }
        j.endArray();
    }

    private String shadowText() {
        if (s.shadowCount == 0) {
            return "shadow schemes: none (start the switch with run --shadow dsh,spfc)";
        }
        List<SchemeCounters> all = schemesSideBySide();
        TextTable t = new TextTable("SCHEME", "ROLE", "XOFFS", "XONS", "DROPS", "LOSSY_THRESHOLD", "BUFFER_FULL", "LOSSLESS_VIOLATION",
                "EGRESS_LIMIT", "MAX_BUFFER_B");
        for (int i = 0; i < all.size(); i++) {
            SchemeCounters c = all.get(i);
            t.row(c.scheme, i == 0 ? "active" : "shadow", c.xoffTotal, c.xonTotal, c.totalDrops(),
                    c.drops(Verdict.DROP_LOSSY_THRESHOLD), c.drops(Verdict.DROP_BUFFER_FULL),
                    c.drops(Verdict.DROP_LOSSLESS_VIOLATION), c.drops(Verdict.DROP_EGRESS_LIMIT), c.maxBufferBytes);
        }
        String[] header = new String[2 + all.size()];
        header[0] = "PORT";
        header[1] = "PRIO";
        for (int i = 0; i < all.size(); i++) {
            header[2 + i] = "XOFFS_" + all.get(i).scheme.toUpperCase(Locale.ROOT) + (i == 0 ? "(active)" : "");
        }
        TextTable byQueue = new TextTable(header);
        for (int p : shown) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                if (!s.isLossless(q)) {
                    continue;
                }
                Object[] row = new Object[header.length];
                row[0] = names.get(p);
                row[1] = q;
                for (int i = 0; i < all.size(); i++) {
                    row[2 + i] = all.get(i).xoff(p, q);
                }
                byQueue.row(row);
            }
        }
        return "shadow schemes: their XOFFs and drops are counted on the real arrivals and departures, never sent or made;"
                + " the active scheme's count since its last change\n" + t + "\n" + byQueue;
    }

    /** The running scheme's parameter table (from a private MMU of the same configuration: never the worker's). */
    private List<ParameterDoc> parameters() {
        return Mmu.create(mmu, FlowControlListener.NONE).scheme().parameters();
    }

    // ------------------------------------------------------------------ text

    private String portsText() {
        TextTable t = new TextTable("PORT", "RX_FRAMES", "RX_BYTES", "TX_FRAMES", "TX_BYTES", "DROPS", "TX_REFUSED", "PFC_TX", "PFC_RX",
                "PAUSE_RX", "MALFORMED", "MAC_MOVES", "MOVES_DENIED", "LOSSLESS_DROPS", "SENDER");
        for (int p : shown) {
            t.row(names.get(p), sum(c.rxFrames, p), sum(c.rxBytes, p), sum(c.txFrames, p), sum(c.txBytes, p), portDrops(p),
                    d.txRefused(p), c.pfcFramesTx[p], c.pfcFramesRx[p], c.pauseFramesRx[p], malformed(p),
                    c.macMoves[p], c.macMovesDenied[p], losslessDrops(p), s.senderIgnoresPfc[p] ? "ignores-pfc" : "obeys-pfc");
        }
        return t.toString();
    }

    private String queuesText(boolean losslessOnly) {
        TextTable t = losslessOnly
                ? new TextTable("PORT", "PRIO", "INGRESS_B", "HEADROOM_B", "XOFF_THRESHOLD_B", "STATE")
                : new TextTable("PORT", "PRIO", "CLASS", "INGRESS_B", "HEADROOM_B", "EGRESS_B", "XOFF_THRESHOLD_B", "STATE",
                        "EGRESS", "RX", "TX", "DROPS", "ECN");
        for (int p : shown) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                int k = p * CoreSnapshot.PRIORITIES + q;
                if (losslessOnly && !s.isLossless(q)) {
                    continue;
                }
                String state = s.xoffAdvertised[k] ? "XOFF" : "XON";
                if (losslessOnly) {
                    t.row(names.get(p), q, s.ingressBytes[k], s.ingressHeadroomBytes[k], s.xoffThresholdBytes[k], state);
                } else {
                    t.row(names.get(p), q, s.isLossless(q) ? "lossless" : "lossy", s.ingressBytes[k], s.ingressHeadroomBytes[k],
                            s.egressBytes[k], s.xoffThresholdBytes[k], s.isLossless(q) ? state : "-",
                            s.egressPaused[k] ? "paused" : "-", c.rxFrames[k], c.txFrames[k], drops(p, q), c.ecnMarked[k]);
                }
            }
        }
        return t.toString();
    }

    private String bufferText() {
        TextTable t = new TextTable("VIEW", "BYTES");
        t.row("size", s.bufferBytes);
        t.row("private", s.privateUsed);
        t.row("shared_lossless", s.sharedLosslessUsed);
        t.row("shared_lossy", s.sharedLossyUsed);
        t.row("headroom", s.headroomUsed);
        t.row("total", s.totalUsed);
        t.row("max_used", s.maxBufferBytes);
        return "scheme " + s.scheme + ", lossless violations " + s.losslessViolations + " (since start: "
                + s.losslessViolationsObeying + " from senders that obey PFC, " + s.losslessViolationsIgnoring
                + " from senders that ignore it)\n" + t;
    }

    private String pfcText() {
        StringBuilder out = new StringBuilder();
        String[] titles = {"Port Rx (PFC pause frames received per priority)", "Port Tx (PFC pause frames sent per priority)"};
        long[][] counters = {c.pfcXoffRx, c.pfcXoffTx};
        for (int d = 0; d < 2; d++) {
            TextTable t = new TextTable("PORT", "PFC0", "PFC1", "PFC2", "PFC3", "PFC4", "PFC5", "PFC6", "PFC7");
            for (int p : shown) {
                Object[] row = new Object[9];
                row[0] = names.get(p);
                for (int q = 0; q < 8; q++) {
                    row[q + 1] = counters[d][p * 8 + q];
                }
                t.row(row);
            }
            out.append(titles[d]).append('\n').append(t).append('\n');
        }
        TextTable paused = new TextTable("PORT", "PAUSED_S0", "PAUSED_S1", "PAUSED_S2", "PAUSED_S3", "PAUSED_S4", "PAUSED_S5",
                "PAUSED_S6", "PAUSED_S7", "PAUSE_RX");
        for (int p : shown) {
            Object[] row = new Object[10];
            row[0] = names.get(p);
            for (int q = 0; q < 8; q++) {
                row[q + 1] = String.format(Locale.ROOT, "%.6f", pausedNanos(p * 8 + q) / 1e9);
            }
            row[9] = c.pauseFramesRx[p];
            paused.row(row);
        }
        return out.append("Egress time paused by the neighbour (seconds)\n").append(paused).toString();
    }

    private String schemeText() {
        StringBuilder out = new StringBuilder("scheme ").append(s.scheme).append('\n');
        TextTable t = new TextTable("PARAMETER", "VALUE", "DEFAULT", "SOURCE");
        for (ParameterDoc d : parameters()) {
            t.row(d.name(), d.value(), d.defaultValue(), d.source());
        }
        out.append(t).append('\n');
        out.append("ecn: kmin ").append(mmu.ecnKminBytes() > 0 ? mmu.ecnKminBytes() + " B" : "per port speed (DCQCN default)")
                .append(", kmax ").append(mmu.ecnKmaxBytes() > 0 ? mmu.ecnKmaxBytes() + " B" : "per port speed (DCQCN default)")
                .append(", pmax ").append(mmu.ecnPmax()).append('\n');
        for (int p : shown) {
            out.append("headroom ").append(names.get(p)).append(": ").append(mmu.headroomDescription(p)).append('\n');
        }
        List<String> paused = new ArrayList<>();
        for (int p : shown) {
            for (int q = 0; q < 8; q++) {
                if (s.xoffAdvertised[p * 8 + q]) {
                    paused.add(names.get(p) + "/" + q);
                }
            }
        }
        if (s.schemeStateName != null) {
            TextTable state = new TextTable("PORT", "PRIO", s.schemeStateName.toUpperCase(Locale.ROOT));
            for (int p : shown) {
                for (int q = 0; q < 8; q++) {
                    if (s.isLossless(q)) {
                        state.row(names.get(p), q, s.schemeState[p * 8 + q]);
                    }
                }
            }
            out.append(state).append('\n');
        }
        List<String> portPaused = new ArrayList<>();
        for (int p : shown) {
            if (s.portXoff[p]) {
                portPaused.add(names.get(p));
            }
        }
        out.append("ports paused as a whole (port-level XOFF, dsh): ").append(portPaused.isEmpty() ? "none" : String.join(" ", portPaused))
                .append('\n');
        out.append("ingress queues paused now (XOFF advertised): ").append(paused.isEmpty() ? "none" : String.join(" ", paused));
        return out.toString();
    }
}

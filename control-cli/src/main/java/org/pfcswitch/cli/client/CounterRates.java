package org.pfcswitch.cli.client;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pfcswitch.control.TextTable;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * Per-second rates of a view's counters beside their totals ({@code show ports|queues|pfc --watch}
 * or {@code --rates}; after SONiC's {@code show interfaces counters rates}), from two of the switch's
 * JSON answers: the interval is the switch's own clock ({@code core_nanos}, the instant its worker
 * copied the counters), never the client's, so a slow answer does not skew a rate. Without an
 * earlier answer, or where a counter went back (a clear between the two), a rate is "n/a".
 */
public final class CounterRates {

    /** The views that have rates, and their counters. */
    private static final Map<String, List<String>> COUNTERS = Map.of(
            "ports", List.of("rx_frames", "rx_bytes", "tx_frames", "tx_bytes", "drops", "pfc_frames_sent", "pfc_frames_received"),
            "queues", List.of("rx_frames", "tx_frames", "drops", "ecn_marked"),
            "pfc", List.of("pause_sent", "pause_received", "paused_seconds"));

    /**
     * Column headings that differ from the upper-cased JSON key, so that a rate table names a
     * counter as the view's own table does ({@code show ports}: PFC_TX, {@code show queues}: RX, TX, ECN).
     */
    private static final Map<String, Map<String, String>> HEADINGS = Map.of(
            "ports", Map.of("pfc_frames_sent", "PFC_TX", "pfc_frames_received", "PFC_RX"),
            "queues", Map.of("rx_frames", "RX", "tx_frames", "TX", "ecn_marked", "ECN"),
            "pfc", Map.of());

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);

    public static boolean hasRates(String view) {
        return COUNTERS.containsKey(view);
    }

    private final String view;
    private final List<String> counters;
    private final JsonNode answer;
    /** Row key (port, or port and priority) to its counters, in the answer's order. */
    private final Map<List<String>, double[]> totals;
    /** Per second, NaN where there is none; null for the first answer. */
    private final Map<List<String>, double[]> rates;
    private final double intervalSeconds;

    /**
     * @param previous the answer before {@code answer} for the same view, or null
     * @throws IllegalArgumentException a view without rates
     */
    public CounterRates(String view, JsonNode previous, JsonNode answer) {
        if (!hasRates(view)) {
            throw new IllegalArgumentException("the " + view + " view has no rates (views with rates: "
                    + String.join(", ", COUNTERS.keySet().stream().sorted().toList()) + ")");
        }
        this.view = view;
        this.counters = COUNTERS.get(view);
        this.answer = answer;
        this.totals = rows(answer);
        double dt = previous == null ? 0 : (answer.path("core_nanos").asLong() - previous.path("core_nanos").asLong()) / 1e9;
        this.intervalSeconds = dt;
        if (dt <= 0) {
            this.rates = null;
            return;
        }
        Map<List<String>, double[]> before = rows(previous);
        this.rates = new LinkedHashMap<>();
        totals.forEach((key, now) -> {
            double[] then = before.get(key);
            double[] r = new double[now.length];
            for (int i = 0; i < r.length; i++) {
                double delta = then == null ? Double.NaN : now[i] - then[i];
                r[i] = delta >= 0 ? delta / dt : Double.NaN;
            }
            rates.put(key, r);
        });
    }

    /** Each row's counters: a port's (ports), a (port, priority)'s (queues, and pfc's arrays by priority). */
    private Map<List<String>, double[]> rows(JsonNode a) {
        Map<List<String>, double[]> out = new LinkedHashMap<>();
        if (view.equals("pfc")) {
            for (JsonNode port : a.path("ports")) {
                for (int q = 0; q < 8; q++) {
                    double[] v = new double[counters.size()];
                    for (int i = 0; i < v.length; i++) {
                        v[i] = port.path(counters.get(i)).path(q).asDouble();
                    }
                    out.put(List.of(port.path("port").asText(), Integer.toString(q)), v);
                }
            }
            return out;
        }
        for (JsonNode row : a.path(view)) {
            double[] v = new double[counters.size()];
            for (int i = 0; i < v.length; i++) {
                JsonNode n = row.path(counters.get(i));
                v[i] = n.isObject() ? sum(n) : n.asDouble();       // queues' drops come by reason
            }
            out.put(view.equals("ports") ? List.of(row.path("port").asText())
                    : List.of(row.path("port").asText(), row.path("priority").asText()), v);
        }
        return out;
    }

    private static double sum(JsonNode byReason) {
        double s = 0;
        for (JsonNode n : byReason) {
            s += n.asDouble();
        }
        return s;
    }

    /**
     * The answer with the rates added: {@code FIELD_per_s} beside each counter (pfc: an array by
     * priority), null where there is none, and {@code rate_interval_seconds} (null the first time).
     */
    public String json() {
        ObjectNode out = answer.deepCopy();
        if (rates == null) {
            out.putNull("rate_interval_seconds");
        } else {
            out.put("rate_interval_seconds", intervalSeconds);
        }
        if (view.equals("pfc")) {
            for (JsonNode port : out.path("ports")) {
                for (int i = 0; i < counters.size(); i++) {
                    ArrayNode perPriority = ((ObjectNode) port).putArray(counters.get(i) + "_per_s");
                    for (int q = 0; q < 8; q++) {
                        put(perPriority, rate(List.of(port.path("port").asText(), Integer.toString(q)), i));
                    }
                }
            }
        } else {
            for (JsonNode row : out.path(view)) {
                List<String> key = view.equals("ports") ? List.of(row.path("port").asText())
                        : List.of(row.path("port").asText(), row.path("priority").asText());
                for (int i = 0; i < counters.size(); i++) {
                    double r = rate(key, i);
                    if (Double.isNaN(r)) {
                        ((ObjectNode) row).putNull(counters.get(i) + "_per_s");
                    } else {
                        ((ObjectNode) row).put(counters.get(i) + "_per_s", r);
                    }
                }
            }
        }
        return out.toString();
    }

    private static void put(ArrayNode a, double v) {
        if (Double.isNaN(v)) {
            a.addNull();
        } else {
            a.add(v);
        }
    }

    /** The rate of counter {@code i} of row {@code key}, NaN if there is none. */
    public double rate(List<String> key, int i) {
        double[] r = rates == null ? null : rates.get(key);
        return r == null ? Double.NaN : r[i];
    }

    /** A table of every row: its key, then each counter's total and its rate per second. */
    public String text() {
        List<String> header = new ArrayList<>(view.equals("ports") ? List.of("PORT") : List.of("PORT", "PRIO"));
        int keys = header.size();
        for (String c : counters) {
            String name = HEADINGS.get(view).getOrDefault(c, c.toUpperCase(Locale.ROOT));
            header.add(name);
            header.add(name + "/S");
        }
        TextTable t = new TextTable(header.toArray(String[]::new));
        totals.forEach((key, v) -> {
            Object[] row = new Object[header.size()];
            for (int i = 0; i < keys; i++) {
                row[i] = key.get(i);
            }
            for (int i = 0; i < v.length; i++) {
                boolean seconds = counters.get(i).endsWith("_seconds");
                row[keys + 2 * i] = seconds ? String.format(Locale.ROOT, "%.6f", v[i]) : Long.toString((long) v[i]);
                double r = rate(key, i);
                row[keys + 2 * i + 1] = Double.isNaN(r) ? "n/a" : String.format(Locale.ROOT, seconds ? "%.3f" : "%.1f", r);
            }
            t.row(row);
        });
        String interval = rates == null ? "rates n/a until the next snapshot"
                : String.format(Locale.ROOT, "rates per second over the last %.3f s (the switch's clock)", intervalSeconds);
        return "counters " + since(answer) + "; " + interval + "\n" + t;
    }

    /** "since start" or "since clear at 17:02:11" (this host's local time), from an answer's {@code since}. */
    static String since(JsonNode answer) {
        String since = answer.path("since").asText("start");
        if (since.equals("start")) {
            return "since start";
        }
        try {
            return "since clear at " + CLOCK.format(Instant.parse(since).atZone(ZoneId.systemDefault()));
        } catch (java.time.format.DateTimeParseException e) {
            return "since " + since;
        }
    }
}

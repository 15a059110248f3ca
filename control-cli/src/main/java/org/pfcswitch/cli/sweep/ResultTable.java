package org.pfcswitch.cli.sweep;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pfcswitch.control.json.JsonOutput;

/**
 * The results of a whole grid: one {@link Row} per run, in run order, and a summary over seeds per
 * (point, scheme): the mean and the 95 % confidence interval (Student t) of every number. A local
 * run and the merge of its shards build the same table from the same rows, so they write the same
 * bytes (but for the machine's columns, {@link Row#MACHINE}).
 */
public final class ResultTable {

    /** What a file holds: the rows or the summary, as CSV or JSON (by the file's extension). */
    public enum Content { ROWS, SUMMARY }

    private final String fingerprint;
    private final List<String> keys;
    private final List<Row> rows;
    private final List<String> columns;

    public ResultTable(String fingerprint, List<String> keys, List<Row> rows) {
        this.fingerprint = fingerprint;
        this.keys = List.copyOf(keys);
        this.rows = rows.stream().sorted(Comparator.comparingInt(Row::run)).toList();
        LinkedHashSet<String> cols = new LinkedHashSet<>(keys);
        cols.add(Row.SCHEME);
        cols.add(Row.SEED);
        for (Row r : this.rows) {
            cols.addAll(r.cells().keySet());
        }
        cols.removeAll(Row.MACHINE);
        cols.addAll(Row.MACHINE);    // always last, so tools can cut them off
        this.columns = List.copyOf(cols);
    }

    public List<Row> rows() {
        return rows;
    }

    public List<String> columns() {
        return columns;
    }

    // ------------------------------------------------------------------ rows

    public String csv() {
        StringBuilder sb = new StringBuilder();
        csvLine(sb, columns);
        for (Row r : rows) {
            csvLine(sb, columns.stream().map(r::get).toList());
        }
        return sb.toString();
    }

    /** {@code {"grid": FINGERPRINT, "keys": [...], "columns": [...], "rows": [{...}], "summary": [{...}]}}. */
    public String json() {
        JsonOutput j = new JsonOutput().beginObject().field("grid", fingerprint);
        stringArray(j, "keys", keys);
        stringArray(j, "columns", columns);
        j.beginArray("rows");
        for (Row r : rows) {
            cellsObject(j, columns, r.cells());
        }
        j.endArray();
        summaryArray(j);
        return j.endObject().toString();
    }

    // ------------------------------------------------------------------ summary

    /** The numbers a summary averages: every numeric column but the seed and the machine's (heap allocated, wall time). */
    private List<String> metrics() {
        return columns.stream().filter(c -> !Row.isText(c, keys) && !c.equals(Row.SEED) && !Row.MACHINE.contains(c)).toList();
    }

    /** The summary's columns: the keys, scheme, seeds, then METRIC_mean and METRIC_ci95 for each metric. */
    public List<String> summaryColumns() {
        List<String> cols = new ArrayList<>(keys);
        cols.add(Row.SCHEME);
        cols.add("seeds");
        for (String m : metrics()) {
            cols.add(m + "_mean");
            cols.add(m + "_ci95");
        }
        return cols;
    }

    /** One map per (point, scheme) in run order: summary column to text. */
    public List<Map<String, String>> summary() {
        Map<List<String>, List<Row>> groups = new LinkedHashMap<>();
        for (Row r : rows) {
            List<String> g = new ArrayList<>();
            for (String k : keys) {
                g.add(r.get(k));
            }
            g.add(r.get(Row.SCHEME));
            groups.computeIfAbsent(g, x -> new ArrayList<>()).add(r);
        }
        List<String> metrics = metrics();
        List<Map<String, String>> out = new ArrayList<>();
        for (Map.Entry<List<String>, List<Row>> e : groups.entrySet()) {
            Map<String, String> s = new LinkedHashMap<>();
            for (int k = 0; k < keys.size(); k++) {
                s.put(keys.get(k), e.getKey().get(k));
            }
            s.put(Row.SCHEME, e.getKey().getLast());
            s.put("seeds", Integer.toString(e.getValue().size()));
            for (String m : metrics) {
                double[] v = new double[e.getValue().size()];
                int n = 0;
                double sum = 0;
                for (Row r : e.getValue()) {
                    String text = r.get(m);
                    if (!text.isEmpty()) {
                        v[n] = Double.parseDouble(text);
                        sum += v[n++];
                    }
                }
                double mean = n == 0 ? Double.NaN : sum / n;
                s.put(m + "_mean", number(mean));
                s.put(m + "_ci95", number(StudentT.halfWidth95(v, n, mean)));
            }
            out.add(s);
        }
        return out;
    }

    public String summaryCsv() {
        List<String> cols = summaryColumns();
        StringBuilder sb = new StringBuilder();
        csvLine(sb, cols);
        for (Map<String, String> s : summary()) {
            csvLine(sb, cols.stream().map(c -> s.getOrDefault(c, "")).toList());
        }
        return sb.toString();
    }

    /** {@code {"grid": FINGERPRINT, "keys": [...], "summary": [{...}]}}. */
    public String summaryJson() {
        JsonOutput j = new JsonOutput().beginObject().field("grid", fingerprint);
        stringArray(j, "keys", keys);
        summaryArray(j);
        return j.endObject().toString();
    }

    private void summaryArray(JsonOutput j) {
        List<String> cols = summaryColumns();
        j.beginArray("summary");
        for (Map<String, String> s : summary()) {
            cellsObject(j, cols, s);
        }
        j.endArray();
    }

    /** The few figures a reader looks at first, mean +- 95 % CI per (point, scheme), aligned for a terminal. */
    public void printSummary(PrintWriter out) {
        String[][] shown = {{"pfc_pauses", "PFC pauses", "1", "%.1f"}, {"xoffs", "XOFFs", "1", "%.1f"},
                {"pause_time_ns", "pause time us", "1e3", "%.1f"}, {"fct_p50_ns", "FCT p50 us", "1e3", "%.1f"},
                {"fct_p99_ns", "FCT p99 us", "1e3", "%.1f"}, {"max_buffer_bytes", "max buffer MB", "1e6", "%.2f"},
                {"drops", "drops", "1", "%.1f"}, {"lossless_violations", "lossless viol.", "1", "%.1f"}};
        List<String> header = new ArrayList<>(keys);
        header.add(Row.SCHEME);
        header.add("seeds");
        for (String[] s : shown) {
            header.add(s[1]);
        }
        List<List<String>> lines = new ArrayList<>();
        for (Map<String, String> s : summary()) {
            List<String> line = new ArrayList<>();
            for (String k : keys) {
                line.add(s.get(k));
            }
            line.add(s.get(Row.SCHEME));
            line.add(s.get("seeds"));
            for (String[] m : shown) {
                String mean = s.getOrDefault(m[0] + "_mean", "");
                String ci = s.getOrDefault(m[0] + "_ci95", "");
                double scale = Double.parseDouble(m[2]);
                String cell = mean.isEmpty() ? "-" : String.format(Locale.ROOT, m[3], Double.parseDouble(mean) / scale);
                if (!ci.isEmpty()) {
                    cell += " +- " + String.format(Locale.ROOT, m[3], Double.parseDouble(ci) / scale);
                }
                line.add(cell);
            }
            lines.add(line);
        }
        int[] w = new int[header.size()];
        for (int i = 0; i < w.length; i++) {
            w[i] = header.get(i).length();
            for (List<String> l : lines) {
                w[i] = Math.max(w[i], l.get(i).length());
            }
        }
        StringBuilder sb = new StringBuilder();
        aligned(sb, header, w);
        for (int i = 0; i < w.length; i++) {
            sb.append(i == 0 ? "" : "  ").append("-".repeat(w[i]));
        }
        sb.append('\n');
        lines.forEach(l -> aligned(sb, l, w));
        out.print(sb);
        out.println("mean +- half-width of the 95 % confidence interval (Student t) over the seeds; "
                + rows.size() + " runs, grid " + fingerprint);
    }

    // ------------------------------------------------------------------ files

    /**
     * Writes the rows or the summary to {@code file}: CSV for {@code .csv}, JSON for {@code .json};
     * through a temporary file renamed into place, so a file of that name is always complete.
     */
    public void write(Path file, Content content) throws IOException {
        String text = switch (format(file)) {
            case "csv" -> content == Content.ROWS ? csv() : summaryCsv();
            default -> (content == Content.ROWS ? json() : summaryJson()) + "\n";
        };
        writeAtomically(file, text);
    }

    /** {@code csv} or {@code json} from the file name, or a one-line error. */
    public static String format(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".csv")) {
            return "csv";
        }
        if (name.endsWith(".json")) {
            return "json";
        }
        throw new IllegalArgumentException("'" + file + "': the file name must end in .csv or .json (that picks the format)");
    }

    /** Writes {@code text} to a temporary file next to {@code file} and renames it into place. */
    public static void writeAtomically(Path file, String text) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        Files.createDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + file.getFileName(), ".tmp");
        try {
            Files.writeString(tmp, text, StandardCharsets.UTF_8);
            Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** The lines of a CSV text this class wrote (quoted cells with "" inside them handled), each a list of cells. */
    public static List<List<String>> readCsv(String text) {
        List<List<String>> lines = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            List<String> cells = new ArrayList<>();
            StringBuilder cell = new StringBuilder();
            boolean quoted = false;
            for (int i = 0; i < line.length(); i++) {
                char c = line.charAt(i);
                if (quoted) {
                    if (c == '"' && i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else if (c == '"') {
                        quoted = false;
                    } else {
                        cell.append(c);
                    }
                } else if (c == '"') {
                    quoted = true;
                } else if (c == ',') {
                    cells.add(cell.toString());
                    cell.setLength(0);
                } else {
                    cell.append(c);
                }
            }
            cells.add(cell.toString());
            lines.add(cells);
        }
        return lines;
    }

    // ------------------------------------------------------------------ plumbing

    private void cellsObject(JsonOutput j, List<String> cols, Map<String, String> cells) {
        j.beginObject();
        for (String c : cols) {
            String v = cells.getOrDefault(c, "");
            if (Row.isText(c, keys)) {
                j.field(c, v);
            } else if (v.isEmpty()) {
                j.nullField(c);
            } else {
                j.name(c).rawNumber(v);
            }
        }
        j.endObject();
    }

    private static void stringArray(JsonOutput j, String name, List<String> values) {
        j.beginArray(name);
        values.forEach(j::value);
        j.endArray();
    }

    private static String number(double v) {
        return Double.isFinite(v) ? String.format(Locale.ROOT, "%.4f", v) : "";
    }

    private static void csvLine(StringBuilder sb, List<String> cells) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            if (i > 0) {
                sb.append(',');
            }
            if (c.indexOf(',') >= 0 || c.indexOf('"') >= 0 || c.indexOf('\n') >= 0) {
                sb.append('"').append(c.replace("\"", "\"\"")).append('"');
            } else {
                sb.append(c);
            }
        }
        sb.append('\n');
    }

    private static void aligned(StringBuilder sb, List<String> cells, int[] w) {
        for (int i = 0; i < cells.size(); i++) {
            String c = cells.get(i);
            sb.append(i == 0 ? "" : "  ");
            sb.append(i == 0 ? c + " ".repeat(w[i] - c.length()) : " ".repeat(w[i] - c.length()) + c);
        }
        sb.append('\n');
    }
}

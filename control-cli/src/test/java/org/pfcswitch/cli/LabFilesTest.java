package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The files a lab uses beside the switch: the Prometheus scrape config and the Grafana
 * dashboard's PromQL, both checked by the real promtool (Debian's prometheus package, installed by
 * scripts/ensure-deps.sh; no Prometheus server is started or needed), and the dashboard's metric
 * names and labels against what the switch exports ({@link ExportedMetrics}, a real scrape) and
 * the list in testbed-configs/grafana/README.md.
 */
class LabFilesTest {
    static final Path CONFIGS = Path.of("..", "testbed-configs").toAbsolutePath().normalize();
    static final Path PROMETHEUS_YML = CONFIGS.resolve("prometheus.yml");
    static final Path DASHBOARD = CONFIGS.resolve("grafana").resolve("pfcswitch-dashboard.json");

    /** Every sample the switch exports, with its labels (Prometheus adds job and instance). */
    static final Map<String, Set<String>> METRICS = ExportedMetrics.SAMPLES;
    static final Set<String> TARGET_LABELS = Set.of("job", "instance");
    /** Labels whose values are a fixed list. */
    static final Map<String, Set<String>> LABEL_VALUES = Map.of(
            "view", Set.of("private", "shared_lossless", "shared_lossy", "headroom", "total"),
            "over", Set.of("100us", "1ms", "10ms", "100ms"));

    @TempDir
    Path dir;

    record Run(int exitCode, String output) {}

    /** Runs a command with stdout and stderr merged; fails the test if it does not end within 60 s. */
    static Run run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
        }
        return new Run(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    static String promtool() {
        for (String d : System.getenv().getOrDefault("PATH", "/usr/bin:/bin").split(":")) {
            if (Files.isExecutable(Path.of(d, "promtool"))) {
                return Path.of(d, "promtool").toString();
            }
        }
        throw new AssertionError("promtool is not installed; 'make test' installs it (Debian package prometheus, scripts/ensure-deps.sh)");
    }

    @Test
    void promtoolAcceptsThePrometheusConfig() throws Exception {
        Run r = run(List.of(promtool(), "check", "config", PROMETHEUS_YML.toString()));
        assertEquals(0, r.exitCode(), r.output());
        assertTrue(r.output().contains("SUCCESS"), r.output());
    }

    /** promtool really checks: the same file with a timeout longer than the interval is refused. */
    @Test
    void promtoolRefusesABrokenCopy() throws Exception {
        String text = Files.readString(PROMETHEUS_YML);
        assertTrue(text.contains("scrape_timeout: 900ms"), "the check below edits this line");
        Path bad = dir.resolve("prometheus.yml");
        Files.writeString(bad, text.replace("scrape_timeout: 900ms", "scrape_timeout: 5s"));
        Run r = run(List.of(promtool(), "check", "config", bad.toString()));
        assertEquals(1, r.exitCode(), r.output());
        assertTrue(r.output().contains("scrape timeout greater than scrape interval"), r.output());
    }

    @Test
    void theJobScrapesTheSwitchEverySecond() throws Exception {
        Map<?, ?> root = (Map<?, ?>) new Load(LoadSettings.builder().build()).loadFromString(Files.readString(PROMETHEUS_YML));
        List<?> jobs = (List<?>) root.get("scrape_configs");
        assertEquals(1, jobs.size(), "one job");
        Map<?, ?> job = (Map<?, ?>) jobs.get(0);
        assertEquals("pfcswitch", job.get("job_name"));
        assertEquals("/metrics", job.get("metrics_path"));
        assertEquals("1s", job.get("scrape_interval"));
        assertEquals("1s", ((Map<?, ?>) root.get("global")).get("scrape_interval"));
        List<?> statics = (List<?>) job.get("static_configs");
        assertEquals(List.of("127.0.0.1:9464"), ((Map<?, ?>) statics.get(0)).get("targets"));
        assertTrue(Files.readString(PROMETHEUS_YML).contains("PFC"), "the file says why 1 s (PFC bursts are short)");
    }

    @Test
    void theDashboardIsWellFormedJsonWithAQueryPerPanel() throws Exception {
        List<String> exprs = DashboardQueries.expressions(DASHBOARD);
        assertTrue(exprs.size() >= 8, "at least 8 expressions, found " + exprs.size() + ": " + exprs);
        Map<?, ?> root = (Map<?, ?>) DashboardQueries.parse(Files.readString(DASHBOARD));
        double schema = (Double) root.get("schemaVersion");
        assertTrue(schema >= 36 && schema <= 39, "schemaVersion ~38, got " + schema);
        Map<?, ?> input = (Map<?, ?>) ((List<?>) root.get("__inputs")).get(0);
        assertEquals("DS_PROMETHEUS", input.get("name"));
        assertEquals("prometheus", input.get("pluginId"));
        for (Object p : (List<?>) root.get("panels")) {
            Map<?, ?> panel = (Map<?, ?>) p;
            if ("row".equals(panel.get("type"))) {
                continue;
            }
            String title = (String) panel.get("title");
            assertEquals("${DS_PROMETHEUS}", ((Map<?, ?>) panel.get("datasource")).get("uid"), title);
            List<?> targets = (List<?>) panel.get("targets");
            assertTrue(targets != null && !targets.isEmpty(), title + ": a panel without a query");
            for (Object t : targets) {
                assertEquals("${DS_PROMETHEUS}", ((Map<?, ?>) ((Map<?, ?>) t).get("datasource")).get("uid"), title);
            }
        }
    }

    @Test
    void theJsonReaderRefusesWhatGrafanaWouldRefuse() {
        for (String bad : List.of("{\"a\": 1,}", "{a: 1}", "[1, 2", "{\"a\": 1} x", "{\"a\": 01}",
                "{\"a\": \"b\\q\"}", "{\"a\": 1, \"a\": 2}", "{\"a\": tru}", "")) {
            assertThrows(IllegalArgumentException.class, () -> DashboardQueries.parse(bad), bad);
        }
        Object ok = DashboardQueries.parse("{\"panels\": [{\"targets\": [{\"expr\": \"up\\n\"}]}], \"x\": [-1.5e3, true, null]}");
        assertEquals(List.of(Map.of("targets", List.of(Map.of("expr", "up\n")))), ((Map<?, ?>) ok).get("panels"));
    }

    /** Each expression names only metrics of the list above, with their own labels and known label values. */
    @Test
    void everyMetricAndLabelInTheDashboardIsOneTheSwitchExports() throws Exception {
        Set<String> used = new TreeSet<>();
        for (String expr : DashboardQueries.expressions(DASHBOARD)) {
            Set<String> names = metricNames(expr);
            assertTrue(!names.isEmpty(), "no metric in: " + expr);
            Set<String> labels = new HashSet<>(TARGET_LABELS);
            for (String name : names) {
                assertTrue(METRICS.containsKey(name), "'" + name + "' is not a metric the switch exports, in: " + expr);
                labels.addAll(METRICS.get(name));
            }
            used.addAll(names);
            Matcher selector = SELECTOR.matcher(expr);
            while (selector.find()) {
                Set<String> own = new HashSet<>(TARGET_LABELS);
                own.addAll(METRICS.getOrDefault(selector.group(1), Set.of()));
                Matcher m = MATCHER.matcher(selector.group(2));
                while (m.find()) {
                    assertTrue(own.contains(m.group(1)), selector.group(1) + " has no label '" + m.group(1) + "', in: " + expr);
                    if (m.group(2).equals("=") && LABEL_VALUES.containsKey(m.group(1))) {
                        assertTrue(LABEL_VALUES.get(m.group(1)).contains(m.group(3)),
                                m.group(1) + "=\"" + m.group(3) + "\" is not a value the switch exports, in: " + expr);
                    }
                }
            }
            Matcher grouping = GROUPING.matcher(expr);
            while (grouping.find()) {
                for (String label : grouping.group(1).split(",")) {
                    assertTrue(labels.contains(label.strip()), "grouping by '" + label.strip() + "', a label none of " + names + " has: " + expr);
                }
            }
        }
        // The panels the lab asked for: PFC sent and received, buffer per view, XOFF thresholds next to
        // ingress queues, drops by reason, ECN marks, frames/s and bits/s, the scheme, worker stalls.
        for (String wanted : List.of("pfcswitch_pfc_pause_sent_total", "pfcswitch_pfc_pause_received_total",
                "pfcswitch_pause_frames_received_total", "pfcswitch_buffer_used_bytes", "pfcswitch_xoff_threshold_bytes",
                "pfcswitch_ingress_queue_bytes", "pfcswitch_drops_total", "pfcswitch_malformed_frames_total",
                "pfcswitch_ecn_marked_total", "pfcswitch_rx_frames_total", "pfcswitch_tx_bytes_total",
                "pfcswitch_scheme_info", "pfcswitch_worker_stalls_total", "pfcswitch_deadlock_present",
                "pfcswitch_deadlocks_total")) {
            assertTrue(used.contains(wanted), "no panel shows " + wanted + "; shown: " + used);
        }
    }

    @Test
    void theGrafanaReadmeListsEveryFamily() throws Exception {
        String readme = Files.readString(CONFIGS.resolve("grafana").resolve("README.md"));
        for (String family : ExportedMetrics.families()) {
            assertTrue(readme.contains("`" + family + "`"), "grafana/README.md does not list " + family);
        }
    }

    /**
     * Every family the switch exports is on the dashboard or in the README's list of families left
     * off it, with a reason; never both, and the list names only families that exist.
     */
    @Test
    void everyExportedFamilyIsOnTheDashboardOrLeftOffWithAReason() throws Exception {
        Set<String> shown = new TreeSet<>();
        for (String expr : DashboardQueries.expressions(DASHBOARD)) {
            for (String name : metricNames(expr)) {
                shown.add(ExportedMetrics.FAMILY.getOrDefault(name, name));
            }
        }
        Map<String, String> leftOff = leftOff(Files.readString(CONFIGS.resolve("grafana").resolve("README.md")));
        assertTrue(leftOff.size() >= 5, "the left-off table: " + leftOff);
        for (String family : ExportedMetrics.families()) {
            assertTrue(shown.contains(family) != leftOff.containsKey(family), family + (shown.contains(family)
                    ? " is on the dashboard and in the left-off list" : " is neither on the dashboard nor in the left-off list"));
        }
        for (Map.Entry<String, String> e : leftOff.entrySet()) {
            assertTrue(ExportedMetrics.families().contains(e.getKey()) || e.getKey().startsWith("jvm_gc_"),   // GC families depend on the collector
                    "the left-off list names " + e.getKey() + ", which the switch does not export");
            assertTrue(e.getValue().strip().length() > 10, e.getKey() + ": left off without a reason");
        }
        assertTrue(shown.containsAll(List.of("pfcswitch_build_info", "pfcswitch_pfcwd_storms_total", "pfcswitch_shadow_xoff_total",
                "pfcswitch_paused_seconds_total", "jvm_memory_used_bytes", "jvm_gc_pause_seconds", "process_cpu_usage")), shown.toString());
    }

    /** The rows of the README's "Left off the dashboard" table: family to reason. */
    static Map<String, String> leftOff(String readme) {
        int start = readme.indexOf("## Left off the dashboard");
        assertTrue(start >= 0, "grafana/README.md has no '## Left off the dashboard' section");
        int end = readme.indexOf("\n## ", start + 1);
        Map<String, String> rows = new java.util.TreeMap<>();
        Matcher m = Pattern.compile("(?m)^\\| `([a-z0-9_:]+)` \\| (.*) \\|$").matcher(readme.substring(start, end < 0 ? readme.length() : end));
        while (m.find()) {
            rows.put(m.group(1), m.group(2));
        }
        return rows;
    }

    /**
     * Several switches: every series is selected by the dashboard's job and instance variables, and
     * every aggregation keeps instance, so two switches never sum together.
     */
    @Test
    void everyQuerySelectsByJobAndInstanceAndKeepsInstance() throws Exception {
        Map<?, ?> root = (Map<?, ?>) DashboardQueries.parse(Files.readString(DASHBOARD));
        List<String> variables = ((List<?>) ((Map<?, ?>) root.get("templating")).get("list")).stream()
                .map(v -> (String) ((Map<?, ?>) v).get("name")).toList();
        assertEquals(List.of("job", "instance"), variables);
        Pattern aggregation = Pattern.compile("\\b(sum|max|min|avg|count)\\s*(by\\s*\\(([^)]*)\\))?\\s*\\(");
        for (String expr : DashboardQueries.expressions(DASHBOARD)) {
            String rest = expr.replaceAll("[A-Za-z_:][A-Za-z0-9_:]*\\{job=~\"\\$job\", instance=~\"\\$instance\"[^}]*}", "SELECTED");
            assertEquals(Set.of("SELECTED"), metricNames(rest), "a series not selected by {job=~\"$job\", instance=~\"$instance\"} in: " + expr);
            Matcher m = aggregation.matcher(expr);
            while (m.find()) {
                assertTrue(m.group(3) != null && List.of(m.group(3).split("\\s*,\\s*")).contains("instance"),
                        "an aggregation that drops instance (switches would sum together) in: " + expr);
            }
        }
    }

    /** The overview's PFC stat counts frames, so a port-level pause (8 priorities in one frame) counts once. */
    @Test
    void thePfcStatCountsEachFrameOnce() throws Exception {
        Map<?, ?> root = (Map<?, ?>) DashboardQueries.parse(Files.readString(DASHBOARD));
        String expr = null;
        for (Object p : (List<?>) root.get("panels")) {
            Map<?, ?> panel = (Map<?, ?>) p;
            if ("stat".equals(panel.get("type")) && ((String) panel.get("title")).startsWith("PFC frames")) {
                expr = (String) ((Map<?, ?>) ((List<?>) panel.get("targets")).get(0)).get("expr");
            }
        }
        assertTrue(expr != null, "no 'PFC frames' stat");
        assertEquals(Set.of("pfcswitch_pfc_frames_sent_total"), metricNames(expr), expr);
    }

    /**
     * The recipe books point at files that exist: every {@code testbed-configs/...} path and every
     * relative Markdown link in lab/README.md and grafana/README.md.
     */
    @Test
    void theRecipeBooksNameFilesThatExist() throws Exception {
        Path repo = CONFIGS.getParent();
        Pattern path = Pattern.compile("testbed-configs/[A-Za-z0-9_./-]*[A-Za-z0-9_]");
        Pattern link = Pattern.compile("\\]\\((\\.\\.?/[^)#]+)\\)");
        int checked = 0;
        for (Path readme : List.of(CONFIGS.resolve("lab").resolve("README.md"), CONFIGS.resolve("grafana").resolve("README.md"))) {
            String text = Files.readString(readme);
            Matcher m = path.matcher(text);
            while (m.find()) {
                assertTrue(Files.exists(repo.resolve(m.group())), readme + " names " + m.group() + ", which does not exist");
                checked++;
            }
            m = link.matcher(text);
            while (m.find()) {
                assertTrue(Files.exists(readme.getParent().resolve(m.group(1)).normalize()), readme + " links " + m.group(1) + ", which does not exist");
                checked++;
            }
        }
        assertTrue(checked >= 5, "found only " + checked + " paths to check");
        String lab = Files.readString(CONFIGS.resolve("lab").resolve("README.md"));
        for (String step : List.of("./pfcswitch run -c testbed-configs/lab/switch-9port.yaml", "--trust dscp",
                "--pfc 0,0,0,1,0,0,0,0", "--tclass 106", "cma_roce_tos", "ib_write_bw", "ib_send_lat",
                "ethtool -S IFACE | grep -E 'rx_prio3_pause|tx_prio3_pause|rx_pause_ctrl'", "pfcswitch_pfc_pause_sent_total")) {
            assertTrue(lab.contains(step), "lab/README.md lacks: " + step);
        }
    }

    /** The metric-name scan finds names and only names. */
    @Test
    void metricNamesSkipsFunctionsKeywordsLabelsAndNumbers() {
        assertEquals(Set.of("a_total", "b:c"), metricNames(
                "8 * sum by (port, reason) (rate(a_total{x=\"y z\", q!~\"1e3\"}[30s] offset 1m)) / on (port) group_left max(b:c) > bool 1e3"));
        assertEquals(Set.of("pfcswitch_buffer_size_bytes"), metricNames("max(pfcswitch_buffer_size_bytes)"));
    }

    /** Every dashboard expression parses in Prometheus' own parser (promtool check rules, one recording rule each). */
    @Test
    void promtoolParsesEveryDashboardExpression() throws Exception {
        List<String> exprs = DashboardQueries.expressions(DASHBOARD);
        StringBuilder rules = new StringBuilder("groups:\n  - name: pfcswitch-dashboard\n    rules:\n");
        for (int i = 0; i < exprs.size(); i++) {
            rules.append("      - record: pfcswitch_dashboard:expr_").append(i).append('\n')
                    .append("        expr: '").append(exprs.get(i).replace("'", "''")).append("'\n");
        }
        Path file = dir.resolve("dashboard-rules.yml");
        Files.writeString(file, rules);
        Run r = run(List.of(promtool(), "check", "rules", file.toString()));
        assertEquals(0, r.exitCode(), r.output() + "\n" + rules);
        assertTrue(r.output().contains("SUCCESS: " + exprs.size() + " rules found"), r.output());

        Files.writeString(file, "groups:\n  - name: g\n    rules:\n      - record: a:b\n        expr: 'sum by (port (rate(x[30s]))'\n");
        Run bad = run(List.of(promtool(), "check", "rules", file.toString()));
        assertEquals(1, bad.exitCode(), "promtool must refuse a broken expression: " + bad.output());
    }

    private static final Pattern SELECTOR = Pattern.compile("([A-Za-z_:][A-Za-z0-9_:]*)\\s*\\{([^}]*)}");
    private static final Pattern MATCHER = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)\\s*(=~|!~|!=|=)\\s*\"((?:\\\\.|[^\"\\\\])*)\"");
    private static final Pattern GROUPING = Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\(([^)]*)\\)");
    private static final Pattern IDENT = Pattern.compile("(?<![A-Za-z0-9_:.])([A-Za-z_:][A-Za-z0-9_:]*+)(?!\\s*\\()");
    private static final Set<String> KEYWORDS = Set.of("by", "without", "on", "ignoring", "group_left", "group_right",
            "bool", "and", "or", "unless", "offset", "inf", "nan");

    /**
     * The metric names of a PromQL expression: identifiers left once strings, label matchers, range
     * brackets and grouping label lists are removed, that are not followed by '(' (functions and
     * aggregations) and are not keywords or Inf/NaN.
     */
    static Set<String> metricNames(String expr) {
        String s = expr.replaceAll("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`", "\"\"")
                .replaceAll("\\{[^}]*}", " ")
                .replaceAll("\\[[^]]*]", " ")
                .replaceAll("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", " ")
                .replace("\"\"", " ");
        Set<String> names = new LinkedHashSet<>();
        Matcher m = IDENT.matcher(s);
        while (m.find()) {
            if (!KEYWORDS.contains(m.group(1).toLowerCase())) {
                names.add(m.group(1));
            }
        }
        return names;
    }
}

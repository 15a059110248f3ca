package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;

/**
 * The files a lab uses beside the switch: the Prometheus scrape config, checked by the real
 * promtool (Debian's prometheus package, installed by scripts/ensure-deps.sh; no Prometheus
 * server is started or needed).
 */
class LabFilesTest {
    static final Path CONFIGS = Path.of("..", "testbed-configs").toAbsolutePath().normalize();
    static final Path PROMETHEUS_YML = CONFIGS.resolve("prometheus.yml");

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
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pfcswitch.cli.SimGridTest.GRID;
import static org.pfcswitch.cli.SimGridTest.concat;
import static org.pfcswitch.cli.SimGridTest.sim;
import static org.pfcswitch.cli.SimGridTest.withoutWall;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sweep.sbatch on a real Slurm: a one-node cluster on this machine (testbed-configs/slurm/
 * one-node-cluster.sh: Debian's slurm-wlm and munge, installed if missing, slurmctld and slurmd on
 * loopback with a config the script writes, torn down after), the grid submitted as a 3-task job
 * array with {@code sbatch --wait} (bounded: 300 s), then merged and compared with the local run.
 * {@code make test} installs the packages (scripts/ensure-deps.sh); run alone, the script installs
 * them. Where the cluster cannot start (no root, no apt, a sandbox that stops the daemons) the test
 * is skipped with the reason in one line; nothing is faked.
 */
class SlurmClusterTest {

    static final Path CLUSTER = Path.of("..", "testbed-configs", "slurm", "one-node-cluster.sh").toAbsolutePath().normalize();

    @Test
    void aJobArrayOnARealSlurmGivesTheLocalTable(@TempDir Path dir) throws IOException, InterruptedException {
        Path cluster = dir.resolve("cluster");
        Cli up = run(Map.of(), 600, "bash", CLUSTER.toString(), "up", cluster.toString(), "--install");
        Assumptions.assumeTrue(up.exitCode() == 0, () -> "SlurmClusterTest: no cluster: " + up.err().strip());
        try {
            Path cmd = SlurmScriptTest.launcher(dir);
            Path out = dir.resolve("results");
            List<String> submit = new ArrayList<>(List.of("sbatch", "--wait", "--time=10", "--array=0-2", "--chdir="
                    + Path.of("").toAbsolutePath(), "--output=" + dir.resolve("task-%a.out"),
                    SlurmScriptTest.SCRIPT.toString(), out.toString()));
            submit.addAll(List.of(GRID));
            Map<String, String> env = Map.of("SLURM_CONF", cluster.resolve("slurm.conf").toString(),
                    "PFCSWITCH", cmd.toString());
            Cli job = run(env, 300, submit.toArray(String[]::new));
            String logs = taskLogs(dir);
            assertEquals(0, job.exitCode(), "sbatch --wait: " + job.out() + job.err() + logs);
            for (int i = 0; i < 3; i++) {
                assertTrue(Files.exists(out.resolve("shard-" + i + "-of-3.json")), "shard " + i + ": " + logs);
            }
            Path merged = dir.resolve("merged.csv");
            Path local = dir.resolve("local.csv");
            Cli m = Cli.run("sim", "merge", out.toString(), "--table", merged.toString());
            assertEquals(0, m.exitCode(), m.err());
            assertEquals(0, sim(concat(GRID, "--table", local.toString())).exitCode());
            assertEquals(withoutWall(Files.readString(local)), withoutWall(Files.readString(merged)));
        } finally {
            run(Map.of(), 60, "bash", CLUSTER.toString(), "down", cluster.toString());
        }
    }

    private static String taskLogs(Path dir) throws IOException {
        StringBuilder sb = new StringBuilder();
        try (var files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().startsWith("task-")).sorted().toList()) {
                sb.append("\n--- ").append(f.getFileName()).append('\n').append(Files.readString(f));
            }
        }
        return sb.toString();
    }

    private static Cli run(Map<String, String> env, int seconds, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        // Files, not pipes: the daemons a command starts may keep its streams open.
        Path err = Files.createTempFile("slurm", ".err");
        Path out = Files.createTempFile("slurm", ".out");
        pb.redirectError(err.toFile()).redirectOutput(out.toFile()).redirectInput(ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile()));
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(List.of(command) + " did not finish within " + seconds + " s");
        }
        String e = Files.readString(err, StandardCharsets.UTF_8);
        String o = Files.readString(out, StandardCharsets.UTF_8);
        Files.delete(err);
        Files.delete(out);
        return new Cli(p.exitValue(), o, e);
    }
}

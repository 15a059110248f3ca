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

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * testbed-configs/slurm/sweep.sbatch run as Slurm runs an array task: bash with the SLURM_*
 * variables a job array sets (no Slurm here; SlurmClusterTest submits it to a real one). Two
 * tasks and a merge give the local run's table; outside an array it says so in one line.
 */
class SlurmScriptTest {

    static final Path SCRIPT = Path.of("..", "testbed-configs", "slurm", "sweep.sbatch").toAbsolutePath().normalize();

    /** A pfcswitch command on this test's class path (the launcher would build the jar first). */
    static Path launcher(Path dir) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path cmd = dir.resolve("pfcswitch-test");
        Files.writeString(cmd, "#!/usr/bin/env bash\nexec '" + java + "' --enable-native-access=ALL-UNNAMED "
                + "-cp '" + System.getProperty("java.class.path")
                + "' org.pfcswitch.cli.PfcSwitch \"$@\"\n");
        assertTrue(cmd.toFile().setExecutable(true));
        return cmd;
    }

    static Cli bash(Map<String, String> env, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("bash", SCRIPT.toString()));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> k.startsWith("SLURM_") || k.equals("SWEEP_SHARDS"));
        pb.environment().putAll(env);
        Path err = Files.createTempFile("sbatch", ".err");
        pb.redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish within 120 s");
        }
        String e = Files.readString(err);
        Files.delete(err);
        return new Cli(p.exitValue(), out, e);
    }

    @Test
    void twoArrayTasksAndAMergeGiveTheLocalTable(@TempDir Path dir) throws IOException, InterruptedException {
        Path cmd = launcher(dir);
        Path out = dir.resolve("results");
        List<String> args = new ArrayList<>(List.of(out.toString()));
        args.addAll(List.of(GRID));
        for (int task = 0; task < 2; task++) {
            Cli c = bash(Map.of("SLURM_ARRAY_TASK_ID", Integer.toString(task), "SLURM_ARRAY_TASK_COUNT", "2",
                    "SLURM_ARRAY_JOB_ID", "42", "SLURM_CPUS_PER_TASK", "1", "PFCSWITCH", cmd.toString()), args);
            assertEquals(0, c.exitCode(), c.err());
            assertTrue(c.err().contains("job 42 task " + task + ": shard " + task + "/2"), c.err());
            assertTrue(Files.exists(out.resolve("shard-" + task + "-of-2.json")), c.out() + c.err());
        }
        Path merged = dir.resolve("merged.csv");
        Path local = dir.resolve("local.csv");
        assertEquals(0, Cli.run("sim", "merge", out.toString(), "--table", merged.toString()).exitCode());
        assertEquals(0, sim(concat(GRID, "--table", local.toString())).exitCode());
        assertEquals(withoutWall(Files.readString(local)), withoutWall(Files.readString(merged)));

        Cli rerun = bash(Map.of("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "1", "SWEEP_SHARDS", "2",
                "PFCSWITCH", cmd.toString()), args);
        assertEquals(0, rerun.exitCode(), rerun.err());
        assertTrue(rerun.out().contains("already complete"), rerun.out());
    }

    @Test
    void outsideAnArrayOneLine(@TempDir Path dir) throws IOException, InterruptedException {
        Cli c = bash(Map.of("PFCSWITCH", launcher(dir).toString()), List.of(dir.toString(), "-c", "x.yaml", "--seeds", "2"));
        assertEquals(1, c.exitCode());
        assertEquals(1, c.err().strip().lines().count(), c.err());
        assertTrue(c.err().contains("not in a Slurm job array"), c.err());
        Cli usage = bash(Map.of(), List.of());
        assertEquals(2, usage.exitCode());
        assertTrue(usage.err().contains("sbatch --array=0-7"), usage.err());
    }
}

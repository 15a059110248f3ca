package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * scripts/softroce-lab.sh, run as it is. Whether this kernel has Soft-RoCE decides what it must do:
 * without rdma_rxe it refuses with one line and exit code 2 (CI's kernel has none, so this is what
 * CI checks); with it a full run needs the netns testbed and a switch, which this test does not
 * start, so there it checks what --help promises. --help and bad usage are checked on every kernel.
 */
class SoftRoceScriptTest {
    static final Path SCRIPT = Path.of("..", "scripts", "softroce-lab.sh").toAbsolutePath().normalize();


    static ScriptRun run(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(SCRIPT.toString()));
        command.addAll(List.of(args));
        return ScriptRun.of(command, Map.of());
    }

    /** rdma_rxe loaded, built in, or available as a module of the running kernel. */
    static boolean kernelHasRxe() throws IOException {
        if (Files.isDirectory(Path.of("/sys/module/rdma_rxe"))) {
            return true;
        }
        Path modules = Path.of("/lib/modules", System.getProperty("os.version"));
        Path builtin = modules.resolve("modules.builtin");
        if (Files.isReadable(builtin) && Files.readString(builtin).contains("/rdma_rxe.ko")) {
            return true;
        }
        if (!Files.isDirectory(modules)) {
            return false;
        }
        try (Stream<Path> files = Files.walk(modules)) {
            return files.anyMatch(f -> f.getFileName().toString().startsWith("rdma_rxe.ko"));
        }
    }

    @Test
    void scriptIsExecutable() {
        assertTrue(Files.isExecutable(SCRIPT), SCRIPT + " must be executable (git keeps the mode)");
    }

    @Test
    void helpExplainsTheRunAndThatItNeedsTheTestbed() throws Exception {
        ScriptRun r = run("--help");
        assertEquals(0, r.exitCode(), r.err());
        assertEquals("", r.err());
        for (String promise : List.of("Usage: scripts/softroce-lab.sh", "rdma link add rxe_pfcsw_h2 type rxe netdev eth0",
                "ib_write_bw", "A full run needs the netns testbed and a running switch",
                "sudo ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml", "--start",
                "without rxe it refuses with one line and exit code 2", "deletes the rxe devices again")) {
            assertTrue(r.out().contains(promise), "--help lacks: " + promise + "\n" + r.out());
        }
    }

    @Test
    void badUsageIsOneLineAndExitCode2() throws Exception {
        ScriptRun r = run("--no-such-option");
        assertEquals(2, r.exitCode(), r.out() + r.err());
        assertEquals(List.of("softroce-lab: unknown option '--no-such-option' (see --help)"), r.errLines());
        assertEquals("", r.out());
    }

    /** What the kernel calls for: the refusal without rxe; with rxe, --help's account of a full run (the run itself needs the testbed). */
    @Test
    void refusesWithOneLineWhenTheKernelHasNoRxe() throws Exception {
        if (!kernelHasRxe()) {
            ScriptRun r = run();
            assertEquals(2, r.exitCode(), "exit code without rxe\n" + r.out() + r.err());
            assertEquals(1, r.errLines().size(), "exactly one line on stderr, got:\n" + r.err());
            assertTrue(r.err().contains("rdma_rxe") && r.err().startsWith("softroce-lab: "), r.err());
            assertEquals("", r.out(), "nothing done, nothing printed");
        } else {
            ScriptRun r = run("--help");
            assertEquals(0, r.exitCode(), r.err());
            assertTrue(r.out().contains("A full run needs the netns testbed and a running switch"), r.out());
            assertTrue(r.out().contains("rxe inside a") && r.out().contains("namespace-aware"), r.out());
        }
    }
}

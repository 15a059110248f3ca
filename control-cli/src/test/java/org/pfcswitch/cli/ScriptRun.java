package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * One run of a shell script or other program the project ships, as the script tests see it: no
 * standard input, its exit code and both outputs whole (stderr drained on a thread of its own, so
 * neither pipe can fill and stall the script), at most 60 s.
 */
record ScriptRun(int exitCode, String out, String err) {

    List<String> errLines() {
        return err.lines().toList();
    }

    /** Runs {@code command} with this JVM's environment plus {@code env}. */
    static ScriptRun of(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> {
            try {
                return p.getErrorStream().readAllBytes();
            } catch (IOException e) {
                throw new RuntimeException(e);
            }
        });
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(command + " did not finish within 60 s");
        }
        return new ScriptRun(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err.join(), StandardCharsets.UTF_8));
    }
}

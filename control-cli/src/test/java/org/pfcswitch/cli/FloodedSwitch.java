package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A running switch for the tests that drive one through its control API: {@code run} on a config
 * of {@code dir} (usually {@link ControlApiTest#FLOOD_SWITCH}, which loads it without hosts), its
 * control API on a free loopback port, its token in a file of {@code dir}. {@link #close} stops it
 * with SIGTERM and fails unless it exits 0.
 */
final class FloodedSwitch implements AutoCloseable {

    final SwitchProcess process;
    final int port;
    /** The API's base address, {@code http://127.0.0.1:PORT}. */
    final String api;
    final Path tokenFile;
    private boolean closed;

    private FloodedSwitch(SwitchProcess process, int port, Path tokenFile) {
        this.process = process;
        this.port = port;
        this.api = "http://127.0.0.1:" + port;
        this.tokenFile = tokenFile;
    }

    /**
     * Writes {@code config} to {@code dir/switch.yaml}, starts the switch on it with its token at
     * {@code tokenFile}, and waits until its control API listens.
     */
    static FloodedSwitch start(Path dir, String config, Path tokenFile) throws Exception {
        Path cfg = dir.resolve("switch.yaml");
        Files.writeString(cfg, config);
        int port = ControlApiTest.freePort();
        SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", tokenFile.toString());
        try {
            sw.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(60));
        } catch (AssertionError | InterruptedException e) {
            sw.close();
            throw e;
        }
        return new FloodedSwitch(sw, port, tokenFile);
    }

    /** The token that changes need, as the switch wrote it. */
    String token() throws Exception {
        return Files.readString(tokenFile).trim();
    }

    /** Stops the switch with SIGTERM: it must exit 0 (its output is the failure's message). Once. */
    @Override
    public void close() throws Exception {
        if (closed) {
            return;
        }
        closed = true;
        try {
            assertEquals(0, process.signalAndWait("TERM", Duration.ofSeconds(30)), process.stdout() + "\n" + process.stderr());
        } finally {
            process.close();
        }
    }
}

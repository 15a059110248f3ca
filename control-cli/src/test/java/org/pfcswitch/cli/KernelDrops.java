package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where the emulated wires of the netns lab lose frames, as the kernel counts them: a switch
 * port's af_packet receive ring that was full (the worker fell behind; {@code run} logs it as the
 * port's rx missed) and a CPU's receive backlog that was full (a veth's receiver fell behind). A
 * frame lost there never reached the switch's MMU or the host's socket, so tests that count what
 * arrived account for these before they blame the switch.
 */
final class KernelDrops {

    private KernelDrops() {}

    /**
     * Frames dropped so far because a CPU's receive backlog was full: the second column of
     * {@code /proc/net/softnet_stat}, summed over CPUs. Machine-wide, so a difference over a test
     * bounds the lab's own.
     */
    static long backlog() throws Exception {
        long dropped = 0;
        for (String line : Files.readAllLines(Path.of("/proc/net/softnet_stat"))) {
            dropped += Long.parseLong(line.trim().split("\\s+")[1], 16);
        }
        return dropped;
    }

    /** Frames port {@code port}'s receive ring dropped: the rx missed of its nic line in run's shutdown log. */
    static long ring(String runLog, String port) {
        Matcher m = Pattern.compile("nic " + Pattern.quote(port) + ": rx \\d+, rx missed (\\d+)").matcher(runLog);
        assertTrue(m.find(), "nic " + port + " line in\n" + runLog);
        return Long.parseLong(m.group(1));
    }
}

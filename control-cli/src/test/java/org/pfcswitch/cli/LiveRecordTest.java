package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run --record} on virtual devices: net_null floods the switch (as ControlApiTest's switch),
 * the workers record every arrival up to {@code --record-max}, the shutdown log says how many were
 * written and dropped, and the file replays in {@code sim}. With two workers the flood arrives on
 * worker 1's port and comes back looped on worker 0's: the file is their merge, and the maximum
 * bounds it, not each worker.
 */
class LiveRecordTest {

    @TempDir
    Path dir;

    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void recordsAFloodAndReplaysIt(int workers) throws Exception {
        Path cfg = dir.resolve("flood.yaml");
        Files.writeString(cfg, "eal: {memoryMb: 256, hugepages: off}\nworkers: " + workers + "\n" + ControlApiTest.FLOOD_SWITCH);
        Path rec = dir.resolve("flood.arr");
        String log;
        try (SwitchProcess p = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control", "--record", rec.toString(),
                "--record-max", "50000")) {
            p.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            Thread.sleep(2500);
            assertEquals(0, p.signalAndWait("TERM", Duration.ofSeconds(30)), p.stdout() + "\n" + p.stderr());
            log = p.stdout();
        }
        assertTrue(log.contains("recording arrivals to " + rec + " (at most 50000"), log);
        Matcher m = Pattern.compile("recorded (\\d+) arrivals to \\S+, (\\d+) dropped \\(ring full\\), (\\d+) beyond --record-max")
                .matcher(log);
        assertTrue(m.find(), log);
        long written = Long.parseLong(m.group(1));
        assertTrue(written > 0 && written <= 50_000, log);
        assertTrue(written == 50_000 || Long.parseLong(m.group(3)) == 0, "the file is full whenever arrivals went beyond it\n" + log);
        assertTrue(Long.parseLong(m.group(3)) > 0, "the flood outruns 50000 arrivals in 2.5 s\n" + log);
        assertTrue(log.matches("(?s).*packet pool: 0 of \\d+ mbufs in use after shutdown \\(all returned\\).*"), log);
        assertEquals(24 + 2 * 8 + 16 + written * 80, Files.size(rec));

        Cli sim = Cli.run("sim", "--replay", rec.toString(), "--scheme", "dt,st");
        assertEquals(0, sim.exitCode(), sim.err());
        assertTrue(sim.outLines()[0].startsWith("replay flood.arr: " + written + " arrivals"), sim.out());
        assertTrue(sim.outLines()[0].contains("on 2 ports"), sim.out());
        assertEquals(sim.out(), Cli.run("sim", "--replay", rec.toString(), "--scheme", "dt,st").out());
    }
}

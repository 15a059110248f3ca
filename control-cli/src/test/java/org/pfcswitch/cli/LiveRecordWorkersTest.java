package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.core.record.ArrivalReader;
import org.pfcswitch.testbed.LiveRun;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.config.ScenarioLoader;

/**
 * {@code run --record} on two workers between three namespace hosts that honour PFC: 2:1 incasts
 * into h2, worker 0 owning h0 and h2 and worker 1 owning h1, so h1's half of every incast crosses
 * between the workers and the congested egress is worker 0's. The workers' arrivals are merged into
 * one file in time order (the reader refuses a file whose times go back): every data frame the live
 * switch counted on each port is in it, the frames from both workers' ports, and {@code sim --replay}
 * takes it as it takes a one-worker recording: the same arrivals, the incast paused at both senders'
 * ports, the same answer twice.
 */
class LiveRecordWorkersTest {

    @TempDir
    Path dir;

    @Test
    void twoWorkersRecordOneFileInTimeOrderThatReplays() throws Exception {
        try (NetnsLab lab = NetnsLab.up(dir, 3)) {
            Path scenario = dir.resolve("incasts.yaml");
            Files.writeString(scenario, """
                    name: live-record-incasts
                    duration: 800ms
                    seed: 5
                    payloadMtu: 1024
                    cc: {mode: none}
                    hosts:
                      - {name: h0, speed: 200M, delay: 1us}
                      - {name: h1, speed: 200M, delay: 1us}
                      - {name: h2, speed: 200M, delay: 1us}
                    mmu: {totalBytes: 2MiB}             # not used live: the switch has its own
                    traffic:
                      incast: {kind: incast, from: [h0, h1], to: h2, bytes: 256KiB, start: 20ms, repeatUntil: 800ms}
                    """);
            Path cfg = lab.switchConfig("record-workers", """
                    workers: 2
                    eal: {memoryMb: 256, hugepages: off}
                    forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: h0},
                      {mac: "02:00:00:00:00:02", port: h1}, {mac: "02:00:00:00:00:03", port: h2}]}
                    classification: {trust: dscp, dscpMap: "26:3"}
                    mmu: {totalBytes: 2MiB, scheme: dt, losslessPriorities: [3], headroomFormula: fixed, headroomBytes: 512KiB}
                    poll: {idleSleep: 50us}
                    """, "speed: 200M", "speed: 200M", "speed: 200M");
            Path rec = dir.resolve("incasts.arr");
            Scenario s = ScenarioLoader.load(scenario, List.of()).scenario();
            String log;
            try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control", "--record",
                    rec.toString())) {
                sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
                try (LiveTestbedHosts hosts = LiveTestbedHosts.open(s, TestbedCommand.read(lab.testbedConfig()), scenario,
                        lab.testbedConfig())) {
                    LiveRun.run(s, hosts.hosts(), s.durationNanos(), ScenarioRunner.Progress.NONE);
                }
                assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
                log = sw.stdout();
            }
            assertTrue(log.contains("worker 0: owns h0, h2") && log.contains("worker 1: owns h1"), log);
            assertTrue(log.contains("ring of 65536 per worker, merged in time order"), log);
            assertTrue(log.contains("(all returned)"), log);
            Matcher m = Pattern.compile("recorded (\\d+) arrivals to \\S+, (\\d+) dropped \\(ring full\\), (\\d+) beyond --record-max")
                    .matcher(log);
            assertTrue(m.find(), log);
            long written = Long.parseLong(m.group(1));
            assertEquals("0", m.group(2), "the writer keeps up with 600 Mb/s of arrivals\n" + log);
            assertTrue(log.matches("(?s).*counters h1: .*pfc tx [^,]*p3=[1-9].*"),
                    "worker 1 paused h1 for worker 0's congested egress\n" + log);

            long[] data = new long[3];
            long all = 0;
            try (ArrivalReader in = ArrivalReader.open(rec)) {
                ArrivalReader.Arrival a = new ArrivalReader.Arrival();
                while (in.next(a)) {         // in time order, or the reader throws
                    all++;
                    boolean control = a.captured >= Ethernet.HEADER_BYTES
                            && ((a.header[12] & 0xFF) << 8 | a.header[13] & 0xFF) == Ethernet.TYPE_MAC_CONTROL;
                    if (!control) {
                        data[a.port]++;
                    }
                }
            }
            assertEquals(written, all);
            for (int p = 0; p < 3; p++) {
                Matcher rx = Pattern.compile("counters h" + p + ": rx (\\d+)").matcher(log);
                assertTrue(rx.find(), log);
                assertEquals(Long.parseLong(rx.group(1)), data[p], "every data frame the switch counted on h" + p
                        + " is in the recording\n" + log);
            }
            assertTrue(data[0] > 1000 && data[1] > 1000, "both workers' senders recorded: " + java.util.Arrays.toString(data));

            Cli sim = Cli.run("sim", "--replay", rec.toString(), "--scheme", "dt", "--buffer", "1048576");
            assertEquals(0, sim.exitCode(), sim.err());
            assertTrue(sim.outLines()[0].startsWith("replay incasts.arr: " + written + " arrivals"), sim.out());
            assertTrue(sim.outLines()[0].contains("on 3 ports, 1 MiB buffer"), sim.out());
            String[] dt = sim.outLines()[2].trim().split("\\s+");
            assertEquals("dt", dt[0], sim.out());
            assertTrue(Long.parseLong(dt[3]) > 0 && Long.parseLong(dt[4]) > 0,
                    "the replay pauses both senders of the incast, as the live switch did\n" + sim.out());
            assertEquals(sim.out(), Cli.run("sim", "--replay", rec.toString(), "--scheme", "dt", "--buffer", "1048576").out());
        }
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.RoceFrameBuilder;

/** {@code record from-pcap} and {@code sim --replay}. */
class ReplayCommandTest {

    @TempDir
    Path dir;

    /** Four 10G senders (02:00:00:00:0b:01..04, ports 1..4) into 02:00:00:00:0a:00 on port 0: 1500 frames of ~1 KiB each. */
    private Path incastPcap() throws IOException {
        Path pcap = dir.resolve("incast.pcap");
        MemorySegment frame = Arena.ofAuto().allocate(2048);
        try (PcapWriter w = PcapWriter.create(pcap, PcapWriter.Precision.NANOS)) {
            for (int i = 0; i < 1500; i++) {
                for (int s = 1; s <= 4; s++) {
                    RoceFrameBuilder b = new RoceFrameBuilder().macs(0x0200_0000_0A00L, 0x0200_0000_0B00L + s).dscp(26)
                            .ips(0x0A00_0000 + s, 0x0A00_0001).psn(i).untagged().payloadBytes(960);
                    int len = b.write(frame, 0);
                    w.write(1_000_000L + i * 835L + s, frame, 0, len);
                }
            }
        }
        return pcap;
    }

    private static String[] portOf() {
        return new String[] {"--port-of", "02:00:00:00:0a:00=0", "--port-of", "02:00:00:00:0b:01=1",
            "--port-of", "02:00:00:00:0b:02=2", "--port-of", "02:00:00:00:0b:03=3", "--port-of", "02:00:00:00:0b:04=4"};
    }

    @Test
    void pcapToRecordToReplay() throws IOException {
        Path pcap = incastPcap();
        Path arr = dir.resolve("incast.arr");
        String[] args = new String[] {"record", "from-pcap", pcap.toString(), "--speed", "10G", "--out", arr.toString()};
        String[] all = new String[args.length + 10];
        System.arraycopy(args, 0, all, 0, args.length);
        System.arraycopy(portOf(), 0, all, args.length, 10);
        Cli conv = Cli.run(all);
        assertEquals(0, conv.exitCode(), conv.err());
        assertTrue(conv.out().contains("6000 arrivals on 5 ports written, 0 frames skipped"), conv.out());

        Cli sim = Cli.run("sim", "--replay", arr.toString(), "--scheme", "dt,st");
        assertEquals(0, sim.exitCode(), sim.err());
        String[] lines = sim.outLines();
        assertTrue(lines[0].startsWith("replay incast.arr: 6000 arrivals"), lines[0]);
        String[] dt = lines[2].trim().split("\\s+");
        String[] st = lines[3].trim().split("\\s+");
        assertEquals("dt", dt[0]);
        assertEquals("st", st[0]);
        assertTrue(Long.parseLong(dt[2]) > 0, sim.out());        // dt (alpha 1/16) pauses this incast
        assertEquals("0", st[2], sim.out());                    // st (B_s / 5 per queue) does not
        assertEquals("0", dt[3], "never the receiver's port: " + sim.out());

        assertEquals(sim.out(), Cli.run("sim", "--replay", arr.toString(), "--scheme", "dt,st").out());
    }

    /** A simulated scenario's arrivals recorded ({@code sim --record-arrivals}) and replayed through two schemes. */
    @Test
    void aSimulatedScenarioRecordsItsArrivalsForReplay() throws IOException {
        Path scenario = dir.resolve("incast.yaml");
        Files.writeString(scenario, """
                name: rec-incast
                duration: 2ms
                payloadMtu: 1000
                cc: {mode: none}
                hosts:
                  - {name: H, count: 4, speed: 10G, delay: 1us}
                  - {name: R, speed: 10G, delay: 1us}
                mmu: {totalBytes: 1MB, losslessPriorities: [3], scheme: dt}
                traffic:
                  incast: {kind: incast, from: [H0, H1, H2, H3], to: R, bytes: 256KB, start: 100us}
                """);
        Path arr = dir.resolve("sim.arr");
        Cli rec = Cli.run("sim", "-c", scenario.toString(), "--scheme", "dt", "--record-arrivals", arr.toString());
        assertEquals(0, rec.exitCode(), rec.err());
        assertTrue(rec.err().contains("wrote arrival record " + arr), rec.err());
        Cli sim = Cli.run("sim", "--replay", arr.toString(), "--scheme", "dt,st");
        assertEquals(0, sim.exitCode(), sim.err());
        assertTrue(sim.outLines()[0].matches("replay sim\\.arr: \\d{4,} arrivals.*"), sim.out());

        Cli two = Cli.run("sim", "-c", scenario.toString(), "--scheme", "dt,st", "--record-arrivals", arr.toString());
        assertEquals(2, two.exitCode());
        assertTrue(two.err().contains("--record-arrivals records one scheme on a single-switch scenario"), two.err());
        Cli grid = Cli.run("sim", "-c", scenario.toString(), "--scheme", "dt", "--seeds", "2", "--record-arrivals", arr.toString());
        assertEquals(2, grid.exitCode());
        assertTrue(grid.err().contains("--record-arrivals records one run"), grid.err());
    }

    /** One capture per ingress link (--port-pcap) gives the same arrivals as one capture mapped by source MAC. */
    @Test
    void perPortCapturesMergeInTimeOrder() throws IOException {
        MemorySegment frame = Arena.ofAuto().allocate(2048);
        String[] args = {"record", "from-pcap", "--port-of", "02:00:00:00:0a:00=0", "--speed", "10G",
            "--out", dir.resolve("ports.arr").toString(), "--port-pcap", "", "--port-pcap", "", "--port-pcap", "", "--port-pcap", ""};
        for (int s = 1; s <= 4; s++) {
            Path pcap = dir.resolve("h" + s + ".pcap");
            try (PcapWriter w = PcapWriter.create(pcap, PcapWriter.Precision.NANOS)) {
                for (int i = 0; i < 1500; i++) {
                    RoceFrameBuilder b = new RoceFrameBuilder().macs(0x0200_0000_0A00L, 0x0200_0000_0B00L + s).dscp(26)
                            .ips(0x0A00_0000 + s, 0x0A00_0001).psn(i).untagged().payloadBytes(960);
                    int len = b.write(frame, 0);
                    w.write(1_000_000L + i * 835L + s, frame, 0, len);
                }
            }
            args[8 + 2 * s - 1] = s + "=" + pcap;
        }
        Cli conv = Cli.run(args);
        assertEquals(0, conv.exitCode(), conv.err());
        assertTrue(conv.out().contains("6000 arrivals on 5 ports written"), conv.out());

        String[] all = new String[] {"record", "from-pcap", incastPcap().toString(), "--speed", "10G",
            "--out", dir.resolve("macs.arr").toString(), "--port-of", "02:00:00:00:0a:00=0", "--port-of", "02:00:00:00:0b:01=1",
            "--port-of", "02:00:00:00:0b:02=2", "--port-of", "02:00:00:00:0b:03=3", "--port-of", "02:00:00:00:0b:04=4"};
        assertEquals(0, Cli.run(all).exitCode());
        String a = Cli.run("sim", "--replay", dir.resolve("ports.arr").toString(), "--scheme", "dt,st").out();
        String b = Cli.run("sim", "--replay", dir.resolve("macs.arr").toString(), "--scheme", "dt,st").out();
        assertEquals(a.substring(a.indexOf('\n')), b.substring(b.indexOf('\n')));
    }

    @Test
    void badInputsOneLine() throws IOException {
        Path junk = dir.resolve("junk.arr");
        Files.writeString(junk, "hello, this is not a recording at all");
        Cli bad = Cli.run("sim", "--replay", junk.toString(), "--scheme", "dt");
        assertEquals(2, bad.exitCode());
        assertTrue(bad.err().startsWith("--replay " + junk + ": not an arrival-record file"), bad.err());

        Cli missing = Cli.run("sim", "--replay", dir.resolve("nope.arr").toString());
        assertEquals(2, missing.exitCode());
        assertTrue(missing.err().startsWith("--replay: no such file"), missing.err());

        Cli noMap = Cli.run("record", "from-pcap", incastPcap().toString(), "--out", dir.resolve("x.arr").toString());
        assertEquals(2, noMap.exitCode());
        assertTrue(noMap.err().startsWith("IN.pcap needs --port-of"), noMap.err());

        Cli notPcap = Cli.run("record", "from-pcap", "--port-pcap", "1=" + junk, "--out", dir.resolve("y.arr").toString());
        assertEquals(2, notPcap.exitCode());
        assertEquals(List.of("Run 'pfcswitch record from-pcap --help' for its usage."),
                notPcap.err().lines().skip(1).toList(), "one line and a hint: " + notPcap.err());
    }
}

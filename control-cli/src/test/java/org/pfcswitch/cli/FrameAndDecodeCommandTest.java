package org.pfcswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.Ethernet;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.RoceFrameBuilder;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.*;

class FrameAndDecodeCommandTest {
    @TempDir
    Path dir;

    @Test
    void pfcFramesDecodeAsWritten() {
        Path f = dir.resolve("pfc.pcap");
        Cli w = Cli.run("frame", "pfc", "--priorities", "3,4", "--quanta", "65535", "--count", "5", "--out", f.toString());
        assertEquals(0, w.exitCode(), w.err());
        Cli d = Cli.run("decode", "--json", f.toString());
        assertEquals(0, d.exitCode(), d.err());
        String[] lines = d.outLines();
        assertEquals(5, lines.length);
        for (String line : lines) {
            assertTrue(line.contains("\"type\":\"pfc\""), line);
            assertTrue(line.contains("\"classEnable\":24"), line);
            assertTrue(line.contains("\"quanta\":[0,0,0,65535,65535,0,0,0]"), line);
        }
        assertTrue(d.err().startsWith("5 frames, 5 pfc"), d.err());
    }

    @Test
    void perPriorityQuantaAndSourceMac() {
        Path f = dir.resolve("pfc2.pcap");
        assertEquals(0, Cli.run("frame", "pfc", "--priorities", "0,7", "--quanta", "10,20",
                "--src-mac", "aa:bb:cc:00:11:22", "--out", f.toString()).exitCode());
        String line = Cli.run("decode", "--json", f.toString()).outLines()[0];
        assertTrue(line.contains("\"src\":\"aa:bb:cc:00:11:22\""), line);
        assertTrue(line.contains("\"classEnable\":129"), line);
        assertTrue(line.contains("\"quanta\":[10,0,0,0,0,0,0,20]"), line);
    }

    @Test
    void pauseAndRoceFrames() {
        Path p = dir.resolve("pause.pcap");
        assertEquals(0, Cli.run("frame", "pause", "--quanta", "777", "--out", p.toString()).exitCode());
        assertTrue(Cli.run("decode", "--json", p.toString()).out().contains("\"type\":\"pause\""));
        assertTrue(Cli.run("decode", p.toString()).out().contains("pause quanta 777"));

        Path r = dir.resolve("roce.pcap");
        Cli w = Cli.run("frame", "roce", "--pcp", "3", "--vlan", "42", "--dscp", "26", "--ecn", "1", "--qp", "4660",
                "--psn", "99", "--opcode", "0x11", "--out", r.toString());
        assertEquals(0, w.exitCode(), w.err());
        String line = Cli.run("decode", "--json", r.toString()).outLines()[0];
        for (String key : new String[] {"\"type\":\"roce\"", "\"vlan\":42", "\"pcp\":3", "\"dscp\":26", "\"ecn\":1",
                "\"udpDstPort\":4791", "\"bthOpcode\":17", "\"destQp\":4660", "\"psn\":99", "\"aethSyndrome\":0"}) {
            assertTrue(line.contains(key), key + " missing in " + line);
        }
    }

    @Test
    void malformedFramesAreReportedAndDecodingGoesOn() throws IOException {
        Path f = dir.resolve("mixed.pcap");
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).payloadBytes(100);
        MemorySegment good = MemorySegment.ofArray(new byte[b.frameLength()]);
        int len = b.write(good, 0);
        MemorySegment badChecksum = MemorySegment.ofArray(good.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        NetOrder.put8(badChecksum, Ethernet.HEADER_BYTES + 8, 1);          // TTL changed, checksum not
        MemorySegment pfc = MemorySegment.ofArray(new byte[60]);
        MacControl.writePfc(pfc, 0, 1, 8, 5);
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Precision.NANOS)) {
            w.write(0, good, 0, len);
            w.write(1, good, 0, 10);                                       // runt
            w.write(2, good, 0, 30);                                       // IPv4 header cut short
            w.write(3, badChecksum, 0, len);
            w.write(4, pfc, 0, 20);                                        // PFC cut short
            w.write(5, pfc, 0, 60);
        }
        Cli d = Cli.run("decode", "--json", f.toString());
        assertEquals(0, d.exitCode());
        String[] lines = d.outLines();
        assertEquals(6, lines.length, Arrays.toString(lines));
        assertTrue(lines[0].contains("\"type\":\"roce\""), lines[0]);
        assertTrue(lines[1].contains("\"type\":\"malformed\",\"length\":10,\"error\":\"shorter than an Ethernet header"), lines[1]);
        assertTrue(lines[2].contains("\"error\":\"IPv4 header cut off\""), lines[2]);
        assertTrue(lines[3].contains("\"error\":\"IPv4 header checksum mismatch\""), lines[3]);
        assertTrue(lines[3].contains("\"ipv4ChecksumOk\":false"), lines[3]);
        assertTrue(lines[4].contains("\"error\":\"MAC control frame too short for its opcode\""), lines[4]);
        assertTrue(lines[5].contains("\"type\":\"pfc\""), lines[5]);
        assertTrue(d.err().contains("6 frames, 4 malformed, 1 pfc, 1 roce"), d.err());
    }

    @Test
    void aTruncatedFileStillPrintsWhatCameBeforeAndFails() throws IOException {
        Path f = dir.resolve("cut.pcap");
        assertEquals(0, Cli.run("frame", "pause", "--quanta", "1", "--count", "3", "--out", f.toString()).exitCode());
        byte[] all = Files.readAllBytes(f);
        Files.write(f, Arrays.copyOf(all, all.length - 10));
        Cli d = Cli.run("decode", f.toString());
        assertEquals(1, d.exitCode());
        assertEquals(2, d.outLines().length);
        assertTrue(d.err().contains("record 3: file ends inside the frame"), d.err());
    }

    @Test
    void badArgumentsGetOneClearErrorAndNonZeroExit() {
        String out = dir.resolve("x.pcap").toString();
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "9", "--out", out), "priority must be 0..7, got 9");
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "3", "--quanta", "70000", "--out", out), "--quanta must be 0..65535");
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "3,3", "--out", out), "priority 3 given twice");
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "1,2", "--quanta", "1,2,3", "--out", out), "one value or one per priority");
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "3", "--src-mac", "zz", "--out", out), "not a MAC address");
        assertUsageError(Cli.run("frame", "pfc", "--priorities", "3"), "Missing required option: '--out=FILE.pcap'");
        assertUsageError(Cli.run("frame", "pause", "--quanta", "-1", "--out", out), "--quanta must be 0..65535");
        assertUsageError(Cli.run("frame", "roce", "--opcode", "0x15", "--out", out), "not a RoCEv2 BTH opcode");
        assertUsageError(Cli.run("frame", "roce", "--dscp", "64", "--out", out), "dscp must be 0..63");
        assertUsageError(Cli.run("frame", "roce", "--src-ip", "1.2.3", "--out", out), "not an IPv4 address");
        assertFalse(Files.exists(Path.of(out)), "nothing is written on bad arguments");

        Cli missing = Cli.run("decode", dir.resolve("nope.pcap").toString());
        assertEquals(1, missing.exitCode());
        assertTrue(missing.err().startsWith("pfcswitch decode: error: "), missing.err());
        assertEquals(1, missing.err().strip().lines().count(), missing.err());
    }

    @Test
    void decodeRejectsFilesThatAreNotPcap() throws IOException {
        Path f = Files.writeString(dir.resolve("text.pcap"), "hello, this is not a capture file");
        Cli d = Cli.run("decode", f.toString());
        assertEquals(1, d.exitCode());
        assertTrue(d.err().contains("not a pcap file"), d.err());
    }

    @Test
    void helpTeachesEveryCommand() {
        assertTrue(Cli.run("--help").out().contains("decode"));
        for (String[] cmd : new String[][] {{"frame", "--help"}, {"frame", "pfc", "--help"}, {"frame", "pause", "--help"},
                {"frame", "roce", "--help"}, {"decode", "--help"}}) {
            Cli c = Cli.run(cmd);
            assertEquals(0, c.exitCode(), String.join(" ", cmd));
            assertTrue(c.out().contains("Usage:"), String.join(" ", cmd));
        }
        assertTrue(Cli.run("frame", "pfc", "--help").out().contains("Examples:"));
    }

    private static void assertUsageError(Cli c, String expected) {
        assertEquals(2, c.exitCode(), "exit code for: " + c.err());
        assertTrue(c.err().contains(expected), "expected '" + expected + "' in: " + c.err());
        assertTrue(c.out().isEmpty(), c.out());
        assertFalse(c.err().contains("Exception"), c.err());
    }

}

package org.pfcswitch.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.Bfc;
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
import java.util.List;

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
        // The shared Output mixin's own checks name the frame command it is part of, in one line and a hint.
        Cli count = Cli.run("frame", "bfc", "--op", "pause", "--queue", "1", "--count", "0", "--out", out);
        assertUsageError(count, "--count must be at least 1, got 0");
        assertEquals(List.of("--count must be at least 1, got 0",
                "Run 'pfcswitch frame bfc --help' for its usage."), count.err().lines().toList());
        assertUsageError(Cli.run("frame", "roce", "--gap-ns", "-1", "--out", out), "--gap-ns must not be negative");
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
                {"frame", "bfc", "--help"}, {"frame", "roce", "--help"}, {"decode", "--help"}}) {
            Cli c = Cli.run(cmd);
            assertEquals(0, c.exitCode(), String.join(" ", cmd));
            assertTrue(c.out().contains("Usage:"), String.join(" ", cmd));
        }
        assertTrue(Cli.run("frame", "pfc", "--help").out().contains("Examples:"));
        assertTrue(Cli.run("frame", "bfc", "--help").out().contains("--op bitmap"));
        assertTrue(Cli.run("frame", "--help").out().contains("bfc"));
    }

    @Test
    void bfcControlFramesDecodeAsWritten() {
        Path p = dir.resolve("bfc-pause.pcap");
        Cli w = Cli.run("frame", "bfc", "--op", "pause", "--queue", "5", "--seq", "65535", "--count", "2",
                "--src-mac", "02:aa:bb:cc:dd:ee", "--out", p.toString());
        assertEquals(0, w.exitCode(), w.err());
        assertTrue(w.out().contains("wrote 2 bfc frames of 60 bytes"), w.out());
        Cli d = Cli.run("decode", "--json", p.toString());
        assertEquals(2, d.outLines().length);
        for (String key : new String[] {"\"type\":\"bfc-control\"", "\"dst\":\"01:80:c2:00:00:0e\"",
                "\"src\":\"02:aa:bb:cc:dd:ee\"", "\"etherType\":" + Bfc.TYPE_CONTROL, "\"bfcOp\":\"pause\"",
                "\"bfcSeq\":65535", "\"bfcQueue\":5"}) {
            assertTrue(d.outLines()[0].contains(key), key + " missing in " + d.outLines()[0]);
        }
        assertTrue(d.err().startsWith("2 frames, 2 bfc-control"), d.err());
        assertTrue(Cli.run("decode", p.toString()).out().contains("bfc-control len 60 02:aa:bb:cc:dd:ee > 01:80:c2:00:00:0e pause seq 65535 queue 5"));

        Path r = dir.resolve("bfc-resume.pcap");
        assertEquals(0, Cli.run("frame", "bfc", "--op", "RESUME", "--queue", "0", "--dst-mac", "02:00:00:00:00:09",
                "--out", r.toString()).exitCode());
        String line = Cli.run("decode", "--json", r.toString()).outLines()[0];
        assertTrue(line.contains("\"bfcOp\":\"resume\",\"bfcSeq\":0,\"bfcQueue\":0"), line);
        assertTrue(line.contains("\"dst\":\"02:00:00:00:00:09\""), line);

        Path b = dir.resolve("bfc-bitmap.pcap");
        assertEquals(0, Cli.run("frame", "bfc", "--op", "bitmap", "--queues", "128", "--paused", "127,0,63,64",
                "--seq", "7", "--out", b.toString()).exitCode());
        line = Cli.run("decode", "--json", b.toString()).outLines()[0];
        assertTrue(line.contains("\"bfcOp\":\"bitmap\",\"bfcSeq\":7,\"bfcQueues\":128,\"bfcPaused\":[0,63,64,127]"), line);
        assertFalse(line.contains("bfcQueue\":"), line);
        assertTrue(Cli.run("decode", b.toString()).out().contains("bitmap seq 7 queues 128 paused [0, 63, 64, 127]"));

        Path empty = dir.resolve("bfc-empty.pcap");
        assertEquals(0, Cli.run("frame", "bfc", "--op", "bitmap", "--out", empty.toString()).exitCode());
        line = Cli.run("decode", "--json", empty.toString()).outLines()[0];
        assertTrue(line.contains("\"bfcQueues\":32,\"bfcPaused\":[]"), line);
    }

    @Test
    void bfcShimShowsTheUpstreamQueue() {
        Path r = dir.resolve("shim.pcap");
        Cli w = Cli.run("frame", "roce", "--pcp", "3", "--vlan", "42", "--bfc-upstream-queue", "9", "--qp", "4660",
                "--payload", "64", "--out", r.toString());
        assertEquals(0, w.exitCode(), w.err());
        String line = Cli.run("decode", "--json", r.toString()).outLines()[0];
        for (String key : new String[] {"\"type\":\"roce\"", "\"etherType\":2048", "\"vlan\":42",
                "\"bfcUpstreamQ\":9", "\"bfcSenderIsBfc\":true", "\"dscp\":26", "\"ipv4ChecksumOk\":true",
                "\"destQp\":4660"}) {
            assertTrue(line.contains(key), key + " missing in " + line);
        }
        assertTrue(Cli.run("decode", r.toString()).out().contains("vlan 42 pcp 3 bfc upstream-q 9 10.0.0.1 > 10.0.0.2"));

        Path none = dir.resolve("shim-none.pcap");
        assertEquals(0, Cli.run("frame", "roce", "--bfc-upstream-queue", "65535", "--out", none.toString()).exitCode());
        assertTrue(Cli.run("decode", none.toString()).out().contains("bfc upstream-q none (sender not bfc)"));
        assertTrue(Cli.run("decode", "--json", none.toString()).out().contains("\"bfcUpstreamQ\":65535,\"bfcSenderIsBfc\":false"));

        Path plain = dir.resolve("plain.pcap");
        assertEquals(0, Cli.run("frame", "roce", "--out", plain.toString()).exitCode());
        assertFalse(Cli.run("decode", "--json", plain.toString()).out().contains("bfc"));
    }

    @Test
    void malformedBfcFramesAreReported() throws IOException {
        Path f = dir.resolve("bad-bfc.pcap");
        MemorySegment ctl = MemorySegment.ofArray(new byte[60]);
        Bfc.writeBitmap(ctl, 0, Bfc.NEAREST_BRIDGE, 1, 1, 128, 1, 1);
        MemorySegment badOp = MemorySegment.ofArray(ctl.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        NetOrder.put8(badOp, 15, 9);
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).bfcUpstreamQueue(3).payloadBytes(100);
        MemorySegment shimmed = MemorySegment.ofArray(new byte[b.frameLength()]);
        int len = b.write(shimmed, 0);
        MemorySegment badVersion = MemorySegment.ofArray(shimmed.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        NetOrder.put8(badVersion, 14, 0x21);
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Precision.NANOS)) {
            w.write(0, ctl, 0, 30);                                        // bitmap cut off
            w.write(1, badOp, 0, 60);
            w.write(2, shimmed, 0, 17);                                    // shim cut off
            w.write(3, badVersion, 0, len);
            w.write(4, shimmed, 0, len);
        }
        Cli d = Cli.run("decode", "--json", f.toString());
        assertEquals(0, d.exitCode());
        String[] lines = d.outLines();
        assertEquals(5, lines.length, Arrays.toString(lines));
        assertTrue(lines[0].contains("\"error\":\"BFC control frame cut off\""), lines[0]);
        assertTrue(lines[1].contains("\"error\":\"BFC control frame has a bad version, op or bitmap size\""), lines[1]);
        assertTrue(lines[2].contains("\"error\":\"BFC shim cut off\""), lines[2]);
        assertTrue(lines[3].contains("\"error\":\"BFC shim version is not 1\""), lines[3]);
        assertTrue(lines[3].contains("\"etherType\":" + Bfc.TYPE_SHIM), lines[3]);
        assertTrue(lines[4].contains("\"type\":\"roce\""), lines[4]);
        assertTrue(d.err().contains("5 frames, 4 malformed, 1 roce"), d.err());
    }

    @Test
    void badBfcArgumentsGetOneClearError() {
        String out = dir.resolve("y.pcap").toString();
        assertUsageError(Cli.run("frame", "bfc", "--op", "stop", "--queue", "1", "--out", out), "--op must be pause, resume or bitmap, got 'stop'");
        assertUsageError(Cli.run("frame", "bfc", "--op", "pause", "--out", out), "--op pause needs --queue");
        assertUsageError(Cli.run("frame", "bfc", "--op", "pause", "--queue", "65536", "--out", out), "--queue must be 0..65535");
        assertUsageError(Cli.run("frame", "bfc", "--op", "resume", "--queue", "-1", "--out", out), "--queue must be 0..65535");
        assertUsageError(Cli.run("frame", "bfc", "--op", "pause", "--queue", "1", "--paused", "1", "--out", out), "--paused is for --op bitmap");
        assertUsageError(Cli.run("frame", "bfc", "--op", "pause", "--queue", "1", "--seq", "70000", "--out", out), "--seq must be 0..65535");
        assertUsageError(Cli.run("frame", "bfc", "--op", "bitmap", "--queue", "1", "--out", out), "--queue is for --op pause and resume");
        assertUsageError(Cli.run("frame", "bfc", "--op", "bitmap", "--queues", "129", "--out", out), "--queues must be 0..128");
        assertUsageError(Cli.run("frame", "bfc", "--op", "bitmap", "--queues", "32", "--paused", "32", "--out", out),
                "--paused: queue must be 0..31 (below --queues 32), got 32");
        assertUsageError(Cli.run("frame", "bfc", "--op", "bitmap", "--paused", "3,3", "--out", out), "--paused: queue 3 given twice");
        assertUsageError(Cli.run("frame", "bfc", "--op", "bitmap", "--paused", "x", "--out", out), "--paused");
        assertUsageError(Cli.run("frame", "bfc", "--queue", "1", "--out", out), "Missing required option: '--op=OP'");
        assertUsageError(Cli.run("frame", "bfc", "--op", "pause", "--queue", "1", "--dst-mac", "nope", "--out", out), "not a MAC address");
        assertUsageError(Cli.run("frame", "roce", "--bfc-upstream-queue", "65536", "--out", out), "--bfc-upstream-queue must be 0..65535");
        assertFalse(Files.exists(Path.of(out)), "nothing is written on bad arguments");
    }

    private static void assertUsageError(Cli c, String expected) {
        assertEquals(2, c.exitCode(), "exit code for: " + c.err());
        assertTrue(c.err().contains(expected), "expected '" + expected + "' in: " + c.err());
        assertTrue(c.out().isEmpty(), c.out());
        assertFalse(c.err().contains("Exception"), c.err());
        assertEquals(2, c.err().lines().count(), "one line and a hint, not the whole usage: " + c.err());
    }

}

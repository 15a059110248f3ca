package org.pfcswitch.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The real peer: Wireshark's dissectors (through tshark) read our frames, and what they see
 * must be what we encoded. It fails, never skips, when tshark is missing.
 */
class TsharkInteropTest {
    private static final String[] PFC_FIELDS = {"macc.opcode", "macc.cbfc.enbv",
            "macc.cbfc.pause_time.c0", "macc.cbfc.pause_time.c1", "macc.cbfc.pause_time.c2", "macc.cbfc.pause_time.c3",
            "macc.cbfc.pause_time.c4", "macc.cbfc.pause_time.c5", "macc.cbfc.pause_time.c6", "macc.cbfc.pause_time.c7",
            "eth.dst", "eth.src"};

    @TempDir
    Path dir;

    @BeforeAll
    static void tsharkIsThere() {
        Tshark.requireInstalled();
    }

    @Test
    void pfcFromTheCliDissectsAsPfc() throws Exception {
        Path f = dir.resolve("cli-pfc.pcap");
        assertEquals(0, Cli.run("frame", "pfc", "--priorities", "3,4", "--quanta", "65535,300", "--count", "2",
                "--src-mac", "02:aa:bb:cc:dd:ee", "--out", f.toString()).exitCode());
        List<String[]> rows = Tshark.fields(f, PFC_FIELDS);
        assertEquals(2, rows.size());
        for (String[] r : rows) {
            assertEquals(MacControl.OPCODE_PFC, Tshark.number(r[0]));
            assertEquals(0x18, Tshark.number(r[1]));
            long[] expected = {0, 0, 0, 65535, 300, 0, 0, 0};
            for (int p = 0; p < 8; p++) {
                assertEquals(expected[p], Tshark.number(r[2 + p]), "priority " + p);
            }
            assertEquals("01:80:c2:00:00:01", r[10]);
            assertEquals("02:aa:bb:cc:dd:ee", r[11]);
        }
    }

    @Test
    void pauseFromTheCliDissectsAsPause() throws Exception {
        Path f = dir.resolve("cli-pause.pcap");
        assertEquals(0, Cli.run("frame", "pause", "--quanta", "4242", "--out", f.toString()).exitCode());
        String[] r = Tshark.fields(f, "macc.opcode", "macc.pause_time").getFirst();
        assertEquals(MacControl.OPCODE_PAUSE, Tshark.number(r[0]));
        assertEquals(4242, Tshark.number(r[1]));
    }

    @Test
    void randomPfcFramesFromTheCodecMatchTshark() throws Exception {
        SplittableRandom rnd = new SplittableRandom(42);
        Path f = dir.resolve("codec-pfc.pcap");
        int n = 200;
        int[] enables = new int[n];
        int[][] quanta = new int[n][8];
        MemorySegment frame = MemorySegment.ofArray(new byte[60]);
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Precision.MICROS)) {
            for (int i = 0; i < n; i++) {
                enables[i] = rnd.nextInt(256);
                for (int p = 0; p < 8; p++) {
                    quanta[i][p] = rnd.nextInt(65536);
                }
                MacControl.writePfc(frame, 0, rnd.nextLong() & 0xFEFF_FFFF_FFFFL, enables[i], quanta[i]);
                w.write(i * 1000L, frame);
            }
        }
        List<String[]> rows = Tshark.fields(f, PFC_FIELDS);
        assertEquals(n, rows.size());
        for (int i = 0; i < n; i++) {
            assertEquals(enables[i], Tshark.number(rows.get(i)[1]), "frame " + i);
            for (int p = 0; p < 8; p++) {
                long want = (enables[i] & (1 << p)) != 0 ? quanta[i][p] : 0;
                assertEquals(want, Tshark.number(rows.get(i)[2 + p]), "frame " + i + " priority " + p);
            }
        }
    }

    /** VLAN PCP, DSCP/ECN, a good checksum after CE marking, and the BTH, for random RoCE frames. */
    @Test
    void roceFramesMatchTsharkBeforeAndAfterCeMarking() throws Exception {
        SplittableRandom rnd = new SplittableRandom(7);
        int[] opcodes = {Roce.OP_RC_WRITE_FIRST, Roce.OP_RC_WRITE_MIDDLE, Roce.OP_RC_WRITE_LAST, Roce.OP_RC_WRITE_ONLY,
                Roce.OP_RC_SEND_ONLY, Roce.OP_RC_ACK, Roce.OP_CNP};
        record Sent(boolean tagged, int pcp, int vid, int dscp, int ecn, int opcode, int qp, int psn, boolean marked) {}
        List<Sent> sent = new ArrayList<>();
        Path f = dir.resolve("codec-roce.pcap");
        MemorySegment frame = MemorySegment.ofArray(new byte[2048]);
        ParsedFrame parsed = new ParsedFrame();
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Precision.NANOS)) {
            for (int i = 0; i < 300; i++) {
                boolean tagged = rnd.nextBoolean();
                int pcp = rnd.nextInt(8);
                int vid = rnd.nextInt(1, 4095);
                int dscp = rnd.nextInt(64);
                int ecn = rnd.nextInt(4);
                int opcode = opcodes[rnd.nextInt(opcodes.length)];
                int qp = rnd.nextInt(1 << 24);
                int psn = rnd.nextInt(1 << 24);
                RoceFrameBuilder b = new RoceFrameBuilder().macs(0x0200_0000_0002L, 0x0200_0000_0001L)
                        .ips(rnd.nextInt(), rnd.nextInt()).dscp(dscp).ecn(ecn).opcode(opcode).destQp(qp).psn(psn)
                        .udpSrcPort(rnd.nextInt(49152, 65536)).payloadBytes(rnd.nextInt(0, 1500)).identification(i);
                if (tagged) {
                    b.vlan(pcp, vid);
                }
                int len = b.write(frame, 0);
                boolean marked = rnd.nextBoolean();
                if (marked) {
                    FrameParser.parse(frame, 0, len, parsed);
                    marked = Ipv4.markCongestionExperienced(frame, parsed.ipv4Offset());
                }
                sent.add(new Sent(tagged, pcp, vid, dscp, marked ? Ipv4.ECN_CE : ecn, opcode, qp, psn, marked));
                w.write(i, frame, 0, len);
            }
        }
        List<String[]> rows = Tshark.fields(f, "vlan.priority", "vlan.id", "ip.dsfield.dscp", "ip.dsfield.ecn",
                "ip.checksum.status", "udp.dstport", "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn");
        assertEquals(sent.size(), rows.size());
        int markedSeen = 0;
        for (int i = 0; i < rows.size(); i++) {
            String[] r = rows.get(i);
            Sent s = sent.get(i);
            String where = "frame " + i + " " + s;
            if (s.tagged()) {
                assertEquals(s.pcp(), Tshark.number(r[0]), where);
                assertEquals(s.vid(), Tshark.number(r[1]), where);
            } else {
                assertEquals("", r[0], where);
            }
            assertEquals(s.dscp(), Tshark.number(r[2]), where);
            assertEquals(s.ecn(), Tshark.number(r[3]), where);
            assertEquals(1, Tshark.number(r[4]), "IPv4 checksum status 1 = good; " + where);
            assertEquals(4791, Tshark.number(r[5]), where);
            assertEquals(s.opcode(), Tshark.number(r[6]), where);
            assertEquals(s.qp(), Tshark.number(r[7]), where);
            assertEquals(s.psn(), Tshark.number(r[8]), where);
            markedSeen += s.marked() ? 1 : 0;
        }
        assertTrue(markedSeen > 50, "enough CE-marked frames to mean something: " + markedSeen);
    }

    @Test
    void roceFromTheCliMatchesTshark() throws Exception {
        Path f = dir.resolve("cli-roce.pcap");
        assertEquals(0, Cli.run("frame", "roce", "--pcp", "5", "--vlan", "300", "--dscp", "46", "--ecn", "3",
                "--qp", "123456", "--psn", "654321", "--opcode", "0x06", "--payload", "1024", "--out", f.toString()).exitCode());
        String[] r = Tshark.fields(f, "vlan.priority", "ip.dsfield.dscp", "ip.dsfield.ecn", "ip.checksum.status",
                "infiniband.bth.opcode", "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.reth.dmalen").getFirst();
        assertArrayEquals(new long[] {5, 46, 3, 1, 6, 123456, 654321, 1024},
                java.util.Arrays.stream(r).mapToLong(Tshark::number).toArray());
    }
}

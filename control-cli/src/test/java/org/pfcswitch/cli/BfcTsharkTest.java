package org.pfcswitch.cli;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * BFC frames through the real tshark. Wireshark has no BFC dissector: it knows 0x88B5 and
 * 0x88B6 only as the local experimental EtherTypes and shows what follows as raw data, so this
 * checks the EtherType (outer, or behind a VLAN tag), the addresses and every byte after the
 * EtherType. It fails, never skips, when tshark is missing.
 */
class BfcTsharkTest {
    private static final long DST = 0x0200_0000_0002L;
    private static final long SRC = 0x0200_0000_0001L;

    @TempDir
    Path dir;

    @BeforeAll
    static void tsharkIsThere() {
        Tshark.requireInstalled();
    }

    private static String hex(MemorySegment s, int from, int to) {
        return HexFormat.of().formatHex(s.asSlice(from, to - from).toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void controlFramesAndShimmedRoceFramesAreWhatWeWrote() throws Exception {
        List<MemorySegment> frames = new ArrayList<>();
        MemorySegment pause = MemorySegment.ofArray(new byte[60]);
        Bfc.writePause(pause, 0, Bfc.NEAREST_BRIDGE, SRC, 0xFFFF, 31);
        frames.add(pause);
        MemorySegment resume = MemorySegment.ofArray(new byte[60]);
        Bfc.writeResume(resume, 0, DST, SRC, 0, 0x1234);
        frames.add(resume);
        MemorySegment bitmap = MemorySegment.ofArray(new byte[60]);
        Bfc.writeBitmap(bitmap, 0, Bfc.NEAREST_BRIDGE, SRC, 77, 128, 1L | 1L << 63, 1L | 1L << 63);
        frames.add(bitmap);
        RoceFrameBuilder untagged = new RoceFrameBuilder().macs(DST, SRC).ips(0x0A00_0001, 0x0A00_0002).dscp(26)
                .opcode(Roce.OP_RC_WRITE_ONLY).destQp(0xABCDE).psn(42).payloadBytes(256).bfcUpstreamQueue(7);
        MemorySegment shimmed = MemorySegment.ofArray(new byte[untagged.frameLength()]);
        untagged.write(shimmed, 0);
        frames.add(shimmed);
        RoceFrameBuilder tagged = new RoceFrameBuilder().macs(DST, SRC).ips(0x0A00_0001, 0x0A00_0002).vlan(5, 300)
                .opcode(Roce.OP_CNP).destQp(3).bfcUpstreamQueue(Bfc.NO_UPSTREAM_QUEUE);
        MemorySegment shimmedTagged = MemorySegment.ofArray(new byte[tagged.frameLength()]);
        tagged.write(shimmedTagged, 0);
        frames.add(shimmedTagged);

        Path f = dir.resolve("bfc.pcap");
        try (PcapWriter w = PcapWriter.create(f, PcapWriter.Precision.NANOS)) {
            for (int i = 0; i < frames.size(); i++) {
                w.write(i, frames.get(i));
            }
        }
        List<String[]> rows = Tshark.fields(f, "eth.type", "vlan.etype", "vlan.priority", "eth.dst", "eth.src",
                "data.data", "frame.len");
        assertEquals(frames.size(), rows.size());

        String[][] control = {rows.get(0), rows.get(1), rows.get(2)};
        for (int i = 0; i < control.length; i++) {
            String[] r = control[i];
            assertEquals(Bfc.TYPE_CONTROL, Tshark.number(r[0]), "control frame " + i);
            assertEquals(hex(frames.get(i), 14, 60), r[5], "control frame " + i + " bytes after the EtherType");
            assertEquals(60, Tshark.number(r[6]));
        }
        assertEquals("01:80:c2:00:00:0e", control[0][3]);
        assertEquals("02:00:00:00:00:01", control[0][4]);
        assertEquals("02:00:00:00:00:02", control[1][3]);
        assertTrue(control[0][5].startsWith("0101ffff001f0000"), "version 1, PAUSE, seq 65535, queue 31: " + control[0][5]);
        assertTrue(control[1][5].startsWith("010200001234"), "RESUME of queue 0x1234: " + control[1][5]);
        assertTrue(control[2][5].startsWith("0103004d00000080" + "0100000000000080" + "0100000000000080"),
                "BITMAP seq 77, nbits 128, queues 0, 63, 64, 127: " + control[2][5]);

        String[] data = rows.get(3);
        assertEquals(Bfc.TYPE_SHIM, Tshark.number(data[0]));
        assertEquals("", data[1]);
        assertEquals(hex(shimmed, 14, untagged.frameLength()), data[5]);
        assertTrue(data[5].startsWith("11000007" + "0800" + "45"), "shim: v1 sender-is-BFC, upstreamQ 7, IPv4: " + data[5]);
        assertEquals(untagged.frameLength(), Tshark.number(data[6]));

        String[] vlan = rows.get(4);
        assertEquals(0x8100, Tshark.number(vlan[0]));
        assertEquals(Bfc.TYPE_SHIM, Tshark.number(vlan[1]));
        assertEquals(5, Tshark.number(vlan[2]));
        assertEquals(hex(shimmedTagged, 18, tagged.frameLength()), vlan[5]);
        assertTrue(vlan[5].startsWith("1000ffff" + "0800" + "45"), "shim: v1, no upstream queue, IPv4: " + vlan[5]);
    }

    @Test
    void cliBfcFramesAreWhatTsharkSees() throws Exception {
        Path f = dir.resolve("cli-bfc.pcap");
        assertEquals(0, Cli.run("frame", "bfc", "--op", "bitmap", "--queues", "12", "--paused", "1,5,9", "--seq", "258",
                "--src-mac", "02:aa:bb:cc:dd:ee", "--out", f.toString()).exitCode());
        String[] r = Tshark.fields(f, "eth.type", "eth.dst", "eth.src", "data.data").getFirst();
        assertEquals(Bfc.TYPE_CONTROL, Tshark.number(r[0]));
        assertEquals("01:80:c2:00:00:0e", r[1]);
        assertEquals("02:aa:bb:cc:dd:ee", r[2]);
        // version 1, BITMAP, seq 0x0102, qid 0, nbits 12, bitmap 0x22 0x02 (queues 1, 5 | 9), zero padding.
        assertEquals("01030102" + "0000" + "000c" + "2202" + "00".repeat(60 - 24), r[3]);

        Path s = dir.resolve("cli-shim.pcap");
        assertEquals(0, Cli.run("frame", "roce", "--bfc-upstream-queue", "300", "--payload", "8", "--out", s.toString()).exitCode());
        r = Tshark.fields(s, "eth.type", "data.data").getFirst();
        assertEquals(Bfc.TYPE_SHIM, Tshark.number(r[0]));
        assertTrue(r[1].startsWith("1100012c080045"), r[1]);
    }
}

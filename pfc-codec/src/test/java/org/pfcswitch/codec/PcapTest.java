package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

class PcapTest {
    @ParameterizedTest
    @EnumSource(PcapWriter.Precision.class)
    void roundTripKeepsBytesAndTimestamps(PcapWriter.Precision precision, @TempDir Path dir) throws IOException {
        Path file = dir.resolve("t.pcap");
        MemorySegment pfc = Frames.heap(60);
        MacControl.writePfc(pfc, 0, 0x02AABBCCDDEEL, 0x08, 1234);
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).payloadBytes(4000);
        MemorySegment roce = Frames.heap(b.frameLength());
        b.write(roce, 0);
        long t1 = 1_700_000_000_123_456_789L;
        try (PcapWriter w = PcapWriter.create(file, precision)) {
            w.write(t1, pfc);
            w.write(t1 + 5_000, roce);
        }
        long unit = precision == PcapWriter.Precision.NANOS ? 1 : 1000;
        try (PcapReader r = PcapReader.open(file)) {
            assertEquals(1, r.linkType());
            assertEquals(precision == PcapWriter.Precision.NANOS, r.nanosecondPrecision());
            PcapReader.Record a = r.next();
            assertEquals(1, a.index());
            assertEquals(t1 / unit * unit, a.timestampNanos());
            assertEquals(-1, a.data().mismatch(pfc));
            PcapReader.Record c = r.next();
            assertEquals((t1 + 5_000) / unit * unit, c.timestampNanos());
            assertEquals(b.frameLength(), c.capturedLength());
            assertEquals(b.frameLength(), c.originalLength());
            assertEquals(-1, c.data().mismatch(roce));
            assertNull(r.next());
        }
    }

    @Test
    void readsBigEndianFiles() throws IOException {
        ByteBuffer f = ByteBuffer.allocate(24 + 16 + 3).order(ByteOrder.BIG_ENDIAN);
        f.putInt(0xA1B2C3D4).putShort((short) 2).putShort((short) 4).putInt(0).putInt(0).putInt(65535).putInt(1);
        f.putInt(7).putInt(9).putInt(3).putInt(60).put(new byte[] {1, 2, 3});
        try (PcapReader r = new PcapReader(new ByteArrayInputStream(f.array()))) {
            PcapReader.Record rec = r.next();
            assertEquals(7_000_009_000L, rec.timestampNanos());
            assertEquals(3, rec.capturedLength());
            assertEquals(60, rec.originalLength());
            assertArrayEquals(new byte[] {1, 2, 3}, rec.data().toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void truncatedFilesAndBadMagicGiveClearErrors(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (PcapWriter w = new PcapWriter(bytes, PcapWriter.Precision.MICROS)) {
            w.write(0, Frames.heap(60));
        }
        byte[] whole = bytes.toByteArray();
        for (int cut : new int[] {24 + 8, 24 + 16 + 30}) {
            byte[] part = java.util.Arrays.copyOf(whole, cut);
            try (PcapReader r = new PcapReader(new ByteArrayInputStream(part))) {
                PcapFormatException e = assertThrows(PcapFormatException.class, r::next);
                assertTrue(e.getMessage().startsWith("record 1:"), e.getMessage());
            }
        }
        assertThrows(PcapFormatException.class, () -> new PcapReader(new ByteArrayInputStream(new byte[10])));
        PcapFormatException magic = assertThrows(PcapFormatException.class,
                () -> new PcapReader(new ByteArrayInputStream(new byte[24])));
        assertTrue(magic.getMessage().contains("magic"));
        byte[] ng = new byte[24];
        ByteBuffer.wrap(ng).order(ByteOrder.LITTLE_ENDIAN).putInt(0x0A0D0D0A);
        PcapFormatException pcapng = assertThrows(PcapFormatException.class, () -> new PcapReader(new ByteArrayInputStream(ng)));
        assertTrue(pcapng.getMessage().contains("editcap"));
        byte[] huge = whole.clone();
        ByteBuffer.wrap(huge).order(ByteOrder.LITTLE_ENDIAN).putInt(24 + 8, 0x7FFF_FFFF);
        try (PcapReader r = new PcapReader(new ByteArrayInputStream(huge))) {
            assertTrue(assertThrows(PcapFormatException.class, r::next).getMessage().contains("implausible"));
        }
        Path empty = Files.createFile(dir.resolve("empty.pcap"));
        assertThrows(PcapFormatException.class, () -> PcapReader.open(empty));
    }
}

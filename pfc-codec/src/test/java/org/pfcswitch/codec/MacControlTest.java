package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

class MacControlTest {
    private static final long SRC = 0x0211_2233_4455L;

    @Test
    void pfcFrameHasTheStandardLayoutByteForByte() {
        MemorySegment s = Frames.heap(64);
        s.fill((byte) 0x5A);                                  // padding must be overwritten
        int len = MacControl.writePfc(s, 0, SRC, 0b0001_1000, new int[] {0, 0, 0, 0xFFFF, 0x1234, 7, 7, 7});
        assertEquals(60, len);
        byte[] expected = new byte[60];
        int[] head = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x88, 0x08,
                0x01, 0x01, 0x00, 0x18,
                0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0x12, 0x34, 0, 0, 0, 0, 0, 0};   // disabled priorities get 0
        for (int i = 0; i < head.length; i++) {
            expected[i] = (byte) head[i];
        }
        assertArrayEquals(expected, s.asSlice(0, 60).toArray(ValueLayout.JAVA_BYTE));
    }

    @Test
    void pfcRoundTrip() {
        MemorySegment s = Frames.heap(60);
        MacControl.writePfc(s, 0, SRC, 0xFF, new int[] {1, 2, 3, 4, 5, 6, 7, 65535});
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.PFC, f.kind());
        assertEquals(0xFF, f.classEnable());
        assertEquals(MacAddress.MAC_CONTROL, f.dstMac());
        assertEquals(SRC, f.srcMac());
        for (int p = 0; p < 8; p++) {
            assertEquals(p == 7 ? 65535 : p + 1, f.quanta(p));
        }
        assertTrue(f.isMacControl());
    }

    @Test
    void singleTimeWriterMatchesArrayWriter() {
        MemorySegment a = Frames.heap(60);
        MemorySegment b = Frames.heap(60);
        MacControl.writePfc(a, 0, SRC, 0b1000_1001, 500);
        MacControl.writePfc(b, 0, SRC, 0b1000_1001, new int[] {500, 500, 500, 500, 500, 500, 500, 500});
        assertEquals(-1, a.mismatch(b));
    }

    @Test
    void pauseRoundTripAndLayout() {
        MemorySegment s = Frames.heap(60);
        assertEquals(60, MacControl.writePause(s, 0, SRC, 0xABCD));
        assertEquals(0x0001, NetOrder.u16(s, 14));
        assertEquals(0xABCD, NetOrder.u16(s, 16));
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(FrameKind.PAUSE, f.kind());
        assertEquals(0xABCD, f.pauseQuanta());
        assertFalse(f.isMalformed());
    }

    @Test
    void buildersRejectOutOfRangeValues() {
        MemorySegment s = Frames.heap(60);
        assertThrows(IllegalArgumentException.class, () -> MacControl.writePfc(s, 0, SRC, 0x100, 1));
        assertThrows(IllegalArgumentException.class, () -> MacControl.writePfc(s, 0, SRC, 1, 65536));
        assertThrows(IllegalArgumentException.class, () -> MacControl.writePfc(s, 0, SRC, 1, new int[] {-1, 0, 0, 0, 0, 0, 0, 0}));
        assertThrows(IllegalArgumentException.class, () -> MacControl.writePause(s, 0, SRC, 70000));
    }

    @Test
    void truncatedUnknownAndReservedBitsAreTypedErrors() {
        MemorySegment s = Frames.heap(60);
        MacControl.writePfc(s, 0, SRC, 0x08, 100);
        assertEquals(ParseError.TRUNCATED_MAC_CONTROL, Frames.parse(s, 33).error());
        assertEquals(ParseError.TRUNCATED_MAC_CONTROL, Frames.parse(s, 17).error());
        NetOrder.put16(s, 16, 0x0108);
        assertEquals(ParseError.PFC_RESERVED_BITS_SET, Frames.parse(s, 60).error());
        NetOrder.put16(s, 14, 0x0202);
        assertEquals(ParseError.UNKNOWN_MAC_CONTROL_OPCODE, Frames.parse(s, 60).error());
    }

    @Test
    void quantaToNanosAtCommonSpeeds() {
        // quanta x 512 bits / rate, rounded up: 51.2 ns, 3.355392 ms at 10G; 335.5392 us at 100G
        assertEquals(52, MacControl.quantaToNanos(1, 10_000_000_000L));
        assertEquals(3_355_392, MacControl.quantaToNanos(65535, 10_000_000_000L));
        assertEquals(335_540, MacControl.quantaToNanos(65535, 100_000_000_000L));
        assertEquals(1_342_157, MacControl.quantaToNanos(65535, 25_000_000_000L));
        assertEquals(0, MacControl.quantaToNanos(0, 25_000_000_000L));
    }
}

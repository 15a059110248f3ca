package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Big-endian (network order) field access over a {@link MemorySegment}.
 *
 * <p>Every header class reads and writes through these few methods so that byte order is
 * decided in one place. Offsets are absolute within the segment; the segment's own bounds
 * check is the last line of defence, the parsers check lengths before they read.
 */
public final class NetOrder {
    private static final ValueLayout.OfShort U16 =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    private static final ValueLayout.OfInt U32 =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private static final ValueLayout.OfLong U64 =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);

    private NetOrder() {}

    public static int u8(MemorySegment s, long off) {
        return s.get(ValueLayout.JAVA_BYTE, off) & 0xFF;
    }

    public static int u16(MemorySegment s, long off) {
        return s.get(U16, off) & 0xFFFF;
    }

    /** Three bytes, as used by BTH's destination QP and PSN. */
    public static int u24(MemorySegment s, long off) {
        return (u8(s, off) << 16) | u16(s, off + 1);
    }

    public static int u32(MemorySegment s, long off) {
        return s.get(U32, off);
    }

    public static long u64(MemorySegment s, long off) {
        return s.get(U64, off);
    }

    /** A 48-bit MAC address as the low 48 bits of a long. */
    public static long u48(MemorySegment s, long off) {
        return ((long) u16(s, off) << 32) | (u32(s, off + 2) & 0xFFFF_FFFFL);
    }

    public static void put8(MemorySegment s, long off, int v) {
        s.set(ValueLayout.JAVA_BYTE, off, (byte) v);
    }

    public static void put16(MemorySegment s, long off, int v) {
        s.set(U16, off, (short) v);
    }

    public static void put24(MemorySegment s, long off, int v) {
        put8(s, off, v >>> 16);
        put16(s, off + 1, v);
    }

    public static void put32(MemorySegment s, long off, int v) {
        s.set(U32, off, v);
    }

    public static void put64(MemorySegment s, long off, long v) {
        s.set(U64, off, v);
    }

    public static void put48(MemorySegment s, long off, long v) {
        put16(s, off, (int) (v >>> 32));
        put32(s, off + 2, (int) v);
    }
}

package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/** Ethernet II header: destination, source, EtherType. Frames here never carry the FCS. */
public final class Ethernet {
    public static final int HEADER_BYTES = 14;
    /** The shortest legal frame without FCS; shorter frames are padded to it. */
    public static final int MIN_FRAME_BYTES = 60;

    public static final int TYPE_IPV4 = 0x0800;
    public static final int TYPE_VLAN = 0x8100;
    public static final int TYPE_QINQ = 0x88A8;
    public static final int TYPE_MAC_CONTROL = 0x8808;

    static final int DST = 0;
    static final int SRC = 6;
    static final int TYPE = 12;

    private Ethernet() {}

    public static long dst(MemorySegment s, long frame) {
        return NetOrder.u48(s, frame + DST);
    }

    public static long src(MemorySegment s, long frame) {
        return NetOrder.u48(s, frame + SRC);
    }

    public static int etherType(MemorySegment s, long frame) {
        return NetOrder.u16(s, frame + TYPE);
    }

    /** Writes the header and returns the offset of what follows it. */
    public static long write(MemorySegment s, long frame, long dst, long src, int etherType) {
        NetOrder.put48(s, frame + DST, dst);
        NetOrder.put48(s, frame + SRC, src);
        NetOrder.put16(s, frame + TYPE, etherType);
        return frame + HEADER_BYTES;
    }

    /** Zero-fills from {@code end} up to the 60-byte minimum; returns the padded frame length. */
    public static int padToMinimum(MemorySegment s, long frame, int length) {
        if (length >= MIN_FRAME_BYTES) {
            return length;
        }
        int at = length;
        for (; at + 8 <= MIN_FRAME_BYTES; at += 8) {     // a few word stores; no slice to allocate
            NetOrder.put64(s, frame + at, 0);
        }
        for (; at < MIN_FRAME_BYTES; at++) {
            NetOrder.put8(s, frame + at, 0);
        }
        return MIN_FRAME_BYTES;
    }
}

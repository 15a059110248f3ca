package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/** UDP header. RoCEv2 runs over destination port 4791 and sends a zero checksum. */
public final class Udp {
    public static final int HEADER_BYTES = 8;
    public static final int ROCE_V2_PORT = 4791;

    static final int SRC_PORT = 0;
    static final int DST_PORT = 2;
    static final int LENGTH = 4;
    static final int CHECKSUM = 6;

    private Udp() {}

    public static int srcPort(MemorySegment s, long udp) {
        return NetOrder.u16(s, udp + SRC_PORT);
    }

    public static int dstPort(MemorySegment s, long udp) {
        return NetOrder.u16(s, udp + DST_PORT);
    }

    /** Header plus data, in bytes. */
    public static int length(MemorySegment s, long udp) {
        return NetOrder.u16(s, udp + LENGTH);
    }

    /** Writes a header with a zero (absent) checksum; returns the payload offset. */
    public static long write(MemorySegment s, long udp, int srcPort, int dstPort, int payloadBytes) {
        NetOrder.put16(s, udp + SRC_PORT, srcPort);
        NetOrder.put16(s, udp + DST_PORT, dstPort);
        NetOrder.put16(s, udp + LENGTH, HEADER_BYTES + payloadBytes);
        NetOrder.put16(s, udp + CHECKSUM, 0);
        return udp + HEADER_BYTES;
    }
}

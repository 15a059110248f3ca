package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * 802.1Q tag: 2-byte TCI (PCP 3 bits, DEI 1 bit, VID 12 bits) followed by the inner
 * EtherType. The tag sits where the EtherType was, at offset 12 of the frame.
 */
public final class Vlan {
    public static final int TAG_BYTES = 4;

    private Vlan() {}

    /** {@code tag} is the offset of the TCI, i.e. just after the 0x8100 TPID. */
    public static int tci(MemorySegment s, long tag) {
        return NetOrder.u16(s, tag);
    }

    public static int pcp(int tci) {
        return tci >>> 13;
    }

    public static int dei(int tci) {
        return (tci >>> 12) & 1;
    }

    public static int vid(int tci) {
        return tci & 0x0FFF;
    }

    public static int tci(int pcp, int dei, int vid) {
        if (pcp < 0 || pcp > 7 || dei < 0 || dei > 1 || vid < 0 || vid > 4095) {
            throw new IllegalArgumentException("VLAN tag out of range: pcp=" + pcp + " dei=" + dei + " vid=" + vid);
        }
        return (pcp << 13) | (dei << 12) | vid;
    }

    /**
     * Writes an Ethernet header with one 802.1Q tag and returns the offset of the payload.
     */
    public static long writeTagged(MemorySegment s, long frame, long dst, long src, int tci, int innerType) {
        Ethernet.write(s, frame, dst, src, Ethernet.TYPE_VLAN);
        NetOrder.put16(s, frame + Ethernet.HEADER_BYTES, tci);
        NetOrder.put16(s, frame + Ethernet.HEADER_BYTES + 2, innerType);
        return frame + Ethernet.HEADER_BYTES + TAG_BYTES;
    }
}

package org.pfcswitch.codec;

/**
 * The flow hash: the IPv4 5-tuple plus the RoCE destination QP mixed into 64 bits. RoCE
 * flows between one pair of hosts share the 5-tuple except for the UDP source port, which
 * NICs derive from the QP; mixing the QP in as well keeps QPs apart on NICs that don't.
 * Used for ECMP, flow tables (BFC) and per-flow counters, so it is a pure function of the
 * key and cheap enough to run on every packet.
 */
public final class FlowHash {
    private FlowHash() {}

    public static long hash(int srcIp, int dstIp, int protocol, int srcPort, int dstPort, int destQp) {
        long addresses = ((long) srcIp << 32) | (dstIp & 0xFFFF_FFFFL);
        long rest = ((long) (protocol & 0xFF) << 56) | ((long) (srcPort & 0xFFFF) << 40)
                | ((long) (dstPort & 0xFFFF) << 24) | (destQp & 0xFF_FFFF);
        return mix(addresses * 0x9E37_79B9_7F4A_7C15L ^ rest);
    }

    /** Hash of a non-IP frame: its MAC pair and EtherType. */
    public static long hashL2(long dstMac, long srcMac, int etherType) {
        return mix((dstMac * 0x9E37_79B9_7F4A_7C15L) ^ (srcMac << 16) ^ etherType);
    }

    /** The 64-bit finaliser of MurmurHash3: every input bit affects every output bit. */
    static long mix(long h) {
        h ^= h >>> 33;
        h *= 0xFF51_AFD7_ED55_8CCDL;
        h ^= h >>> 33;
        h *= 0xC4CE_B9FE_1A85_EC53L;
        h ^= h >>> 33;
        return h;
    }
}

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

    /**
     * Folds the high half down, multiplies and folds again: with the multiply before it, every
     * input bit reaches every output bit, in two multiplies on the critical path instead of the
     * three of a full MurmurHash3 finaliser (the hash runs once per packet).
     */
    static long mix(long h) {
        h ^= h >>> 32;
        h *= 0xD6E8_FEB8_6659_FD93L;
        return h ^ (h >>> 32);
    }
}

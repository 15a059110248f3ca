package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * IPv4 header: DSCP and ECN in the traffic-class byte, the header checksum, and CE marking
 * with an incremental checksum update (RFC 1624), so a switch marks without re-summing.
 */
public final class Ipv4 {
    public static final int MIN_HEADER_BYTES = 20;
    public static final int PROTO_UDP = 17;

    public static final int ECN_NOT_ECT = 0;
    public static final int ECN_ECT1 = 1;
    public static final int ECN_ECT0 = 2;
    public static final int ECN_CE = 3;

    static final int VERSION_IHL = 0;
    static final int TOS = 1;
    static final int TOTAL_LENGTH = 2;
    static final int IDENTIFICATION = 4;
    static final int FLAGS_FRAGMENT = 6;
    static final int TTL = 8;
    static final int PROTOCOL = 9;
    static final int CHECKSUM = 10;
    static final int SRC = 12;
    static final int DST = 16;

    private Ipv4() {}

    public static int version(MemorySegment s, long ip) {
        return NetOrder.u8(s, ip + VERSION_IHL) >>> 4;
    }

    /** Header length in bytes (IHL × 4). */
    public static int headerBytes(MemorySegment s, long ip) {
        return (NetOrder.u8(s, ip + VERSION_IHL) & 0x0F) << 2;
    }

    public static int dscp(MemorySegment s, long ip) {
        return NetOrder.u8(s, ip + TOS) >>> 2;
    }

    public static int ecn(MemorySegment s, long ip) {
        return NetOrder.u8(s, ip + TOS) & 0x3;
    }

    public static int totalLength(MemorySegment s, long ip) {
        return NetOrder.u16(s, ip + TOTAL_LENGTH);
    }

    public static int ttl(MemorySegment s, long ip) {
        return NetOrder.u8(s, ip + TTL);
    }

    public static int protocol(MemorySegment s, long ip) {
        return NetOrder.u8(s, ip + PROTOCOL);
    }

    public static int checksumField(MemorySegment s, long ip) {
        return NetOrder.u16(s, ip + CHECKSUM);
    }

    public static int src(MemorySegment s, long ip) {
        return NetOrder.u32(s, ip + SRC);
    }

    public static int dst(MemorySegment s, long ip) {
        return NetOrder.u32(s, ip + DST);
    }

    /** The checksum the header should carry: one's complement of the one's-complement sum with the field as zero. */
    public static int computeChecksum(MemorySegment s, long ip, int headerBytes) {
        int sum = 0;
        for (int i = 0; i < headerBytes; i += 2) {
            if (i != CHECKSUM) {
                sum += NetOrder.u16(s, ip + i);
            }
        }
        return ~fold(sum) & 0xFFFF;
    }

    /** True when the header sums to 0xFFFF including its checksum field. */
    public static boolean checksumValid(MemorySegment s, long ip, int headerBytes) {
        int sum = 0;
        for (int i = 0; i < headerBytes; i += 2) {
            sum += NetOrder.u16(s, ip + i);
        }
        return fold(sum) == 0xFFFF;
    }

    /**
     * Marks Congestion Experienced if the packet is ECN-capable and updates the checksum
     * incrementally (RFC 1624 eqn. 3: HC' = ~(~HC + ~m + m')). Returns false, changing
     * nothing, for a Not-ECT packet: RFC 3168 says such a packet is dropped, not marked, and
     * that choice belongs to the caller. An already-CE packet is left as it is.
     */
    public static boolean markCongestionExperienced(MemorySegment s, long ip) {
        int oldWord = NetOrder.u16(s, ip + VERSION_IHL);   // version/IHL byte + TOS byte
        int ecn = oldWord & 0x3;
        if (ecn == ECN_NOT_ECT) {
            return false;
        }
        if (ecn == ECN_CE) {
            return true;
        }
        int newWord = oldWord | ECN_CE;
        NetOrder.put16(s, ip + VERSION_IHL, newWord);
        int sum = (~checksumField(s, ip) & 0xFFFF) + (~oldWord & 0xFFFF) + newWord;
        NetOrder.put16(s, ip + CHECKSUM, ~fold(sum) & 0xFFFF);
        return true;
    }

    /**
     * Writes a 20-byte header without options, checksum included; returns the payload offset.
     * {@code payloadBytes} is what follows the header (UDP header and data).
     */
    public static long write(MemorySegment s, long ip, int dscp, int ecn, int payloadBytes,
                             int identification, int ttl, int protocol, int src, int dst) {
        if (dscp < 0 || dscp > 63 || ecn < 0 || ecn > 3) {
            throw new IllegalArgumentException("dscp must be 0..63 and ecn 0..3: dscp=" + dscp + " ecn=" + ecn);
        }
        NetOrder.put8(s, ip + VERSION_IHL, 0x45);
        NetOrder.put8(s, ip + TOS, (dscp << 2) | ecn);
        NetOrder.put16(s, ip + TOTAL_LENGTH, MIN_HEADER_BYTES + payloadBytes);
        NetOrder.put16(s, ip + IDENTIFICATION, identification);
        NetOrder.put16(s, ip + FLAGS_FRAGMENT, 0x4000);   // don't fragment, as RoCE NICs send
        NetOrder.put8(s, ip + TTL, ttl);
        NetOrder.put8(s, ip + PROTOCOL, protocol);
        NetOrder.put32(s, ip + SRC, src);
        NetOrder.put32(s, ip + DST, dst);
        NetOrder.put16(s, ip + CHECKSUM, computeChecksum(s, ip, MIN_HEADER_BYTES));
        return ip + MIN_HEADER_BYTES;
    }

    /** Dotted-quad text of an address held in an int. */
    public static String format(int addr) {
        return (addr >>> 24) + "." + ((addr >>> 16) & 0xFF) + "." + ((addr >>> 8) & 0xFF) + "." + (addr & 0xFF);
    }

    /** Parses a dotted quad; throws IllegalArgumentException with the bad text otherwise. */
    public static int parse(String text) {
        String[] parts = text.trim().split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
        }
        int addr = 0;
        for (String p : parts) {
            int v;
            try {
                v = Integer.parseInt(p);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
            }
            if (v < 0 || v > 255) {
                throw new IllegalArgumentException("not an IPv4 address: '" + text + "'");
            }
            addr = (addr << 8) | v;
        }
        return addr;
    }

    private static int fold(int sum) {
        sum = (sum & 0xFFFF) + (sum >>> 16);
        return (sum & 0xFFFF) + (sum >>> 16);
    }
}

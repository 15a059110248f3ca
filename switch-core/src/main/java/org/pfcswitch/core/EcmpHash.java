package org.pfcswitch.core;

import org.pfcswitch.codec.ParsedFrame;

/**
 * The hash an ECMP group picks its member by ({@link SwitchModel#ecmpHash}). Each constant is its
 * own policy, chosen once per core.
 */
public enum EcmpHash implements YamlNamed {

    /** The codec's flow hash: the IPv4 5-tuple plus the RoCE destination QP, the same on every switch (the default). */
    FLOW("flow") {
        @Override
        long hash(ParsedFrame f, int seed) {
            return f.flowHash();
        }
    },

    /**
     * 32-bit MurmurHash3 of (source IP, destination IP, source port | destination port &lt;&lt; 16),
     * three 32-bit words, seeded per switch: the function the ns-3 datacenter simulators' switch
     * node uses (its seed is the node id). Frames without IPv4 fall back to the flow hash.
     *
     * <p>An ACK or NAK (a RoCE frame with an AETH) hashes its ports the other way round. ns-3's
     * ACK carries its data packet's ports swapped (source port = the data's destination port); ours
     * carries the data's source port and, as RoCEv2 requires, destination port 4791. Swapping them
     * here gives the word ns-3's ACK gives, so the ACKs of a flow whose ports match ns-3's take
     * ns-3's way back as well.
     */
    FIVE_TUPLE("fiveTuple") {
        @Override
        long hash(ParsedFrame f, int seed) {
            if (!f.hasIpv4()) {
                return f.flowHash();
            }
            int ports = f.udpSrcPort() < 0 ? 0
                    : f.hasAeth() ? f.udpDstPort() | f.udpSrcPort() << 16
                    : f.udpSrcPort() | f.udpDstPort() << 16;
            return murmur3(f.srcIp(), f.dstIp(), ports, seed) & 0xFFFF_FFFFL;
        }
    };

    private final String yamlName;

    EcmpHash(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The hash of the parsed frame {@code f} under {@code seed}, as an unsigned value. */
    abstract long hash(ParsedFrame f, int seed);

    @Override
    public String yamlName() {
        return yamlName;
    }


    /** MurmurHash3 (x86, 32 bits) of three little-endian 32-bit words. */
    static int murmur3(int w0, int w1, int w2, int seed) {
        int h = seed;
        h = mixInto(h, w0);
        h = mixInto(h, w1);
        h = mixInto(h, w2);
        h ^= 12;                                    // the key's length in bytes
        h ^= h >>> 16;
        h *= 0x85eb_ca6b;
        h ^= h >>> 13;
        h *= 0xc2b2_ae35;
        h ^= h >>> 16;
        return h;
    }

    private static int mixInto(int h, int word) {
        int k = word * 0xcc9e_2d51;
        k = Integer.rotateLeft(k, 15);
        k *= 0x1b87_3593;
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe654_6b64;
    }
}

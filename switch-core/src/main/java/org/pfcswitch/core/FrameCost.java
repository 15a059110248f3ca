package org.pfcswitch.core;

/**
 * What a frame costs in a simulated switch's buffer and on a simulated line ({@code frameCost}).
 * Each constant is its own policy, picked once for a whole testbed: switches, hosts and links must
 * agree, or a frame's arrival and the line's free time drift apart.
 */
public enum FrameCost implements YamlNamed {

    /** Its own bytes in the buffer, plus FCS, preamble and gap on the line ({@link LineRate}; the default). */
    ETHERNET("ethernet") {
        @Override
        public int bufferBytes(int frameBytes) {
            return frameBytes;
        }

        @Override
        public long lineNanos(int frameBytes, long bitsPerSecond) {
            return LineRate.nanos(frameBytes, bitsPerSecond);
        }
    },

    /**
     * The size ns-3's datacenter simulators give the same packet, in the buffer and on the line: their
     * RDMA packet carries PPP (2 B) and a sequence header (6 B) where ours carries Ethernet (14 B), a BTH
     * (12 B) and an ICRC (4 B), 22 B less for the same payload (1036 B against 1058 B for 1000 B), and
     * their point-to-point device sends with no FCS, preamble or gap ({@code InterframeGap} 0). Their
     * ACK is 48 B, the floor here (ours is 60). Our frames stay what they are; only what they cost changes.
     */
    NS3_PACKET("ns3Packet") {
        @Override
        public int bufferBytes(int frameBytes) {
            return Math.max(frameBytes - NS3_HEADER_SAVING, NS3_MIN_PACKET);
        }

        @Override
        public long lineNanos(int frameBytes, long bitsPerSecond) {
            long bits = bufferBytes(frameBytes) * 8L;
            return (bits * 1_000_000_000L + bitsPerSecond - 1) / bitsPerSecond;
        }
    };

    /** Ethernet 14 + BTH 12 + ICRC 4 against PPP 2 + ns-3's SeqTs header 6. */
    static final int NS3_HEADER_SAVING = 22;
    /** ns-3's ACK: PPP, IPv4 and a header padded to 26 B. */
    static final int NS3_MIN_PACKET = 48;

    private final String yamlName;

    FrameCost(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The bytes a frame of {@code frameBytes} is charged in the buffer. */
    public abstract int bufferBytes(int frameBytes);

    /** Nanoseconds a frame of {@code frameBytes} keeps a line of {@code bitsPerSecond} busy, rounded up. */
    public abstract long lineNanos(int frameBytes, long bitsPerSecond);

    @Override
    public String yamlName() {
        return yamlName;
    }

    /** The policy called {@code name} in scenario files, or null. */
    public static FrameCost byYamlName(String name) {
        return YamlNamed.byYamlName(FrameCost.class, name);
    }
}

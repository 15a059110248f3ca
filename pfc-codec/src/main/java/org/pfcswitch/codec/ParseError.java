package org.pfcswitch.codec;

/**
 * Why a frame could not be parsed. The parser returns one of these instead of throwing, so a
 * poll loop can count the reason and go on with the rest of its burst.
 */
public enum ParseError {
    NONE("ok"),
    OUTSIDE_BUFFER("offset or length lies outside the buffer"),
    RUNT("shorter than an Ethernet header (14 bytes)"),
    TRUNCATED_VLAN_TAG("802.1Q tag cut off"),
    TOO_MANY_VLAN_TAGS("more than two stacked VLAN tags"),
    TRUNCATED_MAC_CONTROL("MAC control frame too short for its opcode"),
    UNKNOWN_MAC_CONTROL_OPCODE("unknown MAC control opcode"),
    PFC_RESERVED_BITS_SET("PFC class-enable vector has reserved upper bits set"),
    TRUNCATED_IPV4("IPv4 header cut off"),
    BAD_IPV4_VERSION("IPv4 EtherType but IP version is not 4"),
    BAD_IPV4_HEADER_LENGTH("IPv4 header length (IHL) below 5 words"),
    BAD_IPV4_TOTAL_LENGTH("IPv4 total length disagrees with the frame"),
    TRUNCATED_UDP("UDP header cut off"),
    BAD_UDP_LENGTH("UDP length disagrees with the IPv4 payload"),
    TRUNCATED_BTH("RoCEv2 base transport header cut off"),
    UNKNOWN_BTH_OPCODE("unknown RoCEv2 BTH opcode"),
    TRUNCATED_AETH("RoCEv2 ACK extended transport header cut off"),
    TRUNCATED_BFC_SHIM("BFC shim cut off"),
    BAD_BFC_VERSION("BFC shim version is not 1"),
    TRUNCATED_BFC_CONTROL("BFC control frame cut off"),
    BAD_BFC_CONTROL("BFC control frame has a bad version, op or bitmap size");

    /** By ordinal: ParsedFrame stores the ordinal, a byte store that needs no GC write barrier. */
    static final ParseError[] BY_ORDINAL = values();

    private final String reason;
    private final String label;

    ParseError(String reason) {
        this.reason = reason;
        this.label = name().toLowerCase(java.util.Locale.ROOT);
    }

    /**
     * The reason's name wherever a malformed frame is counted ({@code truncated_vlan_tag}): the
     * switch's shutdown log, {@code show}, the {@code reason} label of {@code /metrics} and
     * {@code decode}'s summary, so their counts can be set side by side.
     */
    public String label() {
        return label;
    }

    /** A short human-readable reason, used in logs, the decode command and counter help. */
    public String reason() {
        return reason;
    }

    public boolean isError() {
        return this != NONE;
    }
}

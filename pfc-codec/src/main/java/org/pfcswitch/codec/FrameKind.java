package org.pfcswitch.codec;

/** What a frame turned out to be, from the outermost layer the parser recognised. */
public enum FrameKind {
    /** An Ethernet frame of an EtherType the switch only forwards (ARP, IPv6, ...). */
    ETHERNET("ethernet"),
    /** IPv4 that is not RoCEv2. */
    IPV4("ipv4"),
    /** RoCEv2: IPv4, UDP destination port 4791, a BTH. */
    ROCE("roce"),
    /** 802.1Qbb priority flow control. */
    PFC("pfc"),
    /** 802.3x link-level PAUSE. */
    PAUSE("pause"),
    /** A BFC PAUSE, RESUME or BITMAP control frame (EtherType 0x88B6), see {@link Bfc}. */
    BFC_CONTROL("bfc-control");

    // Codes stored in ParsedFrame: a byte store costs no GC write barrier, an enum store does.
    static final byte CODE_ETHERNET = 0;
    static final byte CODE_IPV4 = 1;
    static final byte CODE_ROCE = 2;
    static final byte CODE_PFC = 3;
    static final byte CODE_PAUSE = 4;
    static final byte CODE_BFC_CONTROL = 5;
    static final FrameKind[] BY_CODE = values();

    private final String label;

    FrameKind(String label) {
        this.label = label;
    }

    /** The lower-case name used in JSON output and metric labels. */
    public String label() {
        return label;
    }
}

package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * Parses a frame in place, layer by layer: Ethernet, up to two VLAN tags, then MAC control
 * (PFC, PAUSE) or IPv4, UDP and the RoCEv2 BTH (and AETH). It never throws on bad bytes and
 * never reads past {@code length}: every read is preceded by a length check, and the first
 * failed check ends the parse with a {@link ParseError}.
 */
public final class FrameParser {
    private static final int MAX_VLAN_TAGS = 2;

    private FrameParser() {}

    /**
     * Parses {@code length} bytes at {@code offset} of {@code s} into {@code out} and returns
     * {@link ParseError#NONE} or the reason it stopped (also left in {@code out.error()}).
     */
    public static ParseError parse(MemorySegment s, long offset, int length, ParsedFrame out) {
        out.reset(s, offset, length);
        ParseError e = offset < 0 || length < 0 || offset + length > s.byteSize()
                ? ParseError.OUTSIDE_BUFFER
                : parseInto(s, offset, length, out);
        out.error = e;
        return e;
    }

    /** Parses a whole segment. */
    public static ParseError parse(MemorySegment frame, ParsedFrame out) {
        long size = frame.byteSize();
        return parse(frame, 0, size > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) size, out);
    }

    private static ParseError parseInto(MemorySegment s, long frame, int length, ParsedFrame out) {
        if (length < Ethernet.HEADER_BYTES) {
            return ParseError.RUNT;
        }
        out.dstMac = Ethernet.dst(s, frame);
        out.srcMac = Ethernet.src(s, frame);
        int type = Ethernet.etherType(s, frame);
        int at = Ethernet.HEADER_BYTES;      // offset within the frame

        while (type == Ethernet.TYPE_VLAN || type == Ethernet.TYPE_QINQ) {
            if (out.vlanTags == MAX_VLAN_TAGS) {
                return ParseError.TOO_MANY_VLAN_TAGS;
            }
            if (at + Vlan.TAG_BYTES > length) {
                return ParseError.TRUNCATED_VLAN_TAG;
            }
            int tci = Vlan.tci(s, frame + at);
            if (out.vlanTags == 0) {          // the outer tag carries the priority the link uses
                out.pcp = Vlan.pcp(tci);
                out.dei = Vlan.dei(tci);
                out.vid = Vlan.vid(tci);
            }
            out.vlanTags++;
            type = NetOrder.u16(s, frame + at + 2);
            at += Vlan.TAG_BYTES;
        }
        out.etherType = type;

        return switch (type) {
            case Ethernet.TYPE_IPV4 -> parseIpv4(s, frame, at, length, out);
            case Ethernet.TYPE_MAC_CONTROL -> parseMacControl(s, frame, at, length, out);
            default -> ParseError.NONE;
        };
    }

    /** {@code at} is where the opcode starts; the layout after the EtherType is fixed. */
    private static ParseError parseMacControl(MemorySegment s, long frame, int at, int length, ParsedFrame out) {
        // MacControl's accessors count from an untagged frame's start; shift past any tags.
        long base = frame + at - Ethernet.HEADER_BYTES;
        int tagBytes = at - Ethernet.HEADER_BYTES;
        if (length < tagBytes + MacControl.PAUSE_BYTES) {
            return ParseError.TRUNCATED_MAC_CONTROL;
        }
        int opcode = MacControl.opcode(s, base);
        if (opcode == MacControl.OPCODE_PAUSE) {
            out.kind = FrameKind.PAUSE;
            out.pauseQuanta = MacControl.pauseQuanta(s, base);
            return ParseError.NONE;
        }
        if (opcode != MacControl.OPCODE_PFC) {
            return ParseError.UNKNOWN_MAC_CONTROL_OPCODE;
        }
        out.kind = FrameKind.PFC;
        if (length < tagBytes + MacControl.PFC_BYTES) {
            return ParseError.TRUNCATED_MAC_CONTROL;
        }
        int field = MacControl.classEnableField(s, base);
        out.classEnable = field & 0xFF;
        for (int p = 0; p < MacControl.PRIORITIES; p++) {
            out.quanta[p] = MacControl.pfcQuanta(s, base, p);
        }
        return (field & 0xFF00) != 0 ? ParseError.PFC_RESERVED_BITS_SET : ParseError.NONE;
    }

    private static ParseError parseIpv4(MemorySegment s, long frame, int at, int length, ParsedFrame out) {
        if (at + Ipv4.MIN_HEADER_BYTES > length) {
            return ParseError.TRUNCATED_IPV4;
        }
        long ip = frame + at;
        if (Ipv4.version(s, ip) != 4) {
            return ParseError.BAD_IPV4_VERSION;
        }
        int headerBytes = Ipv4.headerBytes(s, ip);
        if (headerBytes < Ipv4.MIN_HEADER_BYTES) {
            return ParseError.BAD_IPV4_HEADER_LENGTH;
        }
        if (at + headerBytes > length) {
            return ParseError.TRUNCATED_IPV4;
        }
        out.kind = FrameKind.IPV4;
        out.l3Offset = ip;
        out.ipHeaderBytes = headerBytes;
        out.dscp = Ipv4.dscp(s, ip);
        out.ecn = Ipv4.ecn(s, ip);
        out.ipProtocol = Ipv4.protocol(s, ip);
        out.srcIp = Ipv4.src(s, ip);
        out.dstIp = Ipv4.dst(s, ip);
        int totalLength = Ipv4.totalLength(s, ip);
        out.ipTotalLength = totalLength;
        // Bytes past totalLength are Ethernet padding; fewer bytes than it means truncation.
        if (totalLength < headerBytes || at + totalLength > length) {
            return ParseError.BAD_IPV4_TOTAL_LENGTH;
        }
        boolean firstFragment = (NetOrder.u16(s, ip + Ipv4.FLAGS_FRAGMENT) & 0x1FFF) == 0;
        if (out.ipProtocol != Ipv4.PROTO_UDP || !firstFragment) {
            return ParseError.NONE;
        }
        return parseUdp(s, ip + headerBytes, totalLength - headerBytes, out);
    }

    /** {@code ipPayload} is how many bytes the IPv4 header says follow it. */
    private static ParseError parseUdp(MemorySegment s, long udp, int ipPayload, ParsedFrame out) {
        if (ipPayload < Udp.HEADER_BYTES) {
            return ParseError.TRUNCATED_UDP;
        }
        out.l4Offset = udp;
        out.udpSrcPort = Udp.srcPort(s, udp);
        out.udpDstPort = Udp.dstPort(s, udp);
        int udpLength = Udp.length(s, udp);
        if (udpLength < Udp.HEADER_BYTES || udpLength > ipPayload) {
            return ParseError.BAD_UDP_LENGTH;
        }
        if (out.udpDstPort != Udp.ROCE_V2_PORT) {
            return ParseError.NONE;
        }
        return parseBth(s, udp + Udp.HEADER_BYTES, udpLength - Udp.HEADER_BYTES, out);
    }

    private static ParseError parseBth(MemorySegment s, long bth, int udpPayload, ParsedFrame out) {
        if (udpPayload < Roce.BTH_BYTES) {
            return ParseError.TRUNCATED_BTH;
        }
        int opcode = Roce.opcode(s, bth);
        if (!Roce.isKnownOpcode(opcode)) {
            return ParseError.UNKNOWN_BTH_OPCODE;
        }
        out.kind = FrameKind.ROCE;
        out.bthOffset = bth;
        out.bthOpcode = opcode;
        out.destQp = Roce.destQp(s, bth);
        out.psn = Roce.psn(s, bth);
        out.ackRequested = Roce.ackRequested(s, bth);
        if (!Roce.carriesAeth(opcode)) {
            return ParseError.NONE;
        }
        if (udpPayload < Roce.BTH_BYTES + Roce.AETH_BYTES) {
            return ParseError.TRUNCATED_AETH;
        }
        long aeth = bth + Roce.BTH_BYTES;
        out.aethSyndrome = Roce.aethSyndrome(s, aeth);
        out.aethMsn = Roce.aethMsn(s, aeth);
        return ParseError.NONE;
    }
}

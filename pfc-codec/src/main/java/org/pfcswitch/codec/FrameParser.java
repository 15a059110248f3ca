package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * Parses a frame in place, layer by layer: Ethernet, up to two VLAN tags, an optional BFC shim,
 * then MAC control (PFC, PAUSE), a BFC control frame, or IPv4, UDP and the RoCEv2 BTH (and
 * AETH). Behind a BFC shim the parse goes on with the shim's inner EtherType exactly as if the
 * shim were not there; VLAN tags or a second shim behind a shim are not looked into (the frame
 * is then {@link FrameKind#ETHERNET} of that inner EtherType, no error). It never throws on bad bytes and
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
        out.error = (byte) e.ordinal();
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
        // Two overlapping loads for the Ethernet header: dst (and the top of src), then src and the
        // type. Every load through a MemorySegment is bounds- and liveness-checked, so fewer, wider
        // loads are the cheaper parse.
        long dstAndSrcHigh = NetOrder.u64(s, frame);
        long srcAndType = NetOrder.u64(s, frame + 6);
        out.dstMac = dstAndSrcHigh >>> 16;
        out.srcMac = srcAndType >>> 16;
        int type = (int) srcAndType & 0xFFFF;
        if (type == Ethernet.TYPE_VLAN || type == Ethernet.TYPE_QINQ || type == Bfc.TYPE_SHIM) {
            return parseTagged(s, frame, length, type, out);
        }
        // Untagged, no shim: the common frame stays in a method small enough to be inlined.
        out.etherType = type;
        return parseLayer3(s, frame, Ethernet.HEADER_BYTES, length, type, out);
    }

    /** After the Ethernet header: VLAN tags and a BFC shim, then the inner EtherType's layer. */
    private static ParseError parseTagged(MemorySegment s, long frame, int length, int type, ParsedFrame out) {
        int at = Ethernet.HEADER_BYTES;      // offset within the frame

        while (type == Ethernet.TYPE_VLAN || type == Ethernet.TYPE_QINQ) {
            if (out.vlanTags == MAX_VLAN_TAGS) {
                out.etherType = type;
                return ParseError.TOO_MANY_VLAN_TAGS;
            }
            if (at + Vlan.TAG_BYTES > length) {
                out.etherType = type;
                return ParseError.TRUNCATED_VLAN_TAG;
            }
            int tag = NetOrder.u32(s, frame + at);      // TCI, then the next EtherType
            if (out.vlanTags == 0) {                    // the outer tag carries the priority the link uses
                int tci = tag >>> 16;
                out.pcp = Vlan.pcp(tci);
                out.dei = Vlan.dei(tci);
                out.vid = Vlan.vid(tci);
            }
            out.vlanTags++;
            type = tag & 0xFFFF;
            at += Vlan.TAG_BYTES;
        }
        if (type == Bfc.TYPE_SHIM) {
            // The BFC shim: after the tags, before the inner header, whose EtherType it holds.
            if (at + Bfc.SHIM_BYTES > length) {
                out.etherType = type;
                return ParseError.TRUNCATED_BFC_SHIM;
            }
            int head = NetOrder.u16(s, frame + at);              // version | flags, reserved
            if (head >>> 12 != Bfc.VERSION) {
                out.etherType = type;
                return ParseError.BAD_BFC_VERSION;
            }
            int tail = NetOrder.u32(s, frame + at + Bfc.SHIM_UPSTREAM_QUEUE);   // upstreamQ, inner EtherType
            out.bfcShimOffset = frame + at;
            out.bfcFlags = (head >>> 8) & 0xF;
            out.upstreamQueue = tail >>> 16;
            type = tail & 0xFFFF;
            at += Bfc.SHIM_BYTES;
            // Inner VLAN tags or a second shim are not looked into: the frame is then plain
            // Ethernet of that inner EtherType (the default branch below), like any unknown one.
        }
        out.etherType = type;
        return parseLayer3(s, frame, at, length, type, out);
    }

    /** The header of EtherType {@code type} at {@code frame + at}. */
    private static ParseError parseLayer3(MemorySegment s, long frame, int at, int length, int type, ParsedFrame out) {
        return switch (type) {
            case Ethernet.TYPE_IPV4 -> parseIpv4(s, frame, at, length, out);
            case Ethernet.TYPE_MAC_CONTROL -> parseMacControl(s, frame, at, length, out);
            case Bfc.TYPE_CONTROL -> parseBfcControl(s, frame + at, length - at, out);
            default -> ParseError.NONE;
        };
    }

    /**
     * A BFC control frame; {@code body} is where the version byte starts and {@code bytes} how
     * many follow it in the frame. The kind is set only for a frame that is entirely valid, so a
     * caller that checks {@link ParsedFrame#isBfcControl()} never acts on half a bitmap.
     */
    private static ParseError parseBfcControl(MemorySegment s, long body, int bytes, ParsedFrame out) {
        if (bytes < Bfc.CONTROL_HEADER_BYTES) {
            return ParseError.TRUNCATED_BFC_CONTROL;
        }
        long header = NetOrder.u64(s, body);                     // version, op, seq, qid, nbits
        int version = (int) (header >>> 56);
        int op = (int) (header >>> 48) & 0xFF;
        if (version != Bfc.VERSION || op < Bfc.OP_PAUSE || op > Bfc.OP_BITMAP) {
            return ParseError.BAD_BFC_CONTROL;
        }
        int nbits = 0;
        long low = 0;
        long high = 0;
        if (op == Bfc.OP_BITMAP) {
            nbits = (int) header & 0xFFFF;
            if (nbits > Bfc.MAX_BITMAP_QUEUES) {
                return ParseError.BAD_BFC_CONTROL;
            }
            int bitmapBytes = (nbits + 7) >>> 3;
            if (Bfc.CONTROL_HEADER_BYTES + bitmapBytes > bytes) {
                return ParseError.TRUNCATED_BFC_CONTROL;
            }
            long bitmap = body + Bfc.CONTROL_HEADER_BYTES;
            for (int i = 0; i < bitmapBytes; i++) {              // at most 16 bytes, in rare frames
                long b = NetOrder.u8(s, bitmap + i);
                if (i < 8) {
                    low |= b << (8 * i);
                } else {
                    high |= b << (8 * (i - 8));
                }
            }
            low &= Bfc.lowMask(nbits);                           // bits past nbits are not queues
            high &= Bfc.highMask(nbits);
        }
        out.kind = FrameKind.CODE_BFC_CONTROL;
        out.bfcOp = op;
        out.bfcSeq = (int) (header >>> 32) & 0xFFFF;
        out.bfcQueue = (int) (header >>> 16) & 0xFFFF;
        out.bfcNbits = nbits;
        out.bfcBitmapLow = low;
        out.bfcBitmapHigh = high;
        return ParseError.NONE;
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
            out.kind = FrameKind.CODE_PAUSE;
            out.pauseQuanta = MacControl.pauseQuanta(s, base);
            return ParseError.NONE;
        }
        if (opcode != MacControl.OPCODE_PFC) {
            return ParseError.UNKNOWN_MAC_CONTROL_OPCODE;
        }
        if (length < tagBytes + MacControl.PFC_BYTES) {
            return ParseError.TRUNCATED_MAC_CONTROL;
        }
        out.kind = FrameKind.CODE_PFC;
        int field = MacControl.classEnableField(s, base);
        out.classEnable = field & 0xFF;
        for (int p = 0; p < MacControl.PRIORITIES; p++) {
            out.quanta[p] = MacControl.pfcQuanta(s, base, p);
        }
        return (field & 0xFF00) != 0 ? ParseError.PFC_RESERVED_BITS_SET : ParseError.NONE;
    }

    /**
     * IPv4, UDP and BTH, read 64 or 32 bits at a time (the headers are 32-bit aligned relative
     * to each other), which cuts the memory accesses of the hot path to a third. Every wide load
     * lies within bytes the length checks before it have shown to be in the frame.
     */
    private static ParseError parseIpv4(MemorySegment s, long frame, int at, int length, ParsedFrame out) {
        if (at + Ipv4.MIN_HEADER_BYTES > length) {
            return ParseError.TRUNCATED_IPV4;
        }
        long ip = frame + at;
        long words01 = NetOrder.u64(s, ip);
        int word0 = (int) (words01 >>> 32);              // version, IHL, TOS, total length
        if (word0 >>> 28 != 4) {
            return ParseError.BAD_IPV4_VERSION;
        }
        int headerBytes = (word0 >>> 22) & 0x3C;
        if (headerBytes < Ipv4.MIN_HEADER_BYTES) {
            return ParseError.BAD_IPV4_HEADER_LENGTH;
        }
        if (at + headerBytes > length) {
            return ParseError.TRUNCATED_IPV4;
        }
        int fragment = (int) words01;                    // identification, flags, fragment offset
        long words23 = NetOrder.u64(s, ip + 8);          // TTL, protocol, checksum; source address
        int word2 = (int) (words23 >>> 32);
        out.kind = FrameKind.CODE_IPV4;
        out.l3Offset = ip;
        out.ipHeaderBytes = headerBytes;
        out.dscp = (word0 >>> 18) & 0x3F;
        out.ecn = (word0 >>> 16) & 0x3;
        out.ipProtocol = (word2 >>> 16) & 0xFF;
        out.srcIp = (int) words23;
        out.dstIp = NetOrder.u32(s, ip + Ipv4.DST);
        int totalLength = word0 & 0xFFFF;
        out.ipTotalLength = totalLength;
        // Bytes past totalLength are Ethernet padding; fewer bytes than it means truncation.
        if (totalLength < headerBytes || at + totalLength > length) {
            return ParseError.BAD_IPV4_TOTAL_LENGTH;
        }
        boolean firstFragment = (fragment & 0x1FFF) == 0;
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
        long header = NetOrder.u64(s, udp);              // ports, length, checksum
        int ports = (int) (header >>> 32);
        out.l4Offset = udp;
        out.udpSrcPort = ports >>> 16;
        out.udpDstPort = ports & 0xFFFF;
        int udpLength = (int) (header >>> 16) & 0xFFFF;
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
        long words01 = NetOrder.u64(s, bth);
        int word0 = (int) (words01 >>> 32);              // opcode, flags, P_Key
        int opcode = word0 >>> 24;
        if (!Roce.isKnownOpcode(opcode)) {
            return ParseError.UNKNOWN_BTH_OPCODE;
        }
        int word1 = (int) words01;                       // reserved, destination QP
        int word2 = NetOrder.u32(s, bth + 8);            // AckReq, reserved, PSN
        out.kind = FrameKind.CODE_ROCE;
        out.bthOffset = bth;
        out.bthOpcode = opcode;
        out.destQp = word1 & 0xFF_FFFF;
        out.psn = word2 & 0xFF_FFFF;
        out.ackRequested = word2 < 0;
        if (!Roce.carriesAeth(opcode)) {
            return ParseError.NONE;
        }
        if (udpPayload < Roce.BTH_BYTES + Roce.AETH_BYTES) {
            return ParseError.TRUNCATED_AETH;
        }
        int aeth = NetOrder.u32(s, bth + Roce.BTH_BYTES);
        out.hasAeth = true;
        out.aethSyndrome = aeth >>> 24;
        out.aethMsn = aeth & 0xFF_FFFF;
        return ParseError.NONE;
    }
}

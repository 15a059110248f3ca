package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * The result of parsing one frame, reused from frame to frame so that parsing allocates
 * nothing. It holds the fields the switch decides on and the offsets of the headers, so a
 * caller can mark ECN or rewrite a header in place afterwards.
 *
 * <p>Fields of layers the frame does not have keep their reset values: -1 for offsets, ports,
 * QP and PSN, 0 otherwise. After an error, the fields of the layers parsed before it are
 * still valid, which is what the decode command shows for a malformed frame.
 */
public final class ParsedFrame {
    // Frame
    MemorySegment segment;
    long frameOffset;
    int length;
    ParseError error = ParseError.NONE;
    FrameKind kind = FrameKind.ETHERNET;
    long dstMac;
    long srcMac;
    /** The EtherType after any VLAN tags. */
    int etherType;

    // 802.1Q (outermost tag)
    int vlanTags;
    int pcp;
    int dei;
    int vid;

    // IPv4
    long l3Offset = -1;
    int dscp;
    int ecn;
    int ipProtocol;
    int srcIp;
    int dstIp;
    int ipTotalLength;
    int ipHeaderBytes;

    // UDP
    long l4Offset = -1;
    int udpSrcPort = -1;
    int udpDstPort = -1;

    // RoCEv2
    long bthOffset = -1;
    int bthOpcode = -1;
    int destQp = -1;
    int psn = -1;
    boolean ackRequested;
    int aethSyndrome = -1;
    int aethMsn = -1;

    // MAC control
    int classEnable;
    final int[] quanta = new int[MacControl.PRIORITIES];
    int pauseQuanta;

    void reset(MemorySegment s, long offset, int len) {
        segment = s;
        frameOffset = offset;
        length = len;
        error = ParseError.NONE;
        kind = FrameKind.ETHERNET;
        dstMac = 0;
        srcMac = 0;
        etherType = 0;
        vlanTags = 0;
        pcp = 0;
        dei = 0;
        vid = 0;
        l3Offset = -1;
        dscp = 0;
        ecn = 0;
        ipProtocol = 0;
        srcIp = 0;
        dstIp = 0;
        ipTotalLength = 0;
        ipHeaderBytes = 0;
        l4Offset = -1;
        udpSrcPort = -1;
        udpDstPort = -1;
        bthOffset = -1;
        bthOpcode = -1;
        destQp = -1;
        psn = -1;
        ackRequested = false;
        aethSyndrome = -1;
        aethMsn = -1;
        classEnable = 0;
        for (int p = 0; p < quanta.length; p++) {
            quanta[p] = 0;
        }
        pauseQuanta = 0;
    }

    public MemorySegment segment() { return segment; }
    public long frameOffset() { return frameOffset; }
    public int length() { return length; }
    public ParseError error() { return error; }
    public boolean isMalformed() { return error != ParseError.NONE; }
    public FrameKind kind() { return kind; }
    public long dstMac() { return dstMac; }
    public long srcMac() { return srcMac; }
    public int etherType() { return etherType; }

    public int vlanTags() { return vlanTags; }
    public boolean isTagged() { return vlanTags > 0; }
    public int pcp() { return pcp; }
    public int dei() { return dei; }
    public int vid() { return vid; }

    public boolean hasIpv4() { return l3Offset >= 0 && etherType == Ethernet.TYPE_IPV4; }
    /** Offset of the IPv4 header in {@link #segment()}, or -1. */
    public long ipv4Offset() { return hasIpv4() ? l3Offset : -1; }
    public int dscp() { return dscp; }
    public int ecn() { return ecn; }
    public int ipProtocol() { return ipProtocol; }
    public int srcIp() { return srcIp; }
    public int dstIp() { return dstIp; }
    public int ipTotalLength() { return ipTotalLength; }
    public int ipHeaderBytes() { return ipHeaderBytes; }

    public long udpOffset() { return l4Offset; }
    public int udpSrcPort() { return udpSrcPort; }
    public int udpDstPort() { return udpDstPort; }

    public boolean isRoce() { return bthOpcode >= 0; }
    public long bthOffset() { return bthOffset; }
    public int bthOpcode() { return bthOpcode; }
    public int destQp() { return destQp; }
    public int psn() { return psn; }
    public boolean ackRequested() { return ackRequested; }
    public boolean hasAeth() { return aethSyndrome >= 0; }
    public int aethSyndrome() { return aethSyndrome; }
    public int aethMsn() { return aethMsn; }
    public boolean isCnp() { return bthOpcode == Roce.OP_CNP; }

    public boolean isMacControl() { return kind == FrameKind.PFC || kind == FrameKind.PAUSE; }
    /** PFC class-enable vector: bit i set means time[i] applies to priority i. */
    public int classEnable() { return classEnable; }
    /** PFC time of {@code priority}, in quanta (0 = resume). */
    public int quanta(int priority) { return quanta[priority]; }
    /** 802.3x PAUSE time in quanta. */
    public int pauseQuanta() { return pauseQuanta; }

    /** True when the IPv4 header checksum is right; computed on demand, the hot path never asks. */
    public boolean ipv4ChecksumValid() {
        return hasIpv4() && Ipv4.checksumValid(segment, l3Offset, ipHeaderBytes);
    }

    /**
     * The flow hash: 5-tuple and destination QP for IPv4, MAC pair and EtherType otherwise.
     * See {@link FlowHash}.
     */
    public long flowHash() {
        if (hasIpv4()) {
            return FlowHash.hash(srcIp, dstIp, ipProtocol, udpSrcPort, udpDstPort, destQp);
        }
        return FlowHash.hashL2(dstMac, srcMac, etherType);
    }
}

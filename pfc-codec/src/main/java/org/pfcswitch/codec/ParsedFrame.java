package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * The result of parsing one frame, reused from frame to frame so that parsing allocates
 * nothing. It holds the fields the switch decides on and the offsets of the headers, so a
 * caller can mark ECN or rewrite a header in place afterwards.
 *
 * <p>Only the few fields that say how far the parse got are reset per frame (kind, tag count,
 * header offsets); a layer's fields are read through accessors that check that the layer was
 * reached, so stale values from an earlier frame never show. Fields of layers the frame does
 * not have read as -1 for ports, QP, PSN and AETH, and 0 otherwise. After an error, the fields
 * of the layers parsed before it are still valid, which is what decode shows for a malformed frame.
 */
public final class ParsedFrame {
    // How far the parse got: reset for every frame.
    MemorySegment segment;
    long frameOffset;
    int length;
    byte error;                // ParseError ordinal
    byte kind;                 // FrameKind code
    int vlanTags;
    long l3Offset = -1;
    long l4Offset = -1;
    long bthOffset = -1;
    boolean hasAeth;
    long bfcShimOffset = -1;

    // Layer fields: valid only when the layer above says so.
    long dstMac;
    long srcMac;
    int etherType;
    int pcp;
    int dei;
    int vid;
    int dscp;
    int ecn;
    int ipProtocol;
    int srcIp;
    int dstIp;
    int ipTotalLength;
    int ipHeaderBytes;
    int udpSrcPort;
    int udpDstPort;
    int bthOpcode;
    int destQp;
    int psn;
    boolean ackRequested;
    int aethSyndrome;
    int aethMsn;
    int classEnable;
    final int[] quanta = new int[MacControl.PRIORITIES];
    int pauseQuanta;
    int bfcFlags;
    int upstreamQueue;
    int bfcOp;
    int bfcSeq;
    int bfcQueue;
    int bfcNbits;
    long bfcBitmapLow;
    long bfcBitmapHigh;

    void reset(MemorySegment s, long offset, int len) {
        if (segment != s) {            // a reference store costs a GC barrier; bursts reuse one segment
            segment = s;
        }
        frameOffset = offset;
        length = len;
        error = 0;
        kind = FrameKind.CODE_ETHERNET;
        vlanTags = 0;
        l3Offset = -1;
        l4Offset = -1;
        bthOffset = -1;
        hasAeth = false;
        bfcShimOffset = -1;
    }

    public MemorySegment segment() { return segment; }
    public long frameOffset() { return frameOffset; }
    public int length() { return length; }
    public ParseError error() { return ParseError.BY_ORDINAL[error]; }
    public boolean isMalformed() { return error != 0; }
    public FrameKind kind() { return FrameKind.BY_CODE[kind]; }
    private boolean hasEthernet() { return length >= Ethernet.HEADER_BYTES && error != ParseError.OUTSIDE_BUFFER.ordinal(); }
    public long dstMac() { return hasEthernet() ? dstMac : 0; }
    public long srcMac() { return hasEthernet() ? srcMac : 0; }
    /**
     * The EtherType after any VLAN tags and, when there is a BFC shim, the shim's inner
     * EtherType (0x0800 for shimmed RoCE), so callers that check for IPv4 or MAC control need
     * not know about the shim. 0 for a runt.
     */
    public int etherType() { return hasEthernet() ? etherType : 0; }

    public int vlanTags() { return vlanTags; }
    public boolean isTagged() { return vlanTags > 0; }
    /** PCP of the outer tag. */
    public int pcp() { return vlanTags > 0 ? pcp : 0; }
    public int dei() { return vlanTags > 0 ? dei : 0; }
    public int vid() { return vlanTags > 0 ? vid : 0; }

    public boolean hasIpv4() { return l3Offset >= 0; }
    /** Offset of the IPv4 header in {@link #segment()}, or -1. */
    public long ipv4Offset() { return l3Offset; }
    public int dscp() { return l3Offset >= 0 ? dscp : 0; }
    public int ecn() { return l3Offset >= 0 ? ecn : 0; }
    public int ipProtocol() { return l3Offset >= 0 ? ipProtocol : 0; }
    public int srcIp() { return l3Offset >= 0 ? srcIp : 0; }
    public int dstIp() { return l3Offset >= 0 ? dstIp : 0; }
    public int ipTotalLength() { return l3Offset >= 0 ? ipTotalLength : 0; }
    public int ipHeaderBytes() { return l3Offset >= 0 ? ipHeaderBytes : 0; }

    public long udpOffset() { return l4Offset; }
    public int udpSrcPort() { return l4Offset >= 0 ? udpSrcPort : -1; }
    public int udpDstPort() { return l4Offset >= 0 ? udpDstPort : -1; }

    public boolean isRoce() { return bthOffset >= 0; }
    public long bthOffset() { return bthOffset; }
    public int bthOpcode() { return bthOffset >= 0 ? bthOpcode : -1; }
    public int destQp() { return bthOffset >= 0 ? destQp : -1; }
    public int psn() { return bthOffset >= 0 ? psn : -1; }
    public boolean ackRequested() { return bthOffset >= 0 && ackRequested; }
    public boolean hasAeth() { return hasAeth; }
    public int aethSyndrome() { return hasAeth ? aethSyndrome : -1; }
    public int aethMsn() { return hasAeth ? aethMsn : -1; }
    public boolean isCnp() { return bthOffset >= 0 && bthOpcode == Roce.OP_CNP; }

    public boolean isPfc() { return kind == FrameKind.CODE_PFC; }
    public boolean isMacControl() { return kind == FrameKind.CODE_PFC || kind == FrameKind.CODE_PAUSE; }
    /** PFC class-enable vector: bit i set means time[i] applies to priority i. */
    public int classEnable() { return kind == FrameKind.CODE_PFC ? classEnable : 0; }
    /** PFC time of {@code priority}, in quanta (0 = resume). */
    public int quanta(int priority) { return kind == FrameKind.CODE_PFC ? quanta[priority] : 0; }
    /** 802.3x PAUSE time in quanta. */
    public int pauseQuanta() { return kind == FrameKind.CODE_PAUSE ? pauseQuanta : 0; }

    /** True when a valid BFC shim sits between the L2 header and the inner header. */
    public boolean hasBfcShim() { return bfcShimOffset >= 0; }
    /**
     * Offset in {@link #segment()} of the BFC shim's first byte (the version), i.e. just after
     * its 0x88B5 EtherType, or -1; pass it to {@link Bfc#setUpstreamQueue}.
     */
    public long bfcShimOffset() { return bfcShimOffset; }
    /** The shim's upstreamQ, or {@link Bfc#NO_UPSTREAM_QUEUE} when there is no shim. */
    public int upstreamQueue() { return bfcShimOffset >= 0 ? upstreamQueue : Bfc.NO_UPSTREAM_QUEUE; }
    /** The shim's 4 flag bits (0 without a shim). */
    public int bfcFlags() { return bfcShimOffset >= 0 ? bfcFlags : 0; }
    public boolean bfcSenderIsBfc() { return bfcShimOffset >= 0 && (bfcFlags & Bfc.FLAG_SENDER_IS_BFC) != 0; }

    /** A valid BFC control frame (a malformed one has kind ETHERNET and an error). */
    public boolean isBfcControl() { return kind == FrameKind.CODE_BFC_CONTROL; }
    /** {@link Bfc#OP_PAUSE}, {@link Bfc#OP_RESUME} or {@link Bfc#OP_BITMAP}; 0 if not a control frame. */
    public int bfcOp() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcOp : 0; }
    /** The control frame's 16-bit sequence number, or -1. */
    public int bfcSeq() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcSeq : -1; }
    /** The qid field: the queue a PAUSE or RESUME is about (0 in a BITMAP from {@link Bfc}), or -1. */
    public int bfcQueue() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcQueue : -1; }
    /** How many queues a BITMAP covers (nbits); 0 for other frames, PAUSE and RESUME included. */
    public int bfcBitmapQueues() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcNbits : 0; }
    /** BITMAP bits of queues 0..63 (bit i = queue i paused); bits at or above nbits are 0. */
    public long bfcBitmapLow() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcBitmapLow : 0; }
    /** BITMAP bits of queues 64..127 (bit i = queue 64 + i paused). */
    public long bfcBitmapHigh() { return kind == FrameKind.CODE_BFC_CONTROL ? bfcBitmapHigh : 0; }
    /** True when this is a BITMAP that covers queue {@code q} and marks it paused. */
    public boolean bfcQueuePausedInBitmap(int q) {
        if (kind != FrameKind.CODE_BFC_CONTROL || q < 0 || q >= bfcNbits) {
            return false;
        }
        return ((q < 64 ? bfcBitmapLow : bfcBitmapHigh) >>> (q & 63) & 1) != 0;
    }

    /** True when the IPv4 header checksum is right; computed on demand, the hot path never asks. */
    public boolean ipv4ChecksumValid() {
        return hasIpv4() && Ipv4.checksumValid(segment, l3Offset, ipHeaderBytes);
    }

    /**
     * The flow hash: 5-tuple and destination QP for IPv4, MAC pair and EtherType otherwise.
     * See {@link FlowHash}.
     */
    public long flowHash() {
        if (l3Offset >= 0) {
            return FlowHash.hash(srcIp, dstIp, ipProtocol, udpSrcPort(), udpDstPort(), destQp());
        }
        return FlowHash.hashL2(dstMac(), srcMac(), etherType());
    }
}

package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/**
 * Writes RoCEv2 frames (Ethernet, optional 802.1Q tag, optional BFC shim, IPv4, UDP/4791, BTH, then RETH for
 * WRITE First/Only, immediate data, AETH for ACKs, as the opcode requires; payload, ICRC) into caller-owned memory. It is a reusable template: set the fields once per
 * queue pair, then change only PSN and opcode per packet, so emulated hosts build frames
 * without allocating.
 *
 * <p>The 4-byte ICRC is written as zero: neither the switch nor the emulated hosts check it,
 * and a switch does not recompute it when marking ECN (the ICRC masks the ECN bits).
 */
public final class RoceFrameBuilder {
    private long dstMac;
    private long srcMac;
    private int vlanTci = -1;
    private int dscp;
    private int ecn = Ipv4.ECN_ECT0;
    private int ttl = 64;
    private int srcIp;
    private int dstIp;
    private int udpSrcPort = 49152;
    private int udpDstPort = Udp.ROCE_V2_PORT;
    private int opcode = Roce.OP_RC_WRITE_ONLY;
    private int pkey = Roce.DEFAULT_PKEY;
    private int destQp;
    private int psn;
    private boolean ackRequest;
    private boolean becn;
    private int aethSyndrome = Roce.AETH_ACK;
    private int aethMsn;
    private int payloadBytes;
    private long rethVirtualAddress;
    private int rethRkey;
    private int rethDmaLength = -1;
    private int identification;
    private int bfcUpstreamQueue = -1;      // -1: no BFC shim
    private boolean bfcSenderIsBfc;

    public RoceFrameBuilder macs(long dst, long src) { this.dstMac = dst; this.srcMac = src; return this; }
    /** Tags the frame with 802.1Q PCP and VID; {@link #untagged()} removes the tag. */
    public RoceFrameBuilder vlan(int pcp, int vid) { this.vlanTci = Vlan.tci(pcp, 0, vid); return this; }
    public RoceFrameBuilder untagged() { this.vlanTci = -1; return this; }
    public RoceFrameBuilder dscp(int dscp) { this.dscp = dscp; return this; }
    public RoceFrameBuilder ecn(int ecn) { this.ecn = ecn; return this; }
    public RoceFrameBuilder ttl(int ttl) { this.ttl = ttl; return this; }
    public RoceFrameBuilder ips(int src, int dst) { this.srcIp = src; this.dstIp = dst; return this; }
    public RoceFrameBuilder udpSrcPort(int port) { this.udpSrcPort = port; return this; }
    /** Anything other than 4791 makes a plain IPv4/UDP frame with a BTH-shaped payload. */
    public RoceFrameBuilder udpDstPort(int port) { this.udpDstPort = port; return this; }
    public RoceFrameBuilder opcode(int opcode) { this.opcode = opcode; return this; }
    public RoceFrameBuilder pkey(int pkey) { this.pkey = pkey; return this; }
    public RoceFrameBuilder destQp(int qp) { this.destQp = qp; return this; }
    public RoceFrameBuilder psn(int psn) { this.psn = psn; return this; }
    public RoceFrameBuilder ackRequest(boolean ackRequest) { this.ackRequest = ackRequest; return this; }
    /** Sets the BTH's BECN bit: the packet (an ACK) also tells its receiver of congestion ({@link Roce#becn}). */
    public RoceFrameBuilder becn(boolean becn) { this.becn = becn; return this; }
    /** Used only by opcodes that carry an AETH (ACK, NAK, READ responses). */
    public RoceFrameBuilder aeth(int syndrome, int msn) { this.aethSyndrome = syndrome; this.aethMsn = msn; return this; }
    /** Used only by opcodes that carry a RETH; the DMA length defaults to this packet's payload (an "Only" message). */
    public RoceFrameBuilder reth(long virtualAddress, int rkey, int dmaLength) {
        this.rethVirtualAddress = virtualAddress; this.rethRkey = rkey; this.rethDmaLength = dmaLength; return this;
    }
    public RoceFrameBuilder payloadBytes(int bytes) { this.payloadBytes = bytes; return this; }
    public RoceFrameBuilder identification(int id) { this.identification = id & 0xFFFF; return this; }

    /**
     * Adds a BFC shim (after the tag, before IPv4; see {@link Bfc}) carrying upstreamQ
     * {@code queue}, flagged sender-is-BFC unless the queue is {@link Bfc#NO_UPSTREAM_QUEUE}.
     * Every offset after the L2 header moves by {@link Bfc#SHIM_BYTES}. To stamp another queue
     * into an already written frame, use {@link Bfc#setUpstreamQueue} at {@link #bfcShimOffset()}.
     */
    public RoceFrameBuilder bfcUpstreamQueue(int queue) {
        return bfcShim(queue, queue != Bfc.NO_UPSTREAM_QUEUE);
    }

    /** Adds a BFC shim with upstreamQ {@code queue} (0..0xFFFF) and the sender-is-BFC flag as given. */
    public RoceFrameBuilder bfcShim(int queue, boolean senderIsBfc) {
        if ((queue & ~0xFFFF) != 0) {
            throw new IllegalArgumentException("BFC queue id must be 0..65535, got " + queue);
        }
        this.bfcUpstreamQueue = queue;
        this.bfcSenderIsBfc = senderIsBfc;
        return this;
    }

    /** Removes the BFC shim (the default). */
    public RoceFrameBuilder noBfcShim() { this.bfcUpstreamQueue = -1; return this; }

    public boolean hasBfcShim() { return bfcUpstreamQueue >= 0; }

    /** Offset of the BFC shim (its version byte) from the frame's start, or -1 without a shim. */
    public int bfcShimOffset() {
        return bfcUpstreamQueue >= 0 ? Ethernet.HEADER_BYTES + (vlanTci >= 0 ? Vlan.TAG_BYTES : 0) : -1;
    }

    /** Offset of the IPv4 header from the frame's start. */
    public int ipv4Offset() { return l2Bytes(); }

    /** Offset of the UDP header from the frame's start. */
    public int udpOffset() { return l2Bytes() + Ipv4.MIN_HEADER_BYTES; }

    /** Offset of the BTH from the frame's start. */
    public int bthOffset() { return udpOffset() + Udp.HEADER_BYTES; }

    /** The frame length {@link #write} produces, before padding to 60 bytes. */
    public int unpaddedLength() {
        return l2Bytes() + Ipv4.MIN_HEADER_BYTES + Udp.HEADER_BYTES + transportBytes();
    }

    /** The frame length {@link #write} produces. */
    public int frameLength() {
        return Math.max(unpaddedLength(), Ethernet.MIN_FRAME_BYTES);
    }

    /** Writes the frame at {@code frame} in {@code s} and returns its length (at least 60). */
    public int write(MemorySegment s, long frame) {
        int transport = transportBytes();
        int l2Type = bfcUpstreamQueue >= 0 ? Bfc.TYPE_SHIM : Ethernet.TYPE_IPV4;
        long ip = vlanTci >= 0
                ? Vlan.writeTagged(s, frame, dstMac, srcMac, vlanTci, l2Type)
                : Ethernet.write(s, frame, dstMac, srcMac, l2Type);
        if (bfcUpstreamQueue >= 0) {
            ip = Bfc.writeShim(s, ip, bfcSenderIsBfc, bfcUpstreamQueue, Ethernet.TYPE_IPV4);
        }
        long udp = Ipv4.write(s, ip, dscp, ecn, Udp.HEADER_BYTES + transport, identification, ttl,
                Ipv4.PROTO_UDP, srcIp, dstIp);
        long bth = Udp.write(s, udp, udpSrcPort, udpDstPort, transport);
        int pad = (4 - (payloadBytes & 3)) & 3;
        long next = Roce.writeBth(s, bth, opcode, pad, pkey, destQp, ackRequest, psn);
        if (becn) {
            Roce.setBecn(s, bth);
        }
        if (Roce.carriesReth(opcode)) {
            next = Roce.writeReth(s, next, rethVirtualAddress, rethRkey, rethDmaLength >= 0 ? rethDmaLength : payloadBytes);
        }
        if (Roce.carriesAeth(opcode)) {
            next = Roce.writeAeth(s, next, aethSyndrome, aethMsn);
        }
        long end = frame + unpaddedLength();
        zero(s, next, end - next);                      // payload, pad and ICRC
        return Ethernet.padToMinimum(s, frame, (int) (end - frame));
    }

    /** Clears {@code bytes} at {@code at} without a slice (an emulated NIC builds an ACK per packet: no allocation). */
    private static void zero(MemorySegment s, long at, long bytes) {
        for (long done = 0; done < bytes; done += ZEROS.byteSize()) {
            MemorySegment.copy(ZEROS, 0, s, at + done, Math.min(ZEROS.byteSize(), bytes - done));
        }
    }

    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[4096]);

    /** Everything before the IPv4 header: Ethernet, the tag, the BFC shim. */
    private int l2Bytes() {
        return Ethernet.HEADER_BYTES + (vlanTci >= 0 ? Vlan.TAG_BYTES : 0) + (bfcUpstreamQueue >= 0 ? Bfc.SHIM_BYTES : 0);
    }

    /** BTH, extension headers, payload (padded to 4 bytes) and ICRC: everything after the UDP header. */
    private int transportBytes() {
        int payload = opcode == Roce.OP_CNP ? Roce.CNP_PAYLOAD_BYTES : (payloadBytes + 3) & ~3;
        int extensions = (Roce.carriesReth(opcode) ? Roce.RETH_BYTES : 0)
                + (Roce.carriesImmediate(opcode) ? Roce.IMMEDIATE_BYTES : 0)
                + (Roce.carriesAeth(opcode) ? Roce.AETH_BYTES : 0);
        return Roce.BTH_BYTES + extensions + payload + Roce.ICRC_BYTES;
    }
}

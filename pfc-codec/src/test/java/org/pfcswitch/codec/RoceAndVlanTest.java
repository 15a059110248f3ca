package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.*;

class RoceAndVlanTest {
    private static final long DST = 0x0200_0000_0002L;
    private static final long SRC = 0x0200_0000_0001L;

    private static RoceFrameBuilder write() {
        return new RoceFrameBuilder().macs(DST, SRC).ips(Ipv4.parse("10.0.0.1"), Ipv4.parse("10.0.0.2"))
                .dscp(26).ecn(Ipv4.ECN_ECT0).udpSrcPort(50000).opcode(Roce.OP_RC_WRITE_ONLY)
                .destQp(0xABCDE).psn(0xFFFFFE).ackRequest(true).payloadBytes(1024);
    }

    @Test
    void untaggedRoceWriteRoundTrip() {
        RoceFrameBuilder b = write();
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(14 + 20 + 8 + 12 + 16 + 1024 + 4, len, "BTH, RETH, payload, ICRC");
        assertEquals(1024, NetOrder.u32(s, 54 + 12), "RETH DMA length of an Only message is its payload");
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.ROCE, f.kind());
        assertFalse(f.isTagged());
        assertEquals(26, f.dscp());
        assertEquals(Ipv4.ECN_ECT0, f.ecn());
        assertEquals(50000, f.udpSrcPort());
        assertEquals(Udp.ROCE_V2_PORT, f.udpDstPort());
        assertEquals(Roce.OP_RC_WRITE_ONLY, f.bthOpcode());
        assertEquals(0xABCDE, f.destQp());
        assertEquals(0xFFFFFE, f.psn());
        assertTrue(f.ackRequested());
        assertFalse(f.hasAeth());
        assertTrue(f.ipv4ChecksumValid());
        assertEquals(34, f.udpOffset());
        assertEquals(42, f.bthOffset());
    }

    @Test
    void anAckCanCarryBecnAndOtherFramesDoNot() {
        RoceFrameBuilder b = write().opcode(Roce.OP_RC_ACK).aeth(Roce.AETH_ACK, 5).payloadBytes(0).ackRequest(false);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertFalse(Roce.becn(s, f.bthOffset()));
        len = b.becn(true).write(s, 0);
        f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertTrue(Roce.becn(s, f.bthOffset()));
        assertEquals(0x40, NetOrder.u8(s, f.bthOffset() + 4), "bit 6 of the BTH's fifth byte, nothing else");
        assertEquals(0xABCDE, f.destQp());
        assertEquals(0xFFFFFE, f.psn());
        assertTrue(f.hasAeth());
    }

    @Test
    void taggedAckCarriesAethAndPcp() {
        RoceFrameBuilder b = write().vlan(3, 100).opcode(Roce.OP_RC_ACK).aeth(Roce.AETH_NAK_PSN_SEQUENCE_ERROR, 77).payloadBytes(0);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(14 + 4 + 20 + 8 + 12 + 4 + 4, len);
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(1, f.vlanTags());
        assertEquals(3, f.pcp());
        assertEquals(100, f.vid());
        assertEquals(0, f.dei());
        assertTrue(f.hasAeth());
        assertEquals(Roce.AETH_NAK_PSN_SEQUENCE_ERROR, f.aethSyndrome());
        assertEquals(77, f.aethMsn());
    }

    @Test
    void cnpHasSixteenReservedBytes() {
        RoceFrameBuilder b = write().opcode(Roce.OP_CNP).payloadBytes(999);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(14 + 20 + 8 + 12 + 16 + 4, len);
        ParsedFrame f = Frames.parse(s, len);
        assertTrue(f.isCnp());
        assertEquals(ParseError.NONE, f.error());
    }

    @Test
    void shortFramesArePaddedToSixty() {
        MemorySegment s = Frames.heap(64);
        s.fill((byte) 0x77);
        RoceFrameBuilder b = write().opcode(Roce.OP_RC_WRITE_MIDDLE).payloadBytes(0);
        assertEquals(58, b.unpaddedLength());
        assertEquals(60, b.write(s, 0));
        assertEquals(0, NetOrder.u16(s, 58));
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error(), "Ethernet padding after the IPv4 datagram is not an error");
    }

    @Test
    void qinqOuterTagGivesThePriority() {
        MemorySegment s = Frames.heap(64);
        Ethernet.write(s, 0, DST, SRC, Ethernet.TYPE_QINQ);
        NetOrder.put16(s, 14, Vlan.tci(5, 1, 10));
        NetOrder.put16(s, 16, Ethernet.TYPE_VLAN);
        NetOrder.put16(s, 18, Vlan.tci(2, 0, 20));
        NetOrder.put16(s, 20, 0x86DD);
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(2, f.vlanTags());
        assertEquals(5, f.pcp());
        assertEquals(1, f.dei());
        assertEquals(10, f.vid());
        assertEquals(0x86DD, f.etherType());
        assertEquals(FrameKind.ETHERNET, f.kind());
    }

    @Test
    void tagAndTransportErrors() {
        MemorySegment s = Frames.heap(64);
        Ethernet.write(s, 0, DST, SRC, Ethernet.TYPE_VLAN);
        assertEquals(ParseError.TRUNCATED_VLAN_TAG, Frames.parse(s, 17).error());
        for (int off = 12; off < 24; off += 4) {
            NetOrder.put16(s, off, Ethernet.TYPE_VLAN);
        }
        assertEquals(ParseError.TOO_MANY_VLAN_TAGS, Frames.parse(s, 60).error());
        assertEquals(ParseError.RUNT, Frames.parse(s, 13).error());

        RoceFrameBuilder b = write().payloadBytes(0);
        MemorySegment r = Frames.heap(b.frameLength());
        int len = b.write(r, 0);
        NetOrder.put8(r, 42, 0x15);                                // a reserved RC opcode
        assertEquals(ParseError.UNKNOWN_BTH_OPCODE, Frames.parse(r, len).error());
        NetOrder.put16(r, 38, 8 + 11);                             // UDP length leaves 11 bytes for the BTH
        NetOrder.put16(r, 16, 20 + 8 + 11);
        assertEquals(ParseError.TRUNCATED_BTH, Frames.parse(r, len).error());
        NetOrder.put16(r, 38, 4);
        assertEquals(ParseError.BAD_UDP_LENGTH, Frames.parse(r, len).error());
    }

    @Test
    void outOfBufferArgumentsAreAnErrorNotAnException() {
        MemorySegment s = Frames.heap(60);
        ParsedFrame f = new ParsedFrame();
        assertEquals(ParseError.OUTSIDE_BUFFER, FrameParser.parse(s, 10, 60, f));
        assertEquals(ParseError.OUTSIDE_BUFFER, FrameParser.parse(s, -1, 10, f));
        assertEquals(ParseError.OUTSIDE_BUFFER, FrameParser.parse(s, 0, -5, f));
    }

    @Test
    void immediateAndRethSizes() {
        assertEquals(14 + 20 + 8 + 12 + 16 + 4 + 8 + 4, write().opcode(0x0B).payloadBytes(8).unpaddedLength());
        assertEquals(14 + 20 + 8 + 12 + 4 + 8 + 4, write().opcode(0x09).payloadBytes(8).unpaddedLength());
        assertEquals(14 + 20 + 8 + 12 + 8 + 4, write().opcode(Roce.OP_RC_WRITE_MIDDLE).payloadBytes(7).unpaddedLength(), "payload padded to 4");
    }

    @Test
    void opcodeTable() {
        assertTrue(Roce.isKnownOpcode(Roce.OP_RC_WRITE_FIRST));
        assertTrue(Roce.isKnownOpcode(Roce.OP_CNP));
        assertTrue(Roce.isKnownOpcode(0x64));
        assertFalse(Roce.isKnownOpcode(0x15));
        assertFalse(Roce.isKnownOpcode(0x80));
        assertFalse(Roce.isKnownOpcode(0xFF));
        assertEquals("CNP", Roce.opcodeName(0x81));
    }
}

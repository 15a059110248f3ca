package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.*;

class Ipv4Test {
    /** The classic worked example (Wikipedia "IPv4 header checksum"): checksum 0xB861. */
    @Test
    void checksumOfAKnownHeader() {
        MemorySegment ip = Frames.bytes(0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                0x00, 0x00, 0xC0, 0xA8, 0x00, 0x01, 0xC0, 0xA8, 0x00, 0xC7);
        assertEquals(0xB861, Ipv4.computeChecksum(ip, 0, 20));
        assertFalse(Ipv4.checksumValid(ip, 0, 20));
        NetOrder.put16(ip, 10, 0xB861);
        assertTrue(Ipv4.checksumValid(ip, 0, 20));
    }

    @Test
    void ceMarkingUpdatesTheChecksumIncrementally() {
        for (int dscp = 0; dscp < 64; dscp++) {
            for (int ecn : new int[] {Ipv4.ECN_ECT0, Ipv4.ECN_ECT1}) {
                MemorySegment s = Frames.heap(20);
                Ipv4.write(s, 0, dscp, ecn, 100, dscp * 977, 64, Ipv4.PROTO_UDP, 0x0A000001 + dscp, 0x0A0000FE);
                assertTrue(Ipv4.markCongestionExperienced(s, 0));
                assertEquals(Ipv4.ECN_CE, Ipv4.ecn(s, 0));
                assertEquals(dscp, Ipv4.dscp(s, 0), "DSCP must survive marking");
                assertTrue(Ipv4.checksumValid(s, 0, 20), "dscp " + dscp + " ecn " + ecn);
                assertEquals(Ipv4.computeChecksum(s, 0, 20), Ipv4.checksumField(s, 0));
            }
        }
    }

    @Test
    void notEctIsNotMarkedAndCeStaysCe() {
        MemorySegment s = Frames.heap(20);
        Ipv4.write(s, 0, 26, Ipv4.ECN_NOT_ECT, 0, 1, 64, 17, 1, 2);
        MemorySegment before = Frames.heap(20);
        before.copyFrom(s);
        assertFalse(Ipv4.markCongestionExperienced(s, 0));
        assertEquals(-1, s.mismatch(before));
        Ipv4.write(s, 0, 26, Ipv4.ECN_CE, 0, 1, 64, 17, 1, 2);
        before.copyFrom(s);
        assertTrue(Ipv4.markCongestionExperienced(s, 0));
        assertEquals(-1, s.mismatch(before));
    }

    @Test
    void addressTextRoundTripAndErrors() {
        assertEquals(0xC0A80001, Ipv4.parse("192.168.0.1"));
        assertEquals("10.0.0.254", Ipv4.format(Ipv4.parse("10.0.0.254")));
        assertThrows(IllegalArgumentException.class, () -> Ipv4.parse("10.0.0"));
        assertThrows(IllegalArgumentException.class, () -> Ipv4.parse("10.0.0.256"));
        assertThrows(IllegalArgumentException.class, () -> Ipv4.parse("a.b.c.d"));
    }

    @Test
    void malformedIpv4HeadersAreTypedErrors() {
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).payloadBytes(64);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(ParseError.NONE, Frames.parse(s, len).error());
        assertEquals(ParseError.TRUNCATED_IPV4, Frames.parse(s, 14 + 19).error());
        assertEquals(ParseError.BAD_IPV4_TOTAL_LENGTH, Frames.parse(s, len - 1).error());

        NetOrder.put8(s, 14, 0x65);                    // version 6
        assertEquals(ParseError.BAD_IPV4_VERSION, Frames.parse(s, len).error());
        NetOrder.put8(s, 14, 0x44);                    // IHL 4 words
        assertEquals(ParseError.BAD_IPV4_HEADER_LENGTH, Frames.parse(s, len).error());
        NetOrder.put8(s, 14, 0x4F);                    // IHL 60 bytes: the "UDP header" lands in zero payload
        assertEquals(ParseError.BAD_UDP_LENGTH, Frames.parse(s, len).error());
    }
}

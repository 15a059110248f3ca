package org.pfcswitch.codec;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** Round trips over random field values: what a builder writes, the parser reads back. */
class CodecProperties {
    private static final long MAC_MASK = 0xFFFF_FFFF_FFFFL;

    @Property
    void pfcRoundTrip(@ForAll @IntRange(min = 0, max = 255) int classEnable,
                      @ForAll @Size(8) List<@IntRange(min = 0, max = 65535) Integer> quanta,
                      @ForAll long srcMac) {
        int[] q = quanta.stream().mapToInt(Integer::intValue).toArray();
        MemorySegment s = Frames.heap(60);
        MacControl.writePfc(s, 0, srcMac & MAC_MASK, classEnable, q);
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.PFC, f.kind());
        assertEquals(classEnable, f.classEnable());
        assertEquals(srcMac & MAC_MASK, f.srcMac());
        for (int p = 0; p < 8; p++) {
            assertEquals((classEnable & (1 << p)) != 0 ? q[p] : 0, f.quanta(p));
        }
        for (int i = MacControl.PFC_BYTES; i < 60; i++) {
            assertEquals(0, NetOrder.u8(s, i), "padding byte " + i);
        }
    }

    @Property
    void pauseRoundTrip(@ForAll @IntRange(min = 0, max = 65535) int quanta, @ForAll long srcMac) {
        MemorySegment s = Frames.heap(60);
        MacControl.writePause(s, 0, srcMac & MAC_MASK, quanta);
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(FrameKind.PAUSE, f.kind());
        assertEquals(quanta, f.pauseQuanta());
        assertFalse(f.isMalformed());
    }

    record RoceFields(boolean tagged, int pcp, int vid, int dscp, int ecn, int srcIp, int dstIp, int srcPort,
                      int opcode, int qp, int psn, boolean ackReq, int payload) {}

    @Provide
    Arbitrary<RoceFields> roceFields() {
        Arbitrary<Integer> opcodes = Arbitraries.integers().between(0, 255).filter(Roce::isKnownOpcode);
        return Combinators.combine(
                Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers().between(0, 7),
                        Arbitraries.integers().between(0, 4095), Arbitraries.integers().between(0, 63),
                        Arbitraries.integers().between(0, 3), Arbitraries.integers(), Arbitraries.integers())
                        .as((t, pcp, vid, dscp, ecn, src, dst) -> new int[] {t ? 1 : 0, pcp, vid, dscp, ecn, src, dst}),
                Combinators.combine(Arbitraries.integers().between(0, 65535), opcodes,
                        Arbitraries.integers().between(0, 0xFFFFFF), Arbitraries.integers().between(0, 0xFFFFFF),
                        Arbitraries.of(true, false), Arbitraries.integers().between(0, 4096))
                        .as((sp, op, qp, psn, ack, pay) -> new Object[] {sp, op, qp, psn, ack, pay}))
                .as((a, b) -> new RoceFields(a[0] == 1, a[1], a[2], a[3], a[4], a[5], a[6], (int) b[0], (int) b[1],
                        (int) b[2], (int) b[3], (boolean) b[4], (int) b[5]));
    }

    static RoceFrameBuilder builder(RoceFields r) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(0x0200_0000_0002L, 0x0200_0000_0001L)
                .ips(r.srcIp(), r.dstIp()).dscp(r.dscp()).ecn(r.ecn()).udpSrcPort(r.srcPort()).opcode(r.opcode())
                .destQp(r.qp()).psn(r.psn()).ackRequest(r.ackReq()).payloadBytes(r.payload()).aeth(0x1F, r.psn());
        return r.tagged() ? b.vlan(r.pcp(), r.vid()) : b;
    }

    @Property
    void roceRoundTrip(@ForAll("roceFields") RoceFields r) {
        RoceFrameBuilder b = builder(r);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.ROCE, f.kind());
        assertEquals(r.tagged(), f.isTagged());
        if (r.tagged()) {
            assertEquals(r.pcp(), f.pcp());
            assertEquals(r.vid(), f.vid());
        }
        assertEquals(r.dscp(), f.dscp());
        assertEquals(r.ecn(), f.ecn());
        assertEquals(r.srcIp(), f.srcIp());
        assertEquals(r.dstIp(), f.dstIp());
        assertEquals(r.srcPort(), f.udpSrcPort());
        assertEquals(r.opcode(), f.bthOpcode());
        assertEquals(r.qp(), f.destQp());
        assertEquals(r.psn(), f.psn());
        assertEquals(r.ackReq(), f.ackRequested());
        assertEquals(Roce.carriesAeth(r.opcode()), f.hasAeth());
        assertTrue(f.ipv4ChecksumValid());
    }

    @Property
    void ceMarkingKeepsTheChecksumValid(@ForAll("roceFields") RoceFields r) {
        RoceFrameBuilder b = builder(r);
        MemorySegment s = Frames.heap(b.frameLength());
        ParsedFrame f = Frames.parse(s, b.write(s, 0));
        boolean marked = Ipv4.markCongestionExperienced(s, f.ipv4Offset());
        assertEquals(r.ecn() != Ipv4.ECN_NOT_ECT, marked);
        assertTrue(Ipv4.checksumValid(s, f.ipv4Offset(), 20));
        assertEquals(marked ? Ipv4.ECN_CE : Ipv4.ECN_NOT_ECT, Ipv4.ecn(s, f.ipv4Offset()));
        assertEquals(r.dscp(), Ipv4.dscp(s, f.ipv4Offset()));
    }

    /** Cutting any byte off a frame that needs no padding makes it malformed, never an exception. */
    @Property
    void everyTruncationIsATypedError(@ForAll("roceFields") RoceFields r, @ForAll @IntRange(min = 0, max = 10_000) int cut) {
        RoceFrameBuilder b = builder(r);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        if (b.unpaddedLength() < len) {
            return;                       // padded frames may lose padding without harm
        }
        int shorter = cut % len;
        ParsedFrame f = Frames.parse(s.asSlice(0, shorter), shorter);
        assertTrue(f.isMalformed(), "cut to " + shorter + " of " + len + " parsed as " + f.kind());
    }

    @Property
    void vlanTciRoundTrip(@ForAll @IntRange(min = 0, max = 7) int pcp, @ForAll @IntRange(min = 0, max = 1) int dei,
                          @ForAll @IntRange(min = 0, max = 4095) int vid) {
        int tci = Vlan.tci(pcp, dei, vid);
        assertEquals(pcp, Vlan.pcp(tci));
        assertEquals(dei, Vlan.dei(tci));
        assertEquals(vid, Vlan.vid(tci));
    }

    @Property
    void macTextRoundTrip(@ForAll long mac) {
        assertEquals(mac & MAC_MASK, MacAddress.parse(MacAddress.format(mac & MAC_MASK)));
    }
}

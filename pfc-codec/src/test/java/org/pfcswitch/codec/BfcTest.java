package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

import static org.junit.jupiter.api.Assertions.*;

/** BFC on the wire: control frames (PAUSE, RESUME, BITMAP) and the data-packet shim. */
class BfcTest {
    private static final long DST = 0x0200_0000_0002L;
    private static final long SRC = 0x0211_2233_4455L;

    // ------------------------------------------------------------------ control frames

    @Test
    void sequenceNumbersCompareAcrossTheWrap() {
        assertFalse(Bfc.isStale(5, -1), "nothing applied yet: nothing is stale");
        assertFalse(Bfc.isStale(7, 7), "the same frame again is idempotent, not stale");
        assertFalse(Bfc.isStale(8, 7));
        assertTrue(Bfc.isStale(6, 7));
        assertFalse(Bfc.isStale(2, 0xFFFE), "2 follows 65534 after the wrap");
        assertTrue(Bfc.isStale(0xFFFE, 2), "65534 precedes 2 across the wrap");
        assertTrue(Bfc.isStale((7 + 0x8000) & 0xFFFF, 7), "half the space ahead counts as behind");
    }

    @Test
    void theBitmapMaskCoversOnlyTheQueuesAsked() {
        MemorySegment s = MemorySegment.ofArray(new byte[64]);
        Bfc.writeBitmap(s, 0, Bfc.NEAREST_BRIDGE, 0x020000000001L, 3, 40, 1L | 1L << 31 | 1L << 39, 0);
        ParsedFrame f = new ParsedFrame();
        assertEquals(ParseError.NONE, FrameParser.parse(s, 0, 60, f));
        assertEquals(1L | 1L << 31, Bfc.pausedInBitmap(f, 32));
        assertEquals(1L | 1L << 31 | 1L << 39, Bfc.pausedInBitmap(f, 64));
    }

    @Test
    void pauseFrameHasTheSpecLayoutByteForByte() {
        MemorySegment s = Frames.heap(64);
        s.fill((byte) 0x5A);                                          // padding must be overwritten
        assertEquals(60, Bfc.writePause(s, 0, Bfc.NEAREST_BRIDGE, SRC, 0xBEEF, 0x0102));
        byte[] expected = new byte[60];
        int[] head = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 0x88, 0xB6,
                0x01, 0x01, 0xBE, 0xEF, 0x01, 0x02, 0x00, 0x00};
        for (int i = 0; i < head.length; i++) {
            expected[i] = (byte) head[i];
        }
        assertArrayEquals(expected, s.asSlice(0, 60).toArray(ValueLayout.JAVA_BYTE));
        assertEquals(0x5A, NetOrder.u8(s, 60), "nothing written past 60 bytes");
    }

    @Test
    void pauseAndResumeRoundTrip() {
        MemorySegment s = Frames.heap(60);
        for (int op : new int[] {Bfc.OP_PAUSE, Bfc.OP_RESUME}) {
            for (int queue : new int[] {0, 1, 31, 127, 0xFFFF}) {
                int len = op == Bfc.OP_PAUSE ? Bfc.writePause(s, 0, DST, SRC, 65535, queue)
                        : Bfc.writeResume(s, 0, DST, SRC, 65535, queue);
                assertEquals(60, len);
                ParsedFrame f = Frames.parse(s, len);
                assertEquals(ParseError.NONE, f.error());
                assertEquals(FrameKind.BFC_CONTROL, f.kind());
                assertEquals("bfc-control", f.kind().label());
                assertTrue(f.isBfcControl());
                assertFalse(f.isMacControl());
                assertEquals(Bfc.TYPE_CONTROL, f.etherType());
                assertEquals(DST, f.dstMac());
                assertEquals(SRC, f.srcMac());
                assertEquals(op, f.bfcOp());
                assertEquals(65535, f.bfcSeq());
                assertEquals(queue, f.bfcQueue());
                assertEquals(0, f.bfcBitmapQueues());
                assertFalse(f.bfcQueuePausedInBitmap(queue));
                assertFalse(f.hasBfcShim());
            }
        }
    }

    @Test
    void bitmapBitsZeroSixtyThreeSixtyFourAndOneTwentySeven() {
        MemorySegment s = Frames.heap(60);
        long low = 1L | 1L << 63;
        long high = 1L | 1L << 63;
        assertEquals(60, Bfc.writeBitmap(s, 0, DST, SRC, 3, 128, low, high));
        // Bit i is byte i / 8, bit i % 8 from the least significant bit.
        assertEquals(0x01, NetOrder.u8(s, 22), "queue 0");
        assertEquals(0x80, NetOrder.u8(s, 29), "queue 63");
        assertEquals(0x01, NetOrder.u8(s, 30), "queue 64");
        assertEquals(0x80, NetOrder.u8(s, 37), "queue 127");
        for (int i = 23; i < 29; i++) {
            assertEquals(0, NetOrder.u8(s, i));
        }
        assertEquals(0, NetOrder.u16(s, 18), "qid of a BITMAP");
        assertEquals(128, NetOrder.u16(s, 20));
        for (int i = 38; i < 60; i++) {
            assertEquals(0, NetOrder.u8(s, i), "padding byte " + i);
        }
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(Bfc.OP_BITMAP, f.bfcOp());
        assertEquals(3, f.bfcSeq());
        assertEquals(128, f.bfcBitmapQueues());
        assertEquals(low, f.bfcBitmapLow());
        assertEquals(high, f.bfcBitmapHigh());
        for (int q = 0; q < 130; q++) {
            assertEquals(q == 0 || q == 63 || q == 64 || q == 127, f.bfcQueuePausedInBitmap(q), "queue " + q);
        }
        assertFalse(f.bfcQueuePausedInBitmap(-1));
    }

    @Test
    void shortBitmapsUseCeilNbitsOverEightBytes() {
        MemorySegment s = Frames.heap(60);
        Bfc.writeBitmap(s, 0, DST, SRC, 1, 9, 0x101, 0);          // queues 0 and 8 of 9
        assertEquals(0x01, NetOrder.u8(s, 22));
        assertEquals(0x01, NetOrder.u8(s, 23));
        assertEquals(0, NetOrder.u8(s, 24));
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(9, f.bfcBitmapQueues());
        assertTrue(f.bfcQueuePausedInBitmap(8));
        assertFalse(f.bfcQueuePausedInBitmap(9));
        // Exactly 8 + 2 bytes after the EtherType: complete; one fewer: cut off.
        assertEquals(ParseError.NONE, Frames.parse(s.asSlice(0, 24), 24).error());
        assertEquals(ParseError.TRUNCATED_BFC_CONTROL, Frames.parse(s.asSlice(0, 23), 23).error());

        Bfc.writeBitmap(s, 0, DST, SRC, 1, 0, 0, 0);                // an empty bitmap is legal
        f = Frames.parse(s.asSlice(0, 22), 22);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(0, f.bfcBitmapQueues());

        Bfc.writeBitmap(s, 0, DST, SRC, 1, 65, -1L, 1);             // all 65 paused
        f = Frames.parse(s, 60);
        assertEquals(-1L, f.bfcBitmapLow());
        assertEquals(1, f.bfcBitmapHigh());
        assertEquals(0, NetOrder.u8(s, 31));
    }

    @Test
    void receivedBitsPastNbitsAreNotQueues() {
        MemorySegment s = Frames.heap(60);
        Bfc.writeBitmap(s, 0, DST, SRC, 1, 4, 0b1010, 0);
        NetOrder.put8(s, 22, 0xFA);                                   // bits 4..7 set by a sloppy sender
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(0b1010, f.bfcBitmapLow());
        assertFalse(f.bfcQueuePausedInBitmap(5));
    }

    @Test
    void seqWrapsAtSixteenBits() {
        MemorySegment s = Frames.heap(60);
        Bfc.writePause(s, 0, DST, SRC, 0x1_0005, 1);
        assertEquals(5, Frames.parse(s, 60).bfcSeq());
        Bfc.writeResume(s, 0, DST, SRC, -1, 1);
        assertEquals(0xFFFF, Frames.parse(s, 60).bfcSeq());
    }

    @Test
    void writersRejectOutOfRangeValues() {
        MemorySegment s = Frames.heap(60);
        assertThrows(IllegalArgumentException.class, () -> Bfc.writePause(s, 0, DST, SRC, 0, -1));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writePause(s, 0, DST, SRC, 0, 0x10000));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeResume(s, 0, DST, SRC, 0, 70000));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeBitmap(s, 0, DST, SRC, 0, -1, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeBitmap(s, 0, DST, SRC, 0, 129, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeBitmap(s, 0, DST, SRC, 0, 32, 1L << 32, 0));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeBitmap(s, 0, DST, SRC, 0, 64, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeBitmap(s, 0, DST, SRC, 0, 100, 0, 1L << 36));
        assertThrows(IllegalArgumentException.class, () -> Bfc.setUpstreamQueue(s, 14, 0x10000));
        assertThrows(IllegalArgumentException.class, () -> new RoceFrameBuilder().bfcUpstreamQueue(-1));
        Bfc.writeBitmap(s, 0, DST, SRC, 0, 100, -1L, (1L << 36) - 1);    // the largest legal one
    }

    @Test
    void everyTruncationOfAControlFrameIsATypedError() {
        MemorySegment s = Frames.heap(60);
        Bfc.writeBitmap(s, 0, DST, SRC, 9, 128, 5, 5);
        for (int len = 0; len <= 60; len++) {
            ParseError e = Frames.parse(s.asSlice(0, len), len).error();        // an exact segment: no read past it
            ParseError want = len < 14 ? ParseError.RUNT : len < 38 ? ParseError.TRUNCATED_BFC_CONTROL : ParseError.NONE;
            assertEquals(want, e, "bitmap cut to " + len);
            RawClassifierTest.assertAgrees(RawClassifierTest.DSCP, s.asSlice(0, len), len);
        }
        Bfc.writePause(s, 0, DST, SRC, 9, 3);
        for (int len = 14; len <= 60; len++) {
            ParsedFrame f = Frames.parse(s.asSlice(0, len), len);
            assertEquals(len < 22 ? ParseError.TRUNCATED_BFC_CONTROL : ParseError.NONE, f.error(), "pause cut to " + len);
            assertEquals(len >= 22, f.isBfcControl(), "only a whole frame is a control frame");
        }
    }

    @Test
    void badVersionOpOrNbitsAreBadControlFrames() {
        MemorySegment s = Frames.heap(60);
        for (int version : new int[] {0, 2, 0x11, 0xFF}) {
            Bfc.writePause(s, 0, DST, SRC, 1, 1);
            NetOrder.put8(s, 14, version);
            ParsedFrame f = Frames.parse(s, 60);
            assertEquals(ParseError.BAD_BFC_CONTROL, f.error(), "version " + version);
            assertFalse(f.isBfcControl());
            assertEquals(-1, f.bfcSeq());
            assertEquals(Bfc.TYPE_CONTROL, f.etherType());
        }
        for (int op : new int[] {0, 4, 0x80, 0xFF}) {
            Bfc.writePause(s, 0, DST, SRC, 1, 1);
            NetOrder.put8(s, 15, op);
            assertEquals(ParseError.BAD_BFC_CONTROL, Frames.parse(s, 60).error(), "op " + op);
        }
        Bfc.writeBitmap(s, 0, DST, SRC, 1, 128, 0, 0);
        NetOrder.put16(s, 20, 129);
        assertEquals(ParseError.BAD_BFC_CONTROL, Frames.parse(s, 60).error());
        NetOrder.put16(s, 20, 0xFFFF);
        assertEquals(ParseError.BAD_BFC_CONTROL, Frames.parse(s, 60).error());
        // nbits means nothing in a PAUSE: ignored, read as 0.
        Bfc.writePause(s, 0, DST, SRC, 1, 1);
        NetOrder.put16(s, 20, 0xFFFF);
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(0, f.bfcBitmapQueues());
    }

    @Test
    void taggedControlFrameParses() {
        MemorySegment s = Frames.heap(64);
        Bfc.writeResume(s, 0, DST, SRC, 42, 17);
        MemorySegment tagged = Frames.heap(64);
        MemorySegment.copy(s, 0, tagged, 0, 12);
        NetOrder.put16(tagged, 12, Ethernet.TYPE_VLAN);
        NetOrder.put16(tagged, 14, Vlan.tci(7, 0, 1));
        MemorySegment.copy(s, 12, tagged, 16, 48);
        ParsedFrame f = Frames.parse(tagged, 64);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(7, f.pcp());
        assertEquals(Bfc.OP_RESUME, f.bfcOp());
        assertEquals(17, f.bfcQueue());
        assertEquals(42, f.bfcSeq());
        assertEquals(7 | PriorityClassifier.RAW_BFC_CONTROL, RawClassifierTest.PCP.classifyRaw(tagged, 0, 64));
    }

    @Test
    void opNames() {
        assertEquals("pause", Bfc.opName(Bfc.OP_PAUSE));
        assertEquals("resume", Bfc.opName(Bfc.OP_RESUME));
        assertEquals("bitmap", Bfc.opName(Bfc.OP_BITMAP));
        assertEquals("op 9", Bfc.opName(9));
    }

    @Test
    void frameKindCodesMatchTheEnum() {
        assertEquals(FrameKind.ETHERNET, FrameKind.BY_CODE[FrameKind.CODE_ETHERNET]);
        assertEquals(FrameKind.IPV4, FrameKind.BY_CODE[FrameKind.CODE_IPV4]);
        assertEquals(FrameKind.ROCE, FrameKind.BY_CODE[FrameKind.CODE_ROCE]);
        assertEquals(FrameKind.PFC, FrameKind.BY_CODE[FrameKind.CODE_PFC]);
        assertEquals(FrameKind.PAUSE, FrameKind.BY_CODE[FrameKind.CODE_PAUSE]);
        assertEquals(FrameKind.BFC_CONTROL, FrameKind.BY_CODE[FrameKind.CODE_BFC_CONTROL]);
        assertEquals(FrameKind.values().length, FrameKind.BY_CODE.length);
    }

    // ------------------------------------------------------------------ the shim

    private static RoceFrameBuilder write() {
        return new RoceFrameBuilder().macs(DST, SRC).ips(Ipv4.parse("10.0.0.1"), Ipv4.parse("10.0.0.2"))
                .dscp(26).ecn(Ipv4.ECN_ECT0).udpSrcPort(50000).opcode(Roce.OP_RC_WRITE_ONLY)
                .destQp(0xABCDE).psn(0xFFFFFE).ackRequest(true).payloadBytes(1024);
    }

    private static MemorySegment build(RoceFrameBuilder b) {
        MemorySegment s = Frames.heap(b.frameLength());
        assertEquals(b.frameLength(), b.write(s, 0));
        return s;
    }

    /**
     * Every inner field of {@code shimmed} equals the frame without the shim, offsets moved by 6.
     * (Frame lengths are the callers' to check: padding to 60 bytes may absorb the shim.)
     */
    static void assertSameInner(ParsedFrame plain, ParsedFrame shimmed) {
        assertEquals(plain.error(), shimmed.error());
        assertEquals(plain.kind(), shimmed.kind());
        assertEquals(plain.etherType(), shimmed.etherType());
        assertEquals(plain.vlanTags(), shimmed.vlanTags());
        assertEquals(plain.pcp(), shimmed.pcp());
        assertEquals(plain.vid(), shimmed.vid());
        assertEquals(plain.dscp(), shimmed.dscp());
        assertEquals(plain.ecn(), shimmed.ecn());
        assertEquals(plain.srcIp(), shimmed.srcIp());
        assertEquals(plain.dstIp(), shimmed.dstIp());
        assertEquals(plain.ipTotalLength(), shimmed.ipTotalLength());
        assertEquals(plain.udpSrcPort(), shimmed.udpSrcPort());
        assertEquals(plain.udpDstPort(), shimmed.udpDstPort());
        assertEquals(plain.bthOpcode(), shimmed.bthOpcode());
        assertEquals(plain.destQp(), shimmed.destQp());
        assertEquals(plain.psn(), shimmed.psn());
        assertEquals(plain.ackRequested(), shimmed.ackRequested());
        assertEquals(plain.hasAeth(), shimmed.hasAeth());
        assertEquals(plain.aethMsn(), shimmed.aethMsn());
        assertEquals(plain.flowHash(), shimmed.flowHash(), "the flow hash ignores the shim");
        assertEquals(plain.ipv4ChecksumValid(), shimmed.ipv4ChecksumValid());
        assertEquals(plain.ipv4Offset() + Bfc.SHIM_BYTES, shimmed.ipv4Offset());
        assertEquals(plain.udpOffset() + Bfc.SHIM_BYTES, shimmed.udpOffset());
        assertEquals(plain.bthOffset() + Bfc.SHIM_BYTES, shimmed.bthOffset());
    }

    @Test
    void untaggedShimmedRoceReadsLikeTheUnshimmedFrame() {
        RoceFrameBuilder b = write();
        ParsedFrame plain = Frames.parse(build(b), b.frameLength());
        assertFalse(plain.hasBfcShim());
        assertEquals(-1, plain.bfcShimOffset());
        assertEquals(Bfc.NO_UPSTREAM_QUEUE, plain.upstreamQueue());
        assertFalse(plain.bfcSenderIsBfc());
        assertEquals(-1, b.bfcShimOffset());

        b.bfcUpstreamQueue(5);
        assertTrue(b.hasBfcShim());
        MemorySegment s = build(b);
        assertEquals(Bfc.TYPE_SHIM, NetOrder.u16(s, 12));
        assertEquals(0x11, NetOrder.u8(s, 14), "version 1, sender-is-BFC");
        assertEquals(0, NetOrder.u8(s, 15), "reserved");
        assertEquals(5, NetOrder.u16(s, 16));
        assertEquals(Ethernet.TYPE_IPV4, NetOrder.u16(s, 18));
        assertEquals(0x45, NetOrder.u8(s, 20));
        ParsedFrame f = Frames.parse(s, b.frameLength());
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.ROCE, f.kind());
        assertTrue(f.hasBfcShim());
        assertEquals(14, f.bfcShimOffset());
        assertEquals(5, f.upstreamQueue());
        assertEquals(Bfc.FLAG_SENDER_IS_BFC, f.bfcFlags());
        assertTrue(f.bfcSenderIsBfc());
        assertEquals(Ethernet.TYPE_IPV4, f.etherType(), "etherType is the inner one");
        assertSameInner(plain, f);
        assertEquals(plain.length() + 6, f.length());
        assertEquals(14, b.bfcShimOffset());
        assertEquals(f.ipv4Offset(), b.ipv4Offset());
        assertEquals(f.udpOffset(), b.udpOffset());
        assertEquals(f.bthOffset(), b.bthOffset());
        assertEquals(14 + 6 + 20 + 8 + 12 + 16 + 1024 + 4, b.frameLength());
        assertEquals(1024, NetOrder.u32(s, f.bthOffset() + 12 + 12), "RETH DMA length");
    }

    @Test
    void taggedShimmedAckReadsLikeTheUnshimmedFrame() {
        RoceFrameBuilder b = write().vlan(3, 100).opcode(Roce.OP_RC_ACK).aeth(Roce.AETH_ACK, 77).payloadBytes(0);
        ParsedFrame plain = Frames.parse(build(b), b.frameLength());
        b.bfcShim(Bfc.NO_UPSTREAM_QUEUE, false);
        MemorySegment s = build(b);
        assertEquals(Ethernet.TYPE_VLAN, NetOrder.u16(s, 12));
        assertEquals(Bfc.TYPE_SHIM, NetOrder.u16(s, 16));
        ParsedFrame f = Frames.parse(s, b.frameLength());
        assertEquals(ParseError.NONE, f.error());
        assertEquals(18, f.bfcShimOffset());
        assertEquals(18, b.bfcShimOffset());
        assertEquals(Bfc.NO_UPSTREAM_QUEUE, f.upstreamQueue());
        assertFalse(f.bfcSenderIsBfc());
        assertEquals(3, f.pcp());
        assertSameInner(plain, f);
        assertEquals(14 + 4 + 6 + 20 + 8 + 12 + 4 + 4, f.length());

        b.noBfcShim();
        assertFalse(b.hasBfcShim());
        assertEquals(plain.length(), b.frameLength());
    }

    @Test
    void upstreamQueueIsRewrittenInPlace() {
        RoceFrameBuilder b = write().vlan(1, 9).bfcUpstreamQueue(3);
        MemorySegment s = build(b);
        byte[] before = s.toArray(ValueLayout.JAVA_BYTE);
        ParsedFrame f = Frames.parse(s, b.frameLength());
        long hash = f.flowHash();
        Bfc.setUpstreamQueue(s, f.bfcShimOffset(), 0xABCD);
        assertEquals(0xABCD, Bfc.upstreamQueue(s, f.bfcShimOffset()));
        byte[] after = s.toArray(ValueLayout.JAVA_BYTE);
        for (int i = 0; i < before.length; i++) {
            if (i != 20 && i != 21) {
                assertEquals(before[i], after[i], "byte " + i + " untouched");
            }
        }
        ParsedFrame g = Frames.parse(s, b.frameLength());
        assertEquals(ParseError.NONE, g.error());
        assertEquals(0xABCD, g.upstreamQueue());
        assertTrue(g.bfcSenderIsBfc());
        assertEquals(hash, g.flowHash());
        assertEquals(1, Bfc.shimVersion(s, g.bfcShimOffset()));
        assertEquals(Bfc.FLAG_SENDER_IS_BFC, Bfc.shimFlags(s, g.bfcShimOffset()));
        assertEquals(Ethernet.TYPE_IPV4, Bfc.innerEtherType(s, g.bfcShimOffset()));
        assertTrue(g.ipv4ChecksumValid(), "upstreamQ is outside the IPv4 header");
    }

    @Test
    void ceMarkingWorksBehindTheShim() {
        RoceFrameBuilder b = write().bfcUpstreamQueue(2);
        MemorySegment s = build(b);
        ParsedFrame f = Frames.parse(s, b.frameLength());
        assertTrue(Ipv4.markCongestionExperienced(s, f.ipv4Offset()));
        ParsedFrame g = Frames.parse(s, b.frameLength());
        assertEquals(Ipv4.ECN_CE, g.ecn());
        assertEquals(26, g.dscp());
        assertTrue(g.ipv4ChecksumValid());
        assertEquals(2, g.upstreamQueue());
        assertEquals(ParseError.NONE, g.error());
    }

    @Test
    void everyTruncationOfAShimmedFrameIsATypedError() {
        for (RoceFrameBuilder b : new RoceFrameBuilder[] {write().bfcUpstreamQueue(1),
                write().vlan(2, 3).bfcUpstreamQueue(1)}) {
            MemorySegment s = build(b);
            int shim = b.bfcShimOffset();
            for (int len = 0; len < b.frameLength(); len++) {
                ParsedFrame f = Frames.parse(s.asSlice(0, len), len);
                assertTrue(f.isMalformed(), "cut to " + len);
                if (len >= shim && len < shim + Bfc.SHIM_BYTES) {
                    assertEquals(ParseError.TRUNCATED_BFC_SHIM, f.error(), "cut to " + len);
                    assertFalse(f.hasBfcShim());
                    assertEquals(Bfc.TYPE_SHIM, f.etherType());
                }
                if (len >= shim + Bfc.SHIM_BYTES) {
                    assertTrue(f.hasBfcShim(), "cut to " + len);
                    assertEquals(1, f.upstreamQueue());
                }
                RawClassifierTest.assertAgrees(RawClassifierTest.DSCP, s.asSlice(0, len), len);
                RawClassifierTest.assertAgrees(RawClassifierTest.PCP, s.asSlice(0, len), len);
            }
        }
    }

    @Test
    void aShimVersionOtherThanOneIsAnError() {
        RoceFrameBuilder b = write().bfcUpstreamQueue(4);
        MemorySegment s = build(b);
        for (int v : new int[] {0x01, 0x21, 0xF1, 0x00}) {
            NetOrder.put8(s, 14, v);
            ParsedFrame f = Frames.parse(s, b.frameLength());
            assertEquals(ParseError.BAD_BFC_VERSION, f.error(), "byte 0x" + Integer.toHexString(v));
            assertFalse(f.hasBfcShim());
            assertEquals(Bfc.NO_UPSTREAM_QUEUE, f.upstreamQueue());
            assertEquals(Bfc.TYPE_SHIM, f.etherType());
            assertFalse(f.hasIpv4());
            assertEquals(RawClassifierTest.DSCP.defaultPriority() | PriorityClassifier.RAW_MALFORMED,
                    RawClassifierTest.DSCP.classifyRaw(s, 0, b.frameLength()));
        }
        NetOrder.put8(s, 14, 0x1E);                       // version 1, other flags: fine, flag bit 0 clear
        NetOrder.put8(s, 15, 0xFF);                       // reserved: ignored
        ParsedFrame f = Frames.parse(s, b.frameLength());
        assertEquals(ParseError.NONE, f.error());
        assertEquals(0xE, f.bfcFlags());
        assertFalse(f.bfcSenderIsBfc());
    }

    @Test
    void aShimInAShimOrATagBehindAShimIsPlainEthernet() {
        for (int inner : new int[] {Bfc.TYPE_SHIM, Ethernet.TYPE_VLAN, 0x86DD}) {
            MemorySegment s = Frames.heap(60);
            long next = Bfc.writeShim(s, Ethernet.write(s, 0, DST, SRC, Bfc.TYPE_SHIM), true, 8, inner);
            Bfc.writeShim(s, next, true, 9, Ethernet.TYPE_IPV4);                  // would be a second shim
            NetOrder.put8(s, next + Bfc.SHIM_BYTES, 0x45);
            ParsedFrame f = Frames.parse(s, 60);
            assertEquals(ParseError.NONE, f.error());
            assertEquals(FrameKind.ETHERNET, f.kind());
            assertEquals(inner, f.etherType());
            assertEquals(8, f.upstreamQueue(), "the outer shim");
            assertEquals(FlowHash.hashL2(DST, SRC, inner), f.flowHash());
            RawClassifierTest.assertAgrees(RawClassifierTest.DSCP, s, 60);
        }
    }

    @Test
    void macAndBfcControlBehindAShimParseAsWithoutIt() {
        MemorySegment pfc = Frames.heap(60);
        MacControl.writePfc(pfc, 0, SRC, 0x18, 500);
        MemorySegment s = Frames.heap(66);
        MemorySegment.copy(pfc, 0, s, 0, 12);
        NetOrder.put16(s, 12, Bfc.TYPE_SHIM);
        Bfc.writeShim(s, 14, false, 0, Ethernet.TYPE_MAC_CONTROL);
        MemorySegment.copy(pfc, 14, s, 20, 46);
        ParsedFrame f = Frames.parse(s, 66);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.PFC, f.kind());
        assertEquals(0x18, f.classEnable());
        assertEquals(500, f.quanta(3));
        assertEquals(Ethernet.TYPE_MAC_CONTROL, f.etherType());
        assertEquals(5 | PriorityClassifier.RAW_MAC_CONTROL, PriorityClassifier.trustPcp(5).classifyRaw(s, 0, 66));
        assertEquals(ParseError.TRUNCATED_MAC_CONTROL, Frames.parse(s, 20 + 3).error());

        MemorySegment ctl = Frames.heap(60);
        Bfc.writeBitmap(ctl, 0, DST, SRC, 7, 16, 0x8001, 0);
        NetOrder.put16(s, 18, Bfc.TYPE_CONTROL);
        MemorySegment.copy(ctl, 14, s, 20, 46);
        f = Frames.parse(s, 66);
        assertEquals(ParseError.NONE, f.error());
        assertTrue(f.isBfcControl());
        assertTrue(f.bfcQueuePausedInBitmap(15));
        assertEquals(16, f.bfcBitmapQueues());
        RawClassifierTest.assertAgrees(RawClassifierTest.PCP, s, 66);
    }

    @Test
    void classifyRawSeesThroughTheShim() {
        RoceFrameBuilder b = write().dscp(48).vlan(5, 10).bfcUpstreamQueue(1);
        MemorySegment s = build(b);
        assertEquals(6, RawClassifierTest.DSCP.classifyRaw(s, 0, b.frameLength()));
        assertEquals(5, RawClassifierTest.PCP.classifyRaw(s, 0, b.frameLength()));
        b.untagged();
        s = build(b);
        assertEquals(6, RawClassifierTest.DSCP.classifyRaw(s, 0, b.frameLength()));
        assertEquals(2, RawClassifierTest.PCP.classifyRaw(s, 0, b.frameLength()));
        assertEquals(1 | PriorityClassifier.RAW_MALFORMED, RawClassifierTest.DSCP.classifyRaw(s, 0, 19));
        assertEquals(1 | PriorityClassifier.RAW_MALFORMED, RawClassifierTest.DSCP.classifyRaw(s, 0, 30), "IPv4 cut off");
    }

    @Test
    void shimAndControlFieldsDoNotLeakIntoTheNextFrame() {
        ParsedFrame f = new ParsedFrame();
        RoceFrameBuilder shimmed = write().bfcUpstreamQueue(12);
        MemorySegment a = build(shimmed);
        MemorySegment ctl = Frames.heap(60);
        Bfc.writeBitmap(ctl, 0, DST, SRC, 1, 8, 0xFF, 0);
        RoceFrameBuilder plain = write();
        MemorySegment c = build(plain);

        FrameParser.parse(a, 0, shimmed.frameLength(), f);
        assertEquals(12, f.upstreamQueue());
        FrameParser.parse(c, 0, plain.frameLength(), f);
        assertFalse(f.hasBfcShim());
        assertEquals(Bfc.NO_UPSTREAM_QUEUE, f.upstreamQueue());
        assertEquals(0, f.bfcFlags());

        FrameParser.parse(ctl, 0, 60, f);
        assertTrue(f.bfcQueuePausedInBitmap(7));
        FrameParser.parse(c, 0, plain.frameLength(), f);
        assertFalse(f.isBfcControl());
        assertEquals(0, f.bfcOp());
        assertEquals(-1, f.bfcSeq());
        assertEquals(-1, f.bfcQueue());
        assertEquals(0, f.bfcBitmapQueues());
        assertEquals(0, f.bfcBitmapLow());
        assertFalse(f.bfcQueuePausedInBitmap(7));
    }

    @Test
    void nonIpShimmedFramesHashOnTheInnerEtherType() {
        MemorySegment s = Frames.heap(60);
        Bfc.writeShim(s, Ethernet.write(s, 0, DST, SRC, Bfc.TYPE_SHIM), true, 3, 0x0806);
        MemorySegment arp = Frames.heap(60);
        Ethernet.write(arp, 0, DST, SRC, 0x0806);
        ParsedFrame f = Frames.parse(s, 60);
        assertEquals(0x0806, f.etherType());
        assertEquals(Frames.parse(arp, 60).flowHash(), f.flowHash());
        Bfc.setUpstreamQueue(s, f.bfcShimOffset(), 4);
        assertEquals(f.flowHash(), Frames.parse(s, 60).flowHash());
    }

    @Test
    void writeShimRejectsBadArguments() {
        MemorySegment s = Frames.heap(60);
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeShim(s, 14, true, -1, 0x0800));
        assertThrows(IllegalArgumentException.class, () -> Bfc.writeShim(s, 14, true, 1, 0x10000));
        assertEquals(20, Bfc.writeShim(s, 14, false, 0xFFFF, 0x0800));
        assertEquals(0x10, NetOrder.u8(s, 14));
    }
}

package org.pfcswitch.codec;

import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.*;

/** BFC round trips over random field values, and the shim's transparency to the inner frame. */
class BfcProperties {
    private static final long MAC_MASK = 0xFFFF_FFFF_FFFFL;

    @Property
    void controlRoundTrip(@ForAll @IntRange(min = 1, max = 3) int op, @ForAll int seq,
                          @ForAll @IntRange(min = 0, max = 0xFFFF) int queue,
                          @ForAll @IntRange(min = 0, max = 128) int nbits, @ForAll long low, @ForAll long high,
                          @ForAll long dst, @ForAll long src) {
        MemorySegment s = Frames.heap(60);
        s.fill((byte) 0xA5);
        low &= Bfc.lowMask(nbits);
        high &= Bfc.highMask(nbits);
        int len = switch (op) {
            case Bfc.OP_PAUSE -> Bfc.writePause(s, 0, dst, src, seq, queue);
            case Bfc.OP_RESUME -> Bfc.writeResume(s, 0, dst, src, seq, queue);
            default -> Bfc.writeBitmap(s, 0, dst, src, seq, nbits, low, high);
        };
        assertEquals(60, len);
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(ParseError.NONE, f.error());
        assertEquals(FrameKind.BFC_CONTROL, f.kind());
        assertEquals(dst & MAC_MASK, f.dstMac());
        assertEquals(src & MAC_MASK, f.srcMac());
        assertEquals(op, f.bfcOp());
        assertEquals(seq & 0xFFFF, f.bfcSeq());
        boolean bitmap = op == Bfc.OP_BITMAP;
        assertEquals(bitmap ? 0 : queue, f.bfcQueue());
        assertEquals(bitmap ? nbits : 0, f.bfcBitmapQueues());
        assertEquals(bitmap ? low : 0, f.bfcBitmapLow());
        assertEquals(bitmap ? high : 0, f.bfcBitmapHigh());
        int used = Bfc.CTRL_BITMAP + (bitmap ? (nbits + 7) / 8 : 0);
        for (int i = used; i < 60; i++) {
            assertEquals(0, NetOrder.u8(s, i), "padding byte " + i);
        }
        for (int q = 0; q < Bfc.MAX_BITMAP_QUEUES; q++) {
            boolean set = ((q < 64 ? low : high) >>> (q & 63) & 1) != 0;
            assertEquals(bitmap && set, f.bfcQueuePausedInBitmap(q), "queue " + q);
            assertEquals(bitmap && set, (NetOrder.u8(s, Bfc.CTRL_BITMAP + q / 8) >>> (q % 8) & 1) != 0 && q < nbits,
                    "wire bit of queue " + q);
        }
    }

    @Property
    void theShimIsTransparentToTheInnerFrame(@ForAll("roceFields") CodecProperties.RoceFields r,
                                             @ForAll @IntRange(min = 0, max = 0xFFFF) int queue,
                                             @ForAll boolean trustDscp) {
        RoceFrameBuilder b = CodecProperties.builder(r);
        MemorySegment plainBytes = Frames.heap(b.frameLength());
        int plainLength = b.write(plainBytes, 0);
        ParsedFrame plain = Frames.parse(plainBytes, plainLength);
        b.bfcUpstreamQueue(queue);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        ParsedFrame f = Frames.parse(s, len);
        assertEquals(queue, f.upstreamQueue());
        assertEquals(queue != Bfc.NO_UPSTREAM_QUEUE, f.bfcSenderIsBfc());
        assertEquals(b.bfcShimOffset(), f.bfcShimOffset());
        assertEquals(b.ipv4Offset(), f.ipv4Offset());
        assertEquals(b.bthOffset(), f.bthOffset());
        BfcTest.assertSameInner(plain, f);
        assertEquals(b.unpaddedLength(), Bfc.SHIM_BYTES + CodecProperties.builder(r).unpaddedLength());
        assertEquals(Math.max(b.unpaddedLength(), Ethernet.MIN_FRAME_BYTES), len);
        PriorityClassifier c = trustDscp ? PriorityClassifier.trustDscp(3) : PriorityClassifier.trustPcp(3);
        assertEquals(c.classifyRaw(plainBytes, 0, plainLength), c.classifyRaw(s, 0, len));
        RawClassifierTest.assertAgrees(c, s, len);

        Bfc.setUpstreamQueue(s, f.bfcShimOffset(), queue ^ 0x5555);
        ParsedFrame g = Frames.parse(s, len);
        assertEquals(queue ^ 0x5555, g.upstreamQueue());
        assertEquals(f.flowHash(), g.flowHash());
        assertTrue(g.ipv4ChecksumValid());
    }

    @Property
    void ceMarkingBehindTheShimKeepsTheChecksumValid(@ForAll("roceFields") CodecProperties.RoceFields r,
                                                     @ForAll @IntRange(min = 0, max = 0xFFFF) int queue) {
        RoceFrameBuilder b = CodecProperties.builder(r).bfcUpstreamQueue(queue);
        MemorySegment s = Frames.heap(b.frameLength());
        ParsedFrame f = Frames.parse(s, b.write(s, 0));
        boolean marked = Ipv4.markCongestionExperienced(s, f.ipv4Offset());
        assertEquals(r.ecn() != Ipv4.ECN_NOT_ECT, marked);
        ParsedFrame g = Frames.parse(s, f.length());
        assertTrue(g.ipv4ChecksumValid());
        assertEquals(marked ? Ipv4.ECN_CE : Ipv4.ECN_NOT_ECT, g.ecn());
        assertEquals(queue, g.upstreamQueue());
    }

    /** Cutting a shimmed frame anywhere is a typed error (or harmless padding), never an exception. */
    @Property
    void everyTruncationOfAShimmedFrameIsATypedError(@ForAll("roceFields") CodecProperties.RoceFields r,
                                                     @ForAll @IntRange(min = 0, max = 10_000) int cut) {
        RoceFrameBuilder b = CodecProperties.builder(r).bfcUpstreamQueue(r.qp() & 0xFFFF);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        int shorter = cut % len;
        ParsedFrame f = Frames.parse(s.asSlice(0, shorter), shorter);
        if (b.unpaddedLength() >= len) {
            assertTrue(f.isMalformed(), "cut to " + shorter + " of " + len + " parsed as " + f.kind());
        }
        int shim = b.bfcShimOffset();
        if (shorter >= shim && shorter < shim + Bfc.SHIM_BYTES) {
            assertEquals(ParseError.TRUNCATED_BFC_SHIM, f.error());
        }
        RawClassifierTest.assertAgrees(RawClassifierTest.DSCP, s.asSlice(0, shorter), shorter);
    }

    /** As {@link RawClassifierProperties}, with a shim and one byte of the first 54 replaced. */
    @Property
    void classifyRawAgreesOnMutatedShimmedFrames(@ForAll("roceFields") CodecProperties.RoceFields r,
                                                 @ForAll @IntRange(min = 0, max = 53) int at, @ForAll byte value,
                                                 @ForAll @IntRange(min = 0, max = 10_000) int cut, @ForAll boolean trustDscp) {
        RoceFrameBuilder b = CodecProperties.builder(r).bfcUpstreamQueue(7);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        NetOrder.put8(s, at, value);
        int shorter = cut % (len + 1);
        PriorityClassifier c = trustDscp ? PriorityClassifier.trustDscp(4) : PriorityClassifier.trustPcp(4);
        RawClassifierTest.assertAgrees(c, s.asSlice(0, shorter), shorter);
    }

    @Property
    void controlFramesSurviveAnyCutAndAnyByte(@ForAll @IntRange(min = 0, max = 128) int nbits, @ForAll long low,
                                              @ForAll @IntRange(min = 0, max = 59) int at, @ForAll byte value,
                                              @ForAll @IntRange(min = 0, max = 60) int cut) {
        MemorySegment s = Frames.heap(60);
        Bfc.writeBitmap(s, 0, Bfc.NEAREST_BRIDGE, 1, 0, nbits, low & Bfc.lowMask(nbits), 0);
        NetOrder.put8(s, at, value);
        MemorySegment exact = MemorySegment.ofArray(s.asSlice(0, cut).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        ParsedFrame f = Frames.parse(exact, cut);
        ParsedFrame g = Frames.parse(s, cut);
        assertEquals(f.error(), g.error());
        assertEquals(f.bfcBitmapLow(), g.bfcBitmapLow());
        assertEquals(f.bfcBitmapHigh(), g.bfcBitmapHigh());
        if (f.isBfcControl()) {
            assertEquals(0, f.bfcBitmapLow() & ~Bfc.lowMask(f.bfcBitmapQueues()));
            assertEquals(0, f.bfcBitmapHigh() & ~Bfc.highMask(f.bfcBitmapQueues()));
        }
        RawClassifierTest.assertAgrees(RawClassifierTest.PCP, exact, cut);
    }

    @Provide
    Arbitrary<CodecProperties.RoceFields> roceFields() {
        return new CodecProperties().roceFields();
    }
}

package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.EnumMap;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Millions of random and mutated frames: the parser never throws, and never looks past the
 * length it is given. Each frame is parsed twice, once from a segment exactly as long as the
 * frame (any read past it would throw) and once from a larger buffer with garbage after the
 * frame (a read past the length would change the result).
 */
class ParserFuzzTest {
    private static final int RANDOM_FRAMES = 2_000_000;
    private static final int MUTATED_FRAMES = 2_000_000;
    private static final int[] ETHER_TYPES = {Ethernet.TYPE_IPV4, Ethernet.TYPE_VLAN, Ethernet.TYPE_QINQ,
            Ethernet.TYPE_MAC_CONTROL, 0x86DD, 0x0806, Bfc.TYPE_SHIM, Bfc.TYPE_CONTROL};

    private final ParsedFrame exact = new ParsedFrame();
    private final ParsedFrame padded = new ParsedFrame();
    private final Map<ParseError, Integer> seen = new EnumMap<>(ParseError.class);
    private int bfcControlSeen;
    private int shimmedRoceSeen;

    @Test
    void randomAndMutatedFramesNeverThrow() {
        SplittableRandom rnd = new SplittableRandom(0x5EED);
        byte[] buffer = new byte[2048];
        MemorySegment big = MemorySegment.ofArray(buffer);

        for (int i = 0; i < RANDOM_FRAMES; i++) {
            int len = rnd.nextInt(0, 160);
            fillRandom(rnd, buffer);
            if (len >= 14 && rnd.nextBoolean()) {
                int type = ETHER_TYPES[rnd.nextInt(ETHER_TYPES.length)];
                NetOrder.put16(big, 12, type);                                          // reach deeper layers
                if (type == Bfc.TYPE_SHIM && rnd.nextBoolean()) {                       // a version-1 shim, inner type
                    NetOrder.put8(big, 14, 0x10 | rnd.nextInt(16));
                    NetOrder.put16(big, 18, ETHER_TYPES[rnd.nextInt(ETHER_TYPES.length)]);
                    if (rnd.nextBoolean()) {
                        NetOrder.put8(big, 20, 0x45);
                    }
                } else if (type == Bfc.TYPE_CONTROL && rnd.nextBoolean()) {             // version 1, op 0..4, small nbits
                    NetOrder.put16(big, 14, 0x0100 | rnd.nextInt(5));
                    NetOrder.put16(big, 20, rnd.nextInt(140));
                } else if (rnd.nextBoolean()) {
                    NetOrder.put8(big, 14, 0x45);
                }
            }
            check(big, len);
        }

        MemorySegment[] seeds = Frames.seedCorpus();
        for (int i = 0; i < MUTATED_FRAMES; i++) {
            MemorySegment seed = seeds[rnd.nextInt(seeds.length)];
            int len = (int) seed.byteSize();
            fillRandom(rnd, buffer);
            MemorySegment.copy(seed, 0, big, 0, len);
            int flips = rnd.nextInt(1, 5);
            for (int k = 0; k < flips; k++) {
                buffer[rnd.nextInt(len)] ^= (byte) (1 << rnd.nextInt(8));
            }
            if (rnd.nextInt(4) == 0) {
                buffer[rnd.nextInt(Math.min(len, 60))] = (byte) rnd.nextInt(256);
            }
            check(big, rnd.nextInt(3) == 0 ? rnd.nextInt(len + 1) : len);
        }

        // The corpus must reach deep into the parser, or the test proves little.
        for (ParseError e : new ParseError[] {ParseError.NONE, ParseError.RUNT, ParseError.TRUNCATED_IPV4,
                ParseError.BAD_IPV4_TOTAL_LENGTH, ParseError.BAD_UDP_LENGTH, ParseError.UNKNOWN_BTH_OPCODE,
                ParseError.TRUNCATED_MAC_CONTROL, ParseError.UNKNOWN_MAC_CONTROL_OPCODE, ParseError.TRUNCATED_VLAN_TAG,
                ParseError.TRUNCATED_BFC_SHIM, ParseError.BAD_BFC_VERSION, ParseError.TRUNCATED_BFC_CONTROL,
                ParseError.BAD_BFC_CONTROL}) {
            assertTrue(seen.getOrDefault(e, 0) > 0, "fuzzing never produced " + e + "; seen " + seen);
        }
        assertTrue(bfcControlSeen > 0 && shimmedRoceSeen > 0,
                "fuzzing parsed " + bfcControlSeen + " BFC control and " + shimmedRoceSeen + " shimmed RoCE frames");
    }

    private void check(MemorySegment big, int len) {
        MemorySegment exactCopy = MemorySegment.ofArray(big.asSlice(0, len).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        ParseError a = FrameParser.parse(exactCopy, 0, len, exact);
        ParseError b = FrameParser.parse(big, 0, len, padded);
        seen.merge(a, 1, Integer::sum);
        bfcControlSeen += exact.isBfcControl() ? 1 : 0;
        shimmedRoceSeen += exact.isRoce() && exact.hasBfcShim() ? 1 : 0;
        if (a != b || exact.kind() != padded.kind() || exact.flowHash() != padded.flowHash()
                || exact.destQp() != padded.destQp() || exact.classEnable() != padded.classEnable()
                || exact.pcp() != padded.pcp() || exact.etherType() != padded.etherType()
                || exact.bfcShimOffset() != padded.bfcShimOffset() || exact.upstreamQueue() != padded.upstreamQueue()
                || exact.bfcSeq() != padded.bfcSeq() || exact.bfcQueue() != padded.bfcQueue()
                || exact.bfcBitmapLow() != padded.bfcBitmapLow() || exact.bfcBitmapHigh() != padded.bfcBitmapHigh()) {
            fail("parse depends on bytes past the length " + len + ": " + a + " vs " + b);
        }
    }

    private static void fillRandom(SplittableRandom rnd, byte[] b) {
        for (int i = 0; i < 200; i += 8) {
            long v = rnd.nextLong();
            for (int k = 0; k < 8; k++) {
                b[i + k] = (byte) (v >>> (8 * k));
            }
        }
    }

}

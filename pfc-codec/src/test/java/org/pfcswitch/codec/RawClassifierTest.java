package org.pfcswitch.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.pfcswitch.codec.PriorityClassifier.RAW_BFC_CONTROL;
import static org.pfcswitch.codec.PriorityClassifier.RAW_MAC_CONTROL;
import static org.pfcswitch.codec.PriorityClassifier.RAW_MALFORMED;
import static org.pfcswitch.codec.PriorityClassifier.RAW_PRIORITY_MASK;
import static org.pfcswitch.codec.PriorityClassifier.RAW_RUNT;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.EnumSet;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/**
 * {@link PriorityClassifier#classifyRaw}, the forwarder's lean classification, against the full
 * parse: examples, and millions of random and mutated frames on which the two must agree and
 * the lean one must never throw nor read past the length.
 */
class RawClassifierTest {

    /** The errors of the layers classifyRaw reads; exactly these set {@link PriorityClassifier#RAW_MALFORMED}. */
    static final EnumSet<ParseError> RAW_LAYER_ERRORS = EnumSet.of(ParseError.OUTSIDE_BUFFER,
            ParseError.TRUNCATED_VLAN_TAG, ParseError.TOO_MANY_VLAN_TAGS, ParseError.TRUNCATED_IPV4,
            ParseError.BAD_IPV4_VERSION, ParseError.BAD_IPV4_HEADER_LENGTH, ParseError.BAD_IPV4_TOTAL_LENGTH,
            ParseError.TRUNCATED_BFC_SHIM, ParseError.BAD_BFC_VERSION);

    static final PriorityClassifier DSCP = PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3,48:6"), 1);
    static final PriorityClassifier PCP = PriorityClassifier.trustPcp(2);

    /** Asserts that classifyRaw says what the full parse and classify say about {@code length} bytes at 0. */
    static void assertAgrees(PriorityClassifier c, MemorySegment s, int length) {
        ParsedFrame f = new ParsedFrame();
        ParseError e = FrameParser.parse(s, 0, length, f);
        int raw = c.classifyRaw(s, 0, length);
        String what = "frame of " + length + " bytes, parse " + e + ", raw 0x" + Integer.toHexString(raw);
        assertEquals(c.classify(f), raw & RAW_PRIORITY_MASK, "priority: " + what);
        assertEquals(e == ParseError.RUNT, (raw & RAW_RUNT) != 0, "runt: " + what);
        boolean l2 = length >= Ethernet.HEADER_BYTES && e != ParseError.OUTSIDE_BUFFER;
        boolean macControl = l2 && f.etherType() == Ethernet.TYPE_MAC_CONTROL;
        assertEquals(macControl, (raw & RAW_MAC_CONTROL) != 0, "MAC control: " + what);
        assertEquals(l2 && f.etherType() == Bfc.TYPE_CONTROL, (raw & RAW_BFC_CONTROL) != 0, "BFC control: " + what);
        if (!macControl) {
            assertEquals(RAW_LAYER_ERRORS.contains(e), (raw & RAW_MALFORMED) != 0, "malformed: " + what);
        }
    }

    @Test
    void untaggedRoceTrustsDscp() {
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).dscp(26).payloadBytes(64);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(3, DSCP.classifyRaw(s, 0, len));
        assertEquals(2, PCP.classifyRaw(s, 0, len));            // untagged: the default
        assertAgrees(DSCP, s, len);
        assertAgrees(PCP, s, len);
    }

    @Test
    void taggedRoceTrustsDscpOrPcp() {
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).vlan(5, 100).dscp(48).payloadBytes(0);
        MemorySegment s = Frames.heap(b.frameLength());
        int len = b.write(s, 0);
        assertEquals(6, DSCP.classifyRaw(s, 0, len));
        assertEquals(5, PCP.classifyRaw(s, 0, len));
    }

    @Test
    void pfcAndPauseAreMacControlWithTheDefaultPriority() {
        MemorySegment pfc = Frames.heap(60);
        MacControl.writePfc(pfc, 0, 1, 0x18, 65535);
        assertEquals(1 | RAW_MAC_CONTROL, DSCP.classifyRaw(pfc, 0, 60));
        MemorySegment pause = Frames.heap(60);
        MacControl.writePause(pause, 0, 1, 100);
        assertEquals(2 | RAW_MAC_CONTROL, PCP.classifyRaw(pause, 0, 60));
    }

    @Test
    void runtsTruncationsAndOutOfBoundsAreFlaggedNotThrown() {
        MemorySegment s = Frames.heap(13);
        assertEquals(1 | RAW_RUNT, DSCP.classifyRaw(s, 0, 13));
        assertEquals(1 | RAW_MALFORMED, DSCP.classifyRaw(s, 0, 14));        // longer than the segment
        assertEquals(1 | RAW_MALFORMED, DSCP.classifyRaw(s, -1, 5));
        assertEquals(1 | RAW_MALFORMED, DSCP.classifyRaw(s, 0, -1));

        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).vlan(4, 7).dscp(26).payloadBytes(64);
        MemorySegment roce = Frames.heap(b.frameLength());
        int len = b.write(roce, 0);
        assertEquals(1 | RAW_MALFORMED, DSCP.classifyRaw(roce, 0, 16));      // tag cut off: no PCP yet
        assertEquals(4 | RAW_MALFORMED, DSCP.classifyRaw(roce, 0, 30));      // IPv4 header cut off: the PCP
        assertEquals(3 | RAW_MALFORMED, DSCP.classifyRaw(roce, 0, 40));      // total length beyond the frame
        for (int cut = 0; cut <= len; cut++) {
            assertAgrees(DSCP, roce, cut);
            assertAgrees(PCP, roce, cut);
        }
    }

    @Test
    void threeTagsAreTooMany() {
        MemorySegment s = Frames.heap(64);
        Ethernet.write(s, 0, 2, 1, Ethernet.TYPE_QINQ);
        NetOrder.put32(s, 14, Vlan.tci(6, 0, 1) << 16 | Ethernet.TYPE_VLAN);
        NetOrder.put32(s, 18, Vlan.tci(2, 0, 1) << 16 | Ethernet.TYPE_VLAN);
        NetOrder.put32(s, 22, Vlan.tci(3, 0, 1) << 16 | Ethernet.TYPE_IPV4);
        assertEquals(6 | RAW_MALFORMED, PCP.classifyRaw(s, 0, 64));
        assertAgrees(PCP, s, 64);
        assertAgrees(DSCP, s, 64);
    }

    // ------------------------------------------------------------------------------ fuzzing

    private static final int FRAMES = 1_000_000;
    private static final int[] ETHER_TYPES = {Ethernet.TYPE_IPV4, Ethernet.TYPE_VLAN, Ethernet.TYPE_QINQ,
            Ethernet.TYPE_MAC_CONTROL, 0x86DD, 0x0806, Bfc.TYPE_SHIM, Bfc.TYPE_CONTROL};

    /**
     * Random frames and mutations of valid ones: classifyRaw agrees with the full parse, and gives
     * the same answer from a segment exactly as long as the frame (a read past it would throw) as
     * from a buffer with garbage after the frame (a read past the length would change the answer).
     */
    @Test
    void randomAndMutatedFramesAgreeWithTheFullParseAndNeverThrow() {
        SplittableRandom rnd = new SplittableRandom(0xC1A55);
        byte[] buffer = new byte[256];
        MemorySegment big = MemorySegment.ofArray(buffer);
        MemorySegment[] seeds = Frames.seedCorpus();
        EnumSet<ParseError> seen = EnumSet.noneOf(ParseError.class);
        ParsedFrame f = new ParsedFrame();
        for (int i = 0; i < FRAMES; i++) {
            rnd.nextBytes(buffer);
            int len;
            if (rnd.nextBoolean()) {
                len = rnd.nextInt(0, 100);
                if (len >= 14 && rnd.nextBoolean()) {
                    NetOrder.put16(big, 12, ETHER_TYPES[rnd.nextInt(ETHER_TYPES.length)]);
                    NetOrder.put16(big, 16, ETHER_TYPES[rnd.nextInt(ETHER_TYPES.length)]);
                    NetOrder.put16(big, 20, ETHER_TYPES[rnd.nextInt(ETHER_TYPES.length)]);
                    if (rnd.nextBoolean()) {
                        NetOrder.put8(big, 14 + 4 * rnd.nextInt(3), 0x45);
                    }
                }
            } else {
                MemorySegment seed = seeds[rnd.nextInt(seeds.length)];
                len = (int) seed.byteSize();
                MemorySegment.copy(seed, 0, big, 0, len);
                for (int k = rnd.nextInt(1, 4); k > 0; k--) {
                    buffer[rnd.nextInt(Math.min(len, 48))] ^= (byte) (1 << rnd.nextInt(8));
                }
                if (rnd.nextInt(3) == 0) {
                    len = rnd.nextInt(len + 1);
                }
            }
            PriorityClassifier c = rnd.nextBoolean() ? DSCP : PCP;
            MemorySegment exact = MemorySegment.ofArray(big.asSlice(0, len).toArray(ValueLayout.JAVA_BYTE));
            int fromExact = c.classifyRaw(exact, 0, len);
            if (fromExact != c.classifyRaw(big, 0, len)) {
                fail("classifyRaw depends on bytes past the length " + len);
            }
            assertAgrees(c, exact, len);
            seen.add(FrameParser.parse(exact, 0, len, f));
        }
        for (ParseError e : RAW_LAYER_ERRORS) {
            assertTrue(e == ParseError.OUTSIDE_BUFFER || seen.contains(e), "fuzzing never produced " + e + "; seen " + seen);
        }
    }

}

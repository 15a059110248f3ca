package org.pfcswitch.codec;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A {@link ParsedFrame} is reused from frame to frame and only partly reset: whatever frames came
 * before, every accessor must read exactly as on a result that has never parsed anything. Frames
 * of every depth (runts, plain Ethernet, VLAN, BFC shims and control, PFC, IPv4, UDP, RoCE with and
 * without AETH), whole, cut short and mutated, follow each other in random order.
 */
class ParsedFrameReuseTest {

    @Test
    void aReusedResultReadsAsAFreshOneWhateverCameBefore() {
        SplittableRandom rnd = new SplittableRandom(0xF00D);
        MemorySegment[] seeds = Frames.seedCorpus();
        ParsedFrame reused = new ParsedFrame();
        int deepThenShallow = 0;
        boolean wasDeep = false;
        for (int i = 0; i < 200_000; i++) {
            MemorySegment seed = seeds[rnd.nextInt(seeds.length)];
            byte[] bytes = seed.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
            if (rnd.nextInt(3) == 0) {
                bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 << rnd.nextInt(8));
            }
            int length = rnd.nextInt(4) == 0 ? rnd.nextInt(bytes.length + 1) : bytes.length;
            MemorySegment frame = MemorySegment.ofArray(bytes);
            ParseError a = FrameParser.parse(frame, 0, length, reused);
            ParsedFrame fresh = new ParsedFrame();
            ParseError b = FrameParser.parse(frame, 0, length, fresh);
            assertEquals(b, a);
            assertEquals(describe(fresh), describe(reused), "frame " + i + " of " + length + " bytes");
            if (wasDeep && !fresh.isRoce()) {
                deepThenShallow++;
            }
            wasDeep = fresh.isRoce() && fresh.hasAeth() || fresh.hasBfcShim() || fresh.isPfc();
        }
        assertTrue(deepThenShallow > 1000, "a shallower frame followed a deep one only " + deepThenShallow + " times");
    }

    /** Every accessor of the result, as one string. */
    private static String describe(ParsedFrame f) {
        StringBuilder s = new StringBuilder();
        s.append(f.error()).append(' ').append(f.kind()).append(' ').append(f.length()).append(' ')
                .append(f.dstMac()).append(' ').append(f.srcMac()).append(' ').append(f.etherType())
                .append(" vlan ").append(f.vlanTags()).append(' ').append(f.pcp()).append(' ').append(f.dei())
                .append(' ').append(f.vid())
                .append(" ip ").append(f.hasIpv4()).append(' ').append(f.ipv4Offset()).append(' ').append(f.dscp())
                .append(' ').append(f.ecn()).append(' ').append(f.ipProtocol()).append(' ').append(f.srcIp())
                .append(' ').append(f.dstIp()).append(' ').append(f.ipTotalLength()).append(' ').append(f.ipHeaderBytes())
                .append(" udp ").append(f.udpOffset()).append(' ').append(f.udpSrcPort()).append(' ').append(f.udpDstPort())
                .append(" bth ").append(f.isRoce()).append(' ').append(f.bthOffset()).append(' ').append(f.bthOpcode())
                .append(' ').append(f.destQp()).append(' ').append(f.psn()).append(' ').append(f.ackRequested())
                .append(' ').append(f.isCnp())
                .append(" aeth ").append(f.hasAeth()).append(' ').append(f.aethSyndrome()).append(' ').append(f.aethMsn())
                .append(" mac-control ").append(f.isMacControl()).append(' ').append(f.classEnable())
                .append(' ').append(f.pauseQuanta());
        for (int p = 0; p < MacControl.PRIORITIES; p++) {
            s.append(' ').append(f.quanta(p));
        }
        s.append(" bfc ").append(f.hasBfcShim()).append(' ').append(f.bfcShimOffset()).append(' ')
                .append(f.upstreamQueue()).append(' ').append(f.bfcFlags()).append(' ').append(f.isBfcControl())
                .append(' ').append(f.bfcOp()).append(' ').append(f.bfcSeq()).append(' ').append(f.bfcQueue())
                .append(' ').append(f.bfcBitmapQueues()).append(' ').append(f.bfcBitmapLow()).append(' ')
                .append(f.bfcBitmapHigh()).append(" hash ").append(f.flowHash());
        return s.toString();
    }
}

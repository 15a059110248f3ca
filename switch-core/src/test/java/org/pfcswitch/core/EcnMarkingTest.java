package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.ParsedFrame;

/** CE marking at dequeue, as the MMU's RED profile decides, and never on Not-ECT frames. */
class EcnMarkingTest {

    @Test
    void ectFramesAreMarkedWithAValidChecksumNotEctFramesAreLeftAlone() {
        // kmin 1 B, kmax 2 B: every frame leaves a queue longer than kmax, so RED always marks.
        CoreConfig config = Configs.core(Configs.mmu(2, "dt").ecnKminBytes(1).ecnKmaxBytes(2).ecnPmax(1).build()).build();
        CoreRig rig = new CoreRig(config);
        rig.core.onFrame(0, rig.roceFrame(Configs.host(1), Configs.host(0), 26, Ipv4.ECN_ECT0, 500, 1), 0);
        rig.core.onFrame(0, rig.roceFrame(Configs.host(1), Configs.host(0), 26, Ipv4.ECN_NOT_ECT, 500, 2), 1);
        rig.runUntil(100_000);

        ParsedFrame marked = parse(rig.sent.get(0));
        ParsedFrame plain = parse(rig.sent.get(1));
        assertEquals(Ipv4.ECN_CE, marked.ecn());
        assertTrue(marked.ipv4ChecksumValid());
        assertEquals(Ipv4.ECN_NOT_ECT, plain.ecn());
        assertEquals(1, rig.core.counters().ecnMarked[1 * 8 + 3]);
    }

    @Test
    void aShortQueueUnderTheDefaultProfileIsNotMarked() {
        CoreRig rig = new CoreRig(Configs.core(2));                  // DCQCN default: kmin 400 KB at 100 Gb/s
        for (int i = 0; i < 20; i++) {
            rig.core.onFrame(0, rig.roceFrame(Configs.host(1), Configs.host(0), 26, Ipv4.ECN_ECT0, 1000, i), i);
        }
        rig.runUntil(100_000);
        assertEquals(20, rig.sent.size());
        assertTrue(rig.sent.stream().allMatch(s -> parse(s).ecn() == Ipv4.ECN_ECT0));
        assertEquals(0, rig.core.counters().ecnMarked[1 * 8 + 3]);
    }

    private static ParsedFrame parse(CoreRig.Sent s) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(MemorySegment.ofArray(s.bytes()), f);
        return f;
    }
}

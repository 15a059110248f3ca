package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/** Test helpers: fresh heap segments, a parse of a whole segment, the fuzz tests' seed corpus. */
final class Frames {
    private Frames() {}

    static MemorySegment heap(int bytes) {
        return MemorySegment.ofArray(new byte[bytes]);
    }

    static ParsedFrame parse(MemorySegment s, int length) {
        ParsedFrame f = new ParsedFrame();
        FrameParser.parse(s, 0, length, f);
        return f;
    }

    static MemorySegment bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) values[i];
        }
        return MemorySegment.ofArray(b);
    }

    /**
     * Valid frames of every kind the parsers know (PFC, PAUSE, RoCE WRITE, tagged ACK, CNP, plain
     * UDP, BFC-shimmed RoCE untagged and tagged, BFC PAUSE and BITMAP) that the fuzz tests mutate.
     */
    static MemorySegment[] seedCorpus() {
        MemorySegment pfc = heap(60);
        MacControl.writePfc(pfc, 0, 1, 0x18, 65535);
        MemorySegment pause = heap(60);
        MacControl.writePause(pause, 0, 1, 100);
        RoceFrameBuilder[] roce = {
            new RoceFrameBuilder().ips(1, 2).dscp(26).payloadBytes(64),
            new RoceFrameBuilder().ips(1, 2).vlan(3, 5).dscp(48).opcode(Roce.OP_RC_ACK).payloadBytes(0),
            new RoceFrameBuilder().ips(1, 2).opcode(Roce.OP_CNP),
            new RoceFrameBuilder().ips(1, 2).udpDstPort(53).payloadBytes(20),
            new RoceFrameBuilder().ips(1, 2).dscp(26).bfcUpstreamQueue(7).payloadBytes(32),
            new RoceFrameBuilder().ips(1, 2).vlan(3, 5).dscp(48).bfcUpstreamQueue(Bfc.NO_UPSTREAM_QUEUE)
                    .opcode(Roce.OP_RC_ACK).payloadBytes(0),
        };
        MemorySegment bfcPause = heap(60);
        Bfc.writePause(bfcPause, 0, Bfc.NEAREST_BRIDGE, 1, 0x1234, 9);
        MemorySegment bfcBitmap = heap(60);
        Bfc.writeBitmap(bfcBitmap, 0, 2, 1, 77, 128, 0x8000_0000_0000_0001L, 0x8000_0000_0000_0001L);
        MemorySegment[] seeds = new MemorySegment[4 + roce.length];
        seeds[0] = pfc;
        seeds[1] = pause;
        seeds[2] = bfcPause;
        seeds[3] = bfcBitmap;
        for (int i = 0; i < roce.length; i++) {
            seeds[4 + i] = heap(roce[i].frameLength());
            roce[i].write(seeds[4 + i], 0);
        }
        return seeds;
    }
}

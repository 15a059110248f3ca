package org.pfcswitch.codec;

import java.lang.foreign.MemorySegment;

/** Test helpers: fresh heap segments and a parse of a whole segment. */
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
}

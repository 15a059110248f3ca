package org.pfcswitch.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.buffer.UnpooledByteBufAllocator;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

class ByteBufFramesTest {
    @Test
    void directAndHeapBuffersParseWithoutCopy() {
        for (var alloc : new io.netty.buffer.ByteBufAllocator[] {
                PooledByteBufAllocator.DEFAULT, new UnpooledByteBufAllocator(false)}) {
            ByteBuf buf = ByteBufFrames.pfc(alloc, 0x0200_0000_0009L, 0x18, new int[] {0, 0, 0, 10, 20, 0, 0, 0});
            try {
                ParsedFrame f = new ParsedFrame();
                assertEquals(ParseError.NONE, ByteBufFrames.parse(buf, f));
                assertEquals(FrameKind.PFC, f.kind());
                assertEquals(10, f.quanta(3));
                assertEquals(20, f.quanta(4));
                // A view shares memory: a change through the buffer shows through the view.
                buf.setShort(buf.readerIndex() + 18 + 6, 999);
                assertEquals(999, MacControl.pfcQuanta(ByteBufFrames.view(buf), 0, 3));
            } finally {
                buf.release();
            }
        }
    }

    @Test
    void viewStartsAtTheReaderIndex() {
        ByteBuf pause = ByteBufFrames.pause(UnpooledByteBufAllocator.DEFAULT, 1, 321);
        ByteBuf prefixed = Unpooled.buffer(70).writeBytes(new byte[7]).writeBytes(pause);
        prefixed.skipBytes(7);
        ParsedFrame f = new ParsedFrame();
        assertEquals(ParseError.NONE, ByteBufFrames.parse(prefixed, f));
        assertEquals(321, f.pauseQuanta());
        pause.release();
        prefixed.release();
    }

    @Test
    void compositeBuffersAreCopied() {
        ByteBuf pause = ByteBufFrames.pause(UnpooledByteBufAllocator.DEFAULT, 1, 42);
        CompositeByteBuf c = Unpooled.compositeBuffer();
        c.addComponent(true, pause.retainedSlice(0, 20));
        c.addComponent(true, pause.retainedSlice(20, 40));
        ParsedFrame f = new ParsedFrame();
        assertEquals(ParseError.NONE, ByteBufFrames.parse(c, f));
        assertEquals(42, f.pauseQuanta());
        c.release();
        pause.release();
    }
}

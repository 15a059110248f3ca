package org.pfcswitch.codec;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.lang.foreign.MemorySegment;

/**
 * Netty {@link ByteBuf} adapters for code off the hot path (control plane, tools, tests):
 * the codec itself works on {@link MemorySegment}, these only give it a view of a buffer.
 *
 * <p>Ownership: a view borrows the buffer's memory and never retains or releases it; it is
 * valid only while the caller holds a reference to the buffer and does not move its reader
 * index. Buffers built here are owned by the caller, who releases them.
 */
public final class ByteBufFrames {
    private ByteBufFrames() {}

    /**
     * The readable bytes of {@code buf} as a segment, without copying when the buffer is
     * direct or heap-backed. A composite buffer has no single memory region, so its bytes are
     * copied into a new heap segment.
     */
    public static MemorySegment view(ByteBuf buf) {
        int readable = buf.readableBytes();
        if (buf.hasMemoryAddress()) {
            return MemorySegment.ofAddress(buf.memoryAddress() + buf.readerIndex()).reinterpret(readable);
        }
        if (buf.hasArray()) {
            return MemorySegment.ofArray(buf.array()).asSlice(buf.arrayOffset() + buf.readerIndex(), readable);
        }
        byte[] copy = new byte[readable];
        buf.getBytes(buf.readerIndex(), copy);
        return MemorySegment.ofArray(copy);
    }

    /** Parses the readable bytes of {@code buf}. */
    public static ParseError parse(ByteBuf buf, ParsedFrame out) {
        return FrameParser.parse(view(buf), out);
    }

    /** A new 60-byte PFC frame; the caller owns (and releases) the buffer. */
    public static ByteBuf pfc(ByteBufAllocator alloc, long srcMac, int classEnable, int[] quanta) {
        ByteBuf buf = alloc.buffer(Ethernet.MIN_FRAME_BYTES);
        buf.writerIndex(Ethernet.MIN_FRAME_BYTES);
        MacControl.writePfc(view(buf), 0, srcMac, classEnable, quanta);
        return buf;
    }

    /** A new 60-byte 802.3x PAUSE frame; the caller owns (and releases) the buffer. */
    public static ByteBuf pause(ByteBufAllocator alloc, long srcMac, int quanta) {
        ByteBuf buf = alloc.buffer(Ethernet.MIN_FRAME_BYTES);
        buf.writerIndex(Ethernet.MIN_FRAME_BYTES);
        MacControl.writePause(view(buf), 0, srcMac, quanta);
        return buf;
    }
}

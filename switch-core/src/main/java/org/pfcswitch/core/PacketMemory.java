package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

/**
 * Where the bytes of a packet are, given its handle. The switch sees a packet as a {@code long}
 * handle plus a length; the driver that owns the packets says how a handle becomes bytes. In the
 * DPDK driver ({@link DpdkPacketMemory}) the handle is the mbuf address; in a virtual-time
 * driver it would be a slot of a preallocated slab.
 *
 * <p>The hot path never slices a segment per packet (a slice is an object): it reads frames
 * through the one segment {@link #bytes()} at {@link #offset}, e.g.
 * {@code FrameParser.parse(memory.bytes(), memory.offset(h), memory.length(h), parsed)}.
 */
public interface PacketMemory {

    /** One segment that covers every packet of this memory; the same object for every call. */
    MemorySegment bytes();

    /** Where the first byte of the frame with this handle is in {@link #bytes()}. */
    long offset(long handle);

    /** Bytes in the frame with this handle. */
    int length(long handle);

    /** The frame as its own segment. Allocates a view: tests, logs and control plane only. */
    default MemorySegment frame(long handle) {
        return bytes().asSlice(offset(handle), length(handle));
    }
}

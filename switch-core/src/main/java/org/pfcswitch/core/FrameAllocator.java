package org.pfcswitch.core;

/**
 * The driver's packet buffers, as the core needs them: a fresh buffer for a frame the core
 * builds itself (a PFC frame, a flooded copy) and a way to give back frames it consumes (received
 * PFC frames) or drops. In the DPDK driver this is the mbuf pool; in the virtual-time driver the
 * slab. A handle from {@link #allocate} is readable and writable through the driver's
 * {@link org.pfcswitch.core.PacketMemory} and reports the length asked for.
 */
public interface FrameAllocator {

    /** What {@link #allocate} returns when the pool is empty. */
    long NO_HANDLE = -1L;

    /** A buffer for a frame of {@code length} bytes, or {@link #NO_HANDLE}. */
    long allocate(int length);

    /** Returns a frame's buffer to the pool. */
    void free(long handle);
}

package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

/**
 * Packet memory for the core's test drivers: a heap slab of 2 KiB frame buffers, a handle being the
 * buffer's number, and a free list. {@link CoreRig} and {@link CabledRig} are drivers over one.
 */
abstract class SlotSlab implements PacketMemory, FrameAllocator {

    static final int SLOT_BYTES = 2048;

    protected final MemorySegment slab;
    private final int[] length;
    private final int[] free;
    private int freeCount;

    SlotSlab(int slots) {
        slab = MemorySegment.ofArray(new long[slots * SLOT_BYTES / 8]);
        length = new int[slots];
        free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[freeCount++] = slots - 1 - i;
        }
    }

    @Override public MemorySegment bytes() { return slab; }
    @Override public long offset(long handle) { return handle * SLOT_BYTES; }
    @Override public int length(long handle) { return length[(int) handle]; }

    // Synchronized: the parts of a live change of scheme (WorkersMmuChange) run on several threads at
    // once against one slab, and each may allocate PFC frames and free what it sends; uncontended otherwise.
    @Override
    public synchronized long allocate(int len) {
        if (freeCount == 0) {
            return NO_HANDLE;
        }
        int h = free[--freeCount];
        length[h] = len;
        return h;
    }

    @Override
    public synchronized void free(long handle) {
        free[freeCount++] = (int) handle;
    }

    /** Buffers allocated and not freed. */
    int buffersInUse() {
        return length.length - freeCount;
    }
}

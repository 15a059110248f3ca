package org.pfcswitch.testbed;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.core.PacketMemory;
import org.pfcswitch.core.FrameAllocator;

/**
 * The virtual-time driver's packet memory: one heap segment cut into equal slots; a handle is a
 * slot number. Hosts write frames into slots, links carry handles, the switch core reads and
 * marks the bytes in place, and whoever consumes a frame frees its slot.
 */
public final class HeapSlab implements PacketMemory, FrameAllocator {

    private final MemorySegment bytes;
    private final int slotBytes;
    private final int[] length;
    private final int[] free;
    private int freeCount;

    /** {@code slotBytes} is rounded up to a multiple of 8 and must hold the largest frame. */
    public HeapSlab(int slots, int slotBytes) {
        if (slots < 1 || slotBytes < 64) {
            throw new IllegalArgumentException("slab needs >= 1 slot of >= 64 bytes, got " + slots + " x " + slotBytes);
        }
        this.slotBytes = (slotBytes + 7) & ~7;
        this.bytes = MemorySegment.ofArray(new long[Math.multiplyExact(slots, this.slotBytes / 8)]);
        this.length = new int[slots];
        this.free = new int[slots];
        for (int i = 0; i < slots; i++) {
            free[freeCount++] = slots - 1 - i;
        }
    }

    /** Bytes per slot: the largest frame it holds. */
    int slotBytes() {
        return slotBytes;
    }

    @Override
    public MemorySegment bytes() {
        return bytes;
    }

    @Override
    public long offset(long handle) {
        return handle * slotBytes;
    }

    @Override
    public int length(long handle) {
        return length[(int) handle];
    }

    @Override
    public long allocate(int frameLength) {
        if (frameLength > slotBytes) {
            throw new IllegalArgumentException("frame of " + frameLength + " B does not fit a " + slotBytes + " B slot");
        }
        if (freeCount == 0) {
            return NO_HANDLE;
        }
        int h = free[--freeCount];
        length[h] = frameLength;
        return h;
    }

    /** Like {@link #allocate} but a full slab is a configuration error of the run, reported as such. */
    long allocateOrFail(int frameLength) {
        long h = allocate(frameLength);
        if (h == NO_HANDLE) {
            throw new IllegalStateException("packet slab exhausted (" + length.length + " slots of " + slotBytes
                    + " B): raise the testbed's slab size");
        }
        return h;
    }

    /** Slot {@code handle}, allocated for the largest frame before it was known, holds {@code frameLength} bytes. */
    void trim(long handle, int frameLength) {
        length[(int) handle] = frameLength;
    }

    @Override
    public void free(long handle) {
        free[freeCount++] = (int) handle;
    }

    public int slots() {
        return length.length;
    }

    public int inUse() {
        return length.length - freeCount;
    }
}

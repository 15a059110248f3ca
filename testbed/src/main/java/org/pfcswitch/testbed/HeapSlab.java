package org.pfcswitch.testbed;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.pfcswitch.core.PacketMemory;
import org.pfcswitch.core.FrameAllocator;

/**
 * The virtual-time driver's packet memory: one segment cut into equal slots; a handle is a slot
 * number. Hosts write frames into slots, links carry handles, the switch core reads and marks the
 * bytes in place, and whoever consumes a frame frees its slot.
 *
 * <p>The segment is sized for the whole buffer of every switch, but a fabric holds a small part
 * of that at any time, so it is reserved, not filled ({@link ReservedMemory}): a page takes memory
 * when a frame is first written to it. Freed slots are reused last-freed first, and a slot never
 * used before is handed out only when every used one is taken, so the slots ever touched are
 * exactly the most frames held at once ({@link #peakSlots}), however long the run.
 */
public final class HeapSlab implements PacketMemory, FrameAllocator, AutoCloseable {

    /** Bookkeeping arrays start this long and double as the slots in use grow. */
    private static final int FIRST_BOOKKEEPING_SLOTS = 1024;

    private final ReservedMemory memory;
    private final MemorySegment bytes;
    private final int slots;
    private final int slotBytes;
    /** Frame length per slot, for the slots ever used. */
    private int[] length;
    /** Freed slots, the last freed on top. */
    private int[] free;
    private int freeCount;
    /** Slots ever handed out: 0 .. peakSlots - 1. */
    private int peakSlots;

    /** {@code slotBytes} is rounded up to a multiple of 8 and must hold the largest frame. */
    public HeapSlab(int slots, int slotBytes) {
        if (slots < 1 || slotBytes < 64) {
            throw new IllegalArgumentException("slab needs >= 1 slot of >= 64 bytes, got " + slots + " x " + slotBytes);
        }
        this.slots = slots;
        this.slotBytes = (slotBytes + 7) & ~7;
        this.memory = ReservedMemory.reserve((long) slots * this.slotBytes);
        this.bytes = memory.segment();
        int first = Math.min(slots, FIRST_BOOKKEEPING_SLOTS);
        this.length = new int[first];
        this.free = new int[first];
    }

    /**
     * A frame's worth of memory of the slab's kind (native, not a Java array) for bytes kept beside
     * the slab, such as a flow's frame template: with one kind of segment in the run, the codec's
     * segment accesses stay monomorphic and inline fully. Freed when no longer reachable.
     */
    static MemorySegment aside(long bytes) {
        return Arena.ofAuto().allocate(bytes, 8);
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
        int h;
        if (freeCount > 0) {
            h = free[--freeCount];
        } else if (peakSlots < slots) {
            h = peakSlots++;
            if (h == length.length) {
                grow();
            }
        } else {
            return NO_HANDLE;
        }
        length[h] = frameLength;
        return h;
    }

    /** Room for twice the slots in use: only while the run reaches a new peak, never in steady state. */
    private void grow() {
        int n = (int) Math.min(slots, 2L * length.length);
        length = Arrays.copyOf(length, n);
        free = Arrays.copyOf(free, n);
    }

    /** Like {@link #allocate} but a full slab is a configuration error of the run, reported as such. */
    long allocateOrFail(int frameLength) {
        long h = allocate(frameLength);
        if (h == NO_HANDLE) {
            throw new IllegalStateException("packet slab exhausted (" + slots + " slots of " + slotBytes
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
        return slots;
    }

    public int inUse() {
        return peakSlots - freeCount;
    }

    /** The most slots in use at once so far: the only slots whose memory was ever touched. */
    public int peakSlots() {
        return peakSlots;
    }

    /** Memory the frames have taken so far: {@link #peakSlots} slots, whole pages. */
    public long peakFrameBytes() {
        return ReservedMemory.wholePages((long) peakSlots * slotBytes);
    }

    /**
     * Gives the frames' memory back to the system now rather than when the slab is collected. The
     * slab must not be used afterwards: its frames read as zeros.
     */
    @Override
    public void close() {
        memory.discard();
    }
}

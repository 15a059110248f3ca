package org.pfcswitch.testbed;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * Zeroed memory that costs nothing until it is written: an anonymous private mapping without swap
 * reservation, so the system commits a page on its first write. A Java array or an arena's
 * allocation is zeroed by writing it, which commits all of it at once. The mapping is undone when
 * the segment is collected; {@link #discard} gives the pages back sooner. Set up with three system
 * calls per slab, none per frame.
 */
final class ReservedMemory {

    private static final long PAGE_BYTES = 4096;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_PRIVATE_ANONYMOUS_NORESERVE = 0x02 | 0x20 | 0x4000;
    private static final int MADV_DONTNEED = 4;
    private static final long MAP_FAILED = -1L;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MMAP = libc("mmap",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MADVISE = libc("madvise", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT));
    private static final MethodHandle MUNMAP = libc("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private final MemorySegment segment;

    private ReservedMemory(MemorySegment segment) {
        this.segment = segment;
    }

    /** {@code bytes} of reserved, zeroed memory (at least one page). */
    static ReservedMemory reserve(long bytes) {
        long size = wholePages(Math.max(1, bytes));
        MemorySegment at;
        try {
            at = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, size, PROT_READ_WRITE,
                    MAP_PRIVATE_ANONYMOUS_NORESERVE, -1, 0L);
        } catch (Throwable t) {
            throw new IllegalStateException("mmap of " + size + " B failed: " + t, t);
        }
        if (at.address() == MAP_FAILED) {
            throw new OutOfMemoryError("cannot reserve " + size + " B of address space for the packet slab");
        }
        return new ReservedMemory(at.reinterpret(size, Arena.ofAuto(), ReservedMemory::unmap));
    }

    MemorySegment segment() {
        return segment;
    }

    /** Returns the written pages to the system; they read as zeros afterwards. */
    void discard() {
        try {
            int unused = (int) MADVISE.invokeExact(segment, segment.byteSize(), MADV_DONTNEED);
        } catch (Throwable t) {
            throw new IllegalStateException("madvise failed: " + t, t);
        }
    }

    /** {@code bytes} rounded up to whole pages. */
    static long wholePages(long bytes) {
        return (bytes + PAGE_BYTES - 1) / PAGE_BYTES * PAGE_BYTES;
    }

    private static void unmap(MemorySegment unmapped) {
        try {
            int unused = (int) MUNMAP.invokeExact(MemorySegment.ofAddress(unmapped.address()), unmapped.byteSize());
        } catch (Throwable t) {
            // the collector's thread has nobody to tell; the address space stays reserved
        }
    }

    private static MethodHandle libc(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), fd);
    }
}

package org.pfcswitch.dataplane;

import java.lang.foreign.MemorySegment;

/** Native arrays the poll loop touches on every pass. */
final class NativeArrays {

    private NativeArrays() {}

    /**
     * The memory of {@code s} as a segment without an arena (global scope). A downcall that takes
     * a segment of a shared arena updates the arena's acquire count atomically twice, and a burst
     * array's accessors check the arena on every access; the worker's arrays need neither, because
     * their owner closes the arena only after the worker stopped and was drained.
     */
    static MemorySegment unscoped(MemorySegment s) {
        return MemorySegment.ofAddress(s.address()).reinterpret(s.byteSize());
    }
}

package org.pfcswitch.cli.sweep;

import java.lang.management.ManagementFactory;

/**
 * The Java heap the calling thread has allocated, from HotSpot's per-thread counter. A grid's run
 * runs on one thread from start to end, so the difference across the run is that run's alone,
 * however many run beside it; the heap's own figures (used, peak) mix every run together.
 */
public final class ThreadHeap {

    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private ThreadHeap() {}

    /** Bytes allocated by this thread so far, or -1 when the JVM does not count them. */
    public static long allocatedBytes() {
        return THREADS.isThreadAllocatedMemorySupported() && THREADS.isThreadAllocatedMemoryEnabled()
                ? THREADS.getCurrentThreadAllocatedBytes() : -1;
    }
}

package org.pfcswitch.cli;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Watches the switch worker's heap allocation in one-second windows after a warm-up: the hot
 * path must allocate nothing in steady state, and this says whether it did on the live switch.
 * A control change ({@code set}) builds a new MMU on the worker thread and shows up in its
 * window; reads ({@code show}, {@code /metrics}) copy into a preallocated snapshot and do not.
 */
final class WorkerAllocation {

    /** The JIT compiles the loop in the first seconds; allocation before that is not steady state. */
    static final long WARM_UP_NANOS = 5_000_000_000L;
    private static final long WINDOW_NANOS = 1_000_000_000L;

    private final com.sun.management.ThreadMXBean threads =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final long[] threadIds;
    private final long startNanos;
    private long windowStart = -1;
    private long windowBytes;
    private long gcAtWarmUp;
    private int windows;
    private int allocatingWindows;
    private long mostInOneWindow;
    private long totalBytes;
    /** Windows since the last one that allocated: steady state is a run of these to the end. */
    private int quietWindowsAtEnd;

    /** @param threadIds the worker threads, whose allocations add up */
    WorkerAllocation(long[] threadIds, long startNanos) {
        this.threadIds = threadIds.clone();
        this.startNanos = startNanos;
    }

    void sample(long now) {
        if (threadIds.length == 0 || now - startNanos < WARM_UP_NANOS) {
            return;
        }
        long bytes = 0;
        for (long perThread : threads.getThreadAllocatedBytes(threadIds)) {
            if (perThread < 0) {
                return;                   // a thread ended
            }
            bytes += perThread;
        }
        if (windowStart < 0) {
            windowStart = now;
            windowBytes = bytes;
            gcAtWarmUp = gcCount();
            return;
        }
        if (now - windowStart >= WINDOW_NANOS) {
            long delta = bytes - windowBytes;
            windows++;
            totalBytes += delta;
            if (delta > 0) {
                allocatingWindows++;
                mostInOneWindow = Math.max(mostInOneWindow, delta);
                quietWindowsAtEnd = 0;
            } else {
                quietWindowsAtEnd++;
            }
            windowStart = now;
            windowBytes = bytes;
        }
    }

    String summary() {
        if (windows == 0) {
            return "worker heap allocation: not measured (stopped within the " + WARM_UP_NANOS / 1_000_000_000 + " s warm-up)";
        }
        return "worker heap allocation after a " + WARM_UP_NANOS / 1_000_000_000 + " s warm-up: " + totalBytes + " bytes in "
                + windows + " one-second windows (" + allocatingWindows + " windows allocated, most " + mostInOneWindow
                + " bytes; none in the last " + quietWindowsAtEnd + "); JVM garbage collections meanwhile: " + (gcCount() - gcAtWarmUp);
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }
}

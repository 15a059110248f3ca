package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.BitSet;

/**
 * Pins threads to a CPU list with libc's {@code sched_setaffinity}. Workers are plain Java threads
 * (EAL runs with {@code --lcores=0@(all CPUs)} so that it pins nothing); a worker that the
 * configuration gives a CPU pins only itself here, and {@link CpuReservation} moves every other
 * thread of the process (by its kernel id: Java cannot name them otherwise) off the workers' CPUs.
 */
public final class ThreadAffinity {

    private static final MethodHandle SCHED_SETAFFINITY = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("sched_setaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, java.lang.foreign.ValueLayout.ADDRESS),
            Linker.Option.captureCallState("errno"));
    private static final MethodHandle GETTID = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("gettid").orElseThrow(), FunctionDescriptor.of(JAVA_INT));
    private static final long ERRNO_OFFSET = Linker.Option.captureStateLayout().byteOffset(
            java.lang.foreign.MemoryLayout.PathElement.groupElement("errno"));
    private static final int EINVAL = 22;

    private ThreadAffinity() {}

    /**
     * Parses a CPU list such as {@code 1}, {@code 2-3} or {@code 0,2-3}.
     *
     * @throws IllegalArgumentException naming the bad part
     */
    public static BitSet parseCpuList(String cpus) {
        BitSet set = new BitSet();
        for (String part : cpus.split(",")) {
            String p = part.trim();
            try {
                int dash = p.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
                int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).trim());
                if (from < 0 || to < from || to > 1023) {
                    throw new NumberFormatException();
                }
                set.set(from, to + 1);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("not a CPU list (want e.g. 1, 2-3 or 0,2-3): '" + cpus + "'");
            }
        }
        return set;
    }

    /** Restricts the calling thread to {@code cpus}. */
    public static void pinCurrentThread(String cpus) {
        BitSet set = parseCpuList(cpus);
        int errno = setAffinity(0, set);
        if (errno != 0) {
            throw new IllegalStateException("cannot pin " + Thread.currentThread().getName() + " to CPUs " + cpus
                    + " (sched_setaffinity errno " + errno + (errno == EINVAL ? ": no such CPU here" : "") + ")");
        }
    }

    /**
     * Restricts the thread with kernel id {@code tid} (0: the caller) to {@code cpus}.
     *
     * @return 0, or the errno of {@code sched_setaffinity} (ESRCH: the thread has exited)
     */
    static int setAffinity(int tid, BitSet cpus) {
        try (Arena call = Arena.ofConfined()) {
            long[] words = cpus.toLongArray();
            MemorySegment mask = call.allocate(JAVA_LONG, 16);   // cpu_set_t: 1024 bits
            for (int i = 0; i < words.length; i++) {
                mask.setAtIndex(JAVA_LONG, i, words[i]);
            }
            MemorySegment state = call.allocate(Linker.Option.captureStateLayout());
            int ret = (int) SCHED_SETAFFINITY.invokeExact(state, tid, mask.byteSize(), mask);
            return ret == 0 ? 0 : state.get(JAVA_INT, ERRNO_OFFSET);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** The calling thread's kernel thread id (its entry in /proc/self/task). */
    static int currentTid() {
        try {
            return (int) GETTID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("gettid", t);
        }
    }

    /** The CPUs this machine has online ({@code /sys/devices/system/cpu/online}; else as many as the JVM sees). */
    public static BitSet onlineCpus() {
        try {
            return parseCpuList(java.nio.file.Files.readString(java.nio.file.Path.of("/sys/devices/system/cpu/online")).strip());
        } catch (java.io.IOException | IllegalArgumentException e) {
            BitSet all = new BitSet();
            all.set(0, Runtime.getRuntime().availableProcessors());
            return all;
        }
    }

    /** A CPU set as a CPU list such as {@code 0,2-3}. */
    public static String format(BitSet cpus) {
        StringBuilder s = new StringBuilder();
        for (int from = cpus.nextSetBit(0); from >= 0; from = cpus.nextSetBit(cpus.nextClearBit(from))) {
            int to = cpus.nextClearBit(from) - 1;
            s.append(s.isEmpty() ? "" : ",").append(from).append(to > from ? "-" + to : "");
        }
        return s.toString();
    }
}

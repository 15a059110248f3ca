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
 * Pins the calling thread to a CPU list with libc's {@code sched_setaffinity(0, ...)}. Workers
 * are plain Java threads (EAL runs with {@code --lcores=0@(all CPUs)} so that it pins nothing);
 * a worker that the configuration gives a CPU pins only itself here.
 */
public final class ThreadAffinity {

    private static final MethodHandle SCHED_SETAFFINITY = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("sched_setaffinity").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, java.lang.foreign.ValueLayout.ADDRESS),
            Linker.Option.captureCallState("errno"));

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
        try (Arena call = Arena.ofConfined()) {
            long[] words = set.toLongArray();
            MemorySegment mask = call.allocate(JAVA_LONG, 16);   // cpu_set_t: 1024 bits
            for (int i = 0; i < words.length; i++) {
                mask.setAtIndex(JAVA_LONG, i, words[i]);
            }
            MemorySegment state = call.allocate(Linker.Option.captureStateLayout());
            int ret = (int) SCHED_SETAFFINITY.invokeExact(state, 0, mask.byteSize(), mask);
            if (ret != 0) {
                int errno = state.get(JAVA_INT, Linker.Option.captureStateLayout().byteOffset(
                        java.lang.foreign.MemoryLayout.PathElement.groupElement("errno")));
                throw new IllegalStateException("cannot pin " + Thread.currentThread().getName() + " to CPUs " + cpus
                        + " (sched_setaffinity errno " + errno + (errno == 22 ? ": no such CPU here" : "") + ")");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}

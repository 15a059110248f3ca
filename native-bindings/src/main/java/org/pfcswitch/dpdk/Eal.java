package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * DPDK's Environment Abstraction Layer: started once per JVM, never again after a cleanup (DPDK
 * answers a second {@code rte_eal_init} with EALREADY, even after {@code rte_eal_cleanup}).
 *
 * <p>{@code rte_eal_init} pins the calling thread to the main lcore's CPU set, and threads started
 * from it later inherit that pinning. Pass {@link #lcoresOnAllowedCpus()} (or another
 * {@code --lcores=0@(cpus)} set) so the JVM's threads keep every CPU. Without hugepages use
 * {@code --no-huge -m 256 --no-pci --no-shconf}; never {@code --in-memory} with {@code --no-huge}.
 *
 * <p>The thread that calls {@link #init} becomes lcore 0. Other Java threads may call bursts too;
 * as non-EAL threads they have no lcore id and therefore no per-lcore mempool cache, so every
 * bulk alloc or free of theirs goes to the pool's shared ring. A poll-mode worker should call
 * {@link #registerThread} first to get an lcore id and its own cache.
 */
public final class Eal {

    private enum State { NOT_STARTED, RUNNING, CLEANED_UP }

    private static volatile State state = State.NOT_STARTED;

    private Eal() {}

    /**
     * Starts EAL with {@code args} (without a program name; "pfcswitch" is put in front).
     *
     * @return how many of {@code args} EAL consumed
     * @throws IllegalStateException if EAL already ran in this JVM
     * @throws DpdkException         if {@code rte_eal_init} fails (e.g. ENODEV for an unknown --vdev)
     */
    public static synchronized int init(String... args) {
        if (state != State.NOT_STARTED) {
            throw new IllegalStateException("EAL was already " + (state == State.RUNNING ? "initialised" : "cleaned up")
                    + " in this JVM; DPDK allows rte_eal_init once per process");
        }
        // EAL may keep pointers into argv for the life of the process, so it lives in the global arena.
        Arena global = Arena.global();
        MemorySegment argv = global.allocate(ADDRESS, args.length + 2L);
        argv.setAtIndex(ADDRESS, 0, global.allocateFrom("pfcswitch"));
        for (int i = 0; i < args.length; i++) {
            argv.setAtIndex(ADDRESS, i + 1, global.allocateFrom(args[i]));
        }
        argv.setAtIndex(ADDRESS, args.length + 1L, MemorySegment.NULL);
        int parsed = DpdkException.check(Shim.ealInit(args.length + 1, argv), "rte_eal_init", String.join(" ", args));
        state = State.RUNNING;
        return parsed;
    }

    /**
     * Releases EAL's resources. Ports should be closed and pools freed first; afterwards no DPDK
     * call may be made in this JVM.
     */
    public static synchronized void cleanup() {
        if (state != State.RUNNING) {
            return;
        }
        state = State.CLEANED_UP;
        DpdkException.check(Shim.ealCleanup(), "rte_eal_cleanup", -1);
    }

    /**
     * Makes the calling thread an EAL thread ({@code rte_thread_register}): it gets an lcore id of
     * its own and with it a per-lcore cache in every mempool created with a cache size. Its CPU
     * affinity is not changed. A thread that is already an EAL thread keeps its id.
     *
     * @return the thread's lcore id
     * @throws DpdkException when no lcore id is free (E2BIG)
     */
    public static int registerThread() {
        requireRunning();
        int id = Shim.lcoreId();
        if (id >= 0) {
            return id;
        }
        return DpdkException.check(Shim.threadRegister(), "rte_thread_register", -1);
    }

    /** Gives the calling thread's lcore id back ({@code rte_thread_unregister}); a no-op for a non-EAL thread. */
    public static void unregisterThread() {
        if (state == State.RUNNING && Shim.lcoreId() >= 0) {
            Shim.threadUnregister();
        }
    }

    /** The calling thread's lcore id, or -1 when it is not an EAL thread. */
    public static int lcoreId() {
        requireRunning();
        return Shim.lcoreId();
    }

    /** True between a successful {@link #init} and {@link #cleanup}. */
    public static boolean isRunning() {
        return state == State.RUNNING;
    }

    /** Guards control-plane calls, which would crash the JVM inside DPDK without EAL. */
    static void requireRunning() {
        if (state != State.RUNNING) {
            throw new IllegalStateException(state == State.NOT_STARTED
                    ? "EAL is not initialised: call Eal.init first"
                    : "EAL was cleaned up: no DPDK call is possible any more in this JVM");
        }
    }

    /**
     * {@code --lcores=0@(<cpus>)}: lcore 0 runs on every CPU the calling thread may use now, so
     * {@code rte_eal_init} narrows no thread's affinity. The CPU list comes from
     * {@code /proc/thread-self/status}, else 0..availableProcessors-1.
     */
    public static String lcoresOnAllowedCpus() {
        String cpus = "0-" + (Runtime.getRuntime().availableProcessors() - 1);
        try {
            for (String line : Files.readAllLines(Path.of("/proc/thread-self/status"))) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    cpus = line.substring(line.indexOf(':') + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux or no procfs: keep the fallback
        }
        return "--lcores=0@(" + cpus + ")";
    }
}

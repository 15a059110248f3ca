package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A DPDK packet-mbuf pool ({@code rte_pktmbuf_pool_create}), freed when its arena closes.
 *
 * <p>Close the ports whose queues use a pool before its arena: their rings hold its mbufs. Use a
 * shared or the global arena when threads other than the creator use the pool (a confined
 * arena's segment may only be passed to native code by its owner thread).
 */
public final class Mempool {

    /** Socket id meaning "any NUMA node" ({@code SOCKET_ID_ANY}). */
    public static final int ANY_SOCKET = -1;

    private final MemorySegment pool;
    private final String name;
    private final int size;

    private Mempool(MemorySegment pool, String name, int size) {
        this.pool = pool;
        this.name = name;
        this.size = size;
    }

    /**
     * Creates a pool of {@code size} mbufs ({@code 2^k - 1} is the most memory-efficient count).
     *
     * @param arena        closing it frees the pool
     * @param name         unique among pools (DPDK keeps a global list)
     * @param cacheSize    per-lcore cache, 0 for none; at most 512 and at most size / 1.5
     * @param privateSize  bytes of per-mbuf private area after the mbuf header (a multiple of 8),
     *                     at {@link Mbuf#privateAddress}
     * @param dataRoomSize buffer bytes per mbuf, headroom included ({@link MbufLayout#DEFAULT_DATA_ROOM})
     * @param socket       NUMA socket or {@link #ANY_SOCKET}
     * @throws DpdkException naming {@code rte_pktmbuf_pool_create} (e.g. EEXIST for a taken name,
     *                       ENOMEM when EAL's memory (-m) is too small)
     */
    public static Mempool create(Arena arena, String name, int size, int cacheSize, int privateSize,
                                 int dataRoomSize, int socket) {
        Eal.requireRunning();
        if (size <= 0 || cacheSize < 0 || privateSize < 0 || privateSize > 0xFFFF
                || dataRoomSize < 0 || dataRoomSize > 0xFFFF) {
            throw new IllegalArgumentException("mempool " + name + ": size " + size + ", cache " + cacheSize
                    + ", private " + privateSize + ", data room " + dataRoomSize);
        }
        long address;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ADDRESS);
            DpdkException.check(Shim.mempoolCreate(call.allocateFrom(name), size, cacheSize, privateSize,
                    dataRoomSize, socket, out), "rte_pktmbuf_pool_create", name);
            address = out.get(ADDRESS, 0).address();
        }
        MemorySegment pool = MemorySegment.ofAddress(address).reinterpret(arena, Mempool::free);
        return new Mempool(pool, name, size);
    }

    private static void free(MemorySegment pool) {
        if (Eal.isRunning()) { // after rte_eal_cleanup the pool's memory is gone already
            Shim.mempoolFree(pool);
        }
    }

    /**
     * Takes {@code n} mbufs, reset and empty, into {@code ptrs[0..n)}: all of them, or none when
     * the pool has fewer than {@code n} left (then returns false).
     */
    public boolean allocBulk(MemorySegment ptrs, int n) {
        Mbuf.checkBurst(ptrs, n);
        return Shim.allocBulk(pool, ptrs, n) == 0;
    }

    /** Mbufs taken and not yet returned. Zero when nothing leaked. */
    public int inUseCount() {
        return Shim.mempoolInUse(pool);
    }

    /** Mbufs that can still be taken (per-lcore caches included). */
    public int availableCount() {
        return Shim.mempoolAvailable(pool);
    }

    /** The {@code struct rte_mempool *}, as {@link Mbuf#pool} reports it. */
    public long address() {
        return pool.address();
    }

    /** The pool as a zero-length segment tied to its arena (for rx queue set-up). */
    MemorySegment segment() {
        return pool;
    }

    public String name() {
        return name;
    }

    public int size() {
        return size;
    }

    @Override
    public String toString() {
        return "Mempool[" + name + ", " + size + " mbufs]";
    }
}

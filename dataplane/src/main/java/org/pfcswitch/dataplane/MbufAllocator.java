package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.pfcswitch.core.FrameAllocator;
import org.pfcswitch.dpdk.Mbuf;
import org.pfcswitch.dpdk.Mempool;

/**
 * The switch core's {@link FrameAllocator} over a DPDK mbuf pool, for the one thread that owns
 * the core. Neither side makes a native call per frame:
 *
 * <ul>
 *   <li>{@link #allocate} takes an mbuf from a stash that {@code rte_pktmbuf_alloc_bulk} refills
 *       {@value #STASH} at a time (fewer when the pool runs low);</li>
 *   <li>{@link #free} only notes the mbuf; {@link #flush} returns every noted mbuf in one
 *       {@code rte_pktmbuf_free_bulk}. The poll loop flushes once per pass, and a full list
 *       flushes itself.</li>
 * </ul>
 *
 * Ownership: an mbuf from {@link #allocate} belongs to the caller until it hands it to a TX buffer
 * (the port then owns it) or back through {@link #free}. {@link #close} gives back the stash and
 * anything not yet flushed, so that after it the pool's in-use count is exactly the mbufs still
 * held elsewhere.
 */
final class MbufAllocator implements FrameAllocator {

    static final int STASH = 32;
    private static final int FREE_LIST = 4096;

    private final Mempool pool;
    private final MemorySegment stash;
    private final long stashAddress;
    private int stashCount;
    private final MemorySegment freeList;
    private final long freeListAddress;
    private int freeCount;
    private long allocationFailures;

    MbufAllocator(Mempool pool, Arena arena) {
        this.pool = pool;
        this.stash = NativeArrays.unscoped(Mbuf.pointerArray(arena, STASH));
        this.stashAddress = stash.address();
        this.freeList = NativeArrays.unscoped(Mbuf.pointerArray(arena, FREE_LIST));
        this.freeListAddress = freeList.address();
    }

    /** A reset mbuf whose data length is {@code length}, or {@link #NO_HANDLE} when the pool is empty. */
    @Override
    public long allocate(int length) {
        if (stashCount == 0 && !refill()) {
            allocationFailures++;
            return NO_HANDLE;
        }
        long m = Mbuf.memory().get(JAVA_LONG, stashAddress + (long) --stashCount * Long.BYTES);
        Mbuf.setLengths(m, length);
        return m;
    }

    /** Takes as many mbufs as the pool can give, up to a full stash; all-or-nothing per try, so halve. */
    private boolean refill() {
        for (int n = STASH; n > 0; n >>= 1) {
            if (pool.allocBulk(stash, n)) {
                stashCount = n;
                return true;
            }
        }
        return false;
    }

    @Override
    public void free(long handle) {
        Mbuf.memory().set(JAVA_LONG, freeListAddress + (long) freeCount * Long.BYTES, handle);
        if (++freeCount == FREE_LIST) {
            flush();
        }
    }

    /** Returns the mbufs freed since the last flush to their pool: one native call. */
    void flush() {
        if (freeCount > 0) {
            Mbuf.freeBulk(freeList, freeCount);
            freeCount = 0;
        }
    }

    /** Times {@link #allocate} found the pool empty. */
    long allocationFailures() {
        return allocationFailures;
    }

    /** Gives back the stash and the pending frees (shutdown). */
    void close() {
        flush();
        if (stashCount > 0) {
            Mbuf.freeBulk(stash, stashCount);
            stashCount = 0;
        }
    }
}

package org.pfcswitch.dataplane;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A single-producer single-consumer ring of {@code long}s that carries frames from the worker
 * that received them to the worker that owns their egress port. An entry is
 * {@code mbuf | egressPort << 48}: user-space addresses on x86-64 and arm64 fit in 48 bits, so the
 * destination travels with the handle and the consumer needs no per-packet object.
 *
 * <p>Producer and consumer publish their positions with release stores and read the other's with
 * acquire loads; each keeps a private copy of the other's position so that the shared one is only
 * read when the ring looks full (producer) or empty (consumer).
 */
final class HandoffRing {

    static final int PORT_SHIFT = 48;
    static final long HANDLE_MASK = (1L << PORT_SHIFT) - 1;

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(HandoffRing.class, "head", long.class);
            TAIL = MethodHandles.lookup().findVarHandle(HandoffRing.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final long[] slots;
    private final int mask;

    // Consumer's position, and the producer's cached copy of it (padding keeps them apart).
    @SuppressWarnings("unused") private long p01, p02, p03, p04, p05, p06, p07;
    private volatile long head;
    @SuppressWarnings("unused") private long p11, p12, p13, p14, p15, p16, p17;
    private long headCache;
    @SuppressWarnings("unused") private long p21, p22, p23, p24, p25, p26, p27;
    private volatile long tail;
    @SuppressWarnings("unused") private long p31, p32, p33, p34, p35, p36, p37;
    private long tailCache;

    HandoffRing(int capacity) {
        if (Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("capacity must be a power of two, got " + capacity);
        }
        slots = new long[capacity];
        mask = capacity - 1;
    }

    /** Producer: adds {@code entry}; false when the ring is full. */
    boolean offer(long entry) {
        long t = (long) TAIL.getOpaque(this);
        if (t - headCache > mask) {
            headCache = (long) HEAD.getAcquire(this);
            if (t - headCache > mask) {
                return false;
            }
        }
        slots[(int) t & mask] = entry;
        TAIL.setRelease(this, t + 1);
        return true;
    }

    /** Consumer: the next entry, or -1 when the ring is empty (no entry is -1: ports are < 2^15). */
    long poll() {
        long h = (long) HEAD.getOpaque(this);
        if (h >= tailCache) {
            tailCache = (long) TAIL.getAcquire(this);
            if (h >= tailCache) {
                return -1;
            }
        }
        long entry = slots[(int) h & mask];
        HEAD.setRelease(this, h + 1);
        return entry;
    }

    static long entry(long handle, int port) {
        return handle | (long) port << PORT_SHIFT;
    }
}

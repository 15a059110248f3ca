package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Packet buffers seen from Java: an mbuf is its address, a {@code long}. Field accessors read and
 * write the mbuf directly at {@link MbufLayout}'s offsets, through one segment that spans the
 * whole address space, so they allocate nothing and make no native call. Only reference counts
 * and freeing go through the shim, one call per burst.
 *
 * <p>Bursts are native arrays of mbuf addresses ({@link #pointerArray}); index them with
 * {@code ptrs.getAtIndex(JAVA_LONG, i)}. Nothing here checks that an address is an mbuf: a wrong
 * one corrupts memory or crashes the JVM, as it would in C.
 */
public final class Mbuf {

    private Mbuf() {}

    /** All of memory, unchecked: the address is the offset. */
    private static final MemorySegment MEMORY = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);

    /** All of memory as one segment, for copying frame bytes to and from {@link #dataAddress}. */
    public static MemorySegment memory() {
        return MEMORY;
    }

    /** A native array for a burst of {@code n} mbuf addresses, zeroed, owned by {@code arena}. */
    public static MemorySegment pointerArray(Arena arena, int n) {
        return arena.allocate(JAVA_LONG, n);
    }

    /** Address of the first packet byte: {@code buf_addr + data_off}. */
    public static long dataAddress(long mbuf) {
        return MEMORY.get(JAVA_LONG, mbuf + MbufLayout.BUF_ADDR) + dataOffset(mbuf);
    }

    /** The packet bytes of this segment as a segment ({@code data_len} long). Allocates a view: control plane. */
    public static MemorySegment data(long mbuf) {
        return MEMORY.asSlice(dataAddress(mbuf), dataLength(mbuf));
    }

    public static int dataOffset(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.DATA_OFF));
    }

    /** Bytes in this segment. */
    public static int dataLength(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.DATA_LEN));
    }

    /** Bytes in the whole chain. */
    public static int packetLength(long mbuf) {
        return MEMORY.get(JAVA_INT, mbuf + MbufLayout.PKT_LEN);
    }

    /** Room after {@code data_off}: the longest frame this single-segment mbuf can hold. */
    public static int dataRoom(long mbuf) {
        return bufferLength(mbuf) - dataOffset(mbuf);
    }

    public static int bufferLength(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.BUF_LEN));
    }

    /** Sets {@code data_len} and {@code pkt_len} of a single-segment packet. */
    public static void setLengths(long mbuf, int length) {
        MEMORY.set(JAVA_SHORT, mbuf + MbufLayout.DATA_LEN, (short) length);
        MEMORY.set(JAVA_INT, mbuf + MbufLayout.PKT_LEN, length);
    }

    /** Input port the PMD recorded. */
    public static int port(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.PORT));
    }

    public static int segmentCount(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.NB_SEGS));
    }

    /** Next segment's address, 0 for the last. */
    public static long next(long mbuf) {
        return MEMORY.get(JAVA_LONG, mbuf + MbufLayout.NEXT);
    }

    /** Address of the {@code rte_mempool} the mbuf came from. */
    public static long pool(long mbuf) {
        return MEMORY.get(JAVA_LONG, mbuf + MbufLayout.POOL);
    }

    /** Current reference count (a plain read). */
    public static int refcnt(long mbuf) {
        return Short.toUnsignedInt(MEMORY.get(JAVA_SHORT, mbuf + MbufLayout.REFCNT));
    }

    /** Address of the pool's per-mbuf private area (see {@link Mempool#create}). */
    public static long privateAddress(long mbuf) {
        return mbuf + MbufLayout.PRIVATE_OFFSET;
    }

    /** Byte {@code i} of the packet data. */
    public static byte dataByte(long mbuf, int i) {
        return MEMORY.get(JAVA_BYTE, dataAddress(mbuf) + i);
    }

    /** Adds {@code delta} to the reference count (atomically when shared); returns the new count. */
    public static int refcntUpdate(long mbuf, int delta) {
        return Shim.refcntUpdate(mbuf, delta);
    }

    /** Adds {@code delta} to the reference count of each of {@code ptrs[0..n)}: one call per burst. */
    public static void refcntUpdateBulk(MemorySegment ptrs, int n, int delta) {
        checkBurst(ptrs, n);
        Shim.refcntUpdateBulk(ptrs, n, delta);
    }

    /**
     * Drops one reference from each of {@code ptrs[0..n)}; an mbuf goes back to its pool when its
     * count reaches zero. Use it for what {@link EthPort#txBurst} did not take.
     */
    public static void freeBulk(MemorySegment ptrs, int n) {
        checkBurst(ptrs, n);
        Shim.freeBulk(ptrs, n);
    }

    /** Throws unless {@code ptrs} holds at least {@code n} addresses and n fits DPDK's 16-bit counts. */
    static void checkBurst(MemorySegment ptrs, int n) {
        if (n < 0 || n > 0xFFFF || (long) n << 3 > ptrs.byteSize()) {
            throw new IndexOutOfBoundsException("burst of " + n + " mbufs in an array of "
                    + (ptrs.byteSize() >>> 3) + " pointers (at most 65535)");
        }
    }
}

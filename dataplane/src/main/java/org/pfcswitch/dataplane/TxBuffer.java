package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mbuf;

/**
 * Frames waiting for one egress port, as l2fwd's {@code rte_eth_dev_tx_buffer}: the worker adds
 * frames one by one and the buffer goes out in one {@code tx_burst} when it is full or when the
 * worker's drain timer fires, so a lone frame waits at most one drain period.
 *
 * <p>When the TX queue takes fewer than offered, the rest is offered again up to
 * {@link #RETRIES} more times (a NIC frees descriptors as it sends); what is still refused is
 * freed and counted in {@link #refused}. Either way the buffer ends empty and no mbuf is leaked.
 *
 * <p>Ownership: an mbuf added is the buffer's; once a {@code tx_burst} takes it, the PMD's (it
 * frees it after sending); one refused is freed here. The counters have one writer, the worker.
 */
final class TxBuffer {

    static final int RETRIES = 3;

    private final EthPort ethPort;
    private final int port;
    private final MemorySegment ptrs;
    private final long ptrsAddress;
    private final int[] lengths;
    private final int capacity;
    private int count;
    private long sentFrames;
    private long sentBytes;
    private long refused;

    TxBuffer(Arena arena, EthPort ethPort, int port, int capacity) {
        this.ethPort = ethPort;
        this.port = port;
        this.capacity = capacity;
        this.ptrs = NativeArrays.unscoped(Mbuf.pointerArray(arena, capacity));   // the worker's arena outlives it
        this.ptrsAddress = ptrs.address();
        this.lengths = new int[capacity];
    }

    /** Adds a frame and sends the buffer when that filled it. */
    void add(long mbuf, int length) {
        // Through the constant all-memory segment: ptrs is a field, so its own accessor would
        // check its type and bounds on every store. count < capacity, so the store stays in ptrs.
        Mbuf.memory().set(JAVA_LONG, ptrsAddress + (long) count * Long.BYTES, mbuf);
        lengths[count] = length;
        if (++count == capacity) {
            flush();
        }
    }

    /**
     * Adds {@code n} frames, as {@code n} calls of {@link #add} would, in one loop that keeps
     * the fill count in a register: for a burst whose frames all go to this port.
     */
    void addAll(long[] mbufs, int[] frameLengths, int n) {
        for (int i = 0; i < n; ) {
            int c = count;
            int room = Math.min(capacity - c, n - i);
            for (int k = 0; k < room; k++, c++, i++) {
                Mbuf.memory().set(JAVA_LONG, ptrsAddress + (long) c * Long.BYTES, mbufs[i]);
                lengths[c] = frameLengths[i];
            }
            count = c;
            if (c == capacity) {
                flush();
            }
        }
    }

    boolean isEmpty() {
        return count == 0;
    }

    int port() {
        return port;
    }

    /** Sends what is buffered; frees and counts what the TX queue would not take. */
    void flush() {
        int sent = 0;
        long bytes = 0;
        for (int attempt = 0; attempt <= RETRIES && sent < count; attempt++) {
            if (sent > 0) {     // bursts start at index 0: move the unsent ones to the front
                MemorySegment.copy(ptrs, (long) sent * Long.BYTES, ptrs, 0, (long) (count - sent) * Long.BYTES);
                System.arraycopy(lengths, sent, lengths, 0, count - sent);
                count -= sent;
            }
            // Sum the lengths before the burst: once the queue has an mbuf, another thread may free it.
            int offered = count;
            sent = ethPort.txBurst(0, ptrs, offered);
            for (int i = 0; i < sent; i++) {
                bytes += lengths[i];
            }
            sentFrames += sent;
        }
        sentBytes += bytes;
        if (sent < count) {
            int unsent = count - sent;
            if (sent > 0) {
                MemorySegment.copy(ptrs, (long) sent * Long.BYTES, ptrs, 0, (long) unsent * Long.BYTES);
            }
            Mbuf.freeBulk(ptrs, unsent);
            refused += unsent;
        }
        count = 0;
    }

    /** Frames the TX queue took (recent value on other threads). */
    long sentFrames() {
        return sentFrames;
    }

    /** Bytes of the frames the TX queue took. */
    long sentBytes() {
        return sentBytes;
    }

    /** Frames the TX queue still refused after {@link #RETRIES} retries: freed, lost on this port. */
    long refused() {
        return refused;
    }

    /** Frees what is buffered without sending it (shutdown when the port is gone). */
    int discard() {
        int n = count;
        if (n > 0) {
            Mbuf.freeBulk(ptrs, n);
        }
        count = 0;
        return n;
    }
}

package org.pfcswitch.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/** The SPSC ring: order, wrap-around, drop-and-count when full, and a producer and consumer on two threads. */
class TraceRingTest {

    @Test
    void recordsComeOutInOrderAcrossTheWrap() {
        TraceRing ring = new TraceRing(4);
        long[] r = new long[TraceRing.RECORD_LONGS];
        long next = 0;
        for (int round = 0; round < 10; round++) {
            for (int i = 0; i < 3; i++) {
                long v = round * 3L + i;
                assertTrue(ring.offer(v, v + 1, v + 2, v + 3, v + 4));
            }
            assertEquals(3, ring.size());
            while (ring.poll(r)) {
                assertEquals(next, r[0]);
                assertEquals(next + 4, r[4]);
                next++;
            }
        }
        assertEquals(30, next);
        assertEquals(30, ring.published());
        assertEquals(0, ring.dropped());
    }

    @Test
    void aFullRingDropsAndCountsNeverBlocks() {
        TraceRing ring = new TraceRing(8);
        for (int i = 0; i < 20; i++) {
            assertEquals(i < 8, ring.offer(i, 0, 0, 0, 0));
        }
        assertEquals(12, ring.dropped());
        assertEquals(8, ring.size());
        List<Long> seen = new ArrayList<>();
        assertEquals(5, ring.drain((a, b, c, d, e) -> seen.add(a), 5));
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L), seen);
        assertTrue(ring.offer(100, 0, 0, 0, 0), "room again once the consumer freed slots");
        ring.drain((a, b, c, d, e) -> seen.add(a), 100);
        assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 100L), seen);
        assertFalse(ring.poll(new long[5]));
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new TraceRing(6));
        assertThrows(IllegalArgumentException.class, () -> new TraceRing(1));
        assertThrows(IllegalArgumentException.class, () -> new TraceRing(0));
    }

    /**
     * Two threads, a small ring so it wraps and fills constantly: every record the consumer sees is
     * whole (its five words agree) and in order, and consumed + dropped = offered.
     */
    @Test
    void producerAndConsumerOnTwoThreads() throws Exception {
        TraceRing ring = new TraceRing(64);
        long total = 2_000_000;
        AtomicReference<String> error = new AtomicReference<>();
        long[] consumed = {0};
        Thread consumer = Thread.ofPlatform().start(() -> {
            long[] last = {-1};
            long[] count = {0};
            while (last[0] < total - 1 || ring.size() > 0) {
                ring.drain((a, b, c, d, e) -> {
                    if (a <= last[0] || b != a * 3 || c != ~a || d != (a ^ 0x5555) || e != -a) {
                        error.compareAndSet(null, "bad record after " + last[0] + ": " + a + " " + b + " " + c + " " + d + " " + e);
                    }
                    last[0] = a;
                    count[0]++;
                }, 16);
                if (error.get() != null) {
                    break;
                }
                if (last[0] < total - 1 && ring.published() + ring.dropped() >= total && ring.size() == 0) {
                    break;                        // the last records were dropped
                }
            }
            consumed[0] = count[0];
        });
        for (long i = 0; i < total; i++) {
            ring.offer(i, i * 3, ~i, i ^ 0x5555, -i);
        }
        consumer.join(60_000);
        assertFalse(consumer.isAlive());
        assertEquals(null, error.get());
        assertEquals(total, consumed[0] + ring.dropped(), "consumed " + consumed[0] + ", dropped " + ring.dropped());
        assertTrue(consumed[0] > 64, "the consumer kept up at least a little");
    }
}

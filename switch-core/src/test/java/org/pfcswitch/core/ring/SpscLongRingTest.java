package org.pfcswitch.core.ring;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import org.junit.jupiter.api.Test;

/** The ring on one thread: capacity checks, claims when full or across the end of the array, wrap-around, counts. */
class SpscLongRingTest {

    @Test
    void capacityMustBeAPowerOfTwoAndFitOneArray() {
        assertThrows(IllegalArgumentException.class, () -> new SpscLongRing(0, 1));
        assertThrows(IllegalArgumentException.class, () -> new SpscLongRing(-4, 1));
        assertThrows(IllegalArgumentException.class, () -> new SpscLongRing(6, 1));
        assertThrows(IllegalArgumentException.class, () -> new SpscLongRing(4, -1));
        assertThrows(IllegalArgumentException.class, () -> new SpscLongRing(1 << 30, 4));
        assertEquals(1, new SpscLongRing(1, 3).capacity());
        assertEquals(3, new SpscLongRing(1, 3).recordLongs());
    }

    @Test
    void aFullRingGrantsWhatIsFreeAndTheCallerCountsTheRest() {
        SpscLongRing ring = new SpscLongRing(8, 2);
        assertEquals(5, ring.claim(5));
        ring.publish(5);
        assertEquals(3, ring.claim(5), "a partial claim: three slots left");
        ring.publish(3);
        assertEquals(0, ring.claim(1));
        ring.countDropped(2);
        ring.countDropped();
        assertEquals(3, ring.dropped());
        assertEquals(8, ring.size());
        assertEquals(8, ring.published());

        assertEquals(3, ring.available(3));
        ring.consume(3);
        assertEquals(5, ring.size());
        assertEquals(3, ring.claim(4), "room again once the consumer freed slots");
        assertEquals(8, ring.published(), "a claim publishes nothing");
    }

    @Test
    void claimedRecordsAreInvisibleUntilPublished() {
        SpscLongRing ring = new SpscLongRing(4, 1);
        assertEquals(2, ring.claim(2));
        ring.buffer()[ring.writeIndex(0)] = 7;
        ring.buffer()[ring.writeIndex(1)] = 8;
        assertEquals(0, ring.available(4));
        assertEquals(0, ring.size());
        assertEquals(2, ring.claim(2), "claiming again grants the same slots");
        ring.publish(2);
        assertEquals(2, ring.available(4));
        assertEquals(7, ring.buffer()[ring.readIndex(0)]);
        assertEquals(8, ring.buffer()[ring.readIndex(1)]);
        assertEquals(1, ring.available(1));
    }

    /** A claim that runs past the end of the array continues at slot 0; each record stays whole. */
    @Test
    void aClaimWrapsPastTheEndOfTheArray() {
        SpscLongRing ring = new SpscLongRing(8, 2);
        assertEquals(6, ring.claim(6));
        ring.publish(6);
        ring.consume(ring.available(6));

        assertEquals(5, ring.claim(5));
        int[] slots = new int[5];
        long[] b = ring.buffer();
        for (int k = 0; k < 5; k++) {
            slots[k] = ring.writeSlot(k);
            int i = ring.writeIndex(k);
            b[i] = 100 + k;
            b[i + 1] = -(100 + k);
        }
        assertArrayEquals(new int[] {6, 7, 0, 1, 2}, slots);
        assertEquals(ring.writeIndex(0) + 2, ring.writeIndex(1));
        assertEquals(ring.writeIndex(2) + 2, ring.writeIndex(3));
        ring.publish(5);

        List<Long> seen = new ArrayList<>();
        assertEquals(5, ring.drain((w, i) -> {
            assertEquals(-w[i], w[i + 1]);
            seen.add(w[i]);
        }, 10));
        assertEquals(List.of(100L, 101L, 102L, 103L, 104L), seen);
        assertEquals(0, ring.size());
    }

    /** Random bursts on both sides over a thousand laps of a small ring: everything comes out once, in order. */
    @Test
    void wrapAroundOverManyLaps() {
        SpscLongRing ring = new SpscLongRing(16, 3);
        SplittableRandom random = new SplittableRandom(1);
        long[] b = ring.buffer();
        long written = 0;
        long read = 0;
        while (read < 16_000) {
            int n = ring.claim(random.nextInt(0, 20));
            for (int k = 0; k < n; k++, written++) {
                int i = ring.writeIndex(k);
                b[i] = written;
                b[i + 1] = written * 31;
                b[i + 2] = ~written;
            }
            ring.publish(n);
            assertEquals(written - read, ring.size());
            int m = ring.available(random.nextInt(0, 20));
            for (int k = 0; k < m; k++, read++) {
                int i = ring.readIndex(k);
                assertEquals(read, b[i]);
                assertEquals(read * 31, b[i + 1]);
                assertEquals(~read, b[i + 2]);
            }
            ring.consume(m);
        }
        assertEquals(written, ring.published());
        assertEquals(0, ring.dropped());
    }

    /** With no words per record the ring still orders slots: a caller keeps its payload in an array indexed by slot. */
    @Test
    void slotsForPayloadKeptBesideTheRing() {
        SpscLongRing ring = new SpscLongRing(4, 0);
        String[] payload = new String[4];
        for (int lap = 0; lap < 5; lap++) {
            int n = ring.claim(3);
            assertEquals(3, n);
            for (int k = 0; k < n; k++) {
                payload[ring.writeSlot(k)] = lap + "." + k;
            }
            ring.publish(n);
            int m = ring.available(10);
            for (int k = 0; k < m; k++) {
                assertEquals(lap + "." + k, payload[ring.readSlot(k)]);
            }
            ring.consume(m);
        }
    }

    @Test
    void publishingOrConsumingMoreThanThereIsTripsAnAssertion() {
        assumeTrue(SpscLongRing.class.desiredAssertionStatus(), "assertions are off");
        SpscLongRing ring = new SpscLongRing(4, 1);
        assertThrows(AssertionError.class, () -> ring.publish(5));
        ring.publish(2);
        assertThrows(AssertionError.class, () -> ring.consume(3));
    }

    /** Claims, writes, publishes, drops, reads and drains on a warmed ring allocate nothing (the thread's allocated-bytes counter). */
    @Test
    void aWarmedRingAllocatesNothing() {
        SpscLongRing ring = new SpscLongRing(256, 2);
        long[] sum = {0};
        SpscLongRing.Reader reader = (w, i) -> sum[0] += w[i] ^ w[i + 1];
        exercise(ring, reader, 300_000);                                   // warm-up: JIT
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        exercise(ring, reader, 300_000);
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertEquals(0, allocated, "the ring allocated " + allocated + " B");
        assertEquals(true, ring.dropped() > 0 && sum[0] != 0, "every path was taken");
    }

    /** Bursts of 1 to 64 in, half drained record by record and half through {@link SpscLongRing#drain}; the ring fills now and then. */
    private static void exercise(SpscLongRing ring, SpscLongRing.Reader reader, int rounds) {
        long[] b = ring.buffer();
        for (int r = 0; r < rounds; r++) {
            int burst = 1 + (r * 37 & 63);
            int n = ring.claim(burst);
            for (int k = 0; k < n; k++) {
                int i = ring.writeIndex(k);
                b[i] = r;
                b[i + 1] = k;
            }
            ring.publish(n);
            ring.countDropped(burst - n);
            if ((r & 1) == 0) {
                int m = ring.available(24);
                for (int k = 0; k < m; k++) {
                    reader.accept(b, ring.readIndex(k));
                }
                ring.consume(m);
            } else {
                ring.drain(reader, 40);
            }
        }
    }
}

package org.pfcswitch.core.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * A producer and a consumer on two threads, both in random bursts, over a small ring that wraps
 * constantly. Every record's three words are a function of its sequence number, so a record read
 * before all its words were visible, or after the producer overwrote its slot, fails the check, as
 * does a record lost, repeated or out of order. Each test stops producing after
 * {@value #BUDGET_NANOS} ns whatever it reached, so the class ends in a few seconds even on two busy
 * cores. Both sides yield rather than spin while they wait: on a machine whose cores are busy the
 * two threads may share one, and a pure spin would hold it for a whole time slice.
 *
 * <p>jcstress would explore the orderings more thoroughly, but it is not in the local Maven
 * repository this offline build resolves from, and it runs as its own forked harness rather than
 * under surefire; so these two-thread tests stand in for it.
 */
class SpscLongRingStressTest {

    private static final long RECORDS = 20_000_000;
    private static final long BUDGET_NANOS = 3_000_000_000L;
    private static final long K = 0x9E3779B97F4A7C15L;
    private static final int CAPACITY = 1 << 10;

    /** What the consumer saw, written when it ends (the producer reads the error as it goes). */
    private static final class Seen {
        long records;
        /** Sequence numbers skipped between records seen. */
        long gaps;
        long last = -1;
        final AtomicReference<String> error = new AtomicReference<>();
    }

    /**
     * The producer never waits for room: what does not fit when it claims a burst is dropped and
     * counted. The consumer stalls now and then so the ring fills; after a drop the producer lets the
     * ring drain to half before its next burst (as a worker busy with its own ports would), or it would
     * outrun the consumer and drop nearly everything. Every sequence number the consumer missed must be
     * one the producer counted as dropped.
     */
    @Test
    void aProducerThatDropsWhenFullLosesOnlyWhatItCounts() throws Exception {
        SpscLongRing ring = new SpscLongRing(CAPACITY, 3);
        Run run = new Run(ring, true);
        long produced = run.produce(seq -> {
            int burst = seq.random.nextInt(1, 65);
            int want = (int) Math.min(burst, seq.end - seq.next);
            int n = ring.claim(want);
            write(ring, seq.next, n);
            ring.publish(n);
            ring.countDropped(want - n);
            seq.next += want;
            while (n < want && ring.size() > CAPACITY / 2 && !seq.consumerFailed()) {
                Thread.yield();
            }
        });
        Seen seen = run.finish();

        long missing = seen.gaps + (produced - 1 - seen.last);
        assertEquals(ring.dropped(), missing, "every record missed was counted as dropped");
        assertEquals(produced, seen.records + ring.dropped());
        assertTrue(ring.dropped() > 0, "the ring filled");
        assertTrue(seen.records > produced / 2, "the consumer got most: " + seen.records + " of " + produced);
    }

    /** The producer spins until there is room: the consumer gets exactly every record, in order. */
    @Test
    void aProducerThatWaitsForRoomDeliversEveryRecord() throws Exception {
        SpscLongRing ring = new SpscLongRing(CAPACITY, 3);
        Run run = new Run(ring, false);
        long produced = run.produce(seq -> {
            int burst = seq.random.nextInt(1, 65);
            int want = (int) Math.min(burst, seq.end - seq.next);
            int n;
            while ((n = ring.claim(want)) == 0) {
                if (seq.consumerFailed()) {
                    return;
                }
                Thread.yield();
            }
            write(ring, seq.next, n);                                      // a partial claim: the rest comes next time
            ring.publish(n);
            seq.next += n;
        });
        Seen seen = run.finish();

        assertEquals(0, seen.gaps);
        assertEquals(produced, seen.records);
        assertEquals(produced - 1, seen.last);
        assertEquals(0, ring.dropped());
    }

    private static void write(SpscLongRing ring, long first, int n) {
        long[] b = ring.buffer();
        for (int k = 0; k < n; k++) {
            long seq = first + k;
            int i = ring.writeIndex(k);
            b[i] = seq;
            b[i + 1] = seq * K;
            b[i + 2] = ~seq;
        }
    }

    /** The producer's progress, passed to one burst at a time. */
    private static final class Sequence {
        final SplittableRandom random = new SplittableRandom(7);
        final AtomicReference<String> error;
        long next;
        long end = RECORDS;

        Sequence(AtomicReference<String> error) {
            this.error = error;
        }

        /** The consumer stopped on a bad record: a producer waiting for room would wait for ever. */
        boolean consumerFailed() {
            return error.get() != null;
        }
    }

    private interface Burst {
        void produce(Sequence seq);
    }

    /** One test's two threads: the caller's is the producer, a platform thread the consumer. */
    private static final class Run {
        private final SpscLongRing ring;
        private final Seen seen = new Seen();
        private final Thread consumer;
        private volatile boolean done;
        private long startNanos;

        Run(SpscLongRing ring, boolean stalls) {
            this.ring = ring;
            this.consumer = Thread.ofPlatform().name("ring-consumer").unstarted(() -> consume(stalls));
        }

        /** Produces sequence numbers from 0 until {@link #RECORDS} or the time budget; returns how many. */
        long produce(Burst burst) {
            Sequence seq = new Sequence(seen.error);
            startNanos = System.nanoTime();
            consumer.start();
            while (seq.next < seq.end && !seq.consumerFailed()) {
                burst.produce(seq);
                if ((seq.next & 0xFFF) < 64 && System.nanoTime() - startNanos > BUDGET_NANOS) {
                    break;
                }
            }
            done = true;
            return seq.next;
        }

        Seen finish() throws InterruptedException {
            consumer.join(10_000);
            assertFalse(consumer.isAlive(), "the consumer did not finish");
            assertNull(seen.error.get());
            double seconds = (System.nanoTime() - startNanos) / 1e9;
            System.out.printf("ring stress: %,d records consumed, %,d dropped, in %.2f s%n", seen.records, ring.dropped(), seconds);
            return seen;
        }

        private void consume(boolean stalls) {
            SplittableRandom random = new SplittableRandom(11);
            long[] b = ring.buffer();
            long records = 0;                                              // locals: no line shared with the producer
            long gaps = 0;
            long last = -1;
            while (true) {
                boolean finished = done;                                   // read before the ring: nothing comes after it
                int n = ring.available(random.nextInt(1, 65));
                if (n == 0) {
                    if (finished) {
                        break;
                    }
                    Thread.yield();
                }
                for (int k = 0; k < n; k++) {
                    int i = ring.readIndex(k);
                    long seq = b[i];
                    if (seq <= last || b[i + 1] != seq * K || b[i + 2] != ~seq) {
                        seen.error.set("after " + last + ": " + seq + " " + b[i + 1] + " " + b[i + 2]);
                        return;
                    }
                    gaps += seq - last - 1;
                    last = seq;
                }
                ring.consume(n);
                records += n;
                if (stalls && random.nextInt(4096) == 0) {
                    long until = System.nanoTime() + 20_000;
                    while (System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                }
            }
            seen.records = records;
            seen.gaps = gaps;
            seen.last = last;
        }
    }
}

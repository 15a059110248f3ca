package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.RandomSource;

/**
 * The workers of one switch on two real threads, for seconds: each injects random bursts on its own
 * ports (lossy and lossless, to every port, so about half of all frames cross), polls what the other
 * hands over, runs its timers on the real clock and publishes, as the live loop does. Nothing holds
 * the threads in step, so the rings and the ledgers' published counts see every interleaving the
 * machine produces. Afterwards every frame is accounted for exactly once (sent or dropped, by the
 * worker that owned it then), every buffer is back, every ledger is empty and consistent, no ring
 * ever filled, and at no check did the switch hold more than the configured buffer.
 *
 * <p>jcstress would explore the ring's orderings more systematically, but it needs its own harness
 * and is not on this offline build's Maven repository; the deterministic interleavings are in
 * {@code WorkersLosslessTest} and {@code SpscLongRingTest}, the real concurrency here and in
 * {@code SpscLongRingStressTest}.
 */
class WorkersTwoThreadStressTest {

    private static final int PORTS = 6;
    private static final int[] WORKER_OF = {0, 1, 0, 1, 0, 1};
    private static final int SLOTS = 1 << 14;
    private static final long RUN_NANOS = 2_500_000_000L;

    /** A slab shared by both threads; free handles in a concurrent queue (a test's allocator may allocate). */
    private static final class SharedSlab implements PacketMemory, FrameAllocator {
        final MemorySegment slab = MemorySegment.ofArray(new long[SLOTS * 2048 / 8]);
        final int[] length = new int[SLOTS];
        final ArrayBlockingQueue<Integer> free = new ArrayBlockingQueue<>(SLOTS);

        SharedSlab() {
            for (int i = 0; i < SLOTS; i++) {
                free.add(i);
            }
        }

        @Override public MemorySegment bytes() { return slab; }
        @Override public long offset(long handle) { return handle * 2048; }
        @Override public int length(long handle) { return length[(int) handle]; }

        @Override
        public long allocate(int len) {
            Integer h = free.poll();
            if (h == null) {
                return NO_HANDLE;
            }
            length[h] = len;
            return h;
        }

        @Override
        public void free(long handle) {
            free.add((int) handle);
        }
    }

    @Test
    void twoThreadsCrossFramesForSecondsAndAccountForEveryOne() throws Exception {
        CoreConfig config = Configs.core(Configs.mmu(PORTS, "dt").totalBytes(256 * 1024).build()).build();
        SharedSlab slab = new SharedSlab();
        AtomicLong[] transmitted = {new AtomicLong(), new AtomicLong()};
        FrameSink[] sinks = new FrameSink[2];
        for (int w = 0; w < 2; w++) {
            int owner = w;
            sinks[w] = (port, handle, len, start) -> {
                if (WORKER_OF[port] != owner) {
                    throw new AssertionError("worker " + owner + " sent on port " + port + ", which is not its own");
                }
                transmitted[owner].incrementAndGet();
                slab.free(handle);
            };
        }
        SwitchWorkers workers = SwitchWorkers.create(config, SwitchModel.DEFAULT, WORKER_OF, slab,
                new FrameAllocator[] {slab, slab}, sinks, new RandomSource[] {RandomSource.seeded(1), RandomSource.seeded(2)},
                SLOTS, SwitchWorkers.BUSY_PASS_NANOS);
        long buffer = config.mmu().totalBytes();
        long[] injected = new long[2];
        long[] mostHeld = new long[2];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CyclicBarrier start = new CyclicBarrier(2);
        long origin = System.nanoTime();
        Thread[] threads = new Thread[2];
        for (int w = 0; w < 2; w++) {
            int me = w;
            threads[w] = new Thread(() -> {
                try {
                    start.await();
                    injected[me] = drive(workers, me, slab, origin, buffer, mostHeld);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            }, "worker-" + w);
            threads[w].start();
        }
        for (Thread t : threads) {
            t.join(30_000);
        }
        assertNull(failure.get(), () -> "a worker failed: " + failure.get());
        for (int round = 0; round < 3; round++) {           // the threads ended (join): the last releases, here
            for (int w = 0; w < 2; w++) {
                workers.core(w).publishToPeers();
            }
            for (int w = 0; w < 2; w++) {
                workers.core(w).onCrossings(RUN_NANOS * 10);
            }
        }

        long drops = 0;
        long sent = 0;                                        // data frames (the sinks also saw PFC frames)
        for (int w = 0; w < 2; w++) {
            SwitchCore core = workers.core(w);
            drops += core.counters().totalDrops();
            sent += SwitchCounters.sum(core.counters().txFrames);
            assertEquals(0, core.counters().crossingRingFull, "a ring between the workers filled");
            assertEquals(0, core.framesHeld());
            BufferLedger ledger = core.mmu().ledger();
            assertNull(ledger.checkConsistency());
            assertEquals(0, ledger.accountingErrors());
            assertEquals(0, ledger.ownTotalUsed(), "worker " + w + "'s ledger still charges bytes");
        }
        long total = injected[0] + injected[1];
        assertTrue(total > 20_000, "the run must move frames: " + total);
        assertTrue(drops > 0 && sent > 1000, "congested (bursts at CPU speed into 100 Gb/s ports) and forwarding: sent "
                + sent + ", dropped " + drops);
        assertTrue(transmitted[0].get() > 0 && transmitted[1].get() > 0, "both workers sent");
        assertEquals(total, sent + drops, "every frame sent or dropped exactly once");
        assertEquals(SLOTS, slab.free.size(), "every buffer back");
        assertTrue(Math.max(mostHeld[0], mostHeld[1]) <= buffer,
                "the ledgers together never held more than the buffer: " + mostHeld[0] + ", " + mostHeld[1] + " of " + buffer);
    }

    /**
     * One worker's loop: take what crossed, run timers, inject a random burst on its own ports,
     * publish; after {@link #RUN_NANOS} stop injecting and poll until the switch is empty.
     *
     * @return frames injected
     */
    private static long drive(SwitchWorkers workers, int me, SharedSlab slab, long origin, long buffer, long[] mostHeld) {
        SwitchCore core = workers.core(me);
        SplittableRandom random = new SplittableRandom(me + 99);
        RoceFrameBuilder roce = new RoceFrameBuilder();
        long injected = 0;
        long quietSince = -1;
        while (true) {
            long now = System.nanoTime() - origin;
            boolean injecting = now < RUN_NANOS;
            int taken = core.onCrossings(now);
            for (long due = core.nextTimerDue(); due <= now; due = core.nextTimerDue()) {
                core.onTimer(due);
            }
            if (injecting) {
                int burst = 1 + random.nextInt(32);
                for (int i = 0; i < burst; i++) {
                    int in = 2 * random.nextInt(PORTS / 2) + me;         // one of my ports
                    int out = random.nextInt(PORTS);
                    if (out == in) {
                        out = (out + 1) % PORTS;
                    }
                    roce.macs(Configs.host(out), Configs.host(in)).ips(1, 2).dscp(random.nextBoolean() ? 26 : 0)
                            .ecn(Ipv4.ECN_ECT0).destQp(in).psn((int) injected).payloadBytes(64 + random.nextInt(1200));
                    long h = slab.allocate(roce.frameLength());
                    if (h == FrameAllocator.NO_HANDLE) {
                        break;                                        // the pool is the limit for now
                    }
                    roce.write(slab.slab, slab.offset(h));
                    core.onFrame(in, h, now);
                    injected++;
                }
            }
            core.publishToPeers(now);
            long held = workers.core(0).mmu().ledger().ownTotalUsed() + workers.core(1).mmu().ledger().ownTotalUsed();
            mostHeld[me] = Math.max(mostHeld[me], held);             // racy read of the other: recent, never torn
            if (!injecting) {
                boolean idle = taken == 0 && slab.free.size() == SLOTS && core.framesHeld() == 0;
                if (!idle) {
                    quietSince = -1;
                } else if (quietSince < 0) {
                    quietSince = now;
                } else if (now - quietSince > 50_000_000L) {
                    return injected;                                  // both empty for 50 ms: done
                }
                if (now > RUN_NANOS + 10_000_000_000L) {
                    throw new AssertionError("worker " + me + " did not drain within 10 s");
                }
            }
        }
    }
}

package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The workers' CPU kept free of this process's other threads, read back from the kernel
 * ({@code Cpus_allowed_list} of each thread in /proc): threads that ran before, threads started
 * after, and a worker that entered.
 */
class CpuReservationTest {

    @AfterEach
    void giveEveryThreadEveryCpuBack() {
        for (int tid : CpuReservation.tasks()) {
            ThreadAffinity.setAffinity(tid, ThreadAffinity.onlineCpus());
        }
    }

    @Test
    void theWorkerAloneRunsOnItsCpuAndEveryOtherThreadIsKeptOff() throws Exception {
        BitSet online = ThreadAffinity.onlineCpus();
        assumeTrue(online.cardinality() >= 2, "needs two CPUs");
        int workerCpu = online.length() - 1;
        BitSet reserved = new BitSet();
        reserved.set(workerCpu);
        BitSet others = (BitSet) online.clone();
        others.clear(workerCpu);

        CountDownLatch stop = new CountDownLatch(1);
        AtomicInteger before = new AtomicInteger();
        Thread early = idle("early", before, stop);                     // runs before the reservation
        early.start();
        awaitTid(before);
        try (CpuReservation r = CpuReservation.reserve(reserved)) {
            assertEquals(others, r.others());
            assertEquals(others, allowed(before.get()), "a thread that ran before is moved off at once");
            assertEquals(others, allowed(ThreadAffinity.currentTid()));

            AtomicInteger worker = new AtomicInteger();
            CountDownLatch left = new CountDownLatch(1);
            CountDownLatch entered = new CountDownLatch(1);
            Thread w = new Thread(() -> {
                r.enterWorker(Integer.toString(workerCpu));
                worker.set(ThreadAffinity.currentTid());
                entered.countDown();
                try {
                    stop.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                r.leaveWorker();
                left.countDown();
            }, "worker");
            w.setDaemon(true);
            w.start();
            entered.await();
            AtomicInteger after = new AtomicInteger();
            Thread late = idle("late", after, stop);                     // started after, by a thread already moved
            late.start();
            awaitTid(after);
            r.sweep();
            assertEquals(reserved, allowed(worker.get()), "a sweep leaves the worker on its CPU");
            assertEquals(others, allowed(after.get()), "a thread started later is kept off too");
            for (int tid : CpuReservation.tasks()) {
                if (tid != worker.get()) {
                    BitSet a = allowed(tid);
                    if (a != null) {                                       // null: exited meanwhile
                        assertTrue(!a.get(workerCpu), "thread " + tid + " may run on the worker's CPU: " + a);
                    }
                }
            }
        }
        assertEquals(online, allowed(before.get()), "closed: the threads it moved may run anywhere again");
        stop.countDown();
        early.join();
    }

    @Test
    void workersOnEveryCpuLeaveNoRoomAndSaySo() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CpuReservation.reserve(ThreadAffinity.onlineCpus()));
        assertTrue(e.getMessage().contains("no CPU is left for the other threads"), e.getMessage());
    }

    @Test
    void cpuListsRoundTrip() {
        assertEquals("0,2-3,7", ThreadAffinity.format(ThreadAffinity.parseCpuList("0,2-3,7")));
        assertEquals("", ThreadAffinity.format(new BitSet()));
    }

    private static Thread idle(String name, AtomicInteger tid, CountDownLatch stop) {
        Thread t = new Thread(() -> {
            tid.set(ThreadAffinity.currentTid());
            try {
                stop.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, name);
        t.setDaemon(true);
        return t;
    }

    private static void awaitTid(AtomicInteger tid) throws InterruptedException {
        while (tid.get() == 0) {
            Thread.sleep(1);
        }
    }

    /** The kernel's {@code Cpus_allowed_list} of thread {@code tid}; null when it has exited. */
    private static BitSet allowed(int tid) throws Exception {
        Path status = Path.of("/proc/self/task/" + tid + "/status");
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("Cpus_allowed_list:")) {
                    return ThreadAffinity.parseCpuList(line.substring(line.indexOf(':') + 1).strip());
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            return null;
        }
        throw new AssertionError("no Cpus_allowed_list in " + status);
    }
}

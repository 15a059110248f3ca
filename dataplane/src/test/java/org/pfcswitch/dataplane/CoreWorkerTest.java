package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mempool;
import org.pfcswitch.dpdk.MbufLayout;
import org.pfcswitch.dpdk.RingWire;
import org.pfcswitch.mmu.MmuConfig;

/**
 * The switch core under its poll-mode driver ({@link CoreWorker}) on real DPDK ports, all in this
 * one JVM (EAL starts once per process; the pom gives every test class its own fork). Switch ports
 * are the {@code a} ends of {@link RingWire}s; the test plays the hosts on the {@code b} ends.
 *
 * <p>Handle ownership is checked after every test: the pool must have every mbuf back, whether a
 * frame left on the wire, was refused by a full TX ring, was a PFC frame the core consumed, was
 * flooded as copies, or still sat in an egress queue when the worker stopped.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CoreWorkerTest {

    static final long H0 = 0x02_00_00_00_00_01L;
    static final long H1 = 0x02_00_00_00_00_02L;
    static final long H2 = 0x02_00_00_00_00_03L;
    static final long SPEED = 100_000_000_000L;

    Arena arena;
    Mempool pool;
    int wires;

    @BeforeAll
    void startEal() {
        Eal.init(Eal.lcoresOnAllowedCpus(), "--no-huge", "-m", "256", "--no-pci", "--no-shconf", "--no-telemetry",
                "--log-level=*:warning", "--vdev=net_null0", "--vdev=net_ring0", "--vdev=net_ring1", "--vdev=net_ring2");
        arena = Arena.ofShared();
        pool = Mempool.create(arena, "test_pkts", 8191, 0, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
    }

    @AfterEach
    void everyMbufIsBack() {
        assertEquals(0, pool.inUseCount(), "mbufs still out of the pool after the test");
    }

    @AfterAll
    void stopEal() {
        arena.close();
        Eal.cleanup();
    }

    static CoreConfig.Builder config(int ports) {
        return config(ports, SPEED);
    }

    static CoreConfig.Builder config(int ports, long speedBps) {
        MmuConfig mmu = MmuConfig.builder().ports(ports, speedBps, 1_000).scheme("dt").build();
        return CoreConfig.builder(mmu).classifier(PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0));
    }

    /** The switch on its worker thread; stopping it runs {@link CoreWorker#finish}. */
    final class Running implements AutoCloseable {
        final CoreWorker worker;
        final Thread thread;
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        final Arena workerArena = Arena.ofShared();
        int queuedAtStop = -1;

        Running(CoreConfig config, EthPort[] ports) {
            worker = new CoreWorker(config, ports, new CoreWorker.Clone[ports.length], 0, pool, 1, workerArena);
            thread = new Thread(() -> {
                try {
                    worker.run();
                } catch (Throwable t) {
                    failure.set(t);
                }
            }, "test-core-worker");
            thread.start();
        }

        SwitchCore core() {
            return worker.core();
        }

        SwitchCounters counters() {
            return worker.core().counters();
        }

        @Override
        public void close() throws InterruptedException {
            if (queuedAtStop >= 0) {
                return;
            }
            worker.requestStop();
            thread.join(10_000);
            assertNull(failure.get(), "the worker died");
            queuedAtStop = worker.finish();
            workerArena.close();
        }
    }

    /** A switch of n ports over fresh wires; the test holds the far ends. */
    final class Rig implements AutoCloseable {
        final Arena wireArena = Arena.ofShared();
        final List<EthPort> switchSide = new ArrayList<>();
        final List<EthPort> hostSide = new ArrayList<>();
        Running sw;

        Rig(int ports, int ringSize) {
            for (int i = 0; i < ports; i++) {
                RingWire w = RingWire.create(wireArena, "w" + (wires++), ringSize);
                startPort(w.a());
                startPort(w.b());
                switchSide.add(w.a());
                hostSide.add(w.b());
            }
        }

        Rig start(CoreConfig config) {
            sw = new Running(config, switchSide.toArray(EthPort[]::new));
            return this;
        }

        void send(int port, byte[]... frames) {
            assertEquals(frames.length, Frames.send(pool, hostSide.get(port), List.of(frames)));
        }

        /** Waits up to 2 s for {@code n} frames on host port {@code port}, then takes whatever came. */
        List<byte[]> expect(int port, int n) throws InterruptedException {
            List<byte[]> got = new ArrayList<>();
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (got.size() < n && System.nanoTime() < deadline) {
                got.addAll(Frames.receive(hostSide.get(port), n - got.size()));
                Thread.sleep(1);
            }
            return got;
        }

        /** Nothing arrives on host port {@code port} within 50 ms. */
        void expectNothing(int port) throws InterruptedException {
            Thread.sleep(50);
            List<byte[]> got = Frames.receive(hostSide.get(port), 1000);
            assertEquals(0, got.size(), "frames leaked out of port " + port);
        }

        @Override
        public void close() throws InterruptedException {
            if (sw != null) {
                sw.close();
            }
            for (EthPort p : hostSide) {
                Frames.receive(p, Integer.MAX_VALUE);
            }
            for (EthPort p : switchSide) {
                Frames.receive(p, Integer.MAX_VALUE);
            }
            for (EthPort p : switchSide) {
                p.stop();
            }
            for (EthPort p : hostSide) {
                p.stop();
            }
            wireArena.close();
        }
    }

    private void startPort(EthPort p) {
        p.configure(1, 1);
        p.rxQueueSetup(0, 1024, pool);
        p.txQueueSetup(0, 1024);
        p.start();
    }

    static void await(LongSupplier value, long atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (value.getAsLong() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
    }

    @Test
    void framesLeaveTheRightPortByteIdentical() throws Exception {
        try (Rig rig = new Rig(3, 1024)) {
            rig.start(config(3).staticMac(H0, 0).staticMac(H1, 1).staticMac(H2, 2).build());
            Random random = new Random(7);
            List<byte[]> toH1 = new ArrayList<>();
            List<byte[]> toH2 = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int len = 60 + random.nextInt(1514 - 60 + 1);
                (i % 3 == 0 ? toH2 : toH1).add(Frames.udp(i % 3 == 0 ? H2 : H1, H0, random.nextInt(64), len, i));
            }
            rig.send(0, toH1.toArray(byte[][]::new));
            rig.send(0, toH2.toArray(byte[][]::new));
            // A priority switch keeps order within a priority, not across them.
            assertFramesEqual(byPriority(toH1), byPriority(rig.expect(1, toH1.size())));
            assertFramesEqual(byPriority(toH2), byPriority(rig.expect(2, toH2.size())));
            rig.expectNothing(0);
            SwitchCounters c = rig.sw.counters();
            assertEquals(toH1.size(), c.txFrames(1));
            assertEquals(toH2.size(), c.txFrames(2));
            assertEquals(200, c.rxFrames(0));
        }
    }

    @Test
    void learnsSourcesAndFloodsUnknownAndBroadcast() throws Exception {
        try (Rig rig = new Rig(3, 1024)) {
            rig.start(config(3).learning(true).build());
            var table = rig.sw.core().forwardingTable();
            byte[] unknown = Frames.udp(H1, H0, 0, 100, 1);           // H1 not learned yet: flood
            rig.send(0, unknown);
            assertFramesEqual(List.of(unknown), rig.expect(1, 1));
            assertFramesEqual(List.of(unknown), rig.expect(2, 1));
            rig.expectNothing(0);
            assertEquals(1, rig.sw.counters().flooded[0]);
            assertEquals(0, table.lookup(H0), "H0 learned on port 0");

            byte[] reply = Frames.udp(H0, H1, 0, 120, 2);              // H0 is known: unicast
            rig.send(1, reply);
            assertFramesEqual(List.of(reply), rig.expect(0, 1));
            rig.expectNothing(2);
            assertEquals(1, table.lookup(H1), "H1 learned on port 1");

            byte[] broadcast = Frames.udp(MacAddress.BROADCAST, H2, 0, 64, 4);
            rig.send(2, broadcast);
            assertFramesEqual(List.of(broadcast), rig.expect(0, 1));
            assertFramesEqual(List.of(broadcast), rig.expect(1, 1));
            rig.expectNothing(2);

            byte[] moved = Frames.udp(H1, H0, 0, 64, 5);               // H0 moves to port 2
            rig.send(2, moved);
            assertFramesEqual(List.of(moved), rig.expect(1, 1));
            assertEquals(2, table.lookup(H0));

            byte[] filtered = Frames.udp(H0, H2, 0, 64, 6);            // H0 and H2 both behind port 2
            rig.send(2, filtered);
            rig.expectNothing(0);
            rig.expectNothing(1);
            assertEquals(1, rig.sw.counters().filtered[2]);
        }
    }

    @Test
    void pfcAndPauseAreCountedByPriorityAndNeverForwarded() throws Exception {
        try (Rig rig = new Rig(3, 1024)) {
            rig.start(config(3).build());
            byte[] pfc = new byte[60];
            MacControl.writePfc(MemorySegment.ofArray(pfc), 0, H0, 0b0001_1000, 0xFFFF);   // priorities 3 and 4
            byte[] pause = new byte[60];
            MacControl.writePause(MemorySegment.ofArray(pause), 0, H0, 100);
            rig.send(0, pfc, pfc, pause);
            SwitchCounters c = rig.sw.counters();
            await(() -> c.pauseFramesRx[0], 1);
            rig.expectNothing(1);
            rig.expectNothing(2);
            assertEquals(2, c.pfcXoffRx[3]);
            assertEquals(2, c.pfcXoffRx[4]);
            assertEquals(0, c.pfcXoffRx[0]);
            assertEquals(2, c.pfcFramesRx[0]);
            assertEquals(1, c.pauseFramesRx[0]);
            assertEquals(-1, rig.sw.core().forwardingTable().lookup(MacAddress.MAC_CONTROL));
        }
    }

    @Test
    void framesAreCountedByPortAndPriority() throws Exception {
        try (Rig rig = new Rig(2, 1024)) {
            rig.start(config(2).staticMac(H1, 1).build());
            rig.send(0, Frames.udp(H1, H0, 26, 100, 1), Frames.udp(H1, H0, 26, 200, 2), Frames.udp(H1, H0, 48, 300, 3),
                    Frames.vlan(H1, H0, 5, 10, 80));
            assertEquals(4, rig.expect(1, 4).size());
            SwitchCounters c = rig.sw.counters();
            assertEquals(2, c.rxFrames[3]);               // port 0, DSCP 26 -> 3
            assertEquals(300, c.rxBytes[3]);
            assertEquals(1, c.rxFrames[6]);               // DSCP 48 -> 6 (class selector)
            assertEquals(1, c.rxFrames[5]);               // tagged non-IP -> its PCP
            assertEquals(4, c.txFrames(1));
            assertEquals(680, c.txBytes(1));
        }
    }

    /** The core hands a frame to a TX buffer; what the TX ring still refuses is freed there and counted. */
    @Test
    void fullTxRingIsCountedAndLeaksNothing() throws Exception {
        try (Rig rig = new Rig(2, 64)) {                          // a wire direction holds 63
            rig.start(config(2).staticMac(H1, 1).shaper(false).build());
            int total = 0;
            for (int round = 0; round < 20; round++) {            // 20 x 25: never more than the inbound ring holds
                List<byte[]> frames = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                    frames.add(Frames.udp(H1, H0, 0, 60, total++));
                }
                rig.send(0, frames.toArray(byte[][]::new));
                int sent = total;
                await(() -> rig.sw.counters().rxFrames(0), sent);
            }
            int all = total;
            await(() -> rig.sw.counters().txFrames(1), all);
            await(() -> rig.sw.worker.txRefused(1), all - 63);
            assertEquals(total, rig.sw.counters().txFrames(1), "the core sent every frame");
            assertEquals(total - 63, rig.sw.worker.txRefused(1), "the TX ring took 63");
            assertEquals(63, rig.expect(1, 63).size());
        }
    }

    /**
     * Frames queued behind a PFC pause when the worker stops are freed and released from the MMU
     * by {@link CoreWorker#finish}: the pool gets them back and the ledger ends empty.
     */
    @Test
    void framesStillQueuedAtStopGoBackToThePool() throws Exception {
        try (Rig rig = new Rig(2, 1024)) {
            // 100 Mb/s: the pause of 65535 quanta lasts 335 ms, longer than the test
            rig.start(config(2, 100_000_000L).staticMac(H1, 1).build());
            byte[] pfc = new byte[60];
            MacControl.writePfc(MemorySegment.ofArray(pfc), 0, H1, 1 << 3, 0xFFFF);   // host 1 pauses priority 3
            rig.send(1, pfc);
            await(() -> rig.sw.counters().pfcXoffRx[8 + 3], 1);
            List<byte[]> frames = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                frames.add(Frames.udp(H1, H0, 26, 500, i));
            }
            rig.send(0, frames.toArray(byte[][]::new));
            await(() -> rig.sw.counters().rxFrames[3], 40);
            rig.expectNothing(1);
            assertTrue(pool.inUseCount() >= 40, "the core holds the paused frames: " + pool.inUseCount());
            rig.sw.close();
            assertEquals(40, rig.sw.queuedAtStop, "frames still queued at stop");
            assertEquals(0, rig.sw.core().mmu().ledger().totalUsed(), "released from the MMU");
            assertEquals(0, rig.sw.core().mmu().ledger().accountingErrors());
        }
    }

    @Test
    void nullAndRingVdevsFromTheEalCommandLineForward() throws Exception {
        EthPort nullPort = EthPort.byName("net_null0");      // rx hands out fresh 64-byte frames, tx frees
        EthPort ringPort = EthPort.byName("net_ring2");      // a loopback onto itself
        startPort(nullPort);
        startPort(ringPort);
        try (Running sw = new Running(config(2).shaper(false).build(), new EthPort[] {nullPort, ringPort})) {
            Thread.sleep(200);
            sw.close();
            assertTrue(sw.counters().rxFrames(0) > 1000, "net_null delivered frames: " + sw.counters().rxFrames(0));
        } finally {
            Frames.receive(ringPort, Integer.MAX_VALUE);
            nullPort.stop();
            ringPort.stop();
        }
    }

    /**
     * Both loops {@code bench fwd} measures allocate nothing once warm: the switch pipeline (the
     * core on its worker, dt admission, shaper off) and the bare forwarder, each on two
     * looped-back ring ports with 64 frames circulating.
     */
    @Test
    void benchLoopsAllocateNothingAfterWarmUp() throws Exception {
        EthPort p0 = EthPort.byName("net_ring0");
        EthPort p1 = EthPort.byName("net_ring1");
        startPort(p0);
        startPort(p1);
        long[] egressMacs = {H1, H0, H0, H1};
        CoreConfig pipeline = config(2).staticMac(H0, 0).staticMac(H1, 1).shaper(false).build();
        try (Arena benchArena = Arena.ofShared()) {
            for (boolean bare : new boolean[] {false, true}) {
                List<byte[]> frames = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    frames.add(Frames.udp(H1, H0, 26, 64, i));
                }
                Frames.send(pool, p0, frames);
                frames.replaceAll(f -> Frames.udp(H0, H1, 26, 64, 99));
                Frames.send(pool, p1, frames);
                PipelineBench b = bare
                        ? PipelineBench.startBareForwarder(new EthPort[] {p0, p1}, egressMacs, null, false, benchArena)
                        : PipelineBench.start(pipeline, new EthPort[] {p0, p1}, pool, egressMacs, null, false, benchArena);
                try {
                    b.resume();
                    var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
                    long tid = b.thread().threadId();
                    Thread.sleep(1500);                                    // warm-up: the JIT compiles the loop
                    // Two windows: a rare deoptimization runs the loop interpreted for a moment, and
                    // the interpreter's VarHandle calls allocate a few boxes (168 bytes were seen once in
                    // 14 M frames). A per-frame allocation would show as megabytes in both windows.
                    String what = bare ? "bare forwarder" : "switch pipeline";
                    long[] allocated = new long[2];
                    for (int w = 0; w < 2; w++) {
                        long bytesBefore = threads.getThreadAllocatedBytes(tid);
                        long framesBefore = b.framesReceived();
                        Thread.sleep(1500);
                        allocated[w] = threads.getThreadAllocatedBytes(tid) - bytesBefore;
                        long forwarded = b.framesReceived() - framesBefore;
                        System.out.printf("%s: %d frames in 1.5 s (%.1f Mpps), %d bytes allocated%n", what, forwarded,
                                forwarded / 1.5e6, allocated[w]);
                        assertTrue(forwarded > 500_000, what + " forwarded " + forwarded + " frames");
                        assertTrue(allocated[w] < 1024, what + " allocated " + allocated[w] + " bytes in one window");
                    }
                    assertEquals(0, Math.min(allocated[0], allocated[1]), "heap bytes allocated by the " + what
                            + " in its quieter window");
                } finally {
                    b.pause();
                    b.stop();
                    assertNull(b.failure());
                    Frames.receive(p0, Integer.MAX_VALUE);
                    Frames.receive(p1, Integer.MAX_VALUE);
                }
            }
        } finally {
            p0.stop();
            p1.stop();
        }
    }

    /** The frames in priority order (DSCP 26 -> 3, else DSCP / 8), stable within a priority. */
    static List<byte[]> byPriority(List<byte[]> frames) {
        List<byte[]> sorted = new ArrayList<>(frames);
        sorted.sort(java.util.Comparator.comparingInt(f -> {
            int dscp = (f[15] & 0xFF) >>> 2;
            return dscp == 26 ? 3 : dscp / 8;
        }));
        return sorted;
    }

    static void assertFramesEqual(List<byte[]> want, List<byte[]> got) {
        assertEquals(want.size(), got.size(), "frame count");
        for (int i = 0; i < want.size(); i++) {
            assertArrayEquals(want.get(i), got.get(i), "frame " + i);
        }
    }
}

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
import java.util.function.Function;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mempool;
import org.pfcswitch.dpdk.MbufLayout;
import org.pfcswitch.dpdk.RingWire;

/**
 * The forwarder on real DPDK ports, all in this one JVM (EAL starts once per process; the pom
 * gives every test class its own fork). Switch ports are the {@code a} ends of {@link RingWire}s;
 * the test plays the hosts on the {@code b} ends. After every test the pool is checked to have
 * every mbuf back.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DpdkForwarderTest {

    static final long H0 = 0x02_00_00_00_00_01L;
    static final long H1 = 0x02_00_00_00_00_02L;
    static final long H2 = 0x02_00_00_00_00_03L;

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

    /** A switch of n ports over fresh wires; the test holds the far ends. */
    final class Rig implements AutoCloseable {
        final Arena wireArena = Arena.ofShared();
        final List<EthPort> switchSide = new ArrayList<>();
        final List<EthPort> hostSide = new ArrayList<>();
        final ForwardingTable table;
        Forwarder forwarder;

        Rig(int ports, boolean learning, int ringSize) {
            for (int i = 0; i < ports; i++) {
                RingWire w = RingWire.create(wireArena, "w" + (wires++), ringSize);
                startPort(w.a());
                startPort(w.b());
                switchSide.add(w.a());
                hostSide.add(w.b());
            }
            table = new ForwardingTable(ports, 1024, learning);
        }

        Rig start(PriorityClassifier classifier, int workers) {
            List<Forwarder.WorkerPlan> plans = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                List<Integer> owned = new ArrayList<>();
                for (int p = w; p < switchSide.size(); p += workers) {
                    owned.add(p);
                }
                plans.add(new Forwarder.WorkerPlan(owned, null));
            }
            forwarder = Forwarder.start(new Forwarder.Plan(switchSide, plans, table, classifier,
                    Forwarder.DEFAULT_DRAIN_NANOS, false), DpdkPacketMemory.INSTANCE);
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

        /** Nothing arrives on host port {@code port} within 50 ms (ten drain periods and then some). */
        void expectNothing(int port) throws InterruptedException {
            Thread.sleep(50);
            List<byte[]> got = Frames.receive(hostSide.get(port), 1000);
            assertEquals(0, got.size(), "frames leaked out of port " + port);
        }

        long total(Function<PortCounters, long[]> counter, int index) {
            return forwarder.total(counter, index);
        }

        @Override
        public void close() {
            if (forwarder != null) {
                forwarder.stop();
                assertNull(forwarder.failure(), "a worker died");
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

    static PriorityClassifier dscpTrust() {
        return PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0);
    }

    @Test
    void framesLeaveTheRightPortByteIdentical() throws Exception {
        try (Rig rig = new Rig(3, true, 1024)) {
            rig.table.addStatic(H0, 0);
            rig.table.addStatic(H1, 1);
            rig.table.addStatic(H2, 2);
            rig.start(dscpTrust(), 1);
            Random random = new Random(7);
            List<byte[]> toH1 = new ArrayList<>();
            List<byte[]> toH2 = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                int len = 60 + random.nextInt(1514 - 60 + 1);
                (i % 3 == 0 ? toH2 : toH1).add(Frames.udp(i % 3 == 0 ? H2 : H1, H0, random.nextInt(64), len, i));
            }
            rig.send(0, toH1.toArray(byte[][]::new));
            rig.send(0, toH2.toArray(byte[][]::new));
            assertFramesEqual(toH1, rig.expect(1, toH1.size()));
            assertFramesEqual(toH2, rig.expect(2, toH2.size()));
            rig.expectNothing(0);
            assertEquals(toH1.size(), rig.total(c -> c.txFrames, 1));
            assertEquals(toH2.size(), rig.total(c -> c.txFrames, 2));
            assertEquals(200, PortCounters.sum(rig.forwarder.counters().get(0).rxFrames, 0, 8));
        }
    }

    @Test
    void twoWorkersHandFramesToEachOther() throws Exception {
        try (Rig rig = new Rig(4, true, 1024)) {
            rig.table.addStatic(H1, 1);           // port 1 belongs to worker 1, port 0 to worker 0
            rig.start(dscpTrust(), 2);
            List<byte[]> frames = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                frames.add(Frames.udp(H1, H0, 26, 60 + i * 7, i));
            }
            rig.send(0, frames.toArray(byte[][]::new));
            assertFramesEqual(frames, rig.expect(1, frames.size()));
            rig.expectNothing(2);
            rig.expectNothing(3);
        }
    }

    /** The bench parks the forwarder while testpmd runs: a paused worker holds no mbuf and forwards nothing. */
    @Test
    void aPausedForwarderHoldsNoMbufAndResumesWhereItLeftOff() throws Exception {
        try (Rig rig = new Rig(2, true, 1024)) {
            rig.table.addStatic(H1, 1);
            rig.start(dscpTrust(), 1);
            List<byte[]> before = List.of(Frames.udp(H1, H0, 26, 100, 1), Frames.udp(H1, H0, 26, 200, 2));
            rig.send(0, before.toArray(byte[][]::new));
            assertFramesEqual(before, rig.expect(1, before.size()));

            rig.forwarder.pause();
            assertEquals(0, pool.inUseCount(), "a paused forwarder keeps no mbuf in its TX buffers");
            List<byte[]> during = List.of(Frames.udp(H1, H0, 26, 300, 3), Frames.udp(H1, H0, 26, 400, 4));
            rig.send(0, during.toArray(byte[][]::new));
            rig.expectNothing(1);

            rig.forwarder.resume();
            assertFramesEqual(during, rig.expect(1, during.size()));
            assertEquals(4, rig.total(c -> c.txFrames, 1));
        }
    }

    @Test
    void learnsSourcesAndFloodsUnknownAndBroadcastWithoutCopies() throws Exception {
        try (Rig rig = new Rig(3, true, 1024)) {
            rig.start(dscpTrust(), 1);
            byte[] unknown = Frames.udp(H1, H0, 0, 100, 1);           // H1 not learned yet: flood
            rig.send(0, unknown);
            assertFramesEqual(List.of(unknown), rig.expect(1, 1));
            assertFramesEqual(List.of(unknown), rig.expect(2, 1));
            rig.expectNothing(0);
            assertEquals(1, rig.total(c -> c.floodedRx, 0));
            assertEquals(0, rig.table.lookup(H0), "H0 learned on port 0");

            byte[] reply = Frames.udp(H0, H1, 0, 120, 2);              // H0 is known: unicast
            rig.send(1, reply);
            assertFramesEqual(List.of(reply), rig.expect(0, 1));
            rig.expectNothing(2);
            assertEquals(1, rig.table.lookup(H1), "H1 learned on port 1");

            byte[] again = Frames.udp(H1, H0, 0, 140, 3);              // now H1 is known too
            rig.send(0, again);
            assertFramesEqual(List.of(again), rig.expect(1, 1));
            rig.expectNothing(2);

            byte[] broadcast = Frames.udp(MacAddress.BROADCAST, H2, 0, 64, 4);
            rig.send(2, broadcast);
            assertFramesEqual(List.of(broadcast), rig.expect(0, 1));
            assertFramesEqual(List.of(broadcast), rig.expect(1, 1));
            rig.expectNothing(2);

            byte[] moved = Frames.udp(H1, H0, 0, 64, 5);               // H0 moves to port 2
            rig.send(2, moved);
            assertFramesEqual(List.of(moved), rig.expect(1, 1));
            assertEquals(2, rig.table.lookup(H0));

            byte[] filtered = Frames.udp(H0, H2, 0, 64, 6);            // H0 and H2 both behind port 2
            rig.send(2, filtered);
            rig.expectNothing(0);
            rig.expectNothing(1);
            assertEquals(1, rig.total(c -> c.filteredRx, 2));
        }
    }

    @Test
    void pfcAndPauseAreCountedByPriorityAndNeverForwarded() throws Exception {
        try (Rig rig = new Rig(3, true, 1024)) {
            rig.start(dscpTrust(), 1);
            byte[] pfc = new byte[60];
            MacControl.writePfc(MemorySegment.ofArray(pfc), 0, H0, 0b0001_1000, 0xFFFF);   // priorities 3 and 4
            byte[] pause = new byte[60];
            MacControl.writePause(MemorySegment.ofArray(pause), 0, H0, 100);
            rig.send(0, pfc, pfc, pause);
            long deadline = System.nanoTime() + 2_000_000_000L;
            while (rig.total(c -> c.pauseRx, 0) < 1 && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            rig.expectNothing(1);
            rig.expectNothing(2);
            assertEquals(2, rig.total(c -> c.pfcRx, 3));
            assertEquals(2, rig.total(c -> c.pfcRx, 4));
            assertEquals(0, rig.total(c -> c.pfcRx, 0));
            assertEquals(1, rig.total(c -> c.pauseRx, 0));
            assertEquals(-1, rig.table.lookup(MacAddress.MAC_CONTROL));
        }
    }

    @Test
    void framesAreCountedByPortAndPriority() throws Exception {
        try (Rig rig = new Rig(2, true, 1024)) {
            rig.table.addStatic(H1, 1);
            rig.start(dscpTrust(), 1);
            rig.send(0, Frames.udp(H1, H0, 26, 100, 1), Frames.udp(H1, H0, 26, 200, 2), Frames.udp(H1, H0, 48, 300, 3),
                    Frames.vlan(H1, H0, 5, 10, 80));
            rig.expect(1, 4);
            List<PortCounters> c = rig.forwarder.counters();
            assertEquals(2, rig.total(x -> x.rxFrames, 3));               // port 0, DSCP 26 → 3
            assertEquals(300, rig.total(x -> x.rxBytes, 3));
            assertEquals(1, rig.total(x -> x.rxFrames, 6));               // DSCP 48 → 6 (class selector)
            assertEquals(1, rig.total(x -> x.rxFrames, 5));               // tagged non-IP → its PCP
            assertEquals(4, rig.total(x -> x.txFrames, 1));
            assertEquals(680, rig.total(x -> x.txBytes, 1));
            assertEquals(1, c.size());
        }
    }

    @Test
    void fullTxRingDropsWithACounterAndLeaksNothing() throws Exception {
        try (Rig rig = new Rig(2, true, 64)) {                          // a wire direction holds 63
            rig.table.addStatic(H1, 1);
            rig.start(dscpTrust(), 1);
            int total = 0;
            long deadline = System.nanoTime() + 5_000_000_000L;
            for (int round = 0; round < 20; round++) {                   // 20 x 25: never more than the inbound ring holds
                List<byte[]> frames = new ArrayList<>();
                for (int i = 0; i < 25; i++) {
                    frames.add(Frames.udp(H1, H0, 0, 60, total++));
                }
                rig.send(0, frames.toArray(byte[][]::new));
                while (rig.total(c -> c.rxFrames, 0) < total && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
            }
            while (rig.total(c -> c.txFrames, 1) + rig.total(c -> c.txDropFull, 1) < total && System.nanoTime() < deadline) {
                Thread.sleep(1);
            }
            assertEquals(63, rig.total(c -> c.txFrames, 1));
            assertEquals(total - 63, rig.total(c -> c.txDropFull, 1));
            assertEquals(63, rig.expect(1, 63).size());
            assertTrue(pool.inUseCount() == 0, "dropped frames went back to the pool");
        }
    }

    @Test
    void nullAndRingVdevsFromTheEalCommandLineForward() throws Exception {
        EthPort nullPort = EthPort.byName("net_null0");      // rx hands out fresh 64-byte frames, tx frees
        EthPort ringPort = EthPort.byName("net_ring2");      // a loopback onto itself
        startPort(nullPort);
        startPort(ringPort);
        ForwardingTable table = new ForwardingTable(2, 64, true);
        Forwarder f = Forwarder.start(new Forwarder.Plan(List.of(nullPort, ringPort),
                List.of(new Forwarder.WorkerPlan(List.of(0, 1), null)), table, dscpTrust(), Forwarder.DEFAULT_DRAIN_NANOS,
                false), DpdkPacketMemory.INSTANCE);
        Thread.sleep(200);
        f.stop();
        assertNull(f.failure());
        assertTrue(f.total(c -> c.rxFrames, 0) > 1000, "net_null delivered frames: " + f.total(c -> c.rxFrames, 0));
        Frames.receive(ringPort, Integer.MAX_VALUE);
        nullPort.stop();
        ringPort.stop();
    }

    @Test
    void forwardingLoopAllocatesNothingAfterWarmUp() throws Exception {
        // Two looped-back ring ports and a reflecting forwarder: 64 frames circulate for ever.
        EthPort p0 = EthPort.byName("net_ring0");
        EthPort p1 = EthPort.byName("net_ring1");
        startPort(p0);
        startPort(p1);
        ForwardingTable table = new ForwardingTable(2, 64, true);
        table.addStatic(H0, 0);
        table.addStatic(H1, 1);
        List<byte[]> frames = new ArrayList<>();
        for (int i = 0; i < 32; i++) {
            frames.add(Frames.udp(H1, H0, 26, 64, i));
        }
        Frames.send(pool, p0, frames);
        frames.replaceAll(f -> Frames.udp(H0, H1, 26, 64, 99));
        Frames.send(pool, p1, frames);
        Forwarder f = Forwarder.start(new Forwarder.Plan(List.of(p0, p1), List.of(new Forwarder.WorkerPlan(List.of(0, 1), null)),
                table, dscpTrust(), Forwarder.DEFAULT_DRAIN_NANOS, true), DpdkPacketMemory.INSTANCE);
        try {
            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            long tid = f.threads().get(0).threadId();
            Thread.sleep(1500);                                            // warm-up: JIT compiles the loop
            long bytesBefore = threads.getThreadAllocatedBytes(tid);
            long framesBefore = f.total(c -> c.rxFrames, 3) + f.total(c -> c.rxFrames, 8 + 3);
            Thread.sleep(2000);
            long allocated = threads.getThreadAllocatedBytes(tid) - bytesBefore;
            long forwarded = f.total(c -> c.rxFrames, 3) + f.total(c -> c.rxFrames, 8 + 3) - framesBefore;
            System.out.printf("forwarding loop: %d frames in 2 s (%.1f Mpps), %d bytes allocated%n",
                    forwarded, forwarded / 2e6, allocated);
            assertTrue(forwarded > 2_000_000, "the loop forwarded " + forwarded + " frames");
            assertEquals(0, allocated, "heap bytes allocated by the worker over " + forwarded + " frames");
            assertEquals(0, f.total(c -> c.floodedRx, 0) + f.total(c -> c.floodedRx, 1));
        } finally {
            f.stop();
            assertNull(f.failure());
            Frames.receive(p0, Integer.MAX_VALUE);
            Frames.receive(p1, Integer.MAX_VALUE);
            p0.stop();
            p1.stop();
        }
    }

    static void assertFramesEqual(List<byte[]> want, List<byte[]> got) {
        assertEquals(want.size(), got.size(), "frame count");
        for (int i = 0; i < want.size(); i++) {
            assertArrayEquals(want.get(i), got.get(i), "frame " + i);
        }
    }
}

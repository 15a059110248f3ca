package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * Everything that needs EAL, in one class: Surefire gives each test class its own JVM, and EAL
 * starts once per JVM. EAL runs without hugepages or PCI; the ports are pure memory: a RingWire
 * (two net_ring ports joined back to back), net_null0 and net_ring0 from the EAL arguments.
 *
 * <p>Every test must give back every mbuf it took: {@link #everyMbufIsBack} checks the pool after each.
 */
class DpdkBindingsTest {

    static final String[] EAL_ARGS = {
            Eal.lcoresOnAllowedCpus(), "--no-huge", "-m", "256", "--no-pci", "--no-shconf", "--no-telemetry",
            "--log-level=*:warning", "--vdev=net_null0", "--vdev=net_ring0"};
    static final int POOL_SIZE = 4095;
    static final int RING_SIZE = 1024;
    static final int BURST = 32;

    static Arena poolArena;
    static Arena portArena;
    static Mempool pool;
    static RingWire wire;
    static EthPort nullPort;
    static MemorySegment burst;
    static MemorySegment spare;
    static String cpusBeforeInit;
    static int parsedArgs;

    @BeforeAll
    static void startEal() throws Exception {
        cpusBeforeInit = cpusAllowed();
        parsedArgs = Eal.init(EAL_ARGS);
        poolArena = Arena.ofShared();
        pool = Mempool.create(poolArena, "test_pool", POOL_SIZE, 32, 16, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
        burst = Mbuf.pointerArray(poolArena, BURST);
        spare = Mbuf.pointerArray(poolArena, BURST);
        portArena = Arena.ofShared();
        wire = RingWire.create(portArena, "w", RING_SIZE);
        nullPort = EthPort.byName("net_null0");
        for (EthPort port : List.of(wire.a(), wire.b(), nullPort)) {
            startWithOneQueue(port);
        }
    }

    static void startWithOneQueue(EthPort port) {
        port.configure(1, 1);
        port.rxQueueSetup(0, 512, pool);
        port.txQueueSetup(0, 512);
        port.start();
    }

    @AfterAll
    static void stopEal() {
        // Each step runs even if an earlier one fails; EAL cleanup always runs last.
        runAll(
                () -> nullPort.stop(),
                () -> nullPort.close(),
                () -> wire.a().stop(),
                () -> wire.b().stop(),
                () -> portArena.close(),
                () -> assertEquals(0, pool.inUseCount(), "mbufs missing at the end"),
                () -> poolArena.close(),
                Eal::cleanup);
    }

    static void runAll(Executable... steps) {
        List<Throwable> failures = new ArrayList<>();
        for (Executable step : steps) {
            try {
                step.execute();
            } catch (Throwable t) {
                failures.add(t);
            }
        }
        if (!failures.isEmpty()) {
            AssertionError error = new AssertionError("tear-down failed", failures.getFirst());
            failures.stream().skip(1).forEach(error::addSuppressed);
            throw error;
        }
    }

    /** Mbufs already missing before this test (an earlier test leaked): counted once, against that test. */
    int leakedBefore;

    @BeforeEach
    void notePoolLevel() {
        leakedBefore = pool.inUseCount();
    }

    /** Mbufs this test has taken and not given back. */
    int inUse() {
        return pool.inUseCount() - leakedBefore;
    }

    @AfterEach
    void everyMbufIsBack() {
        int inUse = inUse();
        drain(wire.a());
        drain(wire.b());
        assertEquals(0, inUse, "mbufs still taken after the test (frames left in a ring count too)");
    }

    /** Receives and frees everything waiting on the port; returns how many. */
    static int drain(EthPort port) {
        int total = 0;
        for (int got; (got = port.rxBurst(0, spare, BURST)) > 0; ) {
            Mbuf.freeBulk(spare, got);
            total += got;
        }
        return total;
    }

    static void writeFrame(long mbuf, byte[] frame) {
        MemorySegment.copy(frame, 0, Mbuf.memory(), JAVA_BYTE, Mbuf.dataAddress(mbuf), frame.length);
        Mbuf.setLengths(mbuf, frame.length);
    }

    static byte[] readFrame(long mbuf) {
        return Mbuf.data(mbuf).toArray(JAVA_BYTE);
    }

    // ------------------------------------------------------------------------------------------

    @Test
    void ealIsUpAndASecondInitIsRefused() {
        assertTrue(Eal.isRunning());
        assertEquals(EAL_ARGS.length, parsedArgs, "EAL took every argument");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Eal.init(EAL_ARGS));
        assertTrue(e.getMessage().contains("once per process"), e.getMessage());
    }

    @Test
    void ealLeavesTheCallingThreadAndItsChildrenUnpinned() throws Exception {
        // EAL ran in the JUnit thread (it is lcore 0 now); --lcores=0@(all CPUs) kept its affinity.
        assertEquals(cpusBeforeInit, cpusAllowed());
        String[] child = new String[1];
        Thread thread = Thread.ofPlatform().start(() -> child[0] = cpusAllowedUnchecked());
        thread.join();
        assertEquals(cpusBeforeInit, child[0], "threads started later inherit no pinning");
    }

    static String cpusAllowed() throws java.io.IOException {
        return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/thread-self/status")).stream()
                .filter(line -> line.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow();
    }

    static String cpusAllowedUnchecked() {
        try {
            return cpusAllowed();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void portsAreFoundByNameAndById() {
        List<String> names = EthPort.all().stream().map(EthPort::name).toList();
        assertTrue(names.containsAll(List.of("net_null0", "net_ring0", "net_ring_w_a", "net_ring_w_b")), names.toString());
        for (EthPort port : EthPort.all()) {
            assertSame(port, EthPort.of(port.id()));
            assertSame(port, EthPort.byName(port.name()));
        }
        assertEquals(List.of("net_ring_w_a", "net_ring_w_b"), List.of(wire.a().name(), wire.b().name()));
    }

    @Test
    void framesCrossTheWireByteIdenticalBothWays() {
        wire.a().resetStats();
        wire.b().resetStats();
        Random random = new Random(20240610);
        long frames = 0;
        for (int round = 0; round < 200; round++) {
            boolean aToB = round % 2 == 0;
            EthPort from = aToB ? wire.a() : wire.b();
            EthPort to = aToB ? wire.b() : wire.a();
            int n = 1 + random.nextInt(BURST);
            byte[][] sent = new byte[n][];
            assertTrue(pool.allocBulk(burst, n));
            for (int i = 0; i < n; i++) {
                sent[i] = new byte[60 + random.nextInt(1514 - 60 + 1)];
                random.nextBytes(sent[i]);
                writeFrame(burst.getAtIndex(JAVA_LONG, i), sent[i]);
            }
            assertEquals(n, from.txBurst(0, burst, n), "the ring had room for the whole burst");

            int got = to.rxBurst(0, spare, BURST);
            try {
                assertEquals(n, got, "everything sent arrives, in one burst");
                for (int i = 0; i < n; i++) {
                    long mbuf = spare.getAtIndex(JAVA_LONG, i);
                    assertEquals(sent[i].length, Mbuf.packetLength(mbuf));
                    assertEquals(1, Mbuf.segmentCount(mbuf));
                    assertArrayEquals(sent[i], readFrame(mbuf), "frame " + i + " of round " + round);
                }
            } finally {
                Mbuf.freeBulk(spare, got);
            }
            frames += aToB ? n : 0;
        }
        assertEquals(frames, wire.a().stats().txPackets());
        assertEquals(frames, wire.b().stats().rxPackets());
    }

    @Test
    void aFullTxRingTakesFewerThanAskedAndLeaksNothing() {
        int queued = 0;
        int taken;
        do {
            assertTrue(pool.allocBulk(burst, BURST));
            for (int i = 0; i < BURST; i++) {
                writeFrame(burst.getAtIndex(JAVA_LONG, i), new byte[64]);
            }
            taken = wire.a().txBurst(0, burst, BURST);
            queued += taken;
            // The caller still owns what the port did not take.
            Mbuf.freeBulk(burst.asSlice((long) taken * 8), BURST - taken);
        } while (taken == BURST);

        assertEquals(RING_SIZE - 1, queued, "a ring of " + RING_SIZE + " slots holds " + (RING_SIZE - 1));
        assertEquals(queued, inUse(), "only the queued frames are out of the pool");
        assertTrue(pool.allocBulk(burst, 1));
        assertEquals(0, wire.a().txBurst(0, burst, 1), "a full ring takes nothing");
        Mbuf.freeBulk(burst, 1);

        assertEquals(queued, drain(wire.b()));
        assertEquals(0, inUse());
    }

    @Test
    void warmBurstLoopsAllocateNothingOnTheHeap() {
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        // 64 frames circulate: a's tx feeds b's rx, and what b receives goes back out of a.
        assertTrue(pool.allocBulk(burst, BURST));
        assertEquals(BURST, wire.a().txBurst(0, burst, BURST));
        assertTrue(pool.allocBulk(burst, BURST));
        assertEquals(BURST, wire.a().txBurst(0, burst, BURST));

        long lastWindow = -1;
        for (int window = 0; window < 50 && lastWindow != 0; window++) {
            long before = threads.getCurrentThreadAllocatedBytes();
            long checksum = 0;
            for (int i = 0; i < 20_000; i++) {
                int got = wire.b().rxBurst(0, burst, BURST);
                for (int j = 0; j < got; j++) {
                    long mbuf = burst.getAtIndex(JAVA_LONG, j);
                    Mbuf.setLengths(mbuf, 64);
                    checksum += Mbuf.dataByte(mbuf, 0) + Mbuf.dataAddress(mbuf);
                }
                int sent = wire.a().txBurst(0, burst, got);
                Mbuf.freeBulk(burst.asSlice((long) sent * 8), got - sent);
                if (pool.allocBulk(spare, 4)) {
                    Mbuf.freeBulk(spare, 4);
                }
                checksum += Tsc.read();
            }
            lastWindow = threads.getCurrentThreadAllocatedBytes() - before;
            assertTrue(checksum != 0);
        }
        assertEquals(0, lastWindow, "a window of 20,000 warm bursts allocated bytes on the heap");
        assertEquals(2 * BURST, drain(wire.b()), "no frame was lost on the way round");
    }

    @Test
    void eachMbufFieldIsReadThroughTheShimsOffsets() {
        assertTrue(pool.allocBulk(burst, 1));
        long mbuf = burst.getAtIndex(JAVA_LONG, 0);
        try {
            assertEquals(MbufLayout.HEADROOM, Mbuf.dataOffset(mbuf));
            assertEquals(MbufLayout.DEFAULT_DATA_ROOM, Mbuf.bufferLength(mbuf));
            assertEquals(MbufLayout.DEFAULT_DATA_ROOM - MbufLayout.HEADROOM, Mbuf.dataRoom(mbuf));
            assertEquals(pool.address(), Mbuf.pool(mbuf));
            assertEquals(1, Mbuf.refcnt(mbuf));
            assertEquals(1, Mbuf.segmentCount(mbuf));
            assertEquals(0, Mbuf.next(mbuf));
            assertEquals(0, Mbuf.dataLength(mbuf));
            assertEquals(0, Mbuf.packetLength(mbuf));
            // The 16-byte private area asked for at pool creation sits between the mbuf and its buffer.
            long bufAddr = Mbuf.memory().get(JAVA_LONG, mbuf + MbufLayout.BUF_ADDR);
            assertEquals(Mbuf.privateAddress(mbuf) + 16, bufAddr);
            assertEquals(bufAddr + MbufLayout.HEADROOM, Mbuf.dataAddress(mbuf));
            writeFrame(mbuf, new byte[] {1, 2, 3});
            assertEquals(3, Mbuf.dataLength(mbuf));
            assertEquals(3, Mbuf.packetLength(mbuf));
            assertEquals(2, Mbuf.dataByte(mbuf, 1));
        } finally {
            Mbuf.freeBulk(burst, 1);
        }
    }

    @Test
    void aJavaThreadBecomesAnEalThreadWithItsOwnLcoreAndGivesItBack() throws Exception {
        assertEquals(0, Eal.lcoreId(), "the thread that ran rte_eal_init is lcore 0");
        int[] seen = new int[5];
        int[] inUseAfter = new int[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            try (Arena arena = Arena.ofConfined()) {
                seen[0] = Eal.lcoreId();
                seen[1] = Eal.registerThread();
                seen[2] = Eal.registerThread();              // already registered: same id
                seen[3] = Eal.lcoreId();
                Mempool cached = Mempool.create(arena, "cached_pool", 255, 32, 0, MbufLayout.DEFAULT_DATA_ROOM,
                        Mempool.ANY_SOCKET);
                MemorySegment ptrs = Mbuf.pointerArray(arena, 16);
                for (int i = 0; i < 100; i++) {             // through this lcore's cache
                    assertTrue(cached.allocBulk(ptrs, 16));
                    Mbuf.freeBulk(ptrs, 16);
                }
                inUseAfter[0] = cached.inUseCount();
                Eal.unregisterThread();
                seen[4] = Eal.lcoreId();
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        t.start();
        t.join();
        if (failure[0] != null) {
            throw new AssertionError(failure[0]);
        }
        assertEquals(-1, seen[0], "a new Java thread is not an EAL thread");
        assertTrue(seen[1] > 0, "registered: an lcore id of its own, got " + seen[1]);
        assertEquals(seen[1], seen[2]);
        assertEquals(seen[1], seen[3]);
        assertEquals(0, inUseAfter[0], "mbufs in a per-lcore cache count as available");
        assertEquals(-1, seen[4], "unregistered");
    }

    @Test
    void allocBulkIsAllOrNothingAndAPoolDiesWithItsArena() {
        Mempool small;
        try (Arena arena = Arena.ofConfined()) {
            small = Mempool.create(arena, "small_pool", 63, 0, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
            MemorySegment ptrs = Mbuf.pointerArray(arena, 64);
            assertFalse(small.allocBulk(ptrs, 64), "64 from a pool of 63");
            assertEquals(0, small.inUseCount(), "a failed bulk alloc takes nothing");
            assertTrue(small.allocBulk(ptrs, 63));
            assertEquals(63, small.inUseCount());
            assertEquals(0, small.availableCount());
            assertFalse(small.allocBulk(ptrs, 1));
            Mbuf.freeBulk(ptrs, 63);
            assertEquals(0, small.inUseCount());
        }
        assertThrows(IllegalStateException.class, small::inUseCount, "a freed pool is refused, not touched");
        // The name is free again: the pool really was freed.
        try (Arena arena = Arena.ofConfined()) {
            Mempool.create(arena, "small_pool", 63, 0, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
        }
    }

    @Test
    void anMbufGoesBackToItsPoolWithItsLastReference() {
        assertTrue(pool.allocBulk(burst, BURST));
        long first = burst.getAtIndex(JAVA_LONG, 0);
        assertEquals(3, Mbuf.refcntUpdate(first, 2));
        assertEquals(3, Mbuf.refcnt(first));
        Mbuf.refcntUpdateBulk(burst, BURST, 1); // as when flooding a burst to two ports

        Mbuf.freeBulk(burst, BURST);
        assertEquals(BURST, inUse(), "one reference each is left");
        assertEquals(3, Mbuf.refcnt(first));
        Mbuf.freeBulk(burst, BURST);
        assertEquals(1, inUse(), "only the mbuf with two extra references");
        Mbuf.freeBulk(burst, 1);
        assertEquals(1, inUse());
        Mbuf.freeBulk(burst, 1);
        assertEquals(0, inUse());
    }

    @Test
    void theNullPortHandsOutFreshMbufsAndSwallowsWhatItSends() {
        nullPort.resetStats();
        int got = nullPort.rxBurst(0, burst, BURST);
        assertEquals(BURST, got, "net_null always has a full burst");
        assertEquals(BURST, inUse(), "its mbufs come from the rx queue's pool");
        assertEquals(BURST, nullPort.txBurst(0, burst, got), "net_null takes everything and frees it");
        assertEquals(0, inUse());
        EthStats stats = nullPort.stats();
        assertEquals(BURST, stats.rxPackets());
        assertEquals(BURST, stats.txPackets());
    }

    @Test
    void anEalRingVdevIsALoopbackOntoItself() {
        EthPort loop = EthPort.byName("net_ring0");
        startWithOneQueue(loop);
        try {
            assertTrue(pool.allocBulk(burst, 1));
            writeFrame(burst.getAtIndex(JAVA_LONG, 0), new byte[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4});
            assertEquals(1, loop.txBurst(0, burst, 1));
            assertEquals(1, loop.rxBurst(0, spare, BURST));
            assertArrayEquals(new byte[] {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4}, readFrame(spare.getAtIndex(JAVA_LONG, 0)));
            Mbuf.freeBulk(spare, 1);
        } finally {
            loop.stop();
        }
    }

    @Test
    void linkStateCountersAndFlowControlAreReported() {
        for (EthPort port : List.of(wire.a(), nullPort)) {
            LinkStatus link = port.link();
            assertTrue(link.up(), port + " is started");
            assertTrue(link.speedMbps() > 0, link.toString());
            System.out.printf("%s: link %s, MAC %012x, promiscuous %s, MAC control frame forwarding %s%n", port, link,
                    port.macAddress(), port.isPromiscuous(), port.macControlFrameForwarding(true));
            assertFalse(port.macControlFrameForwarding(true), "ring and null PMDs have no flow control");
        }
        wire.a().promiscuous(false);
        wire.a().promiscuous(true);
        assertTrue(wire.a().isPromiscuous());

        wire.a().resetStats();
        wire.b().resetStats();
        assertTrue(pool.allocBulk(burst, 3));
        for (int i = 0; i < 3; i++) {
            writeFrame(burst.getAtIndex(JAVA_LONG, i), new byte[100]);
        }
        assertEquals(3, wire.a().txBurst(0, burst, 3));
        assertEquals(3, drain(wire.b()));
        // net_ring counts packets only, no bytes.
        assertEquals(new EthStats(0, 3, 0, 0, 0, 0, 0, 0), wire.a().stats());
        Map<String, Long> xstats = wire.b().xstats();
        assertEquals(3L, xstats.get("rx_good_packets"), xstats.toString());
        assertEquals(3L, xstats.get("rx_q0_packets"), xstats.toString());
        assertEquals(3L, wire.a().xstats().get("tx_good_packets"));
    }

    @Test
    void badInputThrowsNamingTheCallAndTheError() {
        DpdkException e = assertThrows(DpdkException.class, () -> EthPort.of(999));
        assertError(e, "rte_eth_dev_get_name_by_port", 999, "No such device");
        assertError(assertThrows(DpdkException.class, () -> EthPort.of(31)), "rte_eth_dev_get_name_by_port", 31, "No such device");
        assertError(assertThrows(DpdkException.class, () -> EthPort.byName("net_nosuch0")),
                "rte_eth_dev_get_port_by_name", -1, "No such device");
        try (Arena arena = Arena.ofConfined()) {
            DpdkException vdev = assertThrows(DpdkException.class, () -> EthPort.createVdev(arena, "net_bogus0", ""));
            assertError(vdev, "rte_vdev_init", -1, "No such device");
            assertTrue(vdev.getMessage().contains("net_bogus0"), vdev.getMessage());
        }
        assertError(assertThrows(DpdkException.class, () -> wire.a().txQueueSetup(5, 512)),
                "rte_eth_tx_queue_setup", wire.a().id(), "Invalid argument");
        assertError(assertThrows(DpdkException.class, () -> wire.a().configure(1, 1)),
                "rte_eth_dev_configure", wire.a().id(), "Device or resource busy");
        try (Arena arena = Arena.ofConfined()) {
            assertError(assertThrows(DpdkException.class, () -> Mempool.create(arena, "test_pool", 63, 0, 0, 2048, -1)),
                    "rte_pktmbuf_pool_create", -1, "File exists");
        }

        // Bursts DPDK would not check (and would crash on) are refused in Java.
        assertThrows(IllegalArgumentException.class, () -> wire.a().rxBurst(3, burst, 1));
        try (Arena arena = Arena.ofConfined()) {
            EthPort unstarted = EthPort.createVdev(arena, "net_null3", "");
            assertThrows(IllegalArgumentException.class, () -> unstarted.txBurst(0, burst, 1), "never started");
            unstarted.configure(1, 1);
            unstarted.rxQueueSetup(0, 64, pool);
            assertThrows(IllegalStateException.class, unstarted::start, "tx queue 0 was not set up");
            assertThrows(IllegalArgumentException.class, () -> unstarted.rxBurst(0, burst, 1), "still not started");
        }
        assertThrows(IndexOutOfBoundsException.class, () -> wire.a().rxBurst(0, burst, BURST + 1));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.allocBulk(burst, -1));
        assertThrows(IllegalArgumentException.class, () -> wire.a().txBurst(0, MemorySegment.ofArray(new long[4]), 4),
                "a heap array cannot be passed to DPDK");
        assertThrows(IllegalArgumentException.class, () -> RingWire.create(Arena.global(), "odd", 1000));
    }

    static void assertError(DpdkException e, String call, int port, String text) {
        assertEquals(call, e.call(), e.getMessage());
        assertEquals(port, e.port(), e.getMessage());
        assertEquals(text, e.rteErrorText(), e.getMessage());
        assertTrue(e.rteErrno() > 0);
        assertTrue(e.getMessage().startsWith(call + " failed"), e.getMessage());
        assertTrue(e.getMessage().contains(text), e.getMessage());
    }

    @Test
    void aHotPluggedVdevLivesAsLongAsItsArena() {
        try (Arena arena = Arena.ofConfined()) {
            EthPort port = EthPort.createVdev(arena, "net_null1", "");
            assertEquals("net_null1", port.name());
            startWithOneQueue(port);
            int got = port.rxBurst(0, burst, 4);
            assertEquals(4, got);
            Mbuf.freeBulk(burst, got);
            port.stop();
        }
        assertThrows(DpdkException.class, () -> EthPort.byName("net_null1"));
    }

    /**
     * DPDK's af_packet PMD does not count the frames the kernel drops for a full ring: {@link
     * EthPort#stats} does. 200 frames go into a veth whose other end is an af_packet port with a
     * 64-frame ring that nobody polls: what the ring held is read, the rest is counted as missed.
     */
    @Test
    void anAfPacketPortCountsWhatItsFullRingDropped() throws Exception {
        String veth = "pfcrd" + ProcessHandle.current().pid() % 100_000;
        String peer = veth + "p";
        sh("ip", "link", "add", veth, "type", "veth", "peer", "name", peer);
        try {
            for (String end : new String[] {veth, peer}) {   // no IPv6: nothing but our frames on the wire
                sh("sysctl", "-qw", "net.ipv6.conf." + end + ".disable_ipv6=1");
                sh("ip", "link", "set", end, "up");
            }
            try (Arena arena = Arena.ofConfined()) {
                EthPort port = EthPort.createVdev(arena, "net_af_packet9",
                        "iface=" + veth + ",framecnt=64,blocksz=4096,framesz=2048,qdisc_bypass=1");
                assertEquals(1, port.afPacketSockets(), "the PMD's one socket for its one queue pair was found");
                startWithOneQueue(port);
                try {
                    sh("python3", "-c", "import socket\n"
                            + "s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW)\n"
                            + "s.bind(('" + peer + "', 0))\n"
                            + "for i in range(200): s.send(bytes([2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x88, 0xb5]) + bytes(50))\n");
                    int received = 0;
                    for (int got = port.rxBurst(0, burst, BURST); got > 0; got = port.rxBurst(0, burst, BURST)) {
                        received += got;
                        Mbuf.freeBulk(burst, got);
                    }
                    EthStats stats = port.stats();
                    assertTrue(received > 0 && received <= 64, "the ring held what it could: " + received);
                    assertEquals(200 - received, stats.rxMissed(), "the rest were dropped by the kernel and counted");
                    port.resetStats();
                    assertEquals(0, port.stats().rxMissed(), "a reset zeroes the ring drops too");
                } finally {
                    port.stop();
                }
            }
        } finally {
            sh("ip", "link", "del", veth);
        }
    }

    private static void sh(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }

    @Test
    void theTscTicksAtTheFrequencyEalMeasured() throws InterruptedException {
        long hz = Tsc.hz();
        assertTrue(hz > 100_000_000L, "TSC at " + hz + " Hz");
        long t0 = Tsc.read();
        long n0 = System.nanoTime();
        Thread.sleep(100);
        long ticks = Tsc.read() - t0;
        long nanos = System.nanoTime() - n0;
        double tscNanos = ticks * 1e9 / hz;
        assertEquals(nanos, tscNanos, nanos * 0.1, "TSC and System.nanoTime agree within 10%");
    }
}

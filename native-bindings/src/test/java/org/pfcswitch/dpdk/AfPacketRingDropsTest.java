package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

import org.junit.jupiter.api.Test;

/**
 * The rx ring drops of an af_packet port count from when the port is open, not from when its
 * socket was made: DPDK's PMD opens its socket for every protocol and binds it to its interface
 * last, and until the bind the kernel hands the socket every frame of every interface in the
 * namespace and counts what does not fit as its drops. Here, in a network namespace of the test's
 * own, two such sockets take a burst of datagrams on the namespace's loopback before they are bound
 * to it: the kernel counts drops on both (seen on the first), and the reader made for the second
 * once it is bound counts none of them.
 */
class AfPacketRingDropsTest {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle SOCKET = libc("socket", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle BIND = libc("bind", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle GETSOCKOPT = libc("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle CLOSE = libc("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle OPEN = libc("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SETNS = libc("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle IF_NAMETOINDEX = libc("if_nametoindex", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final int AF_PACKET = 17;
    private static final int SOCK_RAW = 3;
    private static final short ETH_P_ALL_NETWORK_ORDER = (short) 0x0300;
    private static final int SOL_PACKET = 263;
    private static final int PACKET_STATISTICS = 6;
    private static final int CLONE_NEWNET = 0x4000_0000;

    @Test
    void dropsBeforeTheSocketIsBoundAreNotThePorts() throws Exception {
        String ns = "pfcsw-rd-" + ProcessHandle.current().pid();
        run("ip", "netns", "add", ns);
        try {
            run("ip", "-n", ns, "link", "set", "lo", "up");
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] counted = new long[2];
            Thread inNamespace = Thread.ofPlatform().start(() -> {
                try {
                    counted[0] = -1;
                    enter(ns);
                    Set<Integer> beforeFirst = AfPacketRingDrops.openSockets();
                    int first = (int) SOCKET.invokeExact(AF_PACKET, SOCK_RAW, (int) ETH_P_ALL_NETWORK_ORDER);
                    Set<Integer> beforeSecond = AfPacketRingDrops.openSockets();
                    int second = (int) SOCKET.invokeExact(AF_PACKET, SOCK_RAW, (int) ETH_P_ALL_NETWORK_ORDER);
                    assertTrue(first >= 0 && second >= 0 && !beforeFirst.contains(first), "AF_PACKET sockets opened");
                    try (DatagramSocket udp = new DatagramSocket()) {
                        byte[] one = new byte[64];
                        for (int i = 0; i < 5_000; i++) {       // far more than an unbound socket's queue holds
                            udp.send(new DatagramPacket(one, one.length, InetAddress.getLoopbackAddress(), 9));
                        }
                    }
                    bindToLoopback(first);
                    bindToLoopback(second);
                    counted[0] = kernelDrops(first);
                    counted[1] = AfPacketRingDrops.openedSince(beforeSecond, "lo").read();
                    int closedFirst = (int) CLOSE.invokeExact(first);
                    int closedSecond = (int) CLOSE.invokeExact(second);
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            inNamespace.join();
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertTrue(counted[0] > 0, "precondition: the kernel counted drops on an unbound socket: " + counted[0]);
            assertEquals(0, counted[1], "none of them are the port's");
        } finally {
            run("ip", "netns", "del", ns);
        }
    }

    /** Moves this OS thread into network namespace {@code ns} (setns(2) moves only the calling thread). */
    private static void enter(String ns) throws Throwable {
        try (Arena call = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(call.allocateFrom("/var/run/netns/" + ns), 0);
            assertTrue(fd >= 0, "open the namespace " + ns);
            assertEquals(0, (int) SETNS.invokeExact(fd, CLONE_NEWNET), "setns into " + ns);
            int closed = (int) CLOSE.invokeExact(fd);
        }
    }

    private static void bindToLoopback(int fd) throws Throwable {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment sll = call.allocate(20, 8);          // struct sockaddr_ll
            sll.set(JAVA_SHORT, 0, (short) AF_PACKET);
            sll.set(JAVA_SHORT, 2, ETH_P_ALL_NETWORK_ORDER);
            sll.set(JAVA_INT, 4, (int) IF_NAMETOINDEX.invokeExact(call.allocateFrom("lo")));
            assertEquals(0, (int) BIND.invokeExact(fd, sll, 20), "bind to lo");
        }
    }

    /** The drops the kernel counted on {@code fd} (struct tpacket_stats), read straight. */
    private static long kernelDrops(int fd) throws Throwable {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment stats = call.allocate(8, 4);
            MemorySegment length = call.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, 8);
            assertEquals(0, (int) GETSOCKOPT.invokeExact(fd, SOL_PACKET, PACKET_STATISTICS, stats, length));
            return stats.get(JAVA_INT, 4) & 0xFFFF_FFFFL;
        }
    }

    private static void run(String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertEquals(0, p.waitFor(), String.join(" ", command) + ": " + out);
    }

    private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }
}

package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Frames the kernel dropped because an af_packet port's receive ring was full. DPDK 22.11's
 * af_packet PMD never reads its sockets' {@code PACKET_STATISTICS} (the driver has no call to
 * getsockopt), so {@code rte_eth_stats.imissed} stays 0 while the kernel drops: a worker that falls
 * behind a veth loses frames that no counter of the switch shows. This reads them.
 *
 * <p>The PMD keeps its sockets to itself; they are found as the process's AF_PACKET sockets that
 * appeared while the device was created and are bound to its interface. The kernel resets the
 * statistics on each read, and nothing else reads them, so the counts accumulate here.
 * Control plane only: each read is a system call per socket.
 */
final class AfPacketRingDrops {

    private static final short AF_PACKET = 17;
    private static final int SOL_PACKET = 263;
    private static final int PACKET_STATISTICS = 6;
    private static final int SOCKADDR_LL_BYTES = 20;
    private static final Path FDS = Path.of("/proc/self/fd");

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle GETSOCKNAME = libc("getsockname", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETSOCKOPT = libc("getsockopt",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle IF_NAMETOINDEX = libc("if_nametoindex", FunctionDescriptor.of(JAVA_INT, ADDRESS));

    private final int[] sockets;
    private long drops;

    private AfPacketRingDrops(int[] sockets) {
        this.sockets = sockets;
    }

    /** The descriptors of this process's open sockets, by number (a snapshot to compare against). */
    static Set<Integer> openSockets() {
        Set<Integer> fds = new HashSet<>();
        try (Stream<Path> list = Files.list(FDS)) {
            for (Path fd : (Iterable<Path>) list::iterator) {
                try {
                    if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
                        fds.add(Integer.parseInt(fd.getFileName().toString()));
                    }
                } catch (IOException | NumberFormatException e) {
                    // closed while listed, or the listing's own descriptor: not a socket of a port
                }
            }
        } catch (IOException e) {
            return Set.of();    // no /proc: the counts stay unknown (0), as DPDK's own
        }
        return fds;
    }

    /**
     * The af_packet sockets among those opened since {@code before} that are bound to {@code iface},
     * counting from now; none found (another platform, no /proc) gives a reader that counts nothing.
     *
     * <p>What the kernel counted before is not the port's: the PMD opens its sockets for every
     * protocol and binds them to their interface last, after the rings, and until then the kernel
     * hands them every frame of every interface in the namespace, dropping what does not fit.
     */
    static AfPacketRingDrops openedSince(Set<Integer> before, String iface) {
        int ifindex = ifindex(iface);
        List<Integer> found = new ArrayList<>();
        for (int fd : openSockets()) {
            if (!before.contains(fd) && ifindex > 0 && boundIfindex(fd) == ifindex) {
                found.add(fd);
            }
        }
        AfPacketRingDrops drops = new AfPacketRingDrops(found.stream().mapToInt(Integer::intValue).toArray());
        drops.read();            // the kernel resets its count on each read: this one empties it
        drops.drops = 0;
        return drops;
    }

    /** How many sockets were found (one per queue pair of the device). */
    int sockets() {
        return sockets.length;
    }

    /** Frames the kernel dropped for a full ring on these sockets since they were found. */
    synchronized long read() {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment stats = call.allocate(8, 4);          // struct tpacket_stats {packets, drops}
            MemorySegment length = call.allocate(JAVA_INT);
            for (int fd : sockets) {
                length.set(JAVA_INT, 0, 8);
                if ((int) GETSOCKOPT.invokeExact(fd, SOL_PACKET, PACKET_STATISTICS, stats, length) == 0) {
                    drops += stats.get(JAVA_INT, 4) & 0xFFFF_FFFFL;
                }
            }
        } catch (Throwable t) {
            throw new IllegalStateException("getsockopt PACKET_STATISTICS", t);
        }
        return drops;
    }

    /** The interface index an AF_PACKET socket is bound to; 0 for any other socket. */
    private static int boundIfindex(int fd) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment address = call.allocate(SOCKADDR_LL_BYTES, 8);
            MemorySegment length = call.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, SOCKADDR_LL_BYTES);
            if ((int) GETSOCKNAME.invokeExact(fd, address, length) != 0 || address.get(JAVA_SHORT, 0) != AF_PACKET) {
                return 0;
            }
            return address.get(JAVA_INT, 4);                    // sockaddr_ll.sll_ifindex
        } catch (Throwable t) {
            throw new IllegalStateException("getsockname", t);
        }
    }

    private static int ifindex(String iface) {
        try (Arena call = Arena.ofConfined()) {
            return (int) IF_NAMETOINDEX.invokeExact(call.allocateFrom(iface));
        } catch (Throwable t) {
            throw new IllegalStateException("if_nametoindex", t);
        }
    }

    private static MethodHandle libc(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }
}

package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Two net_ring ports joined back to back by a pair of DPDK rings: what {@link #a()} transmits,
 * {@link #b()} receives, and the other way round. Pure memory, no kernel: the tests' stand-in for
 * a cable between two switch ports. Closing the arena removes both ports and frees the rings.
 *
 * <p>(A {@code --vdev=net_ringN} from the EAL command line is a loopback onto itself, and its
 * {@code nodeaction} option cannot give a second port the same rings, so the wire is built at run
 * time with {@code rte_eth_from_rings}.) The ports are named {@code net_ring_<name>_a} and
 * {@code net_ring_<name>_b}; each has one rx and one tx queue, ready to {@link EthPort#configure}.
 *
 * @param a the port whose tx feeds {@code b}'s rx
 * @param b the port whose tx feeds {@code a}'s rx
 */
public record RingWire(EthPort a, EthPort b) {

    /**
     * @param name     short (ring names are at most 29 bytes): the rings are {@code <name>_ab} and {@code <name>_ba}
     * @param ringSize slots per direction, a power of two; a direction holds {@code ringSize - 1}
     *                 packets before {@link EthPort#txBurst} starts returning fewer than asked
     */
    public static RingWire create(Arena arena, String name, int ringSize) {
        Eal.requireRunning();
        if (Integer.bitCount(ringSize) != 1) {
            throw new IllegalArgumentException("ring size " + ringSize + " is not a power of two");
        }
        MemorySegment ab = ring(name + "_ab", ringSize);
        MemorySegment ba = MemorySegment.NULL;
        EthPort a = null;
        EthPort b = null;
        try {
            ba = ring(name + "_ba", ringSize);
            a = EthPort.of(fromRings(name + "_a", ba, ab));
            b = EthPort.of(fromRings(name + "_b", ab, ba));
        } catch (RuntimeException e) {
            release(name, a, b, ab, ba);
            throw e;
        }
        RingWire wire = new RingWire(a, b);
        MemorySegment rings = ba;
        MemorySegment.ofAddress(0).reinterpret(arena, ignored -> release(name, wire.a, wire.b, ab, rings));
        return wire;
    }

    private static MemorySegment ring(String ringName, int size) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment out = call.allocate(ADDRESS);
            DpdkException.check(Shim.ringCreate(call.allocateFrom(ringName), size, Mempool.ANY_SOCKET, out),
                    "rte_ring_create", ringName);
            return MemorySegment.ofAddress(out.get(ADDRESS, 0).address());
        }
    }

    private static int fromRings(String portName, MemorySegment rx, MemorySegment tx) {
        try (Arena call = Arena.ofConfined()) {
            return DpdkException.check(Shim.ethFromRings(call.allocateFrom(portName), rx, tx, Mempool.ANY_SOCKET),
                    "rte_eth_from_rings", portName);
        }
    }

    /** Ports first (their PMD still points at the rings), then the rings. Null / NULL: not made. */
    private static void release(String name, EthPort a, EthPort b, MemorySegment ab, MemorySegment ba) {
        if (!Eal.isRunning()) {
            return;
        }
        if (a != null) {
            EthPort.removeVdev("net_ring_" + name + "_a", a);
        }
        if (b != null) {
            EthPort.removeVdev("net_ring_" + name + "_b", b);
        }
        Shim.ringFree(ab);
        Shim.ringFree(ba); // rte_ring_free(NULL) does nothing
    }
}

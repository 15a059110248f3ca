package org.pfcswitch.core;

import java.util.List;

import org.pfcswitch.codec.MacAddress;

/**
 * ECMP routes keyed by destination MAC: a frame to a MAC with a route leaves through one port
 * of the route's group, chosen by {@code flowHash mod groupSize}. Every frame of a flow carries
 * the same 5-tuple and destination QP, hence the same hash and the same port: a flow keeps one
 * path (no reordering) while different flows spread over the group, as in a real fabric.
 *
 * <p>Keyed by MAC rather than by IPv4 prefix because the core forwards at L2 (it never rewrites
 * MACs): in a leaf-spine built by the testbed every host MAC is unique, so a leaf gives each remote
 * host a route over its uplinks. Routes come from the configuration only (no learning), so the
 * choice is deterministic. Lookups are an open-addressing probe over primitive arrays; the groups
 * are flattened into one {@code int[]}, so the per-frame path allocates nothing.
 */
final class EcmpRoutes {

    /** {@link #lookup} result when the destination has no route. */
    static final int NO_ROUTE = -1;

    private static final long HASH = 0x9E37_79B9_7F4A_7C15L;

    /** MAC + 1 per slot (0 = empty), so MAC 00:00:00:00:00:00 still fits. */
    private final long[] keys;
    /** Per slot: where the group's ports start in {@link #ports}, and how many. */
    private final int[] start;
    private final int[] size;
    private final int[] ports;
    private final int mask;
    private final int shift;
    private final int routes;

    EcmpRoutes(List<CoreConfig.EcmpGroup> groups) {
        int slotCount = Integer.highestOneBit(Math.max(16, groups.size() * 2) - 1) << 1;   // load <= 1/2
        keys = new long[slotCount];
        start = new int[slotCount];
        size = new int[slotCount];
        mask = slotCount - 1;
        shift = 64 - Integer.numberOfTrailingZeros(slotCount);
        int total = 0;
        for (CoreConfig.EcmpGroup g : groups) {
            total += g.ports().length;
        }
        ports = new int[total];
        int next = 0;
        for (CoreConfig.EcmpGroup g : groups) {
            long mac = g.mac() & MacAddress.BROADCAST;
            int i = slotOf(mac);
            if (keys[i] != 0) {
                throw new IllegalArgumentException("two ECMP groups for " + MacAddress.format(mac));
            }
            keys[i] = mac + 1;
            start[i] = next;
            size[i] = g.ports().length;
            System.arraycopy(g.ports(), 0, ports, next, g.ports().length);
            next += g.ports().length;
        }
        routes = groups.size();
    }

    /** Whether any route exists; the core skips the lookup (and the flow hash) when none does. */
    boolean isEmpty() {
        return routes == 0;
    }

    /** The egress port for a frame to {@code mac} with {@code flowHash}, or {@link #NO_ROUTE}. */
    int lookup(long mac, long flowHash) {
        int i = slotOf(mac);
        if (keys[i] == 0) {
            return NO_ROUTE;
        }
        // Unsigned: the hash uses all 64 bits, and a negative remainder would index before the group.
        return ports[start[i] + (int) Long.remainderUnsigned(flowHash, size[i])];
    }

    /** The slot holding {@code mac}, or the empty slot where it would go. */
    private int slotOf(long mac) {
        for (int i = (int) ((mac * HASH) >>> shift); ; i = (i + 1) & mask) {
            if (keys[i] == 0 || keys[i] == mac + 1) {
                return i;
            }
        }
    }
}

package org.pfcswitch.core;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

import org.pfcswitch.codec.MacAddress;

/**
 * The switch core's L2 table: static MAC entries from the configuration and MAC learning.
 * {@link SwitchCore} learns each data frame's source and looks up its destination; a miss (and a
 * multicast destination) is flooded, a destination behind the ingress port is filtered.
 *
 * <p>An open-addressing table of single {@code long} entries, so that several workers can learn
 * into it and look it up without locks: an entry is {@code mac << 16 | static << 15 | (port + 1)}
 * and 0 marks an empty slot. A slot, once given to a MAC, keeps that MAC for ever (there is no
 * ageing yet); a station that moves only rewrites its port. Inserts claim an empty slot with a
 * compare-and-set; everything else is an opaque read or write of one 64-bit element, which is
 * atomic, so a reader sees either the old or the new port, never a torn entry. Learning that
 * finds the table three-quarters full stops learning new stations (they are flooded) and counts it.
 *
 * <p>Port security ({@link PortLearning}, per port): a port learns at most {@code maxMacs} stations,
 * and a port that denies moves does not take a station learned on another port; static entries
 * never move. {@link #learn} says what it did, so the caller counts moves and refusals. The counts
 * of stations learned per port are the owning worker's own (plain), like the probe.
 *
 * <p>The switch core gives each worker a table of its own, which only that worker writes; its
 * per-frame reads ({@link #learn}'s probe and {@link #lookupOwned}) are plain loads, which see
 * every write of the thread that made them (and, should another thread ever learn into the same
 * table, a stale empty slot only sends the insert to its compare-and-set, which looks again).
 * Other threads (an operator's view, a test) read with {@link #lookup}.
 */
public final class ForwardingTable {

    /** Ports are stored as port + 1 in 15 bits. */
    public static final int MAX_PORTS = 0x7FFE;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle SIZE;
    private static final VarHandle FULL;

    static {
        try {
            SIZE = MethodHandles.lookup().findVarHandle(ForwardingTable.class, "size", int.class);
            FULL = MethodHandles.lookup().findVarHandle(ForwardingTable.class, "learnTableFull", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final long HASH = 0x9E37_79B9_7F4A_7C15L;      // Fibonacci hashing: the top bits index
    private static final long STATIC_BIT = 1L << 15;
    private static final long PORT_MASK = STATIC_BIT - 1;

    private final long[] slots;
    private final int mask;
    private final int shift;
    private final int maxEntries;
    private final int ports;
    private final boolean learning;
    /** By port: stations that may be learned on it, whether a station learned elsewhere may move to it. */
    private final int[] maxMacs;
    private final boolean[] movesDenied;
    /** By port: stations learned on it now (static entries not counted). */
    private final int[] learnedOn;
    /** The port a station was on before the last {@link #MOVED} or {@link #MOVE_DENIED}. */
    private int movedFrom = -1;
    @SuppressWarnings("unused") // through SIZE
    private volatile int size;
    @SuppressWarnings("unused") // through FULL
    private volatile long learnTableFull;

    /**
     * @param ports    switch ports, numbered 0..ports-1
     * @param capacity stations the table must hold (rounded up; the table is sized for a load of 3/4)
     * @param learning whether to learn source MACs
     */
    public ForwardingTable(int ports, int capacity, boolean learning) {
        this(ports, capacity, learning, java.util.Collections.nCopies(ports, PortLearning.OPEN));
    }

    /**
     * @param ports    switch ports, numbered 0..ports-1
     * @param capacity stations the table must hold (rounded up; the table is sized for a load of 3/4)
     * @param learning whether to learn source MACs
     * @param security by port: what it may learn
     */
    public ForwardingTable(int ports, int capacity, boolean learning, java.util.List<PortLearning> security) {
        if (ports < 1 || ports > MAX_PORTS) {
            throw new IllegalArgumentException("ports must be 1.." + MAX_PORTS + ", got " + ports);
        }
        if (capacity < 1 || capacity > (1 << 24)) {
            throw new IllegalArgumentException("table capacity must be 1..16777216, got " + capacity);
        }
        int slotCount = Integer.highestOneBit(Math.max(16, capacity * 4 / 3 + 1) - 1) << 1;
        this.slots = new long[slotCount];
        this.mask = slotCount - 1;
        this.shift = 64 - Integer.numberOfTrailingZeros(slotCount);
        this.maxEntries = slotCount / 4 * 3;
        this.ports = ports;
        this.learning = learning;
        if (security.size() != ports) {
            throw new IllegalArgumentException(security.size() + " port learning settings for " + ports + " ports");
        }
        this.maxMacs = new int[ports];
        this.movesDenied = new boolean[ports];
        this.learnedOn = new int[ports];
        for (int p = 0; p < ports; p++) {
            maxMacs[p] = security.get(p).maxMacs();
            movesDenied[p] = security.get(p).moves() == PortLearning.Moves.DENY;
        }
    }

    /** What {@link #learn} did: nothing (a known station on its port, a group address, a full table). */
    public static final int UNCHANGED = 0;
    /** A new station, learned. */
    public static final int LEARNED = 1;
    /** A learned station seen on another port moved there ({@link #movedFrom}: where it was). */
    public static final int MOVED = 2;
    /** A station seen on another port than its entry's stayed: a static entry, or the port denies moves. */
    public static final int MOVE_DENIED = 3;
    /** A new (or moving) station not learned: the port has learned its {@code maxMacs} already. */
    public static final int OVER_LIMIT = 4;

    /** Adds or replaces a static entry: never moved by learning. Control plane. */
    public void addStatic(long mac, int port) {
        checkPort(port);
        if (!insert(mac & MacAddress.BROADCAST, port, true)) {
            throw new IllegalStateException("forwarding table full: no room for static entry " + MacAddress.format(mac));
        }
    }

    /** The entry of {@code mac}, or 0 when the table has none. */
    private static long entryOf(long[] slots, int mask, int shift, long mac) {
        for (int i = (int) ((mac * HASH) >>> shift); ; i = (i + 1) & mask) {
            long e = (long) SLOTS.getOpaque(slots, i);
            if (e == 0 || e >>> 16 == mac) {
                return e;
            }
        }
    }

    /** The port a MAC was learned on or statically put on, or -1; from any thread. */
    public int lookup(long mac) {
        long e = entryOf(slots, mask, shift, mac);
        return e == 0 ? -1 : (int) (e & PORT_MASK) - 1;
    }

    /**
     * {@link #lookup} for the thread that writes the table (the worker that owns it): plain loads,
     * which C2 may schedule and combine freely, where an opaque load is ordered like a volatile one.
     */
    int lookupOwned(long mac) {
        for (int i = index(mac); ; i = (i + 1) & mask) {
            long e = slots[i];
            if (e == 0 || e >>> 16 == mac) {
                return e == 0 ? -1 : (int) (e & PORT_MASK) - 1;
            }
        }
    }

    /**
     * Records that {@code mac} is behind {@code port}, as that port's {@link PortLearning} allows.
     *
     * @return {@link #UNCHANGED}, {@link #LEARNED}, {@link #MOVED}, {@link #MOVE_DENIED} or {@link #OVER_LIMIT};
     *         the table changed on {@link #LEARNED} and {@link #MOVED}
     */
    public int learn(long mac, int port) {
        if (MacAddress.isMulticast(mac)) {
            return UNCHANGED;                   // not a station: a bridge never learns a group address
        }
        for (int i = index(mac); ; i = (i + 1) & mask) {
            long e = slots[i];                  // plain: the owning thread's own writes (see the class comment)
            if (e == 0) {
                if (learnedOn[port] >= maxMacs[port]) {
                    return OVER_LIMIT;
                }
                if (!insert(mac, port, false)) {
                    return UNCHANGED;           // the table is full (counted)
                }
                learnedOn[port]++;
                return LEARNED;
            }
            if (e >>> 16 == mac) {
                int was = (int) (e & PORT_MASK) - 1;
                return was == port ? UNCHANGED : move(i, e, mac, was, port);
            }
        }
    }

    /** A station with the entry {@code e} in slot {@code i}, on port {@code was}, seen on {@code port}. */
    private int move(int i, long e, long mac, int was, int port) {
        movedFrom = was;
        if ((e & STATIC_BIT) != 0 || movesDenied[port]) {
            return MOVE_DENIED;
        }
        if (learnedOn[port] >= maxMacs[port]) {
            return OVER_LIMIT;
        }
        SLOTS.setOpaque(slots, i, entry(mac, port, false));
        learnedOn[was]--;
        learnedOn[port]++;
        return MOVED;
    }

    /** Where the station of the last {@link #MOVED} or {@link #MOVE_DENIED} was (its entry's port). */
    public int movedFrom() {
        return movedFrom;
    }

    /** Stations learned on {@code port} now (static entries not counted); the owning thread. */
    public int learnedOn(int port) {
        return learnedOn[port];
    }

    /** Stations in the table (static entries included). */
    public int size() {
        return (int) SIZE.getOpaque(this);
    }

    /** New stations not learned because the table was full (they were flooded instead). */
    public long learnTableFull() {
        return (long) FULL.getOpaque(this);
    }

    public boolean learning() {
        return learning;
    }

    public int ports() {
        return ports;
    }

    /** Claims a slot for {@code mac} (or updates its slot); false when the table is full. */
    private boolean insert(long mac, int port, boolean isStatic) {
        long want = entry(mac, port, isStatic);
        for (int i = index(mac); ; i = (i + 1) & mask) {
            long e = (long) SLOTS.getOpaque(slots, i);
            if (e == 0) {
                if ((int) SIZE.getOpaque(this) >= maxEntries) {
                    FULL.getAndAdd(this, 1L);
                    return false;
                }
                if (SLOTS.compareAndSet(slots, i, 0L, want)) {
                    SIZE.getAndAdd(this, 1);
                    return true;
                }
                e = (long) SLOTS.getVolatile(slots, i);  // another worker took the slot: look at what it put
            }
            if (e >>> 16 == mac) {
                if (isStatic || (e & STATIC_BIT) == 0) {
                    SLOTS.setOpaque(slots, i, want);
                }
                return true;
            }
        }
    }

    private int index(long mac) {
        return (int) ((mac * HASH) >>> shift);
    }

    private static long entry(long mac, int port, boolean isStatic) {
        return mac << 16 | (isStatic ? STATIC_BIT : 0) | (port + 1);
    }

    private void checkPort(int port) {
        if (port < 0 || port >= ports) {
            throw new IllegalArgumentException("port " + port + " is not a switch port (0.." + (ports - 1) + ")");
        }
    }
}

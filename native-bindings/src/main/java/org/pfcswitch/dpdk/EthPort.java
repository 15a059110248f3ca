package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One DPDK ethdev port. Set-up follows DPDK's order: {@link #configure}, one
 * {@link #rxQueueSetup}/{@link #txQueueSetup} per queue, {@link #start}; then bursts; then
 * {@link #stop} and {@link #close}. Failures throw {@link DpdkException} naming the DPDK call and
 * the port.
 *
 * <p>There is one {@code EthPort} object per live port id, so that the bursts can cheaply refuse
 * a queue that was never set up: DPDK's burst functions do not check, and would crash the JVM.
 * Bursts are the fast path: no allocation, one downcall per burst, callable from any thread.
 */
public final class EthPort {

    /** The longest ethdev name DPDK allows is RTE_ETH_NAME_MAX_LEN (64) bytes with the NUL. */
    private static final int NAME_BUFFER = 64;
    /** Byte stride of one xstat name in the shim's output (the shim truncates to fit). */
    private static final int XSTAT_NAME_STRIDE = 64;

    private static final Map<Integer, EthPort> LIVE = new ConcurrentHashMap<>();

    private final int id;
    private final String name;
    private boolean[] rxSetUp = new boolean[0];
    private boolean[] txSetUp = new boolean[0];
    /** Queues [0, n) that bursts may use: set at start, cleared by configure and close. */
    private volatile int rxReady;
    private volatile int txReady;
    /** An af_packet device's ring drops, which its PMD does not count; null for any other device. */
    private volatile AfPacketRingDrops ringDrops;
    private long ringDropsAtReset;

    private EthPort(int id, String name) {
        this.id = id;
        this.name = name;
    }

    // ---------------------------------------------------------------- finding ports

    /**
     * The port with this id.
     *
     * @throws DpdkException naming {@code rte_eth_dev_get_name_by_port} (ENODEV) for an id no port has
     */
    public static EthPort of(int id) {
        Eal.requireRunning();
        EthPort known = LIVE.get(id);
        if (known != null) {
            return known;
        }
        String name = nameOf(id);
        return LIVE.computeIfAbsent(id, i -> new EthPort(i, name));
    }

    /**
     * The port with this ethdev name, e.g. {@code net_null0} (a vdev's name as given to EAL).
     *
     * @throws DpdkException naming {@code rte_eth_dev_get_port_by_name} (ENODEV) for an unknown name
     */
    public static EthPort byName(String name) {
        Eal.requireRunning();
        try (Arena call = Arena.ofConfined()) {
            int id = DpdkException.check(Shim.ethPortByName(call.allocateFrom(name)),
                    "rte_eth_dev_get_port_by_name", name);
            return of(id);
        }
    }

    /** Every port DPDK has, in id order. */
    public static List<EthPort> all() {
        Eal.requireRunning();
        List<EthPort> ports = new ArrayList<>();
        for (int id = Shim.ethNextPort(0); id >= 0; id = Shim.ethNextPort(id + 1)) {
            ports.add(of(id));
        }
        return Collections.unmodifiableList(ports);
    }

    /**
     * Hot-plugs a virtual device, e.g. {@code ("net_null1", "")} or
     * {@code ("net_af_packet0", "iface=pv0")}, and returns its port (named like the device).
     * Closing {@code arena} removes the device again; stop the port before that.
     *
     * @throws DpdkException naming {@code rte_vdev_init} for a name no driver claims or bad args
     */
    public static EthPort createVdev(Arena arena, String name, String args) {
        Eal.requireRunning();
        String afPacketIface = name.startsWith("net_af_packet") ? deviceOption(args, "iface") : null;
        java.util.Set<Integer> socketsBefore = afPacketIface != null ? AfPacketRingDrops.openSockets() : null;
        try (Arena call = Arena.ofConfined()) {
            DpdkException.check(Shim.vdevCreate(call.allocateFrom(name), call.allocateFrom(args)), "rte_vdev_init", name);
        }
        EthPort port = byName(name);
        if (afPacketIface != null) {
            port.ringDrops = AfPacketRingDrops.openedSince(socketsBefore, afPacketIface);
        }
        MemorySegment.ofAddress(0).reinterpret(arena, ignored -> removeVdev(name, port));
        return port;
    }

    /** The value of option {@code key} in a device's {@code k=v,k=v} arguments (e.g. {@code iface}), or null. */
    public static String deviceOption(String args, String key) {
        for (String kv : args.split(",")) {
            int eq = kv.indexOf('=');
            if (eq > 0 && kv.substring(0, eq).trim().equals(key)) {
                return kv.substring(eq + 1).trim();
            }
        }
        return null;
    }

    /** Removes a hot-plugged device (its PMD closes the port). Quiet: it runs from arena cleanup. */
    static void removeVdev(String vdevName, EthPort port) {
        port.forget();
        if (Eal.isRunning()) {
            try (Arena call = Arena.ofConfined()) {
                Shim.vdevRemove(call.allocateFrom(vdevName));
            }
        }
    }

    private static String nameOf(int id) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment buf = call.allocate(NAME_BUFFER);
            DpdkException.check(Shim.ethPortName(id, buf, NAME_BUFFER), "rte_eth_dev_get_name_by_port", id);
            return buf.getString(0);
        }
    }

    public int id() {
        return id;
    }

    /** The ethdev name, e.g. {@code net_ring0}. */
    public String name() {
        return name;
    }

    /** NUMA socket of the device, or {@link Mempool#ANY_SOCKET} when unknown (virtual devices). */
    public int socketId() {
        return Shim.ethSocket(id);
    }

    // ---------------------------------------------------------------- set-up and life cycle

    /** {@code rte_eth_dev_configure} with default settings (no RSS, no offloads). Port must be stopped. */
    public synchronized void configure(int rxQueues, int txQueues) {
        Eal.requireRunning();
        DpdkException.check(Shim.ethConfigure(id, rxQueues, txQueues), "rte_eth_dev_configure", id);
        rxReady = 0; // DPDK refuses to configure a started port, so no burst is running now
        txReady = 0;
        rxSetUp = new boolean[rxQueues];
        txSetUp = new boolean[txQueues];
    }

    /** Sets up rx queue {@code queue} with {@code descriptors} slots, filling it from {@code pool}. */
    public synchronized void rxQueueSetup(int queue, int descriptors, Mempool pool) {
        Eal.requireRunning();
        DpdkException.check(Shim.ethRxQueueSetup(id, queue, descriptors, socketId(), pool.segment()),
                "rte_eth_rx_queue_setup", id);
        if (queue < rxSetUp.length) {
            rxSetUp[queue] = true;
        }
    }

    /** Sets up tx queue {@code queue} with {@code descriptors} slots. */
    public synchronized void txQueueSetup(int queue, int descriptors) {
        Eal.requireRunning();
        DpdkException.check(Shim.ethTxQueueSetup(id, queue, descriptors, socketId()), "rte_eth_tx_queue_setup", id);
        if (queue < txSetUp.length) {
            txSetUp[queue] = true;
        }
    }

    /**
     * Starts the port. Every configured queue must have been set up.
     *
     * @throws IllegalStateException if a queue was not set up (DPDK would accept that and crash later)
     */
    public synchronized void start() {
        Eal.requireRunning();
        requireAllSetUp(rxSetUp, "rx");
        requireAllSetUp(txSetUp, "tx");
        DpdkException.check(Shim.ethStart(id), "rte_eth_dev_start", id);
        rxReady = rxSetUp.length;
        txReady = txSetUp.length;
    }

    private void requireAllSetUp(boolean[] setUp, String kind) {
        for (int q = 0; q < setUp.length; q++) {
            if (!setUp[q]) {
                throw new IllegalStateException(kind + " queue " + q + " of " + this + " was configured but not set up");
            }
        }
    }

    /** Stops the port. Bursts on a stopped port return 0 (DPDK swaps in dummy burst functions). */
    public synchronized void stop() {
        Eal.requireRunning();
        DpdkException.check(Shim.ethStop(id), "rte_eth_dev_stop", id);
    }

    /** Closes the port and frees its queues; DPDK releases the id, so this object is done. */
    public synchronized void close() {
        Eal.requireRunning();
        forget();
        DpdkException.check(Shim.ethClose(id), "rte_eth_dev_close", id);
    }

    private synchronized void forget() {
        rxReady = 0;
        txReady = 0;
        rxSetUp = new boolean[0];
        txSetUp = new boolean[0];
        ringDrops = null;       // the PMD closes its sockets with the port: their numbers may be reused
        LIVE.remove(id, this);
    }

    // ---------------------------------------------------------------- state and counters

    public void promiscuous(boolean enable) {
        Eal.requireRunning();
        DpdkException.check(Shim.ethPromiscuous(id, enable),
                enable ? "rte_eth_promiscuous_enable" : "rte_eth_promiscuous_disable", id);
    }

    public boolean isPromiscuous() {
        Eal.requireRunning();
        return DpdkException.check(Shim.ethPromiscuousGet(id), "rte_eth_promiscuous_get", id) == 1;
    }

    /** The MAC address as 48 bits, first byte most significant: 02:00:00:00:00:01 is 0x020000000001. */
    public long macAddress() {
        Eal.requireRunning();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment bytes = call.allocate(6);
            DpdkException.check(Shim.ethMacAddress(id, bytes), "rte_eth_macaddr_get", id);
            long mac = 0;
            for (int i = 0; i < 6; i++) {
                mac = mac << 8 | Byte.toUnsignedLong(bytes.get(JAVA_BYTE, i));
            }
            return mac;
        }
    }

    /** Link state now, without waiting for auto-negotiation. */
    public LinkStatus link() {
        Eal.requireRunning();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment speed = call.allocate(JAVA_INT);
            MemorySegment up = call.allocate(JAVA_INT);
            MemorySegment fullDuplex = call.allocate(JAVA_INT);
            DpdkException.check(Shim.ethLink(id, speed, up, fullDuplex), "rte_eth_link_get_nowait", id);
            return new LinkStatus(up.get(JAVA_INT, 0) != 0, speed.get(JAVA_INT, 0), fullDuplex.get(JAVA_INT, 0) != 0);
        }
    }

    /**
     * The port's counters, as {@code rte_eth_stats_get} gives them, except that {@code rxMissed}
     * of an af_packet device also counts what its PMD does not: frames the kernel dropped because
     * the device's receive ring was full.
     */
    public EthStats stats() {
        Eal.requireRunning();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment s = call.allocate(JAVA_LONG, 8);
            DpdkException.check(Shim.ethStats(id, s), "rte_eth_stats_get", id);
            long[] v = s.toArray(JAVA_LONG);
            return new EthStats(v[0], v[1], v[2], v[3], v[4] + ringDropsSinceReset(), v[5], v[6], v[7]);
        }
    }

    /** Zeroes the port's counters (an af_packet device's ring drops too). */
    public void resetStats() {
        Eal.requireRunning();
        DpdkException.check(Shim.ethStatsReset(id), "rte_eth_stats_reset", id);
        AfPacketRingDrops drops = ringDrops;
        if (drops != null) {
            synchronized (this) {
                ringDropsAtReset = drops.read();
            }
        }
    }

    private synchronized long ringDropsSinceReset() {
        AfPacketRingDrops drops = ringDrops;
        return drops == null ? 0 : drops.read() - ringDropsAtReset;
    }

    /** Sockets found for an af_packet device (one per queue pair), for its ring drops; 0 for other devices. */
    public int afPacketSockets() {
        AfPacketRingDrops drops = ringDrops;
        return drops == null ? 0 : drops.sockets();
    }

    /** Extended statistics by name (e.g. {@code rx_good_packets}, {@code tx_q0_bytes}), in the PMD's order. Control plane: allocates. */
    public Map<String, Long> xstats() {
        Eal.requireRunning();
        for (int attempt = 0; ; attempt++) {
            int count = DpdkException.check(Shim.ethXstatsCount(id), "rte_eth_xstats_get_names", id);
            try (Arena call = Arena.ofConfined()) {
                MemorySegment names = call.allocate((long) Math.max(count, 1) * XSTAT_NAME_STRIDE);
                MemorySegment values = call.allocate(JAVA_LONG, Math.max(count, 1));
                int got = Shim.ethXstats(id, names, XSTAT_NAME_STRIDE, values, count);
                if (got == -28 /* ENOSPC: queues were added in between */ && attempt < 3) {
                    continue;
                }
                DpdkException.check(got, "rte_eth_xstats_get", id);
                Map<String, Long> stats = new LinkedHashMap<>();
                for (int i = 0; i < got; i++) {
                    stats.put(names.getString((long) i * XSTAT_NAME_STRIDE), values.getAtIndex(JAVA_LONG, i));
                }
                return Collections.unmodifiableMap(stats);
            }
        }
    }

    /**
     * Asks the PMD to hand MAC control frames (PAUSE, PFC) to software instead of consuming them,
     * keeping its other flow-control settings.
     *
     * @return true if set; false if the PMD has no flow-control support (ENOTSUP), e.g. net_ring, net_null
     * @throws DpdkException for any other failure
     */
    public boolean macControlFrameForwarding(boolean enable) {
        Eal.requireRunning();
        return DpdkException.check(Shim.ethMacCtrlFrameFwd(id, enable), "rte_eth_dev_flow_ctrl_get/set", id) == 1;
    }

    /**
     * Has the NIC send PFC XOFF for {@code priority} from its own receive buffer once it holds
     * {@code highWater} (XON below {@code lowWater}; units as the PMD takes them, KiB for ixgbe),
     * {@code pauseQuanta} per XOFF ({@code rte_eth_dev_priority_flow_ctrl_set}, transmit side only).
     *
     * @return false if the PMD cannot (ENOTSUP or ENOSYS), e.g. net_null, net_af_packet, and, in
     *         DPDK 22.11, i40e and ice, whose PFC comes with DCB
     * @throws DpdkException for any other failure (bad thresholds for this NIC)
     */
    public boolean hardwarePriorityPause(int priority, int highWater, int lowWater, int pauseQuanta) {
        Eal.requireRunning();
        int ret = Shim.ethPriorityFlowCtrlSet(id, priority, highWater, lowWater, pauseQuanta);
        if (ret == -ENOTSUP || ret == -ENOSYS) {
            return false;
        }
        DpdkException.check(ret, "rte_eth_dev_priority_flow_ctrl_set", id);
        return true;
    }

    private static final int ENOSYS = 38;
    private static final int ENOTSUP = 95;

    // ---------------------------------------------------------------- fast path

    /**
     * Receives up to {@code n} packets from rx queue {@code queue} into {@code ptrs[0..n)}.
     *
     * @return how many arrived (the caller now owns those mbufs); 0 on a stopped port
     * @throws IllegalArgumentException for a queue that was not set up before {@link #start}
     */
    public int rxBurst(int queue, MemorySegment ptrs, int n) {
        if (queue < 0 || queue >= rxReady) {
            throw notReady("rx", queue);
        }
        Mbuf.checkBurst(ptrs, n);
        return Shim.rxBurst(id, queue, ptrs, n);
    }

    /**
     * Hands {@code ptrs[0..n)} to tx queue {@code queue}.
     *
     * @return how many the queue took: {@code ptrs[0..ret)} now belong to the port; the caller still
     *         owns {@code ptrs[ret..n)} and must send them again or {@link Mbuf#freeBulk free} them
     * @throws IllegalArgumentException for a queue that was not set up before {@link #start}
     */
    public int txBurst(int queue, MemorySegment ptrs, int n) {
        if (queue < 0 || queue >= txReady) {
            throw notReady("tx", queue);
        }
        Mbuf.checkBurst(ptrs, n);
        return Shim.txBurst(id, queue, ptrs, n);
    }

    private IllegalArgumentException notReady(String kind, int queue) {
        return new IllegalArgumentException(kind + " queue " + queue + " of " + this
                + " is not usable: configure, set up and start the port first");
    }

    @Override
    public String toString() {
        return "port " + id + " (" + name + ")";
    }
}

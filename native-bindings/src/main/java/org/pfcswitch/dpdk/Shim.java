package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * The downcall handles into {@code pfcswitch_dpdk.c}, one static method per shim function, and
 * nothing else: no validation, no exceptions of its own. The public classes check arguments and
 * turn negative return values into {@link DpdkException}s.
 *
 * <p>Fast-path functions (bursts, bulk alloc/free, refcount, TSC) are bound with
 * {@code Linker.Option.critical(false)}: they neither block nor call back into Java, so the JVM
 * may skip the thread-state transition (about 4 ns instead of 13 ns per call).
 */
final class Shim {

    private Shim() {}

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBRARY = SymbolLookup.libraryLookup(ShimLocator.locate(), Arena.global());

    // ---- fast path ----
    private static final MethodHandle RX_BURST = fast("pfc_rx_burst", JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle TX_BURST = fast("pfc_tx_burst", JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle ALLOC_BULK = fast("pfc_mbuf_alloc_bulk", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT);
    private static final MethodHandle FREE_BULK = fastVoid("pfc_mbuf_free_bulk", ADDRESS, JAVA_INT);
    private static final MethodHandle REFCNT_UPDATE = fast("pfc_mbuf_refcnt_update", JAVA_INT, JAVA_LONG, JAVA_INT);
    private static final MethodHandle REFCNT_UPDATE_BULK = fastVoid("pfc_mbuf_refcnt_update_bulk", ADDRESS, JAVA_INT, JAVA_INT);
    private static final MethodHandle TSC = fast("pfc_tsc", JAVA_LONG);

    // ---- control plane ----
    private static final MethodHandle TSC_HZ = call("pfc_tsc_hz", JAVA_LONG);
    private static final MethodHandle MBUF_FIELD = call("pfc_mbuf_field", JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle MBUF_CONSTANT = call("pfc_mbuf_constant", JAVA_LONG, ADDRESS);
    private static final MethodHandle EAL_INIT = call("pfc_eal_init", JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle EAL_CLEANUP = call("pfc_eal_cleanup", JAVA_INT);
    private static final MethodHandle STRERROR = call("pfc_strerror", ADDRESS, JAVA_INT);
    private static final MethodHandle THREAD_REGISTER = call("pfc_thread_register", JAVA_INT);
    private static final MethodHandle THREAD_UNREGISTER = callVoid("pfc_thread_unregister");
    private static final MethodHandle LCORE_ID = call("pfc_lcore_id", JAVA_INT);
    private static final MethodHandle MEMPOOL_CREATE = call("pfc_mempool_create",
            JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle MEMPOOL_IN_USE = call("pfc_mempool_in_use", JAVA_INT, ADDRESS);
    private static final MethodHandle MEMPOOL_AVAILABLE = call("pfc_mempool_available", JAVA_INT, ADDRESS);
    private static final MethodHandle MEMPOOL_FREE = callVoid("pfc_mempool_free", ADDRESS);
    private static final MethodHandle ETH_CONFIGURE = call("pfc_eth_configure", JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_RX_QUEUE_SETUP = call("pfc_eth_rx_queue_setup",
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle ETH_TX_QUEUE_SETUP = call("pfc_eth_tx_queue_setup",
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_START = call("pfc_eth_start", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_STOP = call("pfc_eth_stop", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_CLOSE = call("pfc_eth_close", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_PROMISCUOUS = call("pfc_eth_promiscuous", JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_PROMISCUOUS_GET = call("pfc_eth_promiscuous_get", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_MAC_ADDRESS = call("pfc_eth_mac_address", JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle ETH_LINK = call("pfc_eth_link", JAVA_INT, JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    private static final MethodHandle ETH_STATS = call("pfc_eth_stats", JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle ETH_STATS_RESET = call("pfc_eth_stats_reset", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_XSTATS_COUNT = call("pfc_eth_xstats_count", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_XSTATS = call("pfc_eth_xstats",
            JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle ETH_PORT_BY_NAME = call("pfc_eth_port_by_name", JAVA_INT, ADDRESS);
    private static final MethodHandle ETH_PORT_NAME = call("pfc_eth_port_name", JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT);
    private static final MethodHandle ETH_NEXT_PORT = call("pfc_eth_next_port", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_SOCKET = call("pfc_eth_socket", JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_MAC_CTRL_FRAME_FWD = call("pfc_eth_mac_ctrl_frame_fwd", JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle ETH_PRIORITY_FLOW_CTRL_SET = call("pfc_eth_priority_flow_ctrl_set", JAVA_INT, JAVA_INT,
            JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT);
    private static final MethodHandle VDEV_CREATE = call("pfc_vdev_create", JAVA_INT, ADDRESS, ADDRESS);
    private static final MethodHandle VDEV_REMOVE = call("pfc_vdev_remove", JAVA_INT, ADDRESS);
    private static final MethodHandle RING_CREATE = call("pfc_ring_create", JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, ADDRESS);
    private static final MethodHandle RING_FREE = callVoid("pfc_ring_free", ADDRESS);
    private static final MethodHandle ETH_FROM_RINGS = call("pfc_eth_from_rings", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_INT);

    private static MethodHandle fast(String name, MemoryLayout result, MemoryLayout... args) {
        return LINKER.downcallHandle(symbol(name), FunctionDescriptor.of(result, args), Linker.Option.critical(false));
    }

    private static MethodHandle fastVoid(String name, MemoryLayout... args) {
        return LINKER.downcallHandle(symbol(name), FunctionDescriptor.ofVoid(args), Linker.Option.critical(false));
    }

    private static MethodHandle call(String name, MemoryLayout result, MemoryLayout... args) {
        return LINKER.downcallHandle(symbol(name), FunctionDescriptor.of(result, args));
    }

    private static MethodHandle callVoid(String name, MemoryLayout... args) {
        return LINKER.downcallHandle(symbol(name), FunctionDescriptor.ofVoid(args));
    }

    private static MemorySegment symbol(String name) {
        return LIBRARY.find(name).orElseThrow(() -> new IllegalStateException(
                "The DPDK shim has no symbol " + name + ": it is older than these classes; rebuild native-bindings"));
    }

    /** Downcalls throw no checked exceptions; anything else is a bug in a handle's type. */
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }

    // ---- fast path ----

    static int rxBurst(int port, int queue, MemorySegment pkts, int n) {
        try {
            return (int) RX_BURST.invokeExact(port, queue, pkts, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int txBurst(int port, int queue, MemorySegment pkts, int n) {
        try {
            return (int) TX_BURST.invokeExact(port, queue, pkts, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int allocBulk(MemorySegment pool, MemorySegment pkts, int n) {
        try {
            return (int) ALLOC_BULK.invokeExact(pool, pkts, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeBulk(MemorySegment pkts, int n) {
        try {
            FREE_BULK.invokeExact(pkts, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int refcntUpdate(long mbuf, int delta) {
        try {
            return (int) REFCNT_UPDATE.invokeExact(mbuf, delta);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void refcntUpdateBulk(MemorySegment pkts, int n, int delta) {
        try {
            REFCNT_UPDATE_BULK.invokeExact(pkts, n, delta);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long tsc() {
        try {
            return (long) TSC.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- control plane ----

    static long tscHz() {
        try {
            return (long) TSC_HZ.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int mbufField(MemorySegment name, MemorySegment size) {
        try {
            return (int) MBUF_FIELD.invokeExact(name, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long mbufConstant(MemorySegment name) {
        try {
            return (long) MBUF_CONSTANT.invokeExact(name);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ealInit(int argc, MemorySegment argv) {
        try {
            return (int) EAL_INIT.invokeExact(argc, argv);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ealCleanup() {
        try {
            return (int) EAL_CLEANUP.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int threadRegister() {
        try {
            return (int) THREAD_REGISTER.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void threadUnregister() {
        try {
            THREAD_UNREGISTER.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int lcoreId() {
        try {
            return (int) LCORE_ID.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String strerror(int errnum) {
        try {
            MemorySegment text = (MemorySegment) STRERROR.invokeExact(errnum);
            return text.equals(MemorySegment.NULL) ? "errno " + errnum : text.reinterpret(Long.MAX_VALUE).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int mempoolCreate(MemorySegment name, int n, int cacheSize, int privSize, int dataRoomSize, int socket,
                             MemorySegment out) {
        try {
            return (int) MEMPOOL_CREATE.invokeExact(name, n, cacheSize, privSize, dataRoomSize, socket, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int mempoolInUse(MemorySegment pool) {
        try {
            return (int) MEMPOOL_IN_USE.invokeExact(pool);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int mempoolAvailable(MemorySegment pool) {
        try {
            return (int) MEMPOOL_AVAILABLE.invokeExact(pool);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void mempoolFree(MemorySegment pool) {
        try {
            MEMPOOL_FREE.invokeExact(pool);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethConfigure(int port, int nbRx, int nbTx) {
        try {
            return (int) ETH_CONFIGURE.invokeExact(port, nbRx, nbTx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethRxQueueSetup(int port, int queue, int nbDesc, int socket, MemorySegment pool) {
        try {
            return (int) ETH_RX_QUEUE_SETUP.invokeExact(port, queue, nbDesc, socket, pool);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethTxQueueSetup(int port, int queue, int nbDesc, int socket) {
        try {
            return (int) ETH_TX_QUEUE_SETUP.invokeExact(port, queue, nbDesc, socket);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethStart(int port) {
        try {
            return (int) ETH_START.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethStop(int port) {
        try {
            return (int) ETH_STOP.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethClose(int port) {
        try {
            return (int) ETH_CLOSE.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethPromiscuous(int port, boolean enable) {
        try {
            return (int) ETH_PROMISCUOUS.invokeExact(port, enable ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethPromiscuousGet(int port) {
        try {
            return (int) ETH_PROMISCUOUS_GET.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethMacAddress(int port, MemorySegment out) {
        try {
            return (int) ETH_MAC_ADDRESS.invokeExact(port, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethLink(int port, MemorySegment speed, MemorySegment up, MemorySegment fullDuplex) {
        try {
            return (int) ETH_LINK.invokeExact(port, speed, up, fullDuplex);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethStats(int port, MemorySegment out) {
        try {
            return (int) ETH_STATS.invokeExact(port, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethStatsReset(int port) {
        try {
            return (int) ETH_STATS_RESET.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethXstatsCount(int port) {
        try {
            return (int) ETH_XSTATS_COUNT.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethXstats(int port, MemorySegment names, int nameStride, MemorySegment values, int n) {
        try {
            return (int) ETH_XSTATS.invokeExact(port, names, nameStride, values, n);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethPortByName(MemorySegment name) {
        try {
            return (int) ETH_PORT_BY_NAME.invokeExact(name);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethPortName(int port, MemorySegment buf, int size) {
        try {
            return (int) ETH_PORT_NAME.invokeExact(port, buf, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethNextPort(int from) {
        try {
            return (int) ETH_NEXT_PORT.invokeExact(from);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethSocket(int port) {
        try {
            return (int) ETH_SOCKET.invokeExact(port);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethMacCtrlFrameFwd(int port, boolean enable) {
        try {
            return (int) ETH_MAC_CTRL_FRAME_FWD.invokeExact(port, enable ? 1 : 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethPriorityFlowCtrlSet(int port, int priority, int highWater, int lowWater, int pauseQuanta) {
        try {
            return (int) ETH_PRIORITY_FLOW_CTRL_SET.invokeExact(port, priority, highWater, lowWater, pauseQuanta);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int vdevCreate(MemorySegment name, MemorySegment args) {
        try {
            return (int) VDEV_CREATE.invokeExact(name, args);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int vdevRemove(MemorySegment name) {
        try {
            return (int) VDEV_REMOVE.invokeExact(name);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ringCreate(MemorySegment name, int count, int socket, MemorySegment out) {
        try {
            return (int) RING_CREATE.invokeExact(name, count, socket, out);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void ringFree(MemorySegment ring) {
        try {
            RING_FREE.invokeExact(ring);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int ethFromRings(MemorySegment name, MemorySegment rx, MemorySegment tx, int socket) {
        try {
            return (int) ETH_FROM_RINGS.invokeExact(name, rx, tx, socket);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}

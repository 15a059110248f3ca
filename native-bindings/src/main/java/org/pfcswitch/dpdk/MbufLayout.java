package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Where the fields of {@code struct rte_mbuf} are, as the shim's C compiler saw them. The layout
 * depends on how DPDK was built (Debian's build keeps {@code buf_iova} in the first cache line
 * and moves {@code next} to the second), so the offsets are read once at class initialisation
 * and never written down here. Each field's width is checked against the width {@link Mbuf}
 * reads it with, so a DPDK that changes one fails at start-up instead of corrupting packets.
 *
 * <p>Needs only the shim library, not EAL.
 */
public final class MbufLayout {

    private MbufLayout() {}

    /** {@code void *buf_addr}: start of the data buffer. */
    public static final int BUF_ADDR = field("buf_addr", 8);
    /** {@code uint16_t data_off}: where the packet data starts inside the buffer. */
    public static final int DATA_OFF = field("data_off", 2);
    /** {@code uint16_t refcnt}. Update it only through {@link Mbuf#refcntUpdate}. */
    public static final int REFCNT = field("refcnt", 2);
    /** {@code uint16_t nb_segs}: segments in the chain (first segment only). */
    public static final int NB_SEGS = field("nb_segs", 2);
    /** {@code uint16_t port}: input port. */
    public static final int PORT = field("port", 2);
    /** {@code uint64_t ol_flags}: offload flags. */
    public static final int OL_FLAGS = field("ol_flags", 8);
    /** {@code uint32_t pkt_len}: bytes in the whole chain. */
    public static final int PKT_LEN = field("pkt_len", 4);
    /** {@code uint16_t data_len}: bytes in this segment. */
    public static final int DATA_LEN = field("data_len", 2);
    /** {@code uint16_t buf_len}: size of the data buffer, headroom included. */
    public static final int BUF_LEN = field("buf_len", 2);
    /** {@code struct rte_mempool *pool}: the pool the mbuf belongs to. */
    public static final int POOL = field("pool", 8);
    /** {@code struct rte_mbuf *next}: next segment, or NULL. */
    public static final int NEXT = field("next", 8);

    /** {@code RTE_PKTMBUF_HEADROOM}: the initial {@code data_off} of a freshly allocated mbuf. */
    public static final int HEADROOM = (int) constant("headroom");
    /** {@code sizeof(struct rte_mbuf)}: the private area (if the pool has one) starts here. */
    public static final int PRIVATE_OFFSET = (int) constant("mbuf_size");
    /** {@code RTE_MBUF_DEFAULT_BUF_SIZE}: a data room for standard frames, headroom included. */
    public static final int DEFAULT_DATA_ROOM = (int) constant("default_buf_size");

    private static int field(String name, int expectedSize) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_INT);
            int offset = Shim.mbufField(arena.allocateFrom(name), size);
            if (offset < 0) {
                throw new IllegalStateException("The DPDK shim does not know struct rte_mbuf field " + name);
            }
            if (size.get(JAVA_INT, 0) != expectedSize) {
                throw new IllegalStateException("struct rte_mbuf field " + name + " is " + size.get(JAVA_INT, 0)
                        + " bytes in this DPDK, the bindings read " + expectedSize);
            }
            return offset;
        }
    }

    private static long constant(String name) {
        try (Arena arena = Arena.ofConfined()) {
            long value = Shim.mbufConstant(arena.allocateFrom(name));
            if (value < 0) {
                throw new IllegalStateException("The DPDK shim does not know mbuf constant " + name);
            }
            return value;
        }
    }
}

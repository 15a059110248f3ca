package org.pfcswitch.dpdk;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

/**
 * The shim library and the mbuf layout without EAL: offsets come from the shim, the accessors
 * work on any memory shaped like an mbuf (here a zeroed block in an arena).
 */
class MbufLayoutTest {

    @Test
    void offsetsAreDistinctAndInsideTheMbuf() {
        List<Integer> offsets = List.of(MbufLayout.BUF_ADDR, MbufLayout.DATA_OFF, MbufLayout.REFCNT, MbufLayout.NB_SEGS,
                MbufLayout.PORT, MbufLayout.OL_FLAGS, MbufLayout.PKT_LEN, MbufLayout.DATA_LEN, MbufLayout.BUF_LEN,
                MbufLayout.POOL, MbufLayout.NEXT);
        assertEquals(offsets.size(), offsets.stream().distinct().count(), offsets.toString());
        offsets.forEach(offset -> assertTrue(offset >= 0 && offset < MbufLayout.PRIVATE_OFFSET, offsets.toString()));
        assertEquals(0, MbufLayout.PRIVATE_OFFSET % 64, "struct rte_mbuf is whole cache lines");
        assertTrue(MbufLayout.HEADROOM > 0 && MbufLayout.DEFAULT_DATA_ROOM > MbufLayout.HEADROOM);
        System.out.printf("mbuf layout: buf_addr %d, data_off %d, refcnt %d, nb_segs %d, port %d, ol_flags %d, pkt_len %d,"
                        + " data_len %d, buf_len %d, pool %d, next %d; sizeof %d, headroom %d, default buf size %d%n",
                MbufLayout.BUF_ADDR, MbufLayout.DATA_OFF, MbufLayout.REFCNT, MbufLayout.NB_SEGS, MbufLayout.PORT,
                MbufLayout.OL_FLAGS, MbufLayout.PKT_LEN, MbufLayout.DATA_LEN, MbufLayout.BUF_LEN, MbufLayout.POOL,
                MbufLayout.NEXT, MbufLayout.PRIVATE_OFFSET, MbufLayout.HEADROOM, MbufLayout.DEFAULT_DATA_ROOM);
    }

    @Property(tries = 200)
    void accessorsReadAndWriteAFakeMbuf(@ForAll @IntRange(max = 0xFFFF) int length,
                                        @ForAll @IntRange(max = 0xFFFF) int dataOff) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mbuf = arena.allocate(MbufLayout.PRIVATE_OFFSET, 64);
            MemorySegment buffer = arena.allocate(1 << 17);
            long m = mbuf.address();
            mbuf.set(JAVA_LONG, MbufLayout.BUF_ADDR, buffer.address());
            mbuf.set(JAVA_SHORT, MbufLayout.DATA_OFF, (short) dataOff);
            buffer.set(JAVA_BYTE, dataOff + 3, (byte) 0x5a);

            Mbuf.setLengths(m, length);

            assertEquals(length, Mbuf.dataLength(m));
            assertEquals(length, Mbuf.packetLength(m));
            assertEquals(dataOff, Mbuf.dataOffset(m));
            assertEquals(buffer.address() + dataOff, Mbuf.dataAddress(m));
            assertEquals(0x5a, Mbuf.dataByte(m, 3));
            assertEquals(length, Mbuf.data(m).byteSize());
        }
    }

    @Test
    void exceptionsSayWhatFailedWhereAndWhy() {
        DpdkException e = new DpdkException("rte_eth_dev_start", 3, 22, null);
        assertEquals("rte_eth_dev_start failed on port 3: Invalid argument (rte_errno 22)", e.getMessage());
        assertEquals("Invalid argument", e.rteErrorText());
        DpdkException named = new DpdkException("rte_vdev_init", -1, 19, "net_x0");
        assertEquals("rte_vdev_init failed for net_x0: No such device (rte_errno 19)", named.getMessage());
        // DPDK's own error numbers have their own texts.
        assertEquals("Invalid call in secondary process", Shim.strerror(1001));
    }

    @Test
    void theShimIsFoundBesideTheClassesAndAPropertyOverridesIt() {
        Path found = ShimLocator.locate();
        assertTrue(Files.isReadable(found), found.toString());
        assertEquals(ShimLocator.FILE_NAME, found.getFileName().toString());
        try {
            System.setProperty(ShimLocator.PROPERTY, "/nonexistent/libpfcswitch_dpdk.so");
            IllegalStateException e = assertThrows(IllegalStateException.class, ShimLocator::locate);
            assertTrue(e.getMessage().contains("/nonexistent/libpfcswitch_dpdk.so"), e.getMessage());
        } finally {
            System.clearProperty(ShimLocator.PROPERTY);
        }
    }
}

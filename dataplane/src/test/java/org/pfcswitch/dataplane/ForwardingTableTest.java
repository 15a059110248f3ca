package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacAddress;

class ForwardingTableTest {

    @Test
    void staticEntriesLearningFloodAndFilter() {
        ForwardingTable t = new ForwardingTable(4, 100, true);
        t.addStatic(0xAAL, 3);
        long[] src = {0x10, 0x11, 0x12, 0x10};
        long[] dst = {0xAA, 0x10, MacAddress.BROADCAST, 0x99};
        int[] egress = new int[4];
        t.decide(1, src, dst, 4, egress);
        assertArrayEquals(new int[] {3, ForwardingTable.FILTER, ForwardingTable.FLOOD, ForwardingTable.FLOOD}, egress);
        assertEquals(1, t.lookup(0x12));
        t.learn(0xAAL, 0);                                        // a static entry does not move
        assertEquals(3, t.lookup(0xAAL));
        t.learn(0x10, 2);                                         // a learned one does
        assertEquals(2, t.lookup(0x10));
        t.learn(0x0100_0000_0001L, 1);                            // group addresses are never learned
        assertEquals(-1, t.lookup(0x0100_0000_0001L));
        assertEquals(4, t.size());
    }

    @Test
    void learningOffFloodsUnknown() {
        ForwardingTable t = new ForwardingTable(2, 10, false);
        int[] egress = new int[1];
        t.decide(0, new long[] {5}, new long[] {6}, 1, egress);
        t.decide(1, new long[] {6}, new long[] {5}, 1, egress);
        assertEquals(ForwardingTable.FLOOD, egress[0]);
        assertEquals(0, t.size());
    }

    @Test
    void aFullTableStopsLearningAndCountsIt() {
        ForwardingTable t = new ForwardingTable(2, 12, true);      // room for at least 12
        for (long mac = 1; mac <= 100; mac++) {
            t.learn(mac << 8, 1);
        }
        assertTrue(t.size() >= 12 && t.size() < 100, "size " + t.size());
        assertEquals(100, t.size() + t.learnTableFull());
        assertTrue(t.lookup(1L << 8) == 1);
        assertThrows(IllegalArgumentException.class, () -> t.addStatic(1, 2));
    }

    @Test
    void macZeroIsAStationLikeAnyOther() {
        ForwardingTable t = new ForwardingTable(2, 10, true);
        assertEquals(-1, t.lookup(0));
        t.learn(0, 1);
        assertEquals(1, t.lookup(0));
    }
}

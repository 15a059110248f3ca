package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacAddress;

class ForwardingTableTest {

    @Test
    void staticEntriesAndLearning() {
        ForwardingTable t = new ForwardingTable(4, 100, true);
        t.addStatic(0xAAL, 3);
        for (long src : new long[] {0x10, 0x11, 0x12, 0x10}) {
            t.learn(src, 1);
        }
        assertEquals(3, t.lookup(0xAAL));
        assertEquals(1, t.lookup(0x12));
        assertEquals(-1, t.lookup(0x99), "an unknown station");
        t.learn(0xAAL, 0);                                        // a static entry does not move
        assertEquals(3, t.lookup(0xAAL));
        t.learn(0x10, 2);                                         // a learned one does
        assertEquals(2, t.lookup(0x10));
        t.learn(0x0100_0000_0001L, 1);                            // group addresses are never learned
        assertEquals(-1, t.lookup(0x0100_0000_0001L));
        assertEquals(4, t.size());
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

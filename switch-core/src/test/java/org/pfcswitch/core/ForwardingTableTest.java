package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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

    @Test
    void aStaticEntryNeverMovesAndSaysSo() {
        ForwardingTable t = new ForwardingTable(3, 16, true);
        t.addStatic(0xAAL, 0);
        assertEquals(ForwardingTable.MOVE_DENIED, t.learn(0xAAL, 2));
        assertEquals(0, t.movedFrom());
        assertEquals(0, t.lookup(0xAAL));
        assertEquals(ForwardingTable.UNCHANGED, t.learn(0xAAL, 0));
    }

    @Test
    void movesAreReportedAndAPortThatDeniesThemKeepsTheStationWhereItWasLearned() {
        List<PortLearning> security = List.of(PortLearning.OPEN, PortLearning.OPEN,
                new PortLearning(PortLearning.UNLIMITED, PortLearning.Moves.DENY));
        ForwardingTable t = new ForwardingTable(3, 16, true, security);
        assertEquals(ForwardingTable.LEARNED, t.learn(0x10, 0));
        assertEquals(ForwardingTable.UNCHANGED, t.learn(0x10, 0));
        assertEquals(ForwardingTable.MOVE_DENIED, t.learn(0x10, 2), "port 2 denies moves: a spoofer there takes nothing");
        assertEquals(0, t.lookup(0x10));
        assertEquals(ForwardingTable.MOVED, t.learn(0x10, 1), "port 1 allows them");
        assertEquals(0, t.movedFrom());
        assertEquals(1, t.lookup(0x10));
        assertEquals(0, t.learnedOn(0));
        assertEquals(1, t.learnedOn(1));
        assertEquals(ForwardingTable.LEARNED, t.learn(0x20, 2), "a new station is learned on a port that denies moves");
    }

    @Test
    void aPortLearnsAtMostMaxMacsStations() {
        ForwardingTable t = new ForwardingTable(2, 16, true,
                List.of(new PortLearning(2, PortLearning.Moves.ALLOW), PortLearning.OPEN));
        assertEquals(ForwardingTable.LEARNED, t.learn(0x10, 0));
        assertEquals(ForwardingTable.LEARNED, t.learn(0x11, 0));
        assertEquals(ForwardingTable.OVER_LIMIT, t.learn(0x12, 0));
        assertEquals(-1, t.lookup(0x12));
        assertEquals(ForwardingTable.LEARNED, t.learn(0x30, 1));
        assertEquals(ForwardingTable.OVER_LIMIT, t.learn(0x30, 0), "nor may a station move onto a full port");
        assertEquals(ForwardingTable.MOVED, t.learn(0x11, 1), "a station that leaves frees its place");
        assertEquals(ForwardingTable.LEARNED, t.learn(0x12, 0));
    }
}

package org.pfcswitch.core.deadlock;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shared cycle search and the persistence rule, on small hand-made graphs. */
class BufferDependencyGraphTest {

    /** Nodes 0..n-1; slot s of node v is an edge to node s when edge[v][s]. */
    static final class Matrix implements WaitForGraph {
        final boolean[][] edge;
        final boolean[] waiting;

        Matrix(int n) {
            edge = new boolean[n][n];
            waiting = new boolean[n];
            java.util.Arrays.fill(waiting, true);
        }

        Matrix edge(int from, int to) {
            edge[from][to] = true;
            return this;
        }

        @Override public int nodes() { return edge.length; }
        @Override public boolean waits(int node) { return waiting[node]; }
        @Override public int slots(int node) { return edge.length; }
        @Override public int successor(int node, int slot) { return edge[node][slot] ? slot : -1; }
    }

    private static String cycle(BufferDependencyGraph g) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < g.cycleLength(); i++) {
            b.append(i == 0 ? "" : " ").append(g.cycleNode(i)).append('/').append(g.cycleSlot(i));
        }
        return b.toString();
    }

    @Test
    void aChainHasNoCycle() {
        BufferDependencyGraph g = new BufferDependencyGraph(8);
        assertFalse(g.findCycle(new Matrix(5).edge(0, 1).edge(1, 2).edge(2, 3).edge(0, 3)));
        assertEquals(0, g.cycleLength());
    }

    @Test
    void aCycleIsWrittenFromItsSmallestNodeWithTheSlotsTaken() {
        BufferDependencyGraph g = new BufferDependencyGraph(8);
        // a tail 0 -> 4 into the ring 4 -> 2 -> 3 -> 4
        assertTrue(g.findCycle(new Matrix(5).edge(0, 4).edge(4, 2).edge(2, 3).edge(3, 4)));
        assertEquals("2/3 3/4 4/2", cycle(g));
    }

    @Test
    void aNodeWaitingForItselfIsACycleOfOne() {
        BufferDependencyGraph g = new BufferDependencyGraph(4);
        assertTrue(g.findCycle(new Matrix(3).edge(0, 2).edge(2, 2)));
        assertEquals("2/2", cycle(g));
    }

    @Test
    void theFirstCycleInSearchOrderIsTaken() {
        BufferDependencyGraph g = new BufferDependencyGraph(8);
        Matrix m = new Matrix(6).edge(0, 1).edge(1, 0).edge(3, 4).edge(4, 3);
        assertTrue(g.findCycle(m));
        assertEquals("0/1 1/0", cycle(g));
        m.waiting[0] = false;                 // 0 starts nothing, but 1 does and reaches it
        assertTrue(g.findCycle(m));
        assertEquals("0/1 1/0", cycle(g));
        m.waiting[1] = false;
        assertTrue(g.findCycle(m));
        assertEquals("3/4 4/3", cycle(g));
    }

    @Test
    void aGraphLargerThanTheRoomIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BufferDependencyGraph(2).findCycle(new Matrix(3)));
    }

    @Test
    void aCycleIsReportedOnceAfterPersistingAndAgainOnlyAfterItWentAway() {
        BufferDependencyGraph g = new BufferDependencyGraph(4);
        CyclePersistence p = new CyclePersistence(4, 100);
        Matrix ring = new Matrix(3).edge(0, 1).edge(1, 0);
        Matrix none = new Matrix(3);
        g.findCycle(ring);
        assertFalse(p.update(g, 10));
        assertEquals(10, p.since());
        g.findCycle(ring);
        assertFalse(p.update(g, 109));
        g.findCycle(ring);
        assertTrue(p.update(g, 110), "lasted 100");
        assertTrue(p.reported());
        g.findCycle(ring);
        assertFalse(p.update(g, 500), "reported once");
        assertTrue(p.reported());
        g.findCycle(none);
        assertFalse(p.update(g, 510));
        assertFalse(p.reported());
        assertEquals(0, p.length());
        g.findCycle(ring);
        assertFalse(p.update(g, 520));
        g.findCycle(ring);
        assertTrue(p.update(g, 620), "back: reported again after its own persist time");
    }

    @Test
    void withAGraceACycleMissedBrieflyIsStillTheSameDeadlock() {
        BufferDependencyGraph g = new BufferDependencyGraph(4);
        CyclePersistence p = new CyclePersistence(4, 100, 30);
        Matrix ring = new Matrix(3).edge(0, 1).edge(1, 0);
        Matrix none = new Matrix(3);
        g.findCycle(ring);
        p.update(g, 0);
        g.findCycle(none);
        assertFalse(p.update(g, 50));
        assertEquals(0, p.since(), "missed for 0 < 30: still watched");
        g.findCycle(ring);
        assertTrue(p.update(g, 100), "reported as one cycle since 0");
        g.findCycle(none);
        p.update(g, 110);
        g.findCycle(none);
        p.update(g, 139);
        assertTrue(p.reported(), "present through a miss of 29");
        g.findCycle(ring);
        assertFalse(p.update(g, 150), "the same deadlock: not reported again");
        g.findCycle(none);
        p.update(g, 160);
        g.findCycle(none);
        p.update(g, 190);
        assertFalse(p.reported(), "missed for 30: gone");
        assertEquals(0, p.length());
    }

    @Test
    void anotherCycleStartsTheClockAgain() {
        BufferDependencyGraph g = new BufferDependencyGraph(4);
        CyclePersistence p = new CyclePersistence(4, 100);
        g.findCycle(new Matrix(4).edge(0, 1).edge(1, 0));
        p.update(g, 0);
        g.findCycle(new Matrix(4).edge(2, 3).edge(3, 2));
        assertFalse(p.update(g, 150));
        assertEquals(150, p.since());
        assertEquals(2, p.node(0));
        assertEquals(3, p.slot(0));
    }

    @Test
    void aSearchAllocatesNothing() {
        BufferDependencyGraph g = new BufferDependencyGraph(64);
        CyclePersistence p = new CyclePersistence(64, 1_000);
        Matrix m = new Matrix(64);
        for (int i = 0; i < 63; i++) {
            m.edge(i, i + 1);
        }
        m.edge(63, 20);
        for (int i = 0; i < 20_000; i++) {
            g.findCycle(m);
            p.update(g, i);
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 10_000; i++) {
            g.findCycle(m);
            p.update(g, 20_000 + i);
        }
        assertEquals(0, mx.getCurrentThreadAllocatedBytes() - before);
        assertEquals(44, g.cycleLength());
        assertEquals(20, g.cycleNode(0));
    }
}

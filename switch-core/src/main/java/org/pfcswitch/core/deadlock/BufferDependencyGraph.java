package org.pfcswitch.core.deadlock;

import java.util.Arrays;

/**
 * The cycle search over a {@link WaitForGraph}: an iterative depth-first search in a fixed order
 * (start nodes by id, edge slots by number) that stops at the first cycle, written from its
 * smallest node. The order is fixed so that a deadlock that persists is found as the same cycle at
 * every check (what {@link CyclePersistence} compares), and so that {@code sim} runs stay
 * reproducible.
 *
 * <p>Preallocated for {@code capacity} nodes: a search allocates nothing. Not thread-safe: one
 * owner (the worker thread of a live switch, the event loop of a simulation).
 */
public final class BufferDependencyGraph {

    private final byte[] color;              // 0 unvisited, 1 on the stack, 2 done
    private final int[] stackNode;
    private final int[] stackNext;           // the next edge slot to try from the node at this depth
    private final int[] cycleNode;
    private final int[] cycleSlot;           // the slot through which cycleNode[i] waits for cycleNode[i + 1]
    private int cycleLength;

    public BufferDependencyGraph(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a graph needs room for at least 1 node, got " + capacity);
        }
        color = new byte[capacity];
        stackNode = new int[capacity];
        stackNext = new int[capacity];
        cycleNode = new int[capacity];
        cycleSlot = new int[capacity];
    }

    public int capacity() {
        return color.length;
    }

    /**
     * Searches {@code g} for a cycle of waiting nodes.
     *
     * @return true when one was found: {@link #cycleLength()} nodes, from the smallest id
     * @throws IllegalArgumentException the graph has more nodes than this search has room for
     */
    public boolean findCycle(WaitForGraph g) {
        int nodes = g.nodes();
        if (nodes > color.length) {
            throw new IllegalArgumentException("a graph of " + nodes + " nodes, room for " + color.length);
        }
        Arrays.fill(color, 0, nodes, (byte) 0);
        for (int start = 0; start < nodes; start++) {
            if (color[start] != 0 || !g.waits(start)) {
                continue;
            }
            int depth = 0;
            stackNode[0] = start;
            stackNext[0] = 0;
            color[start] = 1;
            while (depth >= 0) {
                int v = stackNode[depth];
                int slots = g.slots(v);
                int w = -1;
                while (stackNext[depth] < slots && w < 0) {
                    w = g.successor(v, stackNext[depth]++);
                }
                if (w < 0) {
                    color[v] = 2;
                    depth--;
                    continue;
                }
                if (color[w] == 1) {                       // a back edge: the cycle is w .. v on the stack
                    keepCycle(w, depth);
                    return true;
                }
                if (color[w] == 0) {
                    depth++;
                    stackNode[depth] = w;
                    stackNext[depth] = 0;
                    color[w] = 1;
                }
            }
        }
        cycleLength = 0;
        return false;
    }

    /** Copies the stack from {@code w} to the top into the cycle, rotated to begin at its smallest node. */
    private void keepCycle(int w, int depth) {
        int from = depth;
        while (stackNode[from] != w) {
            from--;
        }
        cycleLength = depth - from + 1;
        int min = 0;
        for (int i = 0; i < cycleLength; i++) {
            if (stackNode[from + i] < stackNode[from + min]) {
                min = i;
            }
        }
        for (int i = 0; i < cycleLength; i++) {
            int at = from + (min + i) % cycleLength;
            cycleNode[i] = stackNode[at];
            cycleSlot[i] = stackNext[at] - 1;       // the slot just taken out of that node
        }
    }

    /** Nodes on the cycle the last search found (0: none). */
    public int cycleLength() {
        return cycleLength;
    }

    /** The {@code i}-th node of the cycle, {@code i = 0} its smallest. */
    public int cycleNode(int i) {
        return cycleNode[i];
    }

    /** The edge slot through which cycle node {@code i} waits for node {@code i + 1} (the last for node 0). */
    public int cycleSlot(int i) {
        return cycleSlot[i];
    }
}

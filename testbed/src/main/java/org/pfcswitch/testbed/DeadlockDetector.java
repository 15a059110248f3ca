package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.pfcswitch.core.SwitchCore;

/**
 * PFC deadlock detection over a buffer-dependency graph, evaluated every {@code checkNanos} of
 * virtual time from the switches' public state only ({@link SwitchCore#isAdvertisingXoff},
 * {@link SwitchCore#isPaused}, {@link SwitchCore#queuedBytes(int, int)}).
 *
 * <p><b>Nodes</b>: one per (switch S, ingress port p, priority q) where p is cabled to another
 * switch (a host cannot take part in a cycle: its NIC queue depends on nothing downstream of it).
 * A node is <i>paused</i> when S advertises XOFF on (p, q): S is pausing the neighbour behind p.
 *
 * <p><b>Edges</b> ("waits for"): A = (S, p, q) -> B = (S', p', q) when A is paused, and S has an
 * egress port e != p cabled to switch S' (arriving there on port p') whose egress queue (e, q)
 * holds bytes and is paused at the check's instant, and B is paused (S' advertises XOFF on
 * (p', q): B is the queue that pauses e). A's bytes can only leave S through egresses such as e,
 * and e moves only once B drains below XON. The core keeps no per-(ingress, egress) byte count, so
 * "A holds bytes bound for e" is approximated by "egress (e, q) is non-empty": an edge may exist
 * whose queue (e, q) holds only other ingresses' bytes; on every cycle of this graph each
 * switch on it nonetheless holds a paused ingress queue and a paused, non-empty egress queue
 * towards the next switch, which is what a frozen ring of buffers looks like from outside.
 *
 * <p><b>Cycles</b>: each check runs a depth-first search in a fixed order (switch, port, priority)
 * and takes the first cycle found, written from its smallest node. If the same cycle is found at
 * every check for {@code persistNanos} or longer it is reported once (counted, logged, kept as a
 * {@link Report}); it is reported again only after a check finds it gone. A check allocates nothing
 * (preallocated arrays); a report builds its string.
 */
public final class DeadlockDetector implements Node {

    /** One reported deadlock: the cycle's ports, when a check first saw it, when it was reported. */
    public record Report(String cycle, long firstSeenNs, long reportedNs) {}

    private static final int PRIORITIES = 8;

    private final EventLoop loop;
    private final SwitchCore[] cores;
    private final String[] switchNames;
    private final int[][] peerSwitch;
    private final int[][] peerPort;
    private final int[] base;                // first node id of each switch
    private final long checkNanos;
    private final long persistNanos;
    private final int nodes;
    private int id = -1;

    // DFS state, preallocated
    private final byte[] color;              // 0 white, 1 on stack, 2 done
    private final int[] stackNode;
    private final int[] stackNext;           // the next candidate successor index (egress port × 1)
    private final int[] cycle;
    private int cycleLength;
    private final int[] current;             // the cycle being watched
    private int currentLength;
    private long currentSince = -1;
    private boolean currentReported;

    private long checks;
    private final List<Report> reports = new ArrayList<>();
    private final java.util.function.Consumer<String> log;

    /**
     * @param tb           the testbed (its switches and their cabling)
     * @param switchNames  a name per switch, in {@link Testbed#core(int)} order
     * @param checkNanos   time between two checks (> 0)
     * @param persistNanos how long a cycle must last to be reported (>= 0)
     * @param log          where a report's line goes (null: nowhere)
     */
    public DeadlockDetector(Testbed tb, List<String> switchNames, long checkNanos, long persistNanos,
                            java.util.function.Consumer<String> log) {
        if (checkNanos <= 0 || persistNanos < 0) {
            throw new IllegalArgumentException("deadlock: check must be > 0 and persist >= 0, got " + checkNanos
                    + " ns and " + persistNanos + " ns");
        }
        int n = tb.switches();
        if (switchNames.size() != n) {
            throw new IllegalArgumentException("deadlock: " + n + " switches but " + switchNames.size() + " names");
        }
        this.loop = tb.loop();
        this.cores = new SwitchCore[n];
        this.switchNames = switchNames.toArray(new String[0]);
        this.peerSwitch = new int[n][];
        this.peerPort = new int[n][];
        this.base = new int[n];
        int total = 0;
        for (int s = 0; s < n; s++) {
            cores[s] = tb.core(s);
            int ports = cores[s].ports();
            peerSwitch[s] = new int[ports];
            peerPort[s] = new int[ports];
            for (int p = 0; p < ports; p++) {
                peerSwitch[s][p] = tb.peerSwitch(s, p);
                peerPort[s][p] = tb.peerPort(s, p);
            }
            base[s] = total;
            total += ports * PRIORITIES;
        }
        this.nodes = total;
        this.checkNanos = checkNanos;
        this.persistNanos = persistNanos;
        this.color = new byte[total];
        this.stackNode = new int[total];
        this.stackNext = new int[total];
        this.cycle = new int[total];
        this.current = new int[total];
        this.log = log;
        this.id = tb.register(this);
        loop.schedule(Math.max(loop.now(), 0) + checkNanos, id, EventLoop.WAKE, 0, 0);
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        check(now);
        loop.schedule(now + checkNanos, id, EventLoop.WAKE, 0, 0);
    }

    /** One evaluation of the graph at {@code now}; public for tests that drive it by hand. */
    public void check(long now) {
        checks++;
        boolean found = findCycle(now);
        if (!found) {
            currentLength = 0;
            currentSince = -1;
            currentReported = false;
            return;
        }
        if (!sameAsCurrent()) {
            System.arraycopy(cycle, 0, current, 0, cycleLength);
            currentLength = cycleLength;
            currentSince = now;
            currentReported = false;
        }
        if (!currentReported && now - currentSince >= persistNanos) {
            currentReported = true;
            String named = name(current, currentLength);
            reports.add(new Report(named, currentSince, now));
            if (log != null) {
                log.accept("deadlock: " + named + " (a cycle of paused queues since " + currentSince
                        + " ns, reported at " + now + " ns)");
            }
        }
    }

    private boolean sameAsCurrent() {
        if (cycleLength != currentLength) {
            return false;
        }
        for (int i = 0; i < cycleLength; i++) {
            if (cycle[i] != current[i]) {
                return false;
            }
        }
        return true;
    }

    private boolean paused(int node) {
        int s = switchOf(node);
        int local = node - base[s];
        int p = local / PRIORITIES;
        return peerSwitch[s][p] >= 0 && cores[s].isAdvertisingXoff(p, local % PRIORITIES);
    }

    private int switchOf(int node) {
        int s = cores.length - 1;
        while (base[s] > node) {
            s--;
        }
        return s;
    }

    /**
     * The successor of {@code node} through egress port {@code e}, or -1 when that is no edge (see
     * the class comment).
     */
    private int successor(int node, int e, long now) {
        int s = switchOf(node);
        int local = node - base[s];
        int p = local / PRIORITIES;
        int q = local % PRIORITIES;
        int next = peerSwitch[s][e];
        if (e == p || next < 0 || cores[s].queuedBytes(e, q) == 0 || !cores[s].isPaused(e, q, now)) {
            return -1;
        }
        int p2 = peerPort[s][e];
        if (!cores[next].isAdvertisingXoff(p2, q)) {
            return -1;
        }
        return base[next] + p2 * PRIORITIES + q;
    }

    /** Iterative DFS; on success the cycle is in {@code cycle[0..cycleLength)}, rotated to start at its smallest node. */
    private boolean findCycle(long now) {
        java.util.Arrays.fill(color, (byte) 0);
        for (int start = 0; start < nodes; start++) {
            if (color[start] != 0 || !paused(start)) {
                continue;
            }
            int depth = 0;
            stackNode[0] = start;
            stackNext[0] = 0;
            color[start] = 1;
            while (depth >= 0) {
                int v = stackNode[depth];
                int ports = cores[switchOf(v)].ports();
                int w = -1;
                while (stackNext[depth] < ports && w < 0) {
                    w = successor(v, stackNext[depth]++, now);
                }
                if (w < 0) {
                    color[v] = 2;
                    depth--;
                    continue;
                }
                if (color[w] == 1) {                       // a back edge: the cycle is w .. v on the stack
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
                        cycle[i] = stackNode[from + (min + i) % cycleLength];
                    }
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

    /** {@code leaf0:p2/3 -> spine1:p0/3 -> ... -> leaf0:p2/3}: switch, ingress port and priority of each node. */
    private String name(int[] c, int length) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= length; i++) {
            int node = c[i % length];
            int s = switchOf(node);
            int local = node - base[s];
            if (i > 0) {
                b.append(" -> ");
            }
            b.append(switchNames[s]).append(":p").append(local / PRIORITIES).append('/').append(local % PRIORITIES);
        }
        return b.toString();
    }

    /** Deadlocks reported so far. */
    public long deadlocks() {
        return reports.size();
    }

    public List<Report> reports() {
        return Collections.unmodifiableList(reports);
    }

    public long checks() {
        return checks;
    }

    public long checkNanos() {
        return checkNanos;
    }

    public long persistNanos() {
        return persistNanos;
    }
}

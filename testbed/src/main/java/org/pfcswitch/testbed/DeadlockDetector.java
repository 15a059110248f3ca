package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.deadlock.BufferDependencyGraph;
import org.pfcswitch.core.deadlock.CyclePersistence;
import org.pfcswitch.core.deadlock.WaitForGraph;

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
 * <p><b>Cycles</b>: each check searches this graph with the switch's own code
 * ({@link BufferDependencyGraph}: depth-first in a fixed order (switch, port, priority), the first
 * cycle found, written from its smallest node). If the same cycle is found at every check for
 * {@code persistNanos} or longer it is reported once ({@link CyclePersistence}: counted, logged,
 * kept as a {@link Report}); it is reported again only after a check finds it gone. A check
 * allocates nothing (preallocated arrays); a report builds its string.
 */
public final class DeadlockDetector implements Node, WaitForGraph {

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

    private final BufferDependencyGraph graph;
    private final CyclePersistence persistence;
    /** The instant of the check running now: the egress pauses are read at it. */
    private long checkNow;

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
        this.graph = new BufferDependencyGraph(Math.max(1, total));
        this.persistence = new CyclePersistence(Math.max(1, total), persistNanos);
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
        checkNow = now;
        graph.findCycle(this);
        if (persistence.update(graph, now)) {
            String named = name();
            long since = persistence.since();
            reports.add(new Report(named, since, now));
            if (log != null) {
                log.accept("deadlock: " + named + " (a cycle of paused queues since " + since
                        + " ns, reported at " + now + " ns)");
            }
        }
    }

    // ------------------------------------------------------------------ the graph (WaitForGraph)

    @Override
    public int nodes() {
        return nodes;
    }

    /** Paused: S advertises XOFF on (p, q) and p is cabled to a switch. */
    @Override
    public boolean waits(int node) {
        int s = switchOf(node);
        int local = node - base[s];
        int p = local / PRIORITIES;
        return peerSwitch[s][p] >= 0 && cores[s].isAdvertisingXoff(p, local % PRIORITIES);
    }

    /** One slot per egress port of the node's switch. */
    @Override
    public int slots(int node) {
        return cores[switchOf(node)].ports();
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
    @Override
    public int successor(int node, int e) {
        int s = switchOf(node);
        int local = node - base[s];
        int p = local / PRIORITIES;
        int q = local % PRIORITIES;
        int next = peerSwitch[s][e];
        if (e == p || next < 0 || cores[s].queuedBytes(e, q) == 0 || !cores[s].isPaused(e, q, checkNow)) {
            return -1;
        }
        int p2 = peerPort[s][e];
        if (!cores[next].isAdvertisingXoff(p2, q)) {
            return -1;
        }
        return base[next] + p2 * PRIORITIES + q;
    }

    /** {@code leaf0:p2/3 -> spine1:p0/3 -> ... -> leaf0:p2/3}: switch, ingress port and priority of each node. */
    private String name() {
        int length = persistence.length();
        StringBuilder b = new StringBuilder();
        for (int i = 0; i <= length; i++) {
            int node = persistence.node(i % length);
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

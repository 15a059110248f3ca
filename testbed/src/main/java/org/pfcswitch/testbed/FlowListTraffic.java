package org.pfcswitch.testbed;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The flows of a {@link FlowList} (a {@code kind: flows} file), each started at its own time. The
 * list is read before the run but the flows are added to the testbed lazily: one wake-up waits for
 * the next start time and adds every flow due then, so the event queue holds one entry for the
 * whole list instead of one per flow, and a flow that would start after the run ends costs
 * nothing (the results only count flows started by the end anyway). Nothing is random: the same
 * file gives the same flows in the same order every run.
 */
public final class FlowListTraffic implements Traffic, Node {

    private final String name;
    private final FlowList list;
    private final IntIds ids = new IntIds();
    private Hosts hosts;
    private int nodeId;
    private int next;

    public FlowListTraffic(String name, FlowList list) {
        this.name = name;
        this.list = list;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        hosts = tb;
        nodeId = tb.loop().register(this);
        if (list.size() > 0) {
            tb.loop().schedule(Math.max(list.startNanos(0), tb.loop().now()), nodeId, EventLoop.WAKE, 0, 0);
        }
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        while (next < list.size() && list.startNanos(next) <= now) {
            int i = next++;
            // In virtual time the start is now; a real-time loop may wake late, and a flow cannot start in the past.
            ids.addId(hosts.addFlow(list.src(i), list.dst(i), list.priority(i), list.bytes(i),
                    Math.max(list.startNanos(i), now), list.udpSrcPort(i)));
        }
        if (next < list.size()) {
            hosts.loop().schedule(list.startNanos(next), nodeId, EventLoop.WAKE, 0, 0);
        }
    }

    /** Flows of the list added to the testbed so far (those whose start has come). */
    public int flowsStarted() {
        return next;
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}

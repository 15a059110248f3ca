package org.pfcswitch.testbed;

import java.util.List;
import java.util.SplittableRandom;

/**
 * A pause storm: host {@code host} sends the switch a PFC frame pausing {@code classEnable} for
 * {@code quanta} every {@code everyNanos} from {@code startNanos} until {@code stopNanos} (a stuck
 * NIC that never stops pausing its switch, the PFC watchdog's case). With {@code quanta} lasting
 * longer than the period the paused queues never get a break. No flows: its throughput is 0.
 */
public final class PfcStorm implements Traffic, Node {

    private final String name;
    private final int host;
    private final int classEnable;
    private final int quanta;
    private final long startNanos;
    private final long stopNanos;
    private final long everyNanos;
    private Hosts hosts;
    private int nodeId;
    private long framesSent;

    public PfcStorm(String name, int host, int classEnable, int quanta, long startNanos, long stopNanos, long everyNanos) {
        if (everyNanos <= 0) {
            throw new IllegalArgumentException("a pause storm's period must be > 0, got " + everyNanos + " ns");
        }
        this.name = name;
        this.host = host;
        this.classEnable = classEnable;
        this.quanta = quanta;
        this.startNanos = startNanos;
        this.stopNanos = stopNanos;
        this.everyNanos = everyNanos;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts tb, SplittableRandom random) {
        hosts = tb;
        nodeId = tb.loop().register(this);
        if (startNanos < stopNanos) {
            tb.loop().schedule(Math.max(startNanos, tb.loop().now()), nodeId, EventLoop.WAKE, 0, 0);
        }
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        if (now >= stopNanos) {
            return;
        }
        hosts.host(host).sendPfc(classEnable, quanta, now);
        framesSent++;
        if (now + everyNanos < stopNanos) {
            hosts.loop().schedule(now + everyNanos, nodeId, EventLoop.WAKE, 0, 0);
        }
    }

    /** PFC frames the storm sent so far. */
    public long framesSent() {
        return framesSent;
    }

    @Override
    public List<Integer> flowIds() {
        return List.of();
    }
}

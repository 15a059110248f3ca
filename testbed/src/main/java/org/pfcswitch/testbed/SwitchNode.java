package org.pfcswitch.testbed;

import org.pfcswitch.core.FrameSink;
import org.pfcswitch.core.SwitchCore;

/**
 * Drives a {@link SwitchCore} from the event loop: frames in, timers when the core asks, frames
 * out onto the port's wire. Keeps at most one wake-up per distinct deadline in the loop.
 */
public final class SwitchNode implements Node, FrameSink {

    private final EventLoop loop;
    private final Wire[] wires;
    private SwitchCore core;
    private int id = -1;
    private long scheduledWake = Long.MAX_VALUE;
    private SwitchObserver observer;
    private ArrivalTap tap;

    SwitchNode(EventLoop loop, int ports) {
        this.loop = loop;
        this.wires = new Wire[ports];
    }

    void attach(SwitchCore switchCore, int nodeId) {
        this.core = switchCore;
        this.id = nodeId;
    }

    /** Tells {@code o} after every event from now on (null: nobody). */
    void observe(SwitchObserver o) {
        observer = o;
    }

    /** Hands every frame arriving at this switch to {@code t} before the core sees it (null: nobody). */
    void tap(ArrivalTap t) {
        tap = t;
    }

    void connect(int port, Wire wire) {
        wires[port] = wire;
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        if (kind == EventLoop.FRAME) {
            if (tap != null) {
                tap.onArrival(port, arg, now);
            }
            core.onFrame(port, arg, now);
        } else {
            if (now == scheduledWake) {
                scheduledWake = Long.MAX_VALUE;
            }
            core.onTimer(now);
        }
        long due = core.nextTimerDue();
        if (due < scheduledWake) {
            scheduledWake = due;
            loop.schedule(due, id, EventLoop.WAKE, 0, 0);
        }
        if (observer != null) {
            observer.afterEvent(core, now);
        }
    }

    @Override
    public void transmit(int port, long handle, int length, long startNanos) {
        wires[port].send(handle, length, startNanos);
    }

    /** The wire out of {@code port}. */
    Wire wire(int port) {
        return wires[port];
    }

    public SwitchCore core() {
        return core;
    }
}

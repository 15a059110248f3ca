package org.pfcswitch.testbed;

import java.util.Arrays;

/** Forwards the hosts' flow events to every registered listener, in registration order. */
final class FlowListeners implements FlowListener {
    private FlowListener[] all = new FlowListener[0];

    void add(FlowListener l) {
        all = Arrays.copyOf(all, all.length + 1);
        all[all.length - 1] = l;
    }

    @Override
    public void onFlowAdded(int flow) {
        for (FlowListener l : all) {
            l.onFlowAdded(flow);
        }
    }

    @Override
    public void onFlowSent(int flow, long now) {
        for (FlowListener l : all) {
            l.onFlowSent(flow, now);
        }
    }

    @Override
    public void onFlowReceived(int flow, long now) {
        for (FlowListener l : all) {
            l.onFlowReceived(flow, now);
        }
    }
}

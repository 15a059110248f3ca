package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The copies that clone ports replay ({@link Testbed.Builder#cloneOf}), as a traffic to report: it
 * starts nothing itself, and its flows are the shadow flows of the named clone ports, in the
 * order the testbed adds them (whether their source flows came before or after this was installed).
 */
public final class Replay implements Traffic, FlowListener {

    private final String name;
    private final int[] clones;
    private final List<Integer> ids = new ArrayList<>();
    private Hosts tb;

    /** {@code clonePorts} may be empty: then nothing is replayed and the traffic reports 0. */
    public Replay(String name, int[] clonePorts) {
        this.name = name;
        this.clones = clonePorts.clone();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public void install(Hosts testbed, SplittableRandom random) {
        tb = testbed;
        for (int c : clones) {
            if (testbed.host(c).cloneSource() < 0) {
                throw new IllegalArgumentException("replay '" + name + "': host " + c + " is not a clone port");
            }
        }
        for (int f = 0; f < testbed.records().count(); f++) {
            onFlowAdded(f);
        }
        testbed.addListener(this);
    }

    @Override
    public void onFlowAdded(int flow) {
        int src = tb.records().src(flow);
        for (int c : clones) {
            if (c == src) {
                ids.add(flow);
                return;
            }
        }
    }

    @Override
    public List<Integer> flowIds() {
        return ids;
    }
}

package org.pfcswitch.testbed;

import java.util.Arrays;

/** Every flow of a testbed by id (the QP number its frames carry), shared by the hosts. */
final class FlowTable {

    private Flow[] flows = new Flow[64];
    private int count;

    void add(Flow f) {
        if (f.id != count) {
            throw new IllegalStateException("flow ids must be dense, got " + f.id + " after " + count);
        }
        if (count == flows.length) {
            flows = Arrays.copyOf(flows, count * 2);
        }
        flows[count++] = f;
    }

    /** The flow with this id, or null for an id no flow has. */
    Flow get(int id) {
        return id >= 0 && id < count ? flows[id] : null;
    }
}

package org.pfcswitch.testbed;

/**
 * Flow life-cycle hooks of a testbed, for traffic generators that react to the run (a burst
 * sender that starts its next flow when the last one is out) and for tests. Called from inside the
 * event loop: a listener may add flows starting now or later, nothing else.
 */
public interface FlowListener {

    /** {@code flow} was added to the testbed (it starts at its start time); shadows of clone ports included. */
    default void onFlowAdded(int flow) {}

    /** The sender put the last byte of {@code flow} on its line at {@code now}. */
    default void onFlowSent(int flow, long now) {}

    /** The receiver got the last byte of {@code flow} at {@code now}. */
    default void onFlowReceived(int flow, long now) {}
}

package org.pfcswitch.testbed;

/**
 * A traffic generator: puts its flows into a testbed before the run (and, for generators that
 * react to the run, registers a {@link FlowListener}). Every random choice is drawn from the
 * generator's own seeded stream, so adding one generator does not change another's flows.
 */
public interface Traffic {

    /** The name results are reported under (e.g. a flow name such as F1, or "bursts"). */
    String name();

    /** Adds the flows; returns nothing: the ids are in {@link #flowIds()} as they are created. */
    void install(Hosts tb, java.util.SplittableRandom random);

    /** Ids of the flows this generator created so far, in creation order. */
    java.util.List<Integer> flowIds();
}

package org.pfcswitch.testbed;

/** Optional per-frame hooks on an emulated host, for tests and traces; the default does nothing. */
public interface HostObserver {

    /**
     * The host started a data frame of {@code flow} (also its destination QP) with {@code psn} and
     * {@code priority} on its line at {@code start}.
     */
    default void onTransmit(int host, int flow, int psn, int priority, int length, long start) {}

    /** The host received a PFC frame at {@code now}; {@code quanta[p]} is valid where {@code classEnable} has bit p. */
    default void onPfc(int host, int classEnable, int[] quanta, long now) {}

    HostObserver NONE = new HostObserver() {};
}

package org.pfcswitch.core;

/**
 * What a clone port does with a PFC PAUSE the switch sends to it: a {@code kind: clone} port of a
 * switch config, or the testbed's {@code Testbed.Builder#cloneOf}. A clone port has no sender behind it: the switch replays another port's ingress on it (the SPFC
 * testbed's "5 copies of the traffic from the H1 port", SPFC §VII-B).
 */
public enum ClonePfc {
    /**
     * The PAUSE reaches no sender and stops nothing: copies keep arriving whenever the source
     * sends (the default; a frame sent out of a virtual port goes nowhere). The replay still stops
     * whenever the source itself is paused, since there is nothing to copy then.
     */
    IGNORE,
    /**
     * The switch does not inject copies into a clone port while that port's priority is paused:
     * they are skipped, not queued (a replay has no buffer of its own), so the copied flow loses
     * those packets at the receiver.
     */
    SKIP
}

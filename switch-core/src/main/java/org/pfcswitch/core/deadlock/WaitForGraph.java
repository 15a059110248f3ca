package org.pfcswitch.core.deadlock;

/**
 * A wait-for graph as the cycle search sees it: nodes {@code 0..nodes()-1}, each with a fixed
 * number of numbered edge slots. Implementations answer from live state (a switch core's PFC
 * state, a testbed's cabling, a fabric's fetched edges) and allocate nothing: the search asks
 * edge by edge, so no edge list is ever built.
 */
public interface WaitForGraph {

    /** Node ids are {@code 0..nodes()-1}. */
    int nodes();

    /** Whether {@code node} waits at all (a paused ingress queue); only waiting nodes start a search. */
    boolean waits(int node);

    /** How many edge slots {@code node} has; the search tries them in order 0, 1, ... */
    int slots(int node);

    /** The node {@code node} waits for through edge slot {@code slot}, or -1 when that slot holds no edge now. */
    int successor(int node, int slot);
}

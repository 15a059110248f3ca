package org.pfcswitch.dpdk;

/**
 * The CPU's time-stamp counter: DPDK's clock, read with one {@code rdtsc} per call (a critical
 * downcall, a few nanoseconds). The switch core takes time as an argument; the poll-mode driver
 * reads it here once per burst.
 */
public final class Tsc {

    private Tsc() {}

    /** The counter now. */
    public static long read() {
        return Shim.tsc();
    }

    /** Ticks per second, as EAL measured it at start-up. */
    public static long hz() {
        Eal.requireRunning();
        return Shim.tscHz();
    }
}

package org.pfcswitch.core;

/**
 * How long a frame occupies an Ethernet line. Frame lengths in the switch exclude the FCS (as
 * the codec writes them); on the wire every frame also costs its FCS, the preamble with SFD and
 * the minimum inter-frame gap. Both the core's per-port shaper and the virtual links use this one
 * formula, so a frame's arrival time and the line's free time agree to the nanosecond.
 */
public final class LineRate {

    /** FCS (4) + preamble and SFD (8) + inter-frame gap (12). */
    public static final int WIRE_OVERHEAD_BYTES = 24;

    private LineRate() {}

    /** Nanoseconds a frame of {@code frameBytes} keeps a line of {@code bitsPerSecond} busy, rounded up. */
    public static long nanos(int frameBytes, long bitsPerSecond) {
        long bits = (frameBytes + (long) WIRE_OVERHEAD_BYTES) * 8;
        return (bits * 1_000_000_000L + bitsPerSecond - 1) / bitsPerSecond;
    }
}

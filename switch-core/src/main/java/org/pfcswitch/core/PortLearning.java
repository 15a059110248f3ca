package org.pfcswitch.core;

/**
 * What the switch may learn on one port (port security, as a switch's per-port MAC limit and
 * MAC-move guard): at most {@code maxMacs} stations learned on the port (a new source beyond them
 * is forwarded but not learned, and counted), and whether a station already learned on another port
 * may move to this one. A spoofer that sends one frame with another host's source MAC moves that
 * host's traffic to itself unless its port denies moves. Static entries never move, whatever this says.
 *
 * @param maxMacs stations learned on the port at most, 1.. ({@link #UNLIMITED}: no limit)
 * @param moves   whether a station learned on another port moves here when it is seen here
 */
public record PortLearning(int maxMacs, Moves moves) {

    /** No limit on the stations a port learns. */
    public static final int UNLIMITED = Integer.MAX_VALUE;

    /** The default: learn every station, let a station move here. */
    public static final PortLearning OPEN = new PortLearning(UNLIMITED, Moves.ALLOW);

    /** What a station learned on another port and now seen on this one does. */
    public enum Moves {
        /** It moves here (counted and logged as a MAC move). */
        ALLOW,
        /** It stays where it was learned (counted and logged as a move denied); the frame is still forwarded. */
        DENY
    }

    public PortLearning {
        if (maxMacs < 1) {
            throw new IllegalArgumentException("maxMacs must be at least 1, got " + maxMacs);
        }
        if (moves == null) {
            throw new IllegalArgumentException("moves must be allow or deny");
        }
    }
}

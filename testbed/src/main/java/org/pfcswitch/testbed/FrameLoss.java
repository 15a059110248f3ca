package org.pfcswitch.testbed;

import org.pfcswitch.codec.ParsedFrame;

/**
 * Frames a wire loses on purpose: fault injection for tests and what-if runs (a lost PAUSE, a
 * corrupted RESUME). Installed with {@link Testbed#loseFramesTowards}; a wire without one checks
 * nothing per frame.
 */
@FunctionalInterface
public interface FrameLoss {

    /** Whether the wire loses {@code frame}, which starts on the line at {@code now}. */
    boolean loses(ParsedFrame frame, long now);
}

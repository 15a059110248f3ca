package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;

/**
 * What a received PFC frame's pause time means, and whether a switch repeats its XOFF: the one
 * model choice of priority flow control where simulators differ. Chosen once per switch or host
 * (each constant is its own policy class), never tested per frame.
 */
public enum PfcPauseMode implements YamlNamed {

    /**
     * IEEE 802.1Qbb as NICs and switch ASICs run it (the default): a pause lasts
     * {@code quanta × 512} bit times at the port's speed and then expires by itself; a switch that
     * still holds a priority XOFF refreshes its pause at half that time.
     */
    QUANTA("quanta") {
        @Override
        long pauseEnd(int quanta, long speedBps, long now) {
            return now + MacControl.quantaToNanos(quanta, speedBps);
        }

        @Override
        public boolean refreshes() {
            return true;
        }
    },

    /**
     * PAUSE until RESUME (the ns-3 datacenter simulators' qbb device): any non-zero pause time
     * stops the priority until a frame with time 0 arrives, however long that takes; a switch sends
     * one XOFF when its MMU pauses and one XON when it resumes, never a refresh.
     */
    UNTIL_RESUME("untilResume") {
        @Override
        long pauseEnd(int quanta, long speedBps, long now) {
            return quanta == 0 ? now : DeadlineHeap.NEVER;
        }

        @Override
        public boolean refreshes() {
            return false;
        }
    };

    private final String yamlName;

    PfcPauseMode(String yamlName) {
        this.yamlName = yamlName;
    }

    /** Until when a frame received at {@code now} with {@code quanta} pauses a port of {@code speedBps}. */
    abstract long pauseEnd(int quanta, long speedBps, long now);

    /** Whether a switch repeats its XOFF while the priority stays paused. */
    public abstract boolean refreshes();

    /** The name scenario files use ({@code pfc.mode}). */
    @Override
    public String yamlName() {
        return yamlName;
    }
}

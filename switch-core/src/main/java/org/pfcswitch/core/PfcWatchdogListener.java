package org.pfcswitch.core;

/**
 * Told on the thread that owns the core when the PFC watchdog declares an egress queue stormed or
 * restores it. Called from inside {@link SwitchCore#onTimer}: keep it short and allocation-free on
 * a live worker (hand the event to another thread to log).
 */
public interface PfcWatchdogListener {

    /** Egress queue {@code (port, priority)} was paused for {@code pausedNanos} without a break: stormed from {@code now}. */
    void onStorm(int port, int priority, long pausedNanos, long now);

    /** No pause frame for {@code (port, priority)} for the restoration time: it obeys the neighbour again from {@code now}. */
    void onRestore(int port, int priority, long stormedNanos, long now);

    PfcWatchdogListener NONE = new PfcWatchdogListener() {
        @Override
        public void onStorm(int port, int priority, long pausedNanos, long now) {}

        @Override
        public void onRestore(int port, int priority, long stormedNanos, long now) {}
    };
}

package org.pfcswitch.control;

/** A {@link SwitchMetrics.Driver} of a switch without DPDK ports: nothing refused, missed or stalled. */
public final class IdleDriver implements SwitchMetrics.Driver {

    public static final IdleDriver INSTANCE = new IdleDriver();

    private IdleDriver() {}

    @Override
    public long txRefused(int port) {
        return 0;
    }

    @Override
    public long rxMissed(int port) {
        return 0;
    }

    @Override
    public long stalls(int bucket) {
        return 0;
    }
}

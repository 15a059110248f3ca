package org.pfcswitch.testbed;

import org.pfcswitch.core.SwitchCore;

/**
 * An optional hook on an emulated switch ({@link Testbed#observeSwitch}): told after every event the
 * event loop delivered to the switch (a frame in, a timer), with the switch's state as the event
 * left it. For traces; it must only read the core. None by default, at no cost.
 */
@FunctionalInterface
public interface SwitchObserver {
    void afterEvent(SwitchCore core, long nowNanos);
}

package org.pfcswitch.core.ring;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.core.PfcWatchdogEvents;

/** The watchdog's events through the ring: fields packed and unpacked whole, a full ring counts what it loses. */
class PfcWatchdogEventsTest {

    @Test
    void eventsComeOutAsTheyWentInAndAFullRingCountsItsLosses() {
        PfcWatchdogEvents events = new PfcWatchdogEvents();
        List<String> seen = new ArrayList<>();
        PfcWatchdogEvents.Sink sink = (storm, port, priority, nanos, at, action) -> seen.add(storm + " " + port + "/" + priority + " " + nanos + " @" + at
                + (action == null ? "" : " " + action.label()));

        events.onStorm(0xABCDEF, 7, 50_000, 1_000, org.pfcswitch.core.PfcWatchdogConfig.Action.ALERT);
        events.onRestore(3, 0, 200_000, 2_000);
        assertEquals(2, events.drain(sink));
        assertEquals(List.of("true 11259375/7 50000 @1000 alert", "false 3/0 200000 @2000"), seen);

        for (int i = 0; i < 300; i++) {
            events.onStorm(i, 3, i, i, org.pfcswitch.core.PfcWatchdogConfig.Action.DROP);
        }
        assertEquals(300 - 256, events.lost());
        seen.clear();
        assertEquals(256, events.drain(sink));
        assertEquals("true 255/3 255 @255 drop", seen.getLast());
        assertEquals(0, events.drain(sink));
    }
}

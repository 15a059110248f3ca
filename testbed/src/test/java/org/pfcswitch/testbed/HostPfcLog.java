package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;

/** A host's own log, for tests: each data frame it starts and each PFC frame for one priority it receives. */
final class HostPfcLog {

    /** A PFC frame for the priority (quanta >= 0) or a transmission (quanta -1, the frame's priority). */
    record Entry(long time, int quanta, int priority) {}

    private HostPfcLog() {}

    /** Attaches a log of {@code host}'s sends and of the PFC frames for {@code priority} it receives; filled as the run goes. */
    static List<Entry> attach(RoceHost host, int priority) {
        List<Entry> log = new ArrayList<>();
        host.observe(new HostObserver() {
            @Override
            public void onTransmit(int h, int flow, int psn, int framePriority, int length, long start) {
                log.add(new Entry(start, -1, framePriority));
            }

            @Override
            public void onPfc(int h, int classEnable, int[] quanta, long now) {
                if ((classEnable >>> priority & 1) != 0) {
                    log.add(new Entry(now, quanta[priority], priority));
                }
            }
        });
        return log;
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.pfcswitch.mmu.MmuConfig;

/**
 * The whole virtual-time loop allocates nothing per packet once warm: emulated hosts with DCQCN
 * (rate limiter, CNPs, ACKs), the switch core with ECN marking and PFC (or BFC pauses), the
 * event loop and the wires, over 2 ms of a 3-to-1 congestion with long-lived flows. Flow
 * set-up allocates (a flow object and its frame template), so no flow starts in the window.
 */
class HostPathAllocationTest {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"dt", "bfc", "dt ns3-datacenter"})
    void congestedLongFlowsAllocateNothingPerPacket(String run) {
        String scheme = run.split(" ")[0];
        Testbed.Builder b = Testbed.singleSwitch(4).seed(1).links(100_000_000_000L, 2_000).dcqcn(DcqcnConfig.defaults())
                .mmu(MmuConfig.builder().totalBytes(4L << 20).scheme(scheme));
        if (run.endsWith(SimModel.NS3_DATACENTER)) {                     // every model option of the ns-3 profile
            b.switchModel(new org.pfcswitch.core.SwitchModel(org.pfcswitch.core.PfcPauseMode.UNTIL_RESUME,
                    org.pfcswitch.core.EcnPoint.AFTER_DEQUEUE, org.pfcswitch.core.EcmpHash.FIVE_TUPLE, 0, true,
                    org.pfcswitch.core.Scheduling.ROUND_ROBIN, org.pfcswitch.core.FrameCost.NS3_PACKET))
                    .hostModel(new HostModel(org.pfcswitch.core.PfcPauseMode.UNTIL_RESUME, CnpPolicy.ON_ACK,
                            4_000, AckPolicy.PACKET, 3))
                    .headroomQueues(HeadroomQueues.LOSSLESS_AND_QUEUE0);
        }
        Testbed tb = b.build();
        for (int s = 0; s < 3; s++) {
            tb.addFlow(s, 3, 3, Long.MAX_VALUE / 4, 0);
        }
        tb.runUntil(3_000_000);                                          // warm-up: JIT, ring and slot growth
        long events = tb.loop().eventsDispatched();
        long cnps = 0;
        long pauses = 0;
        for (int h = 0; h < 4; h++) {
            cnps -= tb.host(h).cnpsSent();
            pauses -= tb.core().pauseFramesSent(h);
        }
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        tb.runUntil(5_000_000);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        events = tb.loop().eventsDispatched() - events;
        for (int h = 0; h < 4; h++) {
            cnps += tb.host(h).cnpsSent();
            pauses += tb.core().pauseFramesSent(h);
        }

        assertTrue(events > 50_000, "the window must carry traffic: " + events + " events");
        if (scheme.equals("bfc")) {                                      // BFC holds the queue below ECN's Kmin
            assertTrue(pauses > 0, "BFC must be pausing the senders in the window");
        } else {
            assertTrue(cnps > 0, "DCQCN must be at work in the window (CNPs sent)");
        }
        assertTrue(allocated < 16_384, run + ": " + allocated + " B allocated over " + events + " events");
    }
}

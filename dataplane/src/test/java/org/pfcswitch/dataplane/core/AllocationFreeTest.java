package org.pfcswitch.dataplane.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * The per-frame path of the core allocates nothing after warm-up: a 3-to-1 incast with PFC
 * emission and refresh, received pauses, ECN marking and MMU admission, measured with the
 * thread's allocated-bytes counter over 600,000 arrival slots.
 */
class AllocationFreeTest {

    private static final int OUT = 3;

    @Test
    void steadyStateForwardingAllocatesNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").ecnKminBytes(20_000).ecnKmaxBytes(200_000).build())
                .pauseQuanta(200).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        MemorySegment[] templates = new MemorySegment[3];
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).dscp(26).payloadBytes(1000);
        for (int in = 0; in < 3; in++) {
            b.macs(Configs.host(OUT), Configs.host(in)).destQp(in);
            templates[in] = MemorySegment.ofArray(new byte[b.frameLength()]);
            b.write(templates[in], 0);
        }
        long[] clock = {0};
        drive(rig, templates, clock, 300_000);                       // warm-up: JIT, queue and slot growth
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        long sentBefore = rig.transmitted;
        long pfcBefore = rig.core.counters().pfcFramesTx[0];
        drive(rig, templates, clock, 600_000);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;

        assertTrue(rig.transmitted - sentBefore > 150_000, "the output ran near line rate (a third of the offered load)");
        assertTrue(rig.core.counters().pfcFramesTx[0] > pfcBefore, "PFC frames were emitted in the measured run");
        assertTrue(rig.core.counters().ecnMarked[OUT * 8 + 3] > 0, "ECN marks were made");
        assertEquals(0, rig.core.mmu().losslessViolations());
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /**
     * Three senders at line rate each into one port; a sender holds off while the core advertises
     * XOFF towards it (an ideal upstream); every 1000 frames the output port gets a short pause.
     */
    private static void drive(CoreRig rig, MemorySegment[] templates, long[] clock, int frames) {
        int length = (int) templates[0].byteSize();
        long frameTime = LineRate.nanos(length, Configs.GBPS_100);
        MemorySegment slab = rig.bytes();
        for (int i = 0; i < frames; i++) {
            int in = i % 3;
            long now = clock[0] + frameTime / 3;
            clock[0] = now;
            rig.runUntil(now);
            if (i % 1000 == 999) {
                rig.receivePfc(OUT, 1 << 3, 100, now);
            }
            if (rig.core.mmu().flowControl().isAdvertisedXoff(in, 3)) {
                continue;
            }
            long h = rig.allocate(length);
            MemorySegment.copy(templates[in], 0, slab, rig.offset(h), length);
            rig.core.onFrame(in, h, now);
        }
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.RoceFrameBuilder;

/** ECMP groups: per-flow choice by hash, one port per flow, spread over flows, no per-frame allocation. */
class EcmpTest {

    /** A remote station reached over ports 2 and 3 (a leaf's two uplinks). */
    private static final long REMOTE = 0x0200_0000_0C00L;

    private static CoreConfig leafLike() {
        return Configs.core(Configs.mmu(4, "dt").build()).learning(false).ecmpGroup(REMOTE, 2, 3).build();
    }

    /** One WRITE frame of flow {@code qp} (its own UDP source port too, as the testbed's hosts do). */
    private static long frame(CoreRig rig, RoceFrameBuilder b, int qp, int psn) {
        b.macs(REMOTE, Configs.host(0)).ips(0x0A00_0001, 0x0A00_0009).dscp(26).destQp(qp)
                .udpSrcPort(49152 + qp).psn(psn).payloadBytes(200);
        long h = rig.allocate(b.frameLength());
        b.write(rig.bytes(), rig.offset(h));
        return h;
    }

    @Test
    void eachFlowKeepsOnePortAndFlowsSpreadOverTheGroup() {
        CoreRig rig = new CoreRig(leafLike());
        RoceFrameBuilder b = new RoceFrameBuilder();
        int flows = 400;
        int[] portOf = new int[flows];
        long t = 0;
        for (int qp = 0; qp < flows; qp++) {
            for (int psn = 0; psn < 3; psn++) {
                rig.sent.clear();
                rig.core.onFrame(0, frame(rig, b, qp, psn), t);
                t += 1_000;
                rig.runUntil(t);
                assertEquals(1, rig.sent.size(), "unicast, never flooded");
                int port = rig.sent.getFirst().port();
                assertTrue(port == 2 || port == 3, "a group member, got " + port);
                if (psn == 0) {
                    portOf[qp] = port;
                } else {
                    assertEquals(portOf[qp], port, "flow " + qp + " changed path");
                }
            }
        }
        int onTwo = 0;
        for (int p : portOf) {
            onTwo += p == 2 ? 1 : 0;
        }
        assertTrue(onTwo > flows * 0.4 && onTwo < flows * 0.6, onTwo + " of " + flows + " flows on port 2");
        assertEquals(0, rig.buffersInUse());
    }

    @Test
    void staticEntriesStillForwardAndConflictsAreRefused() {
        CoreRig rig = new CoreRig(leafLike());
        rig.receiveRoce(0, Configs.host(1), Configs.host(0), 26, 200, 0);
        rig.runUntil(10_000);
        assertEquals(1, rig.sentOn(1).size());
        assertThrows(IllegalArgumentException.class,
                () -> Configs.core(Configs.mmu(4, "dt").build()).ecmpGroup(Configs.host(1), 2, 3).build());
        assertThrows(IllegalArgumentException.class,
                () -> Configs.core(Configs.mmu(4, "dt").build()).ecmpGroup(REMOTE, 2, 4).build());
    }

    @Test
    void ecmpForwardingAllocatesNothing() {
        CoreRig rig = new CoreRig(leafLike(), 1 << 12, false);
        RoceFrameBuilder b = new RoceFrameBuilder();
        MemorySegment[] templates = new MemorySegment[64];
        for (int qp = 0; qp < templates.length; qp++) {
            long h = frame(rig, b, qp, 0);
            templates[qp] = MemorySegment.ofArray(new byte[b.frameLength()]);
            MemorySegment.copy(rig.bytes(), rig.offset(h), templates[qp], 0, b.frameLength());
            rig.free(h);
        }
        long[] clock = {0};
        drive(rig, templates, clock, 200_000);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        long sentBefore = rig.transmitted;
        drive(rig, templates, clock, 400_000);
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertTrue(rig.transmitted - sentBefore > 390_000, "every frame went out");
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 400,000 ECMP frames");
    }

    /** One frame per 100 ns from port 0, cycling over 64 flows: under the uplinks' line rate together. */
    private static void drive(CoreRig rig, MemorySegment[] templates, long[] clock, int frames) {
        for (int i = 0; i < frames; i++) {
            MemorySegment tpl = templates[i & 63];
            int length = (int) tpl.byteSize();
            long now = clock[0] + 100;
            clock[0] = now;
            rig.runUntil(now);
            long h = rig.allocate(length);
            MemorySegment.copy(tpl, 0, rig.bytes(), rig.offset(h), length);
            rig.core.onFrame(0, h, now);
        }
        rig.runUntil(clock[0] + 1_000_000);
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * The per-frame path of the core allocates nothing after warm-up: a 3-to-1 incast with PFC
 * emission and refresh, received pauses, ECN marking and MMU admission (and the same under BFC:
 * queue assignment, marking, PAUSE/RESUME/BITMAP out, downstream pauses in), measured with the
 * thread's allocated-bytes counter over 600,000 arrival slots.
 */
class AllocationFreeTest {

    private static final int OUT = 3;

    @Test
    void steadyStateForwardingAllocatesNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").ecnKminBytes(20_000).ecnKmaxBytes(200_000).build())
                .pauseQuanta(200).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        MemorySegment[] templates = CoreRig.roceTemplates(OUT, 3);
        Upstream upstream = new Upstream() {
            @Override public boolean holdsOff(int in) { return rig.core.mmu().flowControl().isAdvertisedXoff(in, 3); }
            @Override public void downstreamEvent(long now) { rig.receivePfc(OUT, 1 << 3, 100, now); }
        };
        long[] clock = {0};
        drive(rig, templates, upstream, clock, 300_000);             // warm-up: JIT, queue and slot growth
        long sentBefore = rig.transmitted;
        long pfcBefore = rig.core.counters().pfcFramesTx[0];
        long allocated = allocatedBy(() -> drive(rig, templates, upstream, clock, 600_000));

        assertTrue(rig.transmitted - sentBefore > 150_000, "the output ran near line rate (a third of the offered load)");
        assertTrue(rig.core.counters().pfcFramesTx[0] > pfcBefore, "PFC frames were emitted in the measured run");
        assertTrue(rig.core.counters().ecnMarked[OUT * 8 + 3] > 0, "ECN marks were made");
        assertEquals(0, rig.core.mmu().losslessViolations());
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /** The same incast fed in rx bursts ({@link SwitchCore#onFrames}: the burst parsed first, then forwarded): nothing allocated either. */
    @Test
    void rxBurstsAllocateNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").ecnKminBytes(20_000).ecnKmaxBytes(200_000).build())
                .pauseQuanta(200).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        MemorySegment[] templates = CoreRig.roceTemplates(OUT, 3);
        Upstream upstream = new Upstream() {
            @Override public boolean holdsOff(int in) { return rig.core.mmu().flowControl().isAdvertisedXoff(in, 3); }
            @Override public void downstreamEvent(long now) { rig.receivePfc(OUT, 1 << 3, 100, now); }
        };
        long[] clock = {0};
        driveBursts(rig, templates, upstream, clock, 300_000);
        long sentBefore = rig.transmitted;
        long pfcBefore = rig.core.counters().pfcFramesTx[0];
        long allocated = allocatedBy(() -> driveBursts(rig, templates, upstream, clock, 600_000));

        assertTrue(rig.transmitted - sentBefore > 150_000, "the output ran near line rate (a third of the offered load)");
        assertTrue(rig.core.counters().pfcFramesTx[0] > pfcBefore, "PFC frames were emitted in the measured run");
        assertEquals(0, rig.core.mmu().losslessViolations());
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /** The same with two shadow schemes beside the real buffer: their admissions, releases and XOFF counting allocate nothing. */
    @Test
    void shadowSchemesAllocateNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").ecnKminBytes(20_000).ecnKmaxBytes(200_000)
                        .schemeParameter("st", "thresholdBytes", "4000").build())
                .pauseQuanta(200).shadows(java.util.List.of("dsh", "spfc", "st")).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        MemorySegment[] templates = CoreRig.roceTemplates(OUT, 3);
        Upstream upstream = new Upstream() {
            @Override public boolean holdsOff(int in) { return rig.core.mmu().flowControl().isAdvertisedXoff(in, 3); }
            @Override public void downstreamEvent(long now) { rig.receivePfc(OUT, 1 << 3, 100, now); }
        };
        long[] clock = {0};
        drive(rig, templates, upstream, clock, 300_000);
        long dshAdmitted = rig.core.shadows().mmu(0).admittedPackets();
        long allocated = allocatedBy(() -> drive(rig, templates, upstream, clock, 600_000));

        assertTrue(rig.core.shadows().mmu(0).admittedPackets() > dshAdmitted + 150_000, "the shadows saw the measured run");
        assertTrue(rig.core.shadows().mmu(2).flowControl().xoffEvents() > 0, "the st shadow counted XOFFs");
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /**
     * The same with the PFC watchdog on (action drop, detection 50 us, restoration 100 us, poll 10 us):
     * the output's neighbour pauses priority 3 without a break for 30 downstream events (about 2.5 ms),
     * then stays silent for 30, over and over, so storms are declared, queues dropped and restored
     * throughout the measured run.
     */
    @Test
    void pfcWatchdogStormsAndRestorationsAllocateNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).pauseQuanta(200)
                .pfcwd(new PfcWatchdogConfig(50_000, 100_000, PfcWatchdogConfig.Action.DROP, 10_000)).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        MemorySegment[] templates = CoreRig.roceTemplates(OUT, 3);
        int[] events = {0};
        Upstream upstream = new Upstream() {
            @Override public boolean holdsOff(int in) { return rig.core.mmu().flowControl().isAdvertisedXoff(in, 3); }
            @Override public void downstreamEvent(long now) {
                if (events[0]++ % 60 < 30) {
                    rig.receivePfc(OUT, 1 << 3, 65535, now);
                }
            }
        };
        long[] clock = {0};
        drive(rig, templates, upstream, clock, 300_000);
        SwitchCounters c = rig.core.counters();
        long storms = c.pfcwdStorms[OUT * 8 + 3];
        long restorations = c.pfcwdRestorations[OUT * 8 + 3];
        long drops = c.pfcwdDrops[OUT * 8 + 3];
        long allocated = allocatedBy(() -> drive(rig, templates, upstream, clock, 600_000));

        assertTrue(c.pfcwdStorms[OUT * 8 + 3] > storms, "storms were declared in the measured run");
        assertTrue(c.pfcwdRestorations[OUT * 8 + 3] > restorations, "and restored");
        assertTrue(c.pfcwdDrops[OUT * 8 + 3] > drops, "stormed frames were dropped");
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /**
     * The same under BFC: each sender's frames carry the shim naming its upstream queue, a sender
     * holds off while the core's pause counter for that queue is set (an ideal upstream), and every
     * 1000 frames the downstream pauses and later resumes one of the output's flow queues.
     */
    @Test
    void bfcSteadyStateAllocatesNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "bfc").build()).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        var backpressure = ((org.pfcswitch.mmu.scheme.Bfc) rig.core.mmu().scheme()).backpressure();
        MemorySegment[] templates = new MemorySegment[3];
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).dscp(26).payloadBytes(1000);
        for (int in = 0; in < 3; in++) {
            b.macs(Configs.host(OUT), Configs.host(in)).destQp(in).udpSrcPort(1000 + in).bfcUpstreamQueue(in + 1);
            templates[in] = MemorySegment.ofArray(new byte[b.frameLength()]);
            b.write(templates[in], 0);
        }
        int[] events = {0};
        Upstream upstream = new Upstream() {
            @Override public boolean holdsOff(int in) { return backpressure.pauseCounter(in, in + 1) > 0; }
            @Override public void downstreamEvent(long now) {
                long h = rig.allocate(60);
                int seq = events[0]++;
                int queue = 1 + seq / 2 % 3;
                if (seq % 2 == 0) {
                    Bfc.writePause(rig.bytes(), rig.offset(h), Bfc.NEAREST_BRIDGE, Configs.host(OUT), seq, queue);
                } else {
                    Bfc.writeResume(rig.bytes(), rig.offset(h), Bfc.NEAREST_BRIDGE, Configs.host(OUT), seq, queue);
                }
                rig.core.onFrame(OUT, h, now);
            }
        };
        long[] clock = {0};
        drive(rig, templates, upstream, clock, 300_000);
        long sentBefore = rig.transmitted;
        long pausesBefore = rig.core.counters().bfcPauseTx[0];
        long allocated = allocatedBy(() -> drive(rig, templates, upstream, clock, 600_000));

        assertTrue(rig.transmitted - sentBefore > 150_000, "the output ran near line rate");
        assertTrue(rig.core.counters().bfcPauseTx[0] > pausesBefore, "BFC pauses were sent in the measured run");
        assertTrue(rig.core.counters().bfcControlRx[OUT] > 0, "downstream pauses were applied");
        assertEquals(0, rig.core.counters().totalDrops());
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 600,000 arrival slots");
    }

    /** {@link #drive} with each sender's frames in bursts of 8 that arrive at one instant (as a poll-mode rx burst). */
    private static void driveBursts(CoreRig rig, MemorySegment[] templates, Upstream upstream, long[] clock,
                                    int frames) {
        int burst = 8;
        int length = (int) templates[0].byteSize();
        long burstTime = LineRate.nanos(length, Configs.GBPS_100) * burst;
        MemorySegment slab = rig.bytes();
        long[] handles = new long[burst];
        for (int i = 0; i < frames / burst; i++) {
            int in = i % 3;
            long now = clock[0] + burstTime / 3;
            clock[0] = now;
            rig.runUntil(now);
            if (i % 125 == 124) {
                upstream.downstreamEvent(now);
            }
            if (upstream.holdsOff(in)) {
                continue;
            }
            for (int k = 0; k < burst; k++) {
                handles[k] = rig.allocate(length);
                MemorySegment.copy(templates[in], 0, slab, rig.offset(handles[k]), length);
            }
            rig.core.onFrames(in, handles, 0, burst, now);
        }
    }

    /** What the test's ideal neighbours do. */
    private interface Upstream {
        /** Sender {@code in} must not send now. */
        boolean holdsOff(int in);

        /** Every 1000 arrival slots: something from the output port's downstream neighbour. */
        void downstreamEvent(long now);
    }

    /**
     * A station whose frames come in by turns on two ports that allow moves and one that denies
     * them (a spoofing storm): every frame a move or a denied move, counted and rate-limited into
     * the log's ring, and nothing allocated.
     */
    @Test
    void macMovesAndDeniedMovesAllocateNothing() {
        CoreConfig config = Configs.core(Configs.mmu(4, "dt").build()).learning(true)
                .portLearning(2, new PortLearning(PortLearning.UNLIMITED, PortLearning.Moves.DENY)).build();
        CoreRig rig = new CoreRig(config, 1 << 14, false);
        long station = 0x0200_0000_0B00L;                            // learned, not one of the static hosts
        long[] clock = {0};
        Runnable storm = () -> {
            for (int i = 0; i < 300_000; i++) {
                clock[0] += 1_000;
                rig.runUntil(clock[0]);
                rig.core.onFrame(i % 3, rig.roceFrame(Configs.host(3), station, 0, 0, 64, i), clock[0]);
            }
        };
        storm.run();                                                  // warm-up
        long moves = rig.core.counters().macMoves[0] + rig.core.counters().macMoves[1];
        long allocated = allocatedBy(storm);
        assertTrue(rig.core.counters().macMoves[0] + rig.core.counters().macMoves[1] - moves > 150_000, "moves were made");
        assertTrue(rig.core.counters().macMovesDenied[2] > 0, "moves were denied");
        assertTrue(rig.core.macMoveEvents().drain((mac, from, to, denied, since, at) -> { }) > 0, "and reported");
        assertTrue(allocated < 4_096, "the core allocated " + allocated + " B over 300,000 moves and denied moves");
    }

    private static long allocatedBy(Runnable run) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        long before = threads.getThreadAllocatedBytes(tid);
        run.run();
        return threads.getThreadAllocatedBytes(tid) - before;
    }

    /** Three senders at line rate each into one port, held off as {@code upstream} says. */
    private static void drive(CoreRig rig, MemorySegment[] templates, Upstream upstream, long[] clock, int frames) {
        int length = (int) templates[0].byteSize();
        long frameTime = LineRate.nanos(length, Configs.GBPS_100);
        MemorySegment slab = rig.bytes();
        for (int i = 0; i < frames; i++) {
            int in = i % 3;
            long now = clock[0] + frameTime / 3;
            clock[0] = now;
            rig.runUntil(now);
            if (i % 1000 == 999) {
                upstream.downstreamEvent(now);
            }
            if (upstream.holdsOff(in)) {
                continue;
            }
            long h = rig.allocate(length);
            MemorySegment.copy(templates[in], 0, slab, rig.offset(h), length);
            rig.core.onFrame(in, h, now);
        }
    }
}

package org.pfcswitch.core;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.mmu.RandomSource;

/**
 * Each worker learns from its own ports and tells the others: a station behind worker 1's port is
 * forwarded to by worker 0 without flooding once worker 0 has taken the news from its ring.
 */
class WorkerLearningTest {

    private static final class Slab extends SlotSlab {
        long transmitted;

        Slab() {
            super(256);
        }
    }

    @Test
    void aStationLearnedByOneWorkerIsKnownToTheOther() {
        int ports = 4;
        CoreConfig config = CoreConfig.builder(Configs.mmu(ports, "dt").build()).learning(true).build();   // no static MACs
        Slab slab = new Slab();
        FrameSink sink = (port, handle, len, start) -> {
            slab.transmitted++;
            slab.free(handle);
        };
        SwitchWorkers workers = SwitchWorkers.create(config, SwitchModel.DEFAULT, new int[] {0, 0, 1, 1}, slab,
                new FrameAllocator[] {slab, slab}, new FrameSink[] {sink, sink},
                new RandomSource[] {RandomSource.seeded(1), RandomSource.seeded(2)}, 1024,
                SwitchWorkers.BUSY_PASS_NANOS);
        SwitchCore w0 = workers.core(0);
        SwitchCore w1 = workers.core(1);
        long host0 = Configs.host(0);
        long host2 = Configs.host(2);

        w1.onFrame(2, frame(slab, host0, host2), 1_000);      // host 2 speaks first, on worker 1's port
        assertEquals(1, w1.counters().flooded[2], "worker 1 did not know host 0 yet");
        assertEquals(-1, w0.forwardingTable().lookup(host2), "not told yet: the ring is read on the next pass");

        w1.publishToPeers();
        w0.onCrossings(2_000);                               // worker 0's next pass
        assertEquals(2, w0.forwardingTable().lookup(host2), "worker 0 learned host 2 from worker 1");

        w0.onFrame(0, frame(slab, host2, host0), 3_000);      // host 0 answers, on worker 0's port
        assertEquals(0, w0.counters().flooded[0], "worker 0 forwards to host 2 without flooding");
        w0.publishToPeers();
        w1.onCrossings(4_000);
        assertEquals(0, w1.forwardingTable().lookup(host0), "and worker 1 learned host 0 in turn");
        assertEquals(1, w1.counters().txFrames(2), "the answer crossed to worker 1 and left by port 2");
    }

    /**
     * Port security across workers: a spoofer on worker 1's port 2, which denies moves, sends with
     * host 0's source MAC. Told first, worker 1 keeps host 0 on port 0 (a denied move, counted); told
     * only after the spoofed frame (the news still on the ring), it learns host 0 on port 2 for a
     * moment, and the two tables settle on port 0 when each takes the other's news: the same port
     * rules apply to stations learned elsewhere.
     */
    @Test
    void aPortThatDeniesMovesHoldsAcrossWorkersWhateverTheOrderOfTheNews() {
        for (boolean toldFirst : new boolean[] {true, false}) {
            int ports = 4;
            CoreConfig config = CoreConfig.builder(Configs.mmu(ports, "dt").build()).learning(true)
                    .portLearning(2, new PortLearning(PortLearning.UNLIMITED, PortLearning.Moves.DENY)).build();
            Slab slab = new Slab();
            FrameSink sink = (port, handle, len, start) -> slab.free(handle);
            SwitchWorkers workers = SwitchWorkers.create(config, SwitchModel.DEFAULT, new int[] {0, 0, 1, 1}, slab,
                    new FrameAllocator[] {slab, slab}, new FrameSink[] {sink, sink},
                    new RandomSource[] {RandomSource.seeded(1), RandomSource.seeded(2)}, 1024,
                    SwitchWorkers.BUSY_PASS_NANOS);
            SwitchCore w0 = workers.core(0);
            SwitchCore w1 = workers.core(1);
            long host0 = Configs.host(0);
            long host3 = Configs.host(3);

            w0.onFrame(0, frame(slab, host3, host0), 1_000);      // host 0 speaks on worker 0's port 0
            w0.publishToPeers();
            if (toldFirst) {
                w1.onCrossings(2_000);
            }
            w1.onFrame(2, frame(slab, host3, host0), 3_000);      // the spoofer, on worker 1's port 2
            w1.publishToPeers();
            w1.onCrossings(4_000);
            w0.onCrossings(4_000);
            String when = toldFirst ? "told first" : "told after the spoofed frame";
            assertEquals(0, w0.forwardingTable().lookup(host0), when);
            assertEquals(0, w1.forwardingTable().lookup(host0), when);
            assertEquals(toldFirst ? 1 : 0, w1.counters().macMovesDenied[2], when);
            assertEquals(0, w1.counters().macMoves[2] + w0.counters().macMoves[2], when);
        }
    }

    private static long frame(SlotSlab slab, long dst, long src) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(dst, src).ips(1, 2).dscp(26).ecn(Ipv4.ECN_ECT0).destQp(1)
                .payloadBytes(100);
        long h = slab.allocate(b.frameLength());
        b.write(slab.bytes(), slab.offset(h));
        return h;
    }
}

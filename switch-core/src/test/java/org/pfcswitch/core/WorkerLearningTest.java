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
                new RandomSource[] {RandomSource.seeded(1), RandomSource.seeded(2)}, 1024);
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

    private static long frame(SlotSlab slab, long dst, long src) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(dst, src).ips(1, 2).dscp(26).ecn(Ipv4.ECN_ECT0).destQp(1)
                .payloadBytes(100);
        long h = slab.allocate(b.frameLength());
        b.write(slab.bytes(), slab.offset(h));
        return h;
    }
}

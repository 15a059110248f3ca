package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.netns.PacketSocket;
import org.pfcswitch.testbed.netns.VethPair;

/**
 * Two real-time hosts in two network namespaces joined by one veth pair (no switch): a flow
 * crosses in PSN order at the sender's configured rate and is acknowledged.
 */
class LiveHostsFlowTest {

    static final long RATE = 1_000_000_000L;

    @Test
    void aFlowCrossesAVethPairInPsnOrderAtTheConfiguredRate() throws Exception {
        VethPair pair = new VethPair("f");
        try (pair; PacketSocket a = PacketSocket.open(pair.a, "eth0"); PacketSocket b = PacketSocket.open(pair.b, "eth0")) {
            LiveHosts hosts = LiveHosts.builder()
                    .host("A", a, a.macAddress(), 0x0A4D_0001, RATE)
                    .host("B", b, b.macAddress(), 0x0A4D_0002, RATE)
                    .payloadMtu(1024).build();
            // The first 0.6 s warm the JIT up (a flow the other way round), as a real run's first second does.
            int warmUp = hosts.addFlow(1, 0, 3, 64_000_000L, 0);
            long bytes = 4L << 20;                           // 4096 packets, ~36 ms at 1 Gb/s
            int f = hosts.addFlow(0, 1, 3, bytes, 600_000_000L);
            FlowRecords rec = hosts.records();
            hosts.runUntil(600_000_000L);
            long slipBefore = hosts.slipNanos();
            long deadline = 3_000_000_000L;
            while (rec.ackedNanos(f) < 0 && hosts.now() < deadline) {
                hosts.runFor(100_000);
            }
            long slip = hosts.slipNanos() - slipBefore;
            long packets = (bytes + 1023) / 1024;
            assertEquals(packets, rec.sentPackets(f), "packets A sent");
            assertEquals(packets, rec.receivedPackets(f), "packets B received (socket drops "
                    + b.kernelDrops() + ", lost at A " + hosts.framesLost(0) + ")");
            assertEquals(0, rec.outOfOrder(f), "packets out of PSN order");
            assertEquals(bytes, rec.receivedPayloadBytes(f));
            assertTrue(rec.ackedNanos(f) > 0, "A got the final ACK");
            // The FCT: N x 8 / rate of payload, plus the 58 B of headers per 1024 B packet and 20 B of
            // preamble and gap (7.6 %) that the host's line also carries. Tolerance: +-5 % of that.
            double payloadOnly = bytes * 8e9 / RATE;
            double expected = rec.idealNanos(f);
            double fct = rec.fctNanos(f);
            System.out.printf("live flow: %d B in %.3f ms (N*8/rate %.3f ms, with headers %.3f ms), acked at +%.3f ms,"
                    + " clock slip %.3f ms%n", bytes, fct / 1e6, payloadOnly / 1e6, expected / 1e6,
                    (rec.ackedNanos(f) - rec.startNanos(f)) / 1e6, slip / 1e6);
            assertTrue(Math.abs(fct - expected) <= 0.05 * expected, "FCT " + fct / 1e6 + " ms, expected "
                    + expected / 1e6 + " ms +- 5 %");
            assertTrue(fct >= payloadOnly && fct <= 1.15 * payloadOnly, "FCT " + fct / 1e6 + " ms, expected N*8/rate = "
                    + payloadOnly / 1e6 + " ms .. +15 % (the headers take 7.6 %)");
            // The FCT is on the hosts' clock; real time adds the slip (passes later than 20 us: GC, JIT,
            // the scheduler), printed above. It depends on what else runs on the 2 cores (2-5 % of the
            // time alone, up to 60 % after other tests or beside a benchmark), so it is reported, not
            // asserted: LiveHostsSpeedProbe measures the driver's speed.
            assertTrue(rec.completed(warmUp));
            assertEquals(0, hosts.host(1).malformedFrames());
        }
        assertTrue(!Files.exists(Path.of("/var/run/netns", pair.a)) && !Files.exists(Path.of("/var/run/netns", pair.b)),
                "namespaces left behind");
    }
}

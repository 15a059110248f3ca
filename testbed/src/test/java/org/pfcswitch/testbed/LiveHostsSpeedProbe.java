package org.pfcswitch.testbed;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.netns.PacketSocket;
import org.pfcswitch.testbed.netns.VethPair;

/** Diagnostic, not a test: rate over time of one forever flow. */
class LiveHostsSpeedProbe {
    @Test
    void probe() throws Exception {
        long rate = Long.parseLong(System.getenv().getOrDefault("PROBE_RATE", "1000000000"));
        VethPair pair = new VethPair("p");
        try (pair; PacketSocket a = PacketSocket.open(pair.a, "eth0"); PacketSocket b = PacketSocket.open(pair.b, "eth0")) {
            LiveHosts hosts = LiveHosts.builder()
                    .host("A", a, a.macAddress(), 0x0A4D_0001, rate)
                    .host("B", b, b.macAddress(), 0x0A4D_0002, rate)
                    .payloadMtu(1024).build();
            int f = hosts.addFlow(0, 1, 3, 1L << 50, 0);
            FlowRecords rec = hosts.records();
            hosts.start();
            com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
            for (int i = 1; i <= 10; i++) {
                long sl = hosts.slipNanos(), al = mx.getCurrentThreadAllocatedBytes();
                hosts.runUntil(i * 100_000_000L);
                System.out.printf("t=%d ms slip %.2f ms alloc %d B%n", i * 100, (hosts.slipNanos() - sl) / 1e6, mx.getCurrentThreadAllocatedBytes() - al);
            }
            long r0 = rec.receivedPackets(f), s0 = rec.sentPackets(f), slip0 = hosts.slipNanos(), w0 = System.nanoTime();
            hosts.runFor(1_000_000_000L);
            double wall = (System.nanoTime() - w0) / 1e9;
            System.out.printf("rate %.1f Gb/s: per wall second %.0f frames sent by A, %.0f received by B; slip %.1f ms in %.2f s%n",
                    rate / 1e9, (rec.sentPackets(f) - s0) / wall, (rec.receivedPackets(f) - r0) / wall,
                    (hosts.slipNanos() - slip0) / 1e6, wall);
            System.out.println("slip " + hosts.slipNanos() + " ooo " + rec.outOfOrder(f) + " drops " + b.kernelDrops() + " lost " + hosts.framesLost(0));
        }
    }
}

package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.testbed.netns.PacketSocket;
import org.pfcswitch.testbed.netns.VethPair;

/**
 * A real-time host honours PFC per priority, as a ConnectX NIC would. Host A sends two endless flows
 * to host B across a veth pair at 1 Gb/s, one on priority 3 and one on priority 0 (each gets half
 * the line while both may send). The test's own packet socket on B's side writes PFC and PAUSE
 * frames to A and timestamps every data frame of A it sees on the wire.
 *
 * <p>Tolerances: a frame is timestamped when the test drains its socket, every ~20 us of the
 * hosts' clock, and A finishes the frame it is sending (8.6 us at 1 Gb/s) before the pause bites,
 * so a gap may read up to ~0.1 ms short of the pause time; the scheduler and GC of a 2-core box
 * may add to it. Accepted: pause - 0.3 ms .. pause + 1 ms.
 */
class LiveHostsPfcTest {

    static final long RATE = 1_000_000_000L;
    static final long LOW = 300_000;
    static final long HIGH = 1_000_000;

    @Test
    void pfcPausesExactlyItsPriorityForItsQuantaAndQuantaZeroResumes() throws Exception {
        VethPair pair = new VethPair("q");
        try (pair; PacketSocket a = PacketSocket.open(pair.a, "eth0"); PacketSocket b = PacketSocket.open(pair.b, "eth0");
             PacketSocket wire = PacketSocket.open(pair.b, "eth0")) {
            LiveHosts hosts = LiveHosts.builder()
                    .host("A", a, a.macAddress(), 0x0A4D_0001, RATE)
                    .host("B", b, b.macAddress(), 0x0A4D_0002, RATE).build();
            hosts.addFlow(0, 1, 3, 1L << 50, 0);
            hosts.addFlow(0, 1, 0, 1L << 50, 0);
            Capture cap = new Capture(hosts, wire, a.macAddress());
            cap.run(600_000_000L);                           // JIT warm-up, both flows sending
            cap.clear();
            cap.run(5_000_000L);
            assertTrue(cap.count(3) > 100 && cap.count(0) > 100, "both priorities flow before any pause: "
                    + cap.count(3) + " and " + cap.count(0) + " frames in 5 ms");

            // PFC for priority 3 only, 20000 quanta = 10.24 ms at 1 Gb/s.
            long pause = MacControl.quantaToNanos(20_000, RATE);
            cap.clear();
            long sentAt = cap.sendPfc(1 << 3, 20_000);
            cap.run(25_000_000L);
            long[] gap = cap.largestGap(3);
            System.out.printf("live PFC: priority 3 silent for %.3f ms on the wire (pause %.3f ms), from %.3f ms after the"
                    + " PFC frame%n", (gap[1] - gap[0]) / 1e6, pause / 1e6, (gap[0] - sentAt) / 1e6);
            assertBetween("priority 3 stopped for", gap[1] - gap[0], pause - LOW, pause + HIGH);
            assertBetween("priority 3 stopped after the PFC frame by", gap[0] - sentAt, -LOW, HIGH);
            long p0During = cap.countBetween(0, gap[0], gap[1]);
            long lineFrames = (long) ((gap[1] - gap[0]) * (RATE / 8e9) / (1024 + 58 + 20));   // full-size frames on the line
            assertTrue(p0During >= 0.8 * lineFrames, "priority 0 kept the whole line while 3 was paused: " + p0During
                    + " frames, line rate allows " + lineFrames);
            assertTrue(cap.largestGapBetween(0, gap[0], gap[1]) < 200_000, "priority 0 was never paused, but had a gap of "
                    + cap.largestGapBetween(0, gap[0], gap[1]) / 1e6 + " ms");
            assertEquals(1, hosts.host(0).pfcFramesReceived());

            // A long pause (33.5 ms), then quanta 0 after 5 ms: priority 3 resumes at once.
            cap.clear();
            cap.sendPfc(1 << 3, 65_535);
            cap.run(5_000_000L);
            long resumedAt = cap.sendPfc(1 << 3, 0);
            cap.run(10_000_000L);
            gap = cap.largestGap(3);
            assertBetween("priority 3 resumed after quanta 0 by", gap[1] - resumedAt, -LOW, HIGH);
            assertBetween("priority 3 stopped for", gap[1] - gap[0], 5_000_000 - LOW, 5_000_000 + HIGH);

            // 802.3x PAUSE, 10000 quanta = 5.12 ms: every priority stops.
            cap.clear();
            long pauseAt = cap.sendPause(10_000);
            cap.run(15_000_000L);
            long all = MacControl.quantaToNanos(10_000, RATE);
            gap = cap.largestGap(-1);
            assertBetween("A's line stopped for", gap[1] - gap[0], all - LOW, all + HIGH);
            assertBetween("A's line stopped after the PAUSE by", gap[0] - pauseAt, -LOW, HIGH);
            assertEquals(1, hosts.host(0).pauseFramesReceived());
            assertEquals(0, hosts.host(0).malformedFrames() + hosts.host(1).malformedFrames());

            // Bad input is counted and dropped: IPv4 cut off after 6 bytes, an unknown MAC-control opcode.
            MemorySegment junk = MemorySegment.ofArray(new byte[60]);
            junk.copyFrom(MemorySegment.ofArray(new byte[] {2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2, 0x08, 0x00, 0x45, 0}));
            assertTrue(wire.send(junk, 0, 20));
            MacControl.writePause(junk, 0, 0x02_00_00_00_00_0BL, 1);
            junk.set(java.lang.foreign.ValueLayout.JAVA_BYTE, 15, (byte) 0x77);      // opcode 0x0077
            assertTrue(wire.send(junk, 0, 60));
            cap.run(2_000_000L);
            assertEquals(2, hosts.host(0).malformedFrames(), "malformed frames A counted and dropped");
            assertEquals(1, hosts.host(0).pauseFramesReceived(), "the bad MAC-control frame paused nothing");
        }
    }

    private static void assertBetween(String what, long nanos, long low, long high) {
        assertTrue(nanos >= low && nanos <= high, what + " " + nanos / 1e6 + " ms, expected " + low / 1e6 + " .. "
                + high / 1e6 + " ms");
    }

    /** A's data frames seen on the wire at B's side: hosts' clock time and priority (DSCP / 8), in order. */
    private static final class Capture {
        final LiveHosts hosts;
        final PacketSocket wire;
        final long senderMac;
        final MemorySegment buf = MemorySegment.ofArray(new byte[PacketSocket.MAX_FRAME_BYTES]);
        final ParsedFrame parsed = new ParsedFrame();
        long[] time = new long[1 << 16];
        int[] priority = new int[1 << 16];
        int n;

        Capture(LiveHosts hosts, PacketSocket wire, long senderMac) {
            this.hosts = hosts;
            this.wire = wire;
            this.senderMac = senderMac;
        }

        void run(long nanos) {
            long end = hosts.now() + nanos;
            while (hosts.now() < end) {
                hosts.runFor(20_000);
                drain();
            }
        }

        void drain() {
            for (int len = wire.receive(buf, 0, (int) buf.byteSize()); len != FramePort.NONE;
                 len = wire.receive(buf, 0, (int) buf.byteSize())) {
                FrameParser.parse(buf, 0, len, parsed);
                if (parsed.isRoce() && parsed.srcMac() == senderMac && parsed.bthOpcode() != Roce.OP_RC_ACK && n < time.length) {
                    time[n] = hosts.now();
                    priority[n++] = parsed.dscp() / 8;
                }
            }
        }

        void clear() {
            drain();
            n = 0;
        }

        long sendPfc(int classEnable, int quanta) {
            MemorySegment frame = MemorySegment.ofArray(new byte[64]);
            int len = MacControl.writePfc(frame, 0, 0x02_00_00_00_00_0BL, classEnable, quanta);
            assertTrue(wire.send(frame, 0, len));
            return hosts.now();
        }

        long sendPause(int quanta) {
            MemorySegment frame = MemorySegment.ofArray(new byte[64]);
            int len = MacControl.writePause(frame, 0, 0x02_00_00_00_00_0BL, quanta);
            assertTrue(wire.send(frame, 0, len));
            return hosts.now();
        }

        int count(int prio) {
            return (int) countBetween(prio, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        long countBetween(int prio, long from, long to) {
            long c = 0;
            for (int i = 0; i < n; i++) {
                c += priority[i] == prio && time[i] > from && time[i] < to ? 1 : 0;
            }
            return c;
        }

        /** The two capture times around the longest silence of {@code prio} (-1: any priority). */
        long[] largestGap(int prio) {
            return gapBetween(prio, Long.MIN_VALUE, Long.MAX_VALUE);
        }

        long largestGapBetween(int prio, long from, long to) {
            long[] g = gapBetween(prio, from, to);
            return g[1] - g[0];
        }

        private long[] gapBetween(int prio, long from, long to) {
            long last = Long.MIN_VALUE;
            long[] best = {0, 0};
            for (int i = 0; i < n; i++) {
                if ((prio >= 0 && priority[i] != prio) || time[i] < from || time[i] > to) {
                    continue;
                }
                if (last != Long.MIN_VALUE && time[i] - last > best[1] - best[0]) {
                    best = new long[] {last, time[i]};
                }
                last = time[i];
            }
            return best;
        }
    }
}

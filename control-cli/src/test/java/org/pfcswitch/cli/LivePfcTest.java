package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * PFC on the wire with the live switch ({@code pfcswitch run}, the switch core on DPDK af_packet
 * ports) between three network-namespace hosts. Frames are written onto the hosts' veths by a
 * small raw-socket sender and captured there with tshark, which also dissects them.
 *
 * <p>The senders here ignore PFC (that is what the emulated RoCE hosts are for), so the PFC-out
 * case sends a bounded burst that XOFF plus the configured headroom absorbs: any lossless drop
 * would then be the switch's fault.
 */
class LivePfcTest extends ThreeHostLabTest {

    private static final long H0 = NetnsLab.HOST_MAC[0];
    private static final long H2 = NetnsLab.HOST_MAC[2];
    private static final int DSCP_LOSSLESS = 26;          // priority 3 under the switch's dscpMap
    private static final String[] PFC_FIELDS = {"frame.time_relative", "eth.src", "eth.dst", "macc.opcode",
            "macc.cbfc.enbv", "macc.cbfc.pause_time.c3", "macc.pause_time", "ip.dsfield.dscp"};

    /** h0 and h2 known statically so no frame is flooded; h2's port is the slow one. */
    private static Path switchConfig(String name, String mmu, int pauseQuanta) throws Exception {
        return lab.switchConfig(name, """
                eal: {memoryMb: 256, hugepages: off}
                forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: h0}, {mac: "02:00:00:00:00:03", port: h2}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                mmu: %s
                pfc: {pauseQuanta: %d}
                """.formatted(mmu, pauseQuanta), "speed: 1G", "speed: 1G", "speed: 100M");
    }

    /**
     * Runs the switch's frame path until the JIT has compiled it, so that compilation does not
     * stall the poll loop in the measured part: 2000 small priority-0 frames from h0 to h2 (which
     * h2's 100 Mb/s port drains in about 20 ms), then a pause.
     */
    private static void warmUp() throws Exception {
        List<NetnsLab.Send> frames = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            frames.add(NetnsLab.Send.at(50L * i, 0, roce(0, i, 60)));
        }
        lab.send(frames);
        Thread.sleep(500);
    }

    private static MemorySegment roce(int dscp, int psn, int payload) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(H2, H0).ips(0x0A63_0001, 0x0A63_0003).dscp(dscp)
                .destQp(17).psn(psn).payloadBytes(payload);
        MemorySegment f = MemorySegment.ofArray(new byte[b.frameLength()]);
        b.write(f, 0);
        return f;
    }

    /**
     * 200 KB of priority-3 frames from h0 (1 Gb/s) to h2 (shaped to 100 Mb/s): h0's ingress queue
     * passes the static threshold, the switch sends XOFF for priority 3 on h0's port with the
     * configured quanta, refreshes it at half the pause time while the queue drains (16 ms), and
     * sends one XON (quanta 0) when it clears. All 200 frames reach h2.
     */
    @Test
    void congestionSendsXoffRefreshedAtHalfThePauseTimeThenOneXonAndLosesNothing() throws Exception {
        int quanta = 2000;                                // 1.024 ms at h0's 1 Gb/s: refresh every 512 us
        Path cfg = switchConfig("pfc-out", "{totalBytes: 4MiB, scheme: st, losslessPriorities: [3], headroomFormula: fixed,"
                + " headroomBytes: 512KiB, schemes: {st: {thresholdBytes: 30000}}}", quanta);
        List<NetnsLab.Send> burst = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            burst.add(NetnsLab.Send.at(0, 0, roce(DSCP_LOSSLESS, i, 950)));
        }
        String log;
        Path pcap;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control")) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            warmUp();
            NetnsLab.Capture capture = lab.capture(0, "ether proto 0x8808", 3);
            lab.send(burst);
            pcap = capture.await();
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        List<String[]> pfc = Tshark.fields(pcap, PFC_FIELDS).stream()
                .filter(r -> !r[4].isEmpty() && (Tshark.number(r[4]) & 1 << 3) != 0).toList();
        assertTrue(pfc.size() >= 4, "XOFF, refreshes and XON on h0's veth, got " + pfc.size() + "\n" + log);
        for (String[] r : pfc) {
            assertEquals("01:80:c2:00:00:01", r[2]);
            assertEquals(MacControl.OPCODE_PFC, Tshark.number(r[3]));
            assertEquals(0x08, Tshark.number(r[4]), "only priority 3 is paused");
        }
        String[] last = pfc.getLast();
        assertEquals(0, Tshark.number(last[5]), "the last PFC frame is the XON (quanta 0)");
        List<String[]> xoffs = pfc.subList(0, pfc.size() - 1);
        for (String[] r : xoffs) {
            assertEquals(quanta, Tshark.number(r[5]), "every frame before the XON is an XOFF with the configured quanta");
        }
        double[] gaps = new double[xoffs.size() - 1];
        for (int i = 1; i < xoffs.size(); i++) {
            gaps[i - 1] = seconds(xoffs.get(i)) - seconds(xoffs.get(i - 1));
        }
        Arrays.sort(gaps);
        double median = gaps[gaps.length / 2];
        assertTrue(median > 0.00045 && median < 0.00065, "XOFF refreshed every 512 us (half of 1.024 ms), median gap "
                + median * 1e6 + " us\n" + describe(pfc));
        double held = seconds(last) - seconds(xoffs.getFirst());
        assertTrue(held > 0.005, "XOFF held about 14 ms (170 KB over the threshold at 100 Mb/s), not " + held * 1e3 + " ms");
        // A refresh can only be late by a stall of the poll loop (the OS or the JVM took its CPU);
        // the switch counts those, and every late refresh must be one of them.
        long late = Arrays.stream(gaps).filter(g -> g > 0.0016).count();
        java.util.regex.Matcher stalls = java.util.regex.Pattern.compile("poll-loop stalls >= 100us \\d+, >= 1ms (\\d+)").matcher(log);
        assertTrue(stalls.find(), log);
        assertTrue(late <= Long.parseLong(stalls.group(1)), late + " refreshes came more than 1.6 ms after the previous XOFF,"
                + " more than the poll-loop stalls of 1 ms or more the switch reported\n" + describe(pfc) + log);
        assertTrue(log.matches("(?s).*counters h2: rx \\d+.*, tx \\d+ \\([^)]*p3=200[ )].*"), "all 200 frames left on h2\n" + log);
        assertTrue(log.matches("(?s).*counters h0: .*drops lossless_violation 0,.*"), log);
        assertTrue(log.contains("lossless violations 0"), log);
        assertTrue(log.matches("(?s).*counters h0: .*pfc tx p3=" + xoffs.size() + ", xon tx p3=1,.*"),
                "the switch counted what tshark saw: " + xoffs.size() + " XOFF and 1 XON\n" + log);
    }

    /**
     * h2 sends a PFC frame pausing priority 3 for 40000 quanta (204.8 ms at h2's 100 Mb/s); then h0
     * sends a burst of 40 priority-3 and 40 priority-0 frames, interleaved, to h2. On h2's veth the
     * priority-0 frames arrive at once and the priority-3 frames only when the pause ends. Then the
     * same with an 802.3x PAUSE of 40000 quanta: neither priority arrives before it ends.
     *
     * <p>The pause is long so that a stall of the switch's poll loop on this 2-core machine (the
     * log reports the longest) does not blur it: the first held frame
     * must arrive no earlier than 0.3 ms before the pause ends (the PFC frame's own trip to the
     * switch) and no later than 5 ms after it.
     */
    @Test
    void receivedPfcStopsOnlyItsPriorityForTheEncodedTimeAndPauseStopsAll() throws Exception {
        Path cfg = switchConfig("pfc-in", "{totalBytes: 4MiB, scheme: dt, losslessPriorities: [3]}", 65535);
        int quanta = 40_000;
        double pause = quanta * 512 / 100e6;
        MemorySegment pfc = MemorySegment.ofArray(new byte[60]);
        MacControl.writePfc(pfc, 0, H2, 1 << 3, quanta);
        MemorySegment pause8023x = MemorySegment.ofArray(new byte[60]);
        MacControl.writePause(pause8023x, 0, H2, quanta);
        String log;
        Path pcap;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control")) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            warmUp();
            NetnsLab.Capture capture = lab.capture(2, "ether proto 0x8808 or udp port 4791", 3);
            List<NetnsLab.Send> schedule = new ArrayList<>();
            schedule.add(NetnsLab.Send.at(0, 2, pfc));
            schedule.addAll(interleavedBurst(20_000, 0));
            schedule.add(NetnsLab.Send.at(400_000, 2, pause8023x));   // the PFC pause is long over
            schedule.addAll(interleavedBurst(420_000, 100));
            lab.send(schedule);
            pcap = capture.await();
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        double pfcAt = -1;
        double pauseAt = -1;
        List<Double> p3 = new ArrayList<>();
        List<Double> p0 = new ArrayList<>();
        List<String[]> rows = Tshark.fields(pcap, PFC_FIELDS);
        for (String[] r : rows) {
            if (!r[3].isEmpty() && r[1].equals("02:00:00:00:00:03")) {
                if (Tshark.number(r[3]) == MacControl.OPCODE_PFC) {
                    pfcAt = seconds(r);
                } else {
                    pauseAt = seconds(r);
                }
            } else if (!r[7].isEmpty() && r[2].equals("02:00:00:00:00:03")) {
                (Tshark.number(r[7]) == DSCP_LOSSLESS ? p3 : p0).add(seconds(r));
            }
        }
        assertTrue(pfcAt >= 0 && pauseAt > pfcAt, "both pause frames captured leaving h2: " + pfcAt + ", " + pauseAt
                + "\n" + rows.stream().limit(5).map(r -> String.join(" ", r)).toList());
        assertEquals(80, p3.size(), "every priority-3 frame reached h2\n" + log);
        assertEquals(80, p0.size(), "every priority-0 frame reached h2\n" + log);
        List<Double> p3First = p3.subList(0, 40);
        List<Double> p0First = p0.subList(0, 40);
        assertTrue(p0First.getLast() < pfcAt + pause - 0.020,
                "precondition: the burst reached the switch well inside the pause (last priority-0 frame "
                        + (p0First.getLast() - pfcAt) * 1e3 + " ms after the PFC frame)");
        assertHeldUntil(p3First, pfcAt, pause, longestStall(log), "priority 3 after the PFC frame\n" + log);
        assertTrue(p3First.getFirst() > p0First.getLast(), "priority 0 was not paused: all of it left before priority 3");

        List<Double> second = new ArrayList<>(p3.subList(40, 80));
        second.addAll(p0.subList(40, 80));
        second.sort(Double::compare);
        assertTrue(second.getFirst() > pauseAt, "the second burst came after the PAUSE frame");
        assertHeldUntil(second, pauseAt, pause, longestStall(log), "both priorities after the 802.3x PAUSE\n" + log);
        assertTrue(log.matches("(?s).*counters h2: .*pfc rx p3=1,.*pause rx 1,.*"), log);
    }

    /**
     * While h0 sends 300 priority-3 and 300 priority-0 frames to h2, h1 sends bad frames of five
     * kinds and floods 20000 PFC frames pausing its own priority 5: each bad frame is counted by
     * reason on h1, the PFC frames are counted, the switch stays up and h2 gets every frame of h0.
     */
    @Test
    void malformedFramesAndAPfcFloodAreCountedByReasonAndLoseNothingElse() throws Exception {
        Path cfg = switchConfig("bad-input", "{totalBytes: 4MiB, scheme: dt, losslessPriorities: [3]}", 65535);
        List<NetnsLab.Send> schedule = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            schedule.add(NetnsLab.Send.at(100L * i, 0, roce(DSCP_LOSSLESS, i, 450)));
            schedule.add(NetnsLab.Send.at(100L * i + 50, 0, roce(0, i, 450)));
        }
        long h1 = NetnsLab.HOST_MAC[1];
        byte[] headerOnly = Arrays.copyOf(roce(0, 0, 0).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), 14);
        MemorySegment pfc = MemorySegment.ofArray(new byte[60]);
        MacControl.writePfc(pfc, 0, h1, 1 << 5, 65535);
        byte[] truncatedPfc = Arrays.copyOf(pfc.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE), 18);
        byte[] reservedBits = pfc.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE).clone();
        reservedBits[16] = (byte) 0xA0;                                // class-enable vector's reserved upper byte
        byte[] unknownOpcode = pfc.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE).clone();
        unknownOpcode[15] = 0x02;                                      // opcode 0x0102
        byte[] badVersion = roce(0, 0, 64).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
        badVersion[14] = 0x65;                                         // IP version 6 behind EtherType IPv4
        for (int i = 0; i < 10; i++) {                                // spaced: these must all be read
            long at = 2_000L * i;
            schedule.add(new NetnsLab.Send(at + 10, 1, headerOnly));
            schedule.add(new NetnsLab.Send(at + 20, 1, truncatedPfc));
            schedule.add(new NetnsLab.Send(at + 30, 1, reservedBits));
            schedule.add(new NetnsLab.Send(at + 40, 1, unknownOpcode));
            schedule.add(new NetnsLab.Send(at + 60, 1, badVersion));
        }
        for (int i = 0; i < 20_000; i++) {                            // after them, as fast as the sender goes
            schedule.add(NetnsLab.Send.at(25_000 + i, 1, pfc));
        }
        schedule.sort(java.util.Comparator.comparingLong(NetnsLab.Send::offsetMicros));
        String log;
        Path pcap;
        long backlogDrops;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control")) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            NetnsLab.Capture capture = lab.capture(2, "udp port 4791", 3);
            long backlogBefore = KernelDrops.backlog();
            lab.send(schedule);
            pcap = capture.await();
            backlogDrops = KernelDrops.backlog() - backlogBefore;
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        long p3 = 0;
        long p0 = 0;
        for (String[] r : Tshark.fields(pcap, PFC_FIELDS)) {
            if (r[1].equals("02:00:00:00:00:01") && !r[7].isEmpty()) {
                if (Tshark.number(r[7]) == DSCP_LOSSLESS) {
                    p3++;
                } else {
                    p0++;
                }
            }
        }
        // Nothing the switch took in from h0 is lost: h2 gets every frame the switch counted from
        // h0, per priority.
        java.util.regex.Matcher fromH0 = java.util.regex.Pattern.compile("counters h0: rx \\d+ \\(([^)]*)\\)").matcher(log);
        assertTrue(fromH0.find(), log);
        assertEquals(priorityCount(fromH0.group(1), 3), p3, "every priority-3 frame the switch got from h0 reached h2\n" + log);
        assertEquals(priorityCount(fromH0.group(1), 0), p0, "every priority-0 frame the switch got from h0 reached h2\n" + log);
        // What the switch did not get of h0's, the kernel dropped and counted: the port's af_packet
        // ring was full (the worker stalled while a late sender caught up) or a CPU's backlog was.
        long h0Missed = KernelDrops.ring(log, "h0");
        String kernel = "kernel drops: h0's ring " + h0Missed + ", CPU backlogs " + backlogDrops;
        assertTrue(600 - p3 - p0 <= h0Missed + backlogDrops, "h0 sent 300 + 300 frames, the switch got " + p3 + " + " + p0
                + ", and the kernel counted no drop for the rest (" + kernel + ")\n" + log);
        assertTrue(p3 > 0 && p0 > 0, "h0's frames reached h2");
        String h1Counters = log.lines().filter(l -> l.contains("counters h1:")).findFirst().orElseThrow();
        for (String expected : new String[] {"truncated_ipv4 10", "truncated_mac_control 10", "pfc_reserved_bits_set 10",
                "unknown_mac_control_opcode 10", "bad_ipv4_version 10"}) {
            assertTrue(h1Counters.contains(expected), expected + " on h1:\n" + h1Counters);
        }
        // The flood comes faster than a poll-loop stall lets the af_packet ring (512 frames) hold:
        // the kernel drops some of it, and the port counts those as rx missed (which DPDK 22.11's
        // af_packet PMD does not; EthPort reads the ring's socket). What arrives is obeyed and counted.
        java.util.regex.Matcher obeyed = java.util.regex.Pattern.compile("pfc rx p5=(\\d+),").matcher(h1Counters);
        assertTrue(obeyed.find(), h1Counters);
        long flood = Long.parseLong(obeyed.group(1));
        assertTrue(flood > 10 + 100 && flood <= 20_010, "PFC frames obeyed for priority 5 (flood and reserved-bit frames): " + flood);
        assertTrue(log.matches("(?s).*nic h1: rx " + (flood + 40) + ",.*"),
                "the port delivered exactly what the switch counted: the PFC frames obeyed and the 40 other bad frames\n" + log);
        long h1Missed = KernelDrops.ring(log, "h1");
        long h1Sent = 20_000 + 50;
        assertTrue(flood + 40 + h1Missed <= h1Sent && flood + 40 + h1Missed + backlogDrops >= h1Sent,
                "h1 sent " + h1Sent + " frames: the switch got " + (flood + 40) + ", its ring dropped " + h1Missed
                        + ", the CPU backlogs " + backlogDrops + "\n" + log);
        System.out.println("LivePfcTest flood: h0 got " + (p3 + p0) + " of 600 frames to the switch, h1 " + (flood + 40)
                + " of " + h1Sent + "; " + kernel + ", h1's ring " + h1Missed);
        assertTrue(log.contains("lossless violations 0"), log);
        assertTrue(log.contains("(all returned)"), log);
    }

    /** The longest poll-loop stall the switch's shutdown log names, in seconds. */
    private static double longestStall(String log) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("poll-loop stalls .*?; longest (\\d+) us").matcher(log);
        assertTrue(m.find(), "the shutdown log names the longest stall\n" + log);
        return Long.parseLong(m.group(1)) / 1e6;
    }

    /** 40 priority-3 and 40 priority-0 frames from h0 to h2, alternating, from {@code atMicros} as fast as the sender can. */
    private static List<NetnsLab.Send> interleavedBurst(long atMicros, int firstPsn) {
        List<NetnsLab.Send> burst = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            burst.add(NetnsLab.Send.at(atMicros, 0, roce(DSCP_LOSSLESS, firstPsn + i, 450)));
            burst.add(NetnsLab.Send.at(atMicros, 0, roce(0, firstPsn + i, 450)));
        }
        return burst;
    }

    /**
     * The first of {@code times} falls between 0.3 ms before and 5 ms after the pause that began at
     * {@code from} ends; later by up to {@code stall} (the longest the worker was held, in seconds),
     * since a held worker takes the pause frame in late and sends the held frames late.
     */
    private static void assertHeldUntil(List<Double> times, double from, double pause, double stall, String what) {
        double first = times.getFirst();
        assertTrue(first >= from + pause - 0.0003 && first <= from + pause + 0.005 + stall,
                what + ": first frame " + (first - from) * 1e3 + " ms after the pause frame, pause " + pause * 1e3 + " ms");
    }

    /** N from "p0=12 p3=N" (0 when the priority is absent). */
    private static long priorityCount(String byPriority, int priority) {
        for (String part : byPriority.split(" ")) {
            if (part.startsWith("p" + priority + "=")) {
                return Long.parseLong(part.substring(3));
            }
        }
        return 0;
    }

    /** The PFC rows as "time quanta" lines, for failure messages. */
    private static String describe(List<String[]> pfc) {
        StringBuilder s = new StringBuilder();
        for (String[] r : pfc) {
            s.append(r[0]).append(' ').append(r[5]).append('\n');
        }
        return s.toString();
    }

    private static double seconds(String[] row) {
        return Double.parseDouble(row[0]);
    }
}

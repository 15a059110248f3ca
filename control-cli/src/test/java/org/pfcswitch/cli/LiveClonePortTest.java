package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * Clone ports ({@code kind: clone}) in the live switch: h0's ingress copied onto two virtual ports,
 * as the SPFC testbed copies H1's traffic. Three namespace hosts, the switch on af_packet ports,
 * frames written onto h0's veth and captured on h2's.
 */
class LiveClonePortTest extends ThreeHostLabTest {

    private static final long H0 = NetnsLab.HOST_MAC[0];
    private static final long H2 = NetnsLab.HOST_MAC[2];

    private static Path config(String name, String mmu, String pfc, String h2Speed) throws Exception {
        // NetnsLab writes the lab's ports: list last; the clone entry is appended to it.
        String body = """
                eal: {memoryMb: 256, hugepages: off}
                forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:03", port: h2}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                mmu: %s
                """.formatted(mmu);
        Path f = lab.switchConfig(name, body, "speed: 1G", "speed: 1G", "speed: " + h2Speed);
        java.nio.file.Files.writeString(f, "  - {name: c, kind: clone, of: h0, count: 2, pfc: " + pfc + "}\n",
                java.nio.file.StandardOpenOption.APPEND);
        return f;
    }

    private static List<NetnsLab.Send> frames(int count, long spacingMicros, int payload) {
        List<NetnsLab.Send> frames = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            RoceFrameBuilder b = new RoceFrameBuilder().macs(H2, H0).ips(0x0A63_0001, 0x0A63_0003).dscp(26)
                    .destQp(17).psn(i).payloadBytes(payload);
            MemorySegment f = MemorySegment.ofArray(new byte[b.frameLength()]);
            b.write(f, 0);
            frames.add(NetnsLab.Send.at(spacingMicros * i, 0, f));
        }
        return frames;
    }

    /** Frames captured on h2, counted by source MAC. */
    private static Map<String, Integer> bySource(Path pcap) throws Exception {
        Map<String, Integer> count = new TreeMap<>();
        for (String[] r : Tshark.fields(pcap, "eth.src", "udp.dstport")) {
            if (r[1].equals("4791")) {
                count.merge(r[0], 1, Integer::sum);
            }
        }
        return count;
    }

    /** 100 frames from h0 at 8 Mb/s: h2 gets each three times, from h0 and from the clones' station MACs. */
    @Test
    void everyDataFrameOfTheSourceArrivesOnceFromEachClone() throws Exception {
        Path cfg = config("clones", "{totalBytes: 4MiB, scheme: dt}", "ignore", "1G");
        String log;
        Path pcap;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control")) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            NetnsLab.Capture capture = lab.capture(2, "udp port 4791", 3);
            lab.send(frames(100, 200, 950));
            pcap = capture.await();
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        assertTrue(log.contains("port 3 c0       clone of h0 (pfc: ignore), station mac 02:c1:00:00:00:00"), log);
        assertEquals(Map.of("02:00:00:00:00:01", 100, "02:c1:00:00:00:00", 100, "02:c1:00:00:00:01", 100), bySource(pcap),
                "h2 got each frame from h0 and from both clones\n" + log);
        assertTrue(log.matches("(?s).*counters c0: rx \\d+ \\([^)]*p3=100[ )].*"), log);
        assertTrue(log.matches("(?s).*counters c1: rx \\d+ \\([^)]*p3=100[ )].*"), log);
        assertTrue(log.contains("lossless violations 0"), log);
        assertTrue(log.contains("(all returned)"), log);
    }

    /**
     * 200 KB from h0 and the same again from each clone into h2 shaped to 100 Mb/s: the clones'
     * ingress queues pass the threshold, the switch sends them PFC, and in {@code pfc: skip} mode
     * they make no copies while paused. h2 gets every original and every copy not skipped.
     */
    @Test
    void aPausedCloneInSkipModeMakesNoCopies() throws Exception {
        Path cfg = config("clones-skip", "{totalBytes: 6MiB, scheme: st, headroomFormula: fixed, headroomBytes: 512KiB,"
                + " schemes: {st: {thresholdBytes: 30000}}}", "skip", "100M");
        String log;
        Path pcap;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--no-control")) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            NetnsLab.Capture capture = lab.capture(2, "udp port 4791", 4);
            lab.send(frames(200, 20, 950));
            pcap = capture.await();
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        Map<String, Integer> got = bySource(pcap);
        long skipped = 0;
        for (int c = 0; c < 2; c++) {
            Matcher m = Pattern.compile("clone c" + c + ": copies skipped while paused (\\d+), copies without an mbuf 0").matcher(log);
            assertTrue(m.find(), log);
            long s = Long.parseLong(m.group(1));
            assertTrue(s > 0, "clone c" + c + " was paused and skipped copies\n" + log);
            assertTrue(log.matches("(?s).*counters c" + c + ": .*pfc tx p3=[1-9].*"), "the switch paused clone c" + c + "\n" + log);
            assertEquals(200 - s, (long) got.getOrDefault("02:c1:00:00:00:0" + c, 0), "copies of c" + c + " that reached h2\n" + log);
            skipped += s;
        }
        assertEquals(200, got.get("02:00:00:00:00:01"), "every original reached h2\n" + log);
        assertTrue(skipped < 400, "some copies were made");
        assertTrue(log.contains("lossless violations 0"), log);
        assertTrue(log.contains("(all returned)"), log);
    }
}

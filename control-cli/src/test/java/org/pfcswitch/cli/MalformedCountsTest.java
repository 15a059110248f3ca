package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.codec.PcapWriter;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * One count of malformed frames everywhere: the same capture of bad frames of every kind (built
 * here, in a random mix) is read by {@code decode} and received by a live switch whose port reads
 * it (DPDK's net_pcap, so no kernel stands between the file and the switch), and the counts by
 * reason agree across {@code decode}'s summary, the switch's shutdown log, {@code show ports} and
 * {@code /metrics}.
 */
class MalformedCountsTest {

    private static final long HOST = 0x02_00_00_00_00_01L;
    private static final long OTHER = 0x02_00_00_00_00_02L;

    @TempDir
    Path dir;

    @Test
    void decodeAndTheSwitchCountTheSameMalformedFramesByReason() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        Map<ParseError, Integer> planted = new TreeMap<>();
        List<byte[]> frames = new ArrayList<>();
        Map<ParseError, List<byte[]>> kinds = badFrames();
        for (Map.Entry<ParseError, List<byte[]>> k : kinds.entrySet()) {
            for (byte[] f : k.getValue()) {
                int n = 1 + random.nextInt(8);
                for (int i = 0; i < n; i++) {
                    frames.add(f);
                }
                planted.merge(k.getKey(), n, Integer::sum);
            }
        }
        byte[] good = roce(new RoceFrameBuilder().payloadBytes(64));
        byte[] badChecksum = good.clone();
        badChecksum[Ethernet.HEADER_BYTES + 8]++;                     // TTL changed, checksum not: forwarded, not malformed
        for (int i = 0; i < 20; i++) {
            frames.add(good);
            frames.add(badChecksum);
        }
        Collections.shuffle(frames, random);
        Path capture = dir.resolve("bad.pcap");
        try (PcapWriter w = PcapWriter.create(capture, PcapWriter.Precision.NANOS)) {
            for (int i = 0; i < frames.size(); i++) {
                w.write(1000L * i, MemorySegment.ofArray(frames.get(i)));
            }
        }
        String context = "seed " + seed + ", planted " + planted;

        Cli decode = Cli.run("decode", capture.toString());
        assertEquals(0, decode.exitCode(), decode.err());
        Map<String, Long> byDecode = new TreeMap<>();
        Matcher m = Pattern.compile("malformed: (\\d+) x (\\w+) \\(").matcher(decode.err());
        while (m.find()) {
            byDecode.put(m.group(2), Long.parseLong(m.group(1)));
        }
        Map<String, Long> expected = new TreeMap<>();
        planted.forEach((e, n) -> expected.put(e.label(), (long) n));
        assertEquals(expected, byDecode, "decode names each planted frame's reason; " + context + "\n" + decode.err());
        assertTrue(decode.err().contains("20 with an IPv4 header checksum mismatch"), decode.err());

        int port = ControlApiTest.freePort();
        Path cfg = dir.resolve("pcap-switch.yaml");
        Files.writeString(cfg, """
                eal: {memoryMb: 256, hugepages: off}
                ports:
                  - {name: cap, device: "net_pcap0,rx_pcap=%s,tx_pcap=%s", speed: 1G}
                  - {name: sink, device: "net_null0,no-rx=1", speed: 1G}
                mmu: {totalBytes: 1MiB, scheme: dt}
                """.formatted(capture, dir.resolve("out.pcap")));
        String log;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", dir.resolve("token").toString())) {
            sw.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(60));
            HttpClient http = HttpClient.newHttpClient();
            long total = expected.values().stream().mapToLong(Long::longValue).sum();
            JsonNode ports = null;
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (System.nanoTime() < deadline) {                    // the worker reads the file on its first passes
                ports = new ObjectMapper().readTree(get(http, port, "/api/v1/show/ports")).get("ports");
                if (ports.get(0).get("malformed").asLong() >= total) {
                    break;
                }
                Thread.sleep(100);
            }
            JsonNode cap = ports.get(0);
            assertEquals("cap", cap.get("port").asText());
            Map<String, Long> byShow = new TreeMap<>();
            cap.get("parse_errors").properties().forEach(e -> byShow.put(e.getKey(), e.getValue().asLong()));
            assertEquals(byDecode, byShow, "show ports, by reason; " + context);
            assertEquals(total, cap.get("malformed").asLong(), "show ports' total is the sum of its reasons");

            Map<String, Long> byMetrics = new TreeMap<>();
            Matcher metric = Pattern.compile("pfcswitch_malformed_frames_total\\{port=\"cap\",reason=\"(\\w+)\"} (\\d+)")
                    .matcher(get(http, port, "/metrics"));
            while (metric.find()) {
                if (Long.parseLong(metric.group(2)) > 0) {
                    byMetrics.put(metric.group(1), Long.parseLong(metric.group(2)));
                }
            }
            assertEquals(byDecode, byMetrics, "/metrics, by reason; " + context);
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        String counters = log.lines().filter(l -> l.contains("counters cap:")).findFirst().orElseThrow();
        Matcher line = Pattern.compile("malformed (\\d+) \\(([^)]*)\\)").matcher(counters);
        assertTrue(line.find(), counters);
        Map<String, Long> byLog = new TreeMap<>();
        for (String part : line.group(2).split(", ")) {
            String[] kv = part.split(" ");
            byLog.put(kv[0], Long.parseLong(kv[1]));
        }
        assertEquals(byDecode, byLog, "the shutdown log, by reason; " + context + "\n" + counters);
        assertEquals(expected.values().stream().mapToLong(Long::longValue).sum(), Long.parseLong(line.group(1)), counters);
        assertTrue(log.contains("(all returned)"), log);
    }

    /** Frames of each malformed kind, by the reason the parser gives them. */
    private static Map<ParseError, List<byte[]>> badFrames() {
        byte[] roce = roce(new RoceFrameBuilder().payloadBytes(64));
        byte[] pfc = new byte[60];
        MacControl.writePfc(MemorySegment.ofArray(pfc), 0, HOST, 1 << 3, 0);
        Map<ParseError, List<byte[]>> k = new TreeMap<>();
        k.put(ParseError.RUNT, List.of(Arrays.copyOf(roce, 10), Arrays.copyOf(roce, 13)));
        k.put(ParseError.TRUNCATED_VLAN_TAG, List.of(
                header(Ethernet.TYPE_VLAN, 0x6003),                                      // the outer tag cut off
                header(Ethernet.TYPE_QINQ, 0x0003, Ethernet.TYPE_VLAN, 0x6003)));        // the inner one
        k.put(ParseError.TOO_MANY_VLAN_TAGS, List.of(Arrays.copyOf(header(Ethernet.TYPE_VLAN, 0x6003, Ethernet.TYPE_VLAN,
                0x6003, Ethernet.TYPE_VLAN, 0x6003, Ethernet.TYPE_IPV4), 60)));
        k.put(ParseError.TRUNCATED_MAC_CONTROL, List.of(Arrays.copyOf(pfc, 18), Arrays.copyOf(pfc, 30)));
        byte[] opcode = pfc.clone();
        opcode[15] = 0x02;                                                             // opcode 0x0102
        k.put(ParseError.UNKNOWN_MAC_CONTROL_OPCODE, List.of(opcode));
        byte[] reserved = pfc.clone();
        reserved[16] = (byte) 0xA0;                                                    // the class-enable vector's reserved byte
        k.put(ParseError.PFC_RESERVED_BITS_SET, List.of(reserved));
        k.put(ParseError.TRUNCATED_IPV4, List.of(Arrays.copyOf(roce, 14), Arrays.copyOf(roce, 30)));
        byte[] version = roce.clone();
        version[Ethernet.HEADER_BYTES] = 0x65;                                         // IP version 6 behind EtherType IPv4
        k.put(ParseError.BAD_IPV4_VERSION, List.of(version));
        byte[] udpLength = roce.clone();
        NetOrder.put16(MemorySegment.ofArray(udpLength), Ethernet.HEADER_BYTES + 20 + 4, 4);   // below the UDP header
        k.put(ParseError.BAD_UDP_LENGTH, List.of(udpLength));
        return k;
    }

    /** Destination, source, then 16-bit words (EtherTypes and tag control fields). */
    private static byte[] header(int... words) {
        MemorySegment s = MemorySegment.ofArray(new byte[12 + 2 * words.length]);
        NetOrder.put48(s, 0, OTHER);
        NetOrder.put48(s, 6, HOST);
        for (int i = 0; i < words.length; i++) {
            NetOrder.put16(s, 12 + 2 * i, words[i]);
        }
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    private static byte[] roce(RoceFrameBuilder b) {
        b.macs(OTHER, HOST).ips(0x0A000001, 0x0A000002);
        MemorySegment s = MemorySegment.ofArray(new byte[b.frameLength()]);
        b.write(s, 0);
        return s.toArray(ValueLayout.JAVA_BYTE);
    }

    private static String get(HttpClient http, int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}

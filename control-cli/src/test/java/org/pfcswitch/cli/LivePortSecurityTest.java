package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PcapReader;
import org.pfcswitch.codec.RoceFrameBuilder;

/**
 * A spoofer on h1 sends one frame with h0's source MAC, then h2 sends to h0. Without port security
 * the switch moves h0's entry to h1 and h0's traffic goes to the spoofer (a move, counted and
 * logged); with {@code learning: {moves: deny}} on h1's port the entry stays and every frame
 * reaches h0 (a denied move, counted and logged). A static entry holds either way.
 */
class LivePortSecurityTest extends ThreeHostLabTest {

    private static final long H0 = NetnsLab.HOST_MAC[0];
    private static final long H1 = NetnsLab.HOST_MAC[1];
    private static final long H2 = NetnsLab.HOST_MAC[2];
    private static final int FRAMES_TO_H0 = 30;

    @Test
    void withoutTheGuardOneSpoofedFrameTakesTheVictimsTraffic() throws Exception {
        Outcome o = spoof("open", "", "");
        assertEquals(0, o.atVictim, "h0's entry moved to the spoofer's port\n" + o.log);
        assertEquals(FRAMES_TO_H0, o.atSpoofer, o.log);
        assertEquals(1, o.h1.get("mac_moves").asLong(), o.h1.toString());
        assertTrue(o.log.contains("mac 02:00:00:00:00:01 moved from h0 to h1"), o.log);
        assertTrue(o.metrics.contains("pfcswitch_mac_moves_total{port=\"h1\"} 1.0"), o.metrics);
    }

    @Test
    void aPortThatDeniesMovesKeepsTheVictimsTrafficAtTheVictim() throws Exception {
        Outcome o = spoof("guarded", "", "learning: {maxMacs: 4, moves: deny}");
        assertEquals(FRAMES_TO_H0, o.atVictim, "every frame to h0 reached h0\n" + o.log);
        assertEquals(0, o.atSpoofer, o.log);
        assertEquals(0, o.h1.get("mac_moves").asLong(), o.h1.toString());
        assertEquals(1, o.h1.get("mac_moves_denied").asLong(), o.h1.toString());
        assertTrue(o.log.contains("mac 02:00:00:00:00:01 seen on h1 stays on h0"), o.log);
        assertTrue(o.metrics.contains("pfcswitch_mac_moves_denied_total{port=\"h1\"} 1.0"), o.metrics);
        assertTrue(o.log.contains("port security h1: at most 4 stations learned, a station learned on another port does"
                + " not move here"), o.log);
    }

    @Test
    void aStaticEntryHoldsWithoutTheGuard() throws Exception {
        Outcome o = spoof("static", "forwarding: {staticMacs: [{mac: \"02:00:00:00:00:01\", port: h0}]}\n", "");
        assertEquals(FRAMES_TO_H0, o.atVictim, o.log);
        assertEquals(0, o.atSpoofer, o.log);
        assertEquals(1, o.h1.get("mac_moves_denied").asLong(), o.h1.toString());
        assertTrue(o.log.contains("mac 02:00:00:00:00:01 seen on h1 stays on h0"), o.log);
    }

    private record Outcome(long atVictim, long atSpoofer, JsonNode h1, String metrics, String log) {}

    /** h0 and h2 make themselves known, h1 sends one frame as h0, then h2 sends {@link #FRAMES_TO_H0} frames to h0. */
    private Outcome spoof(String name, String forwarding, String h1Port) throws Exception {
        Path cfg = lab.switchConfig(name, "eal: {memoryMb: 256, hugepages: off}\n" + forwarding
                + "mmu: {totalBytes: 4MiB, scheme: dt}\n", "", h1Port, "");
        List<NetnsLab.Send> schedule = new ArrayList<>();
        schedule.add(NetnsLab.Send.at(0, 0, roce(H2, H0, 0)));              // h0 is learned on h0
        schedule.add(NetnsLab.Send.at(5_000, 2, roce(H0, H2, 0)));          // h2 on h2
        schedule.add(NetnsLab.Send.at(20_000, 1, roce(H2, H0, 1)));         // the spoofer: h0's MAC from h1
        for (int i = 0; i < FRAMES_TO_H0; i++) {
            schedule.add(NetnsLab.Send.at(40_000 + 1_000L * i, 2, roce(H0, H2, 100 + i)));
        }
        int port = ControlApiTest.freePort();
        HttpClient http = HttpClient.newHttpClient();
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", dir.resolve(name + ".token").toString())) {
            sw.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(60));
            NetnsLab.Capture victim = lab.capture(0, "udp port 4791", 8);
            NetnsLab.Capture spoofer = lab.capture(1, "udp port 4791", 6);
            lab.send(schedule);
            long atVictim = framesTo(victim.await(), H0);
            long atSpoofer = framesTo(spoofer.await(), H0);
            Thread.sleep(200);                                                // the main thread logs every 50 ms
            JsonNode h1 = new ObjectMapper().readTree(get(http, port, "/api/v1/show/ports")).get("ports").get(1);
            assertEquals("h1", h1.get("port").asText());
            String metrics = get(http, port, "/metrics");
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            return new Outcome(atVictim, atSpoofer, h1, metrics, sw.stdout());
        }
    }

    /** RoCE frames to {@code dst} in the capture, PSN 100 and up (h2's frames to h0, not the learning ones). */
    private static long framesTo(Path pcap, long dst) throws Exception {
        long n = 0;
        ParsedFrame f = new ParsedFrame();
        try (PcapReader r = PcapReader.open(pcap)) {
            for (PcapReader.Record rec = r.next(); rec != null; rec = r.next()) {
                FrameParser.parse(rec.data(), f);
                if (f.dstMac() == dst && f.isRoce() && f.psn() >= 100) {
                    n++;
                }
            }
        }
        return n;
    }

    private static MemorySegment roce(long dst, long src, int psn) {
        // Addresses no host has: a host's kernel drops such a frame without a word (for its own address it would
        // answer with ICMP, and the ARP that takes would teach the switch h0's place again).
        RoceFrameBuilder b = new RoceFrameBuilder().macs(dst, src).ips(0x0AC8_0001, 0x0AC8_0002).destQp(17).psn(psn)
                .payloadBytes(64);
        MemorySegment f = MemorySegment.ofArray(new byte[b.frameLength()]);
        b.write(f, 0);
        return f;
    }

    private static String get(HttpClient http, int port, String path) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.body();
    }
}

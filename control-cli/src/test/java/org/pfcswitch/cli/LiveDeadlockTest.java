package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.RoceFrameBuilder;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The live switch finds a PFC deadlock in itself (issue 17 item 2): its ports la and lb are the two
 * ends of one veth pair (a loop cable: what la sends arrives on lb), h0 is a namespace host. A
 * static entry sends MAC X out of la, so a frame for X that comes back in on lb goes out of la
 * again: a forwarding loop. h0 sends 2000 lossless frames to X; the loop fills, lb pauses la's
 * egress through the cable (its PFC frames reach la with lb's MAC) and the loop freezes. Within
 * check + persist the switch logs the cycle, {@code show deadlock --json} names it and /metrics
 * counts it; the switch still stops cleanly with every mbuf returned. The veth pair and the
 * namespace are this test's own and are removed at the end.
 *
 * <p>The ports run at 100 Mb/s so that a pause lasts 335 ms and is refreshed every 168 ms: on this
 * shared 2-core machine the worker is sometimes off its CPU for over 100 ms, and at 1 Gb/s (a pause
 * of 33.5 ms) such a stall let lb's pause of la lapse, la send a burst, lb drop it over its
 * headroom, and the loop thaw a little each time (seen: 7 XONs from lb in a run with 168 stalls
 * over 10 ms).
 */
class LiveDeadlockTest {

    private static final long H0 = NetnsLab.HOST_MAC[0];
    private static final long X = 0x02_00_00_00_0B_ADL;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    private static void ip(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        run(command);
    }

    private static void run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        if (!p.waitFor(20, TimeUnit.SECONDS) || p.exitValue() != 0) {
            fail(String.join(" ", command) + " failed: " + out);
        }
    }

    private static MemorySegment roce(int psn) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(X, H0).ips(0x0A63_0001, 0x0A63_0009).dscp(26).destQp(17).psn(psn)
                .payloadBytes(1000);
        MemorySegment f = MemorySegment.ofArray(new byte[b.frameLength()]);
        b.write(f, 0);
        return f;
    }

    private static String get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString()).body();
    }

    /**
     * On one worker, and on two: then la is worker 0's and lb worker 1's, so the frozen cycle is
     * worker 1's ingress pausing worker 0's egress, found by worker 0's search over the PFC state
     * each worker publishes at its checks.
     */
    @ParameterizedTest(name = "{0} worker(s)")
    @ValueSource(ints = {1, 2})
    void aForwardingLoopOverAVethLoopCableIsReportedAsADeadlock(int workers) throws Exception {
        String prefix = "pt" + ProcessHandle.current().pid() % 100_000 + "-";
        String la = prefix + "la";
        String lb = prefix + "lb";
        try (NetnsLab lab = NetnsLab.up(dir, 1)) {
            ip("link", "add", la, "type", "veth", "peer", "name", lb);
            try {
                for (String end : new String[] {la, lb}) {
                    // nothing of the kernel's own (IPv6 neighbour discovery) may go round the loop
                    run(List.of("sysctl", "-qw", "net.ipv6.conf." + end + ".disable_ipv6=1"));
                    ip("link", "set", end, "up");
                }
                runTheLoop(lab, la, lb, workers == 1 ? "" : "workers: [{ports: [h0, la]}, {ports: [lb]}]\n");
            } finally {
                ip("link", "del", la);
            }
        }
    }

    private void runTheLoop(NetnsLab lab, String la, String lb, String workers) throws Exception {
        Path cfg = dir.resolve("loop.yaml");
        Files.writeString(cfg, workers + """
                eal: {memoryMb: 256, hugepages: off}
                forwarding: {learning: false, staticMacs: [{mac: "02:00:00:00:0b:ad", port: la}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                mmu: {totalBytes: 1MiB, scheme: dt, losslessPriorities: [3]}
                deadlock: {check: 10ms, persist: 100ms}
                """ + lab.portsYaml("speed: 100M")
                + "  - {name: la, device: \"net_af_packet1,iface=" + la + ",qdisc_bypass=1\", mac: \"02:fc:00:00:00:0a\", speed: 100M}\n"
                + "  - {name: lb, device: \"net_af_packet2,iface=" + lb + ",qdisc_bypass=1\", mac: \"02:fc:00:00:00:0b\", speed: 100M}\n");
        List<NetnsLab.Send> schedule = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            schedule.add(NetnsLab.Send.at(50L * i, 0, roce(i)));
        }
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String api = "http://127.0.0.1:" + port;
        HttpClient http = HttpClient.newHttpClient();
        JsonNode view = null;
        String metrics;
        Cli cli;
        String log;
        try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", dir.resolve("tokens").resolve("control.token").toString())) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(60));
            JsonNode before = JSON.readTree(get(http, api + "/api/v1/show/deadlock"));
            assertTrue(before.get("enabled").asBoolean() && before.get("deadlocks").asLong() == 0, before.toString());
            long sent = System.nanoTime();
            lab.send(schedule);
            long deadline = System.nanoTime() + 5_000_000_000L;
            while (System.nanoTime() < deadline) {
                view = JSON.readTree(get(http, api + "/api/v1/show/deadlock"));
                if (view.get("present").asBoolean()) {
                    break;
                }
                Thread.sleep(50);
            }
            System.out.printf("deadlock present %.0f ms after h0 began sending%n", (System.nanoTime() - sent) / 1e6);
            metrics = get(http, api + "/metrics");
            cli = Cli.run("show", "deadlock", "--api", api);
            sw.awaitLine("deadlock: lb/3", Duration.ofSeconds(5));
            assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            log = sw.stdout();
        }
        System.out.println(view.toPrettyString());
        System.out.println(cli.out());
        System.out.println(log);
        assertTrue(view.get("present").asBoolean(), view.toPrettyString() + "\n" + log);
        assertEquals(1, view.get("deadlocks").asLong(), view.toPrettyString());
        JsonNode cycle = view.get("cycle");
        assertEquals("lb/3 -> out la -> lb/3", cycle.get("description").asText(), view.toPrettyString());
        assertEquals("lb", cycle.get("hops").get(0).get("ingress").asText());
        assertEquals("la", cycle.get("hops").get(0).get("egress").asText());
        JsonNode laPort = view.get("ports").get(1);
        assertEquals("la", laPort.get("port").asText());
        assertEquals("02:fc:00:00:00:0b", laPort.get("pfc_sender_mac").asText(), "la is paused by lb's MAC");
        assertEquals("lb", laPort.get("pfc_sender_port").asText());
        assertEquals("lb/3 -> out la -> lb/3", view.get("reports").get(0).get("description").asText());
        assertTrue(metrics.contains("pfcswitch_deadlocks_total 1.0"), metrics.lines().filter(l -> l.contains("deadlock")).toList().toString());
        assertTrue(metrics.contains("pfcswitch_deadlock_present 1.0"), metrics.lines().filter(l -> l.contains("deadlock")).toList().toString());
        assertEquals(0, cli.exitCode(), cli.err());
        assertTrue(cli.out().contains("cycle now: lb/3 -> out la -> lb/3") && cli.out().contains("DEADLOCK, reported"), cli.out());
        assertTrue(log.contains("deadlock detection: a check every 10.0 ms, a cycle reported after 100.0 ms"), log);
        assertTrue(log.matches("(?s).*deadlock: lb/3 -> out la -> lb/3 \\(a cycle of paused queues for 1[0-9][0-9]\\.[0-9] ms.*"), log);
        assertTrue(log.matches("(?s).*deadlock detection: \\d+ checks, 1 deadlock\\(s\\) reported, one still present at shutdown.*"), log);
        assertTrue(log.contains("(all returned)"), log);
    }
}

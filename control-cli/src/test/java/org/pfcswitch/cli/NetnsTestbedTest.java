package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.MacControl;

/**
 * The switch between three network-namespace hosts, all created by this test under names unique
 * to this JVM ({@code pt<pid>-hN}) and removed in {@code finally}, also when the test fails.
 * Traffic stays inside those namespaces. Needs root: without it the test fails, it never skips.
 */
class NetnsTestbedTest {

    static final String PYTHON = "/usr/bin/python3";   // the dpdk package depends on python3

    @TempDir
    Path dir;

    @Test
    void hostsPingEachOtherThroughTheSwitchAndPfcIsCountedNotForwarded() throws Exception {
        requireRootAndTools();
        String prefix = "pt" + ProcessHandle.current().pid() % 100_000 + "-";
        Path cfg = dir.resolve("netns.yaml");
        Files.writeString(cfg, """
                eal: {memoryMb: 256, hugepages: off}
                workers: 1
                ports:
                  - {name: h0, device: "net_af_packet0,iface=%1$sh0"}
                  - {name: h1, device: "net_af_packet1,iface=%1$sh1"}
                  - {name: h2, device: "net_af_packet2,iface=%1$sh2"}
                forwarding: {learning: true}
                classification: {trust: dscp, dscpMap: "26:3"}
                testbed:
                  namespacePrefix: %1$s
                  hosts:
                    - {name: h0, ip: 10.99.0.1/24, mac: "02:00:00:00:00:01", switchPort: h0}
                    - {name: h1, ip: 10.99.0.2/24, mac: "02:00:00:00:00:02", switchPort: h1}
                    - {name: h2, ip: 10.99.0.3/24, mac: "02:00:00:00:00:03", switchPort: h2}
                """.formatted(prefix));
        String[] ns = {prefix + "h0", prefix + "h1", prefix + "h2"};
        String[] ip = {"10.99.0.1", "10.99.0.2", "10.99.0.3"};
        try {
            Cli up = Cli.run("testbed", "up", "-c", cfg.toString());
            assertEquals(0, up.exitCode(), up.out() + up.err());
            try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString())) {
                sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));

                for (int from = 0; from < 3; from++) {
                    for (int to = 0; to < 3; to++) {
                        if (from != to) {
                            Result ping = exec(10, "ip", "netns", "exec", ns[from], "ping", "-c", "3", "-i", "0.2", "-W", "1", ip[to]);
                            assertEquals(0, ping.code, "ping h" + from + " -> h" + to + "\n" + ping.output + "\nswitch:\n" + sw.stdout());
                        }
                    }
                }

                // A PFC frame from h0 pausing priority 3: counted on port h0, seen by neither h1 nor h2.
                byte[] pfc = new byte[60];
                MacControl.writePfc(MemorySegment.ofArray(pfc), 0, 0x02_00_00_00_00_01L, 1 << 3, 0xFFFF);
                Process sniff1 = sniff(ns[1]);
                Process sniff2 = sniff(ns[2]);
                awaitReady(sniff1);
                awaitReady(sniff2);
                Result send = exec(10, "ip", "netns", "exec", ns[0], PYTHON, "-c",
                        "import socket,sys; s=socket.socket(socket.AF_PACKET, socket.SOCK_RAW); s.bind(('eth0', 0));"
                                + " s.send(bytes.fromhex(sys.argv[1]))", HexFormat.of().formatHex(pfc));
                assertEquals(0, send.code, send.output);
                assertEquals("0", sniffed(sniff1), "MAC-control frames that reached h1");
                assertEquals("0", sniffed(sniff2), "MAC-control frames that reached h2");

                int code = sw.signalAndWait("TERM", Duration.ofSeconds(30));
                String log = sw.stdout();
                assertEquals(0, code, log + "\n" + sw.stderr());
                assertTrue(log.matches("(?s).*counters h0: rx \\d+ .*pfc rx p3=1,.*"), "PFC counted on h0 priority 3:\n" + log);
                assertTrue(log.matches("(?s).*counters h1: .*pfc rx 0,.*"), log);
                assertTrue(log.contains("mbufs in use after shutdown (all returned)"), log);
            }
        } finally {
            Cli down = Cli.run("testbed", "down", "-c", cfg.toString());
            assertEquals(0, down.exitCode(), down.err());
            for (String n : ns) {
                assertTrue(!Files.exists(Path.of("/var/run/netns", n)), "namespace " + n + " left behind");
            }
        }
    }

    /**
     * {@code hosts} against a live switch whose headroom (1 KiB, under one frame) cannot hold what an
     * obeying sender has in flight when paused: the run ends with the switch's counts read through
     * its control API, says plainly that the switch dropped lossless frames from senders that obey
     * PFC, and exits with status 4. With no switch answering, one line says so and the hosts' table
     * still comes.
     */
    @Test
    void hostsEndWithTheSwitchsCountsAndFailWhenItDroppedLosslessFramesOfObeyingSenders() throws Exception {
        requireRootAndTools();
        String prefix = "pu" + ProcessHandle.current().pid() % 100_000 + "-";
        Path cfg = dir.resolve("netns-headroom.yaml");
        Files.writeString(cfg, Files.readString(Path.of("../testbed-configs/netns-3hosts.yaml")).replace("pfcsw-", prefix)
                .replace("hugepages: auto", "hugepages: off")
                .replace("  scheme: dt\n", "  scheme: dt\n  headroomFormula: fixed\n  headroomBytes: 1KiB\n"));
        int port;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0)) {
            port = free.getLocalPort();
        }
        String api = "http://127.0.0.1:" + port;
        try {
            Cli up = Cli.run("testbed", "up", "-c", cfg.toString());
            assertEquals(0, up.exitCode(), up.out() + up.err());
            Cli alone = Cli.run("hosts", "-c", cfg.toString(), "--scenario", HostsCommandTest.SCENARIO, "--duration", "200ms",
                    "--api", api);
            assertEquals(0, alone.exitCode(), alone.out() + alone.err());
            assertEquals(1, alone.err().lines().filter(l -> l.startsWith("switch: not read")).count(), alone.err());
            assertTrue(alone.out().contains("h0") && !alone.out().contains("switch, during the run"), alone.out());

            try (SwitchProcess sw = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                    "--token-file", dir.resolve("control.token").toString())) {
                sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
                Cli r = Cli.run("hosts", "-c", cfg.toString(), "--scenario", HostsCommandTest.SCENARIO, "--duration", "1s",
                        "--api", api);
                assertEquals(SwitchRunSummary.EXIT_LOSSLESS_DROPS, r.exitCode(), r.out() + r.err());
                assertTrue(r.out().contains("switch, during the run (its control API at " + api + "):"), r.out());
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("lossless drops: (\\d+) from senders that obey PFC"
                        + " \\(by ingress port: [^)]+\\), 0 from senders that ignore it").matcher(r.out());
                assertTrue(m.find(), r.out());
                assertTrue(Long.parseLong(m.group(1)) > 0, r.out());
                assertTrue(r.out().matches("(?s).*PFC frames sent [1-9]\\d*, received \\d+; frames its ports' rx rings had no"
                        + " room for \\d+.*"), r.out());
                assertTrue(r.out().contains("NOT LOSSLESS: the switch dropped " + m.group(1) + " lossless frames from senders"
                        + " that obey PFC (exit status 4)"), r.out());
                assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
            }
        } finally {
            Cli down = Cli.run("testbed", "down", "-c", cfg.toString());
            assertEquals(0, down.exitCode(), down.err());
        }
    }

    /** A raw-socket listener for EtherType 0x8808 on a host's eth0 for 1.5 s; prints "ready" then the count. */
    private static Process sniff(String namespace) throws Exception {
        return new ProcessBuilder("ip", "netns", "exec", namespace, PYTHON, "-c", """
                import socket, time
                s = socket.socket(socket.AF_PACKET, socket.SOCK_RAW, socket.htons(0x8808))
                s.bind(('eth0', 0))
                s.settimeout(0.05)
                print('ready', flush=True)
                n = 0
                end = time.time() + 1.5
                while time.time() < end:
                    try:
                        s.recv(2048)
                        n += 1
                    except socket.timeout:
                        pass
                print(n, flush=True)
                """).redirectErrorStream(true).start();
    }

    private static void awaitReady(Process p) throws Exception {
        StringBuilder line = new StringBuilder();
        for (int c = p.getInputStream().read(); c != -1 && c != '\n'; c = p.getInputStream().read()) {
            line.append((char) c);
        }
        assertEquals("ready", line.toString().trim(), "sniffer did not start");
    }

    private static String sniffed(Process p) throws Exception {
        assertTrue(p.waitFor(10, TimeUnit.SECONDS), "sniffer did not finish");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }

    record Result(int code, String output) {}

    static Result exec(int timeoutSeconds, String... command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return new Result(-1, "timed out: " + String.join(" ", command));
        }
        return new Result(p.exitValue(), new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
    }

    private static void requireRootAndTools() throws Exception {
        Result id = exec(5, "id", "-u");
        if (!id.output.trim().equals("0")) {
            fail("this test creates network namespaces and needs root (CI runs as root); id -u = " + id.output.trim());
        }
        List<String> missing = new ArrayList<>();
        for (String tool : new String[] {"/usr/sbin/ip", "/usr/bin/ping", PYTHON}) {
            if (!Files.isExecutable(Path.of(tool)) && !Files.isExecutable(Path.of(tool.replace("/usr/sbin/", "/sbin/")))) {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty()) {
            fail("missing tools " + missing + ": run scripts/ensure-deps.sh (iproute2, iputils-ping, python3)");
        }
    }
}

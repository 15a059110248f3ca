package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A network-namespace lab for tests of the live switch: hosts {@code h0..h(n-1)} in namespaces
 * named {@code pt<pid>-hN} (unique to this JVM), each with a veth pair whose root-side end is the
 * switch port; made by {@code pfcswitch testbed up} from a config this class writes, removed by
 * {@link #close} (call it in {@code finally} or {@code @AfterAll}). Traffic stays inside these
 * namespaces: frames are written onto a host's own {@code eth0} and captured there.
 */
final class NetnsLab implements AutoCloseable {

    static final String PYTHON = "/usr/bin/python3";   // the dpdk package depends on python3
    static final long[] HOST_MAC = {0x02_00_00_00_00_01L, 0x02_00_00_00_00_02L, 0x02_00_00_00_00_03L, 0x02_00_00_00_00_04L};

    private final Path dir;
    private final String prefix;
    private final int hosts;
    private final Path testbedConfig;
    private final Path sender;

    private NetnsLab(Path dir, int hosts) throws Exception {
        this.dir = dir;
        this.hosts = hosts;
        this.prefix = "pt" + ProcessHandle.current().pid() % 100_000 + "-";
        this.testbedConfig = dir.resolve("lab-testbed.yaml");
        StringBuilder yaml = new StringBuilder("ports:\n");
        for (int h = 0; h < hosts; h++) {
            yaml.append("  - {name: h").append(h).append(", device: \"net_af_packet").append(h).append(",iface=")
                    .append(prefix).append('h').append(h).append("\"}\n");
        }
        yaml.append("testbed:\n  namespacePrefix: ").append(prefix).append("\n  hosts:\n");
        for (int h = 0; h < hosts; h++) {
            yaml.append("    - {name: h").append(h).append(", ip: 10.99.0.").append(h + 1).append("/24, mac: \"")
                    .append(org.pfcswitch.codec.MacAddress.format(HOST_MAC[h])).append("\", switchPort: h").append(h).append("}\n");
        }
        Files.writeString(testbedConfig, yaml);
        this.sender = dir.resolve("send-frames.py");
        try (var in = NetnsLab.class.getResourceAsStream("/send-frames.py")) {
            Files.write(sender, in.readAllBytes());
        }
    }

    /** Creates the namespaces and veths; fails (never skips) without root or tools. */
    static NetnsLab up(Path dir, int hosts) throws Exception {
        requireRootAndTools();
        NetnsLab lab = new NetnsLab(dir, hosts);
        Cli up = Cli.run("testbed", "up", "-c", lab.testbedConfig.toString());
        if (up.exitCode() != 0) {
            lab.close();
            fail("testbed up failed: " + up.out() + up.err());
        }
        return lab;
    }

    /** The lab's own config file: its ports and its testbed: section (for 'testbed' and the live hosts). */
    Path testbedConfig() {
        return testbedConfig;
    }

    String namespace(int host) {
        return prefix + "h" + host;
    }

    /** The {@code ports:} list of a switch config for this lab: port hN on host hN's veth, with extra keys per port. */
    String portsYaml(String... extraPerPort) {
        StringBuilder s = new StringBuilder("ports:\n");
        for (int h = 0; h < hosts; h++) {
            s.append("  - {name: h").append(h).append(", device: \"net_af_packet").append(h).append(",iface=")
                    .append(prefix).append('h').append(h).append(",qdisc_bypass=1\"")
                    .append(h < extraPerPort.length && !extraPerPort[h].isEmpty() ? ", " + extraPerPort[h] : "").append("}\n");
        }
        return s.toString();
    }

    /** A switch config: {@code body} (YAML without ports) plus the lab's ports. */
    Path switchConfig(String name, String body, String... extraPerPort) throws Exception {
        Path f = dir.resolve(name + ".yaml");
        Files.writeString(f, body + portsYaml(extraPerPort));
        return f;
    }

    /** One entry of a send schedule: host {@code host} sends {@code frame} {@code offsetMicros} after the schedule starts. */
    record Send(long offsetMicros, int host, byte[] frame) {
        static Send at(long offsetMicros, int host, MemorySegment frame) {
            return new Send(offsetMicros, host, frame.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
        }
    }

    /**
     * Sends {@code schedule} from the hosts' eth0s, all from one process so the frames keep the
     * schedule's order and spacing across hosts, and waits; asserts every frame went out.
     */
    void send(List<Send> schedule) throws Exception {
        Path file = Files.createTempFile(dir, "schedule", ".txt");
        StringBuilder s = new StringBuilder();
        for (Send e : schedule) {
            s.append(e.offsetMicros()).append(' ').append(e.host()).append(' ').append(HexFormat.of().formatHex(e.frame())).append('\n');
        }
        Files.writeString(file, s);
        List<String> command = new ArrayList<>(List.of(PYTHON, sender.toString(), file.toString()));
        for (int h = 0; h < hosts; h++) {
            command.add(namespace(h));
        }
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("sender did not finish within 60 s");
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertEquals(String.valueOf(schedule.size()), out, "frames sent");
    }

    /**
     * A running tshark on a host's eth0 for a window of at least {@code seconds}, and longer on a
     * loaded machine: {@link #await} ends it no earlier than {@link #SETTLE} after it is called.
     */
    final class Capture {
        /** How long a capture goes on after {@link #await} is called: frames the switch still sends. */
        static final Duration SETTLE = Duration.ofSeconds(1);
        /** tshark's own limit, so that a test that never calls {@link #await} leaves no capture behind. */
        static final int LONGEST_SECONDS = 120;
        final Path file;
        private final Process process;
        private final long windowEndsAt;

        private Capture(Path file, Process process, long windowEndsAt) {
            this.file = file;
            this.process = process;
            this.windowEndsAt = windowEndsAt;
        }

        /**
         * Waits until the window is over and {@link #SETTLE} has passed, then stops tshark and returns
         * the pcap. A fixed window alone missed frames when a loaded machine started the sender late.
         */
        Path await() throws Exception {
            long until = Math.max(windowEndsAt, System.nanoTime() + SETTLE.toNanos());
            Thread.sleep(Math.max(0, (until - System.nanoTime()) / 1_000_000));
            return stop();
        }

        /** Stops tshark now (SIGTERM: it closes the file) and returns the pcap. */
        Path stop() throws Exception {
            process.destroy();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                fail("tshark did not stop on SIGTERM");
            }
            return file;
        }
    }

    /** Captures frames matching the capture {@code filter} on host {@code host}'s eth0, both directions, for at least {@code seconds}. */
    Capture capture(int host, String filter, int seconds) throws Exception {
        Tshark.requireInstalled();
        Path file = Files.createTempFile(dir, "h" + host + "-", ".pcap");
        Process p = new ProcessBuilder("ip", "netns", "exec", namespace(host), "tshark", "-n", "-q", "-i", "eth0",
                "-F", "pcap", "-w", file.toString(), "-a", "duration:" + Capture.LONGEST_SECONDS, "-f", filter)
                .redirectErrorStream(true).start();
        // tshark says "Capturing on 'eth0'" once the socket is open: nothing sent before is missed.
        BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        List<String> said = new ArrayList<>();
        for (String line = r.readLine(); line != null; line = r.readLine()) {
            said.add(line);
            if (line.contains("Capturing on")) {
                Thread.sleep(200);    // the message comes a moment before the first frame is certain to be seen
                Thread drain = new Thread(() -> {
                    try {
                        p.getInputStream().transferTo(java.io.OutputStream.nullOutputStream());
                    } catch (java.io.IOException e) {
                        // tshark is gone
                    }
                });
                drain.setDaemon(true);
                drain.start();
                return new Capture(file, p, System.nanoTime() + seconds * 1_000_000_000L);
            }
        }
        fail("tshark did not start capturing in " + namespace(host) + ": " + said);
        return null;
    }

    @Override
    public void close() throws Exception {
        Cli down = Cli.run("testbed", "down", "-c", testbedConfig.toString());
        assertEquals(0, down.exitCode(), down.err());
        for (int h = 0; h < hosts; h++) {
            if (Files.exists(Path.of("/var/run/netns", namespace(h)))) {
                fail("namespace " + namespace(h) + " left behind");
            }
        }
    }

    static void requireRootAndTools() throws Exception {
        Process id = new ProcessBuilder("id", "-u").start();
        String uid = new String(id.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!uid.equals("0")) {
            fail("this test creates network namespaces and needs root (CI runs as root); id -u = " + uid);
        }
        List<String> missing = new ArrayList<>();
        for (String tool : new String[] {"/usr/sbin/ip", PYTHON, "/usr/bin/tshark"}) {
            if (!Files.isExecutable(Path.of(tool)) && !Files.isExecutable(Path.of(tool.replace("/usr/sbin/", "/sbin/")))) {
                missing.add(tool);
            }
        }
        if (!missing.isEmpty()) {
            fail("missing tools " + missing + ": run scripts/ensure-deps.sh (iproute2, python3, tshark)");
        }
    }
}

package org.pfcswitch.cli.bench;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * Open vSwitch with DPDK (Debian's {@code openvswitch-switch-dpdk}, OVS 3.1 on DPDK 22.11) as the
 * switch a lab would run instead: the peer of {@code bench fwd --peer ovs}.
 *
 * <p>One instance per bench run, private to it: {@code ovsdb-server} on a fresh database and
 * {@code ovs-vswitchd-dpdk} (called directly; the system's {@code ovs-vswitchd} alternative is left
 * alone), both children of this JVM, with their database, sockets, pid files and logs in a
 * temporary directory ({@code OVS_RUNDIR}, {@code OVS_DBDIR}, {@code OVS_LOGDIR}); DPDK gets
 * hugepages ({@code --in-memory}, added by OVS itself), no PCI devices and no telemetry socket. One
 * bridge ({@code datapath_type=netdev}, {@code fail_mode=secure}: only the flows installed here).
 *
 * <p>Each {@link #round} adds two {@code type=dpdk} ports on net_null vdevs of the round's frame
 * size, each port's rx queue pinned to a PMD core ({@code pmd-rxq-affinity}; with one core both
 * share it), measures the L2 bridge ({@code NORMAL} with the MAC table seeded by
 * {@code fdb/add}), then a two-rule cross-connect, and removes the ports again (the PMD threads
 * then sleep, so OVS takes no CPU while the other sides are measured). Rates come from OVS's own
 * port counters (tx packets of both ports, read live with {@code ovs-ofctl dump-ports}) over the
 * measured window, after the same settle time as the other sides.
 *
 * <p>Frames: net_null never writes frame data; its rx hands out mbufs as they are, and a fresh
 * pool is zero-filled (destination and source MAC 00:00:00:00:00:00, EtherType 0). An ingress rule
 * writes the two stations' MACs ({@code mac0 -> mac1} on port 0 and back) before {@code NORMAL}.
 * With {@code per-port-memory} each port's mbufs come back to its own pool after tx still
 * carrying those MACs, so after the first pass over a pool OVS's datapath has nothing to rewrite:
 * the measured frames arrive as {@code mac0 -> mac1} (EtherType 0, zero payload) and the datapath
 * flow is the bridge's decision alone ({@code in_port(n0),eth(src=mac0,dst=mac1) -> n1}). Frames
 * that still needed the write in the window are counted ({@link Round#rewrittenFrames}).
 */
public final class OvsDpdkPeer implements AutoCloseable {

    public static final String PACKAGE = "openvswitch-switch-dpdk";
    /** The DPDK build of ovs-vswitchd that the package installs (as an alternative, priority 50). */
    public static final Path VSWITCHD = Path.of("/usr/lib/openvswitch-switch-dpdk/ovs-vswitchd-dpdk");
    static final Path SCHEMA = Path.of("/usr/share/openvswitch/vswitch.ovsschema");
    private static final List<String> TOOLS = List.of("ovsdb-tool", "ovsdb-server", "ovs-vsctl", "ovs-ofctl", "ovs-appctl");
    private static final Path POLICY_RC_D = Path.of("/usr/sbin/policy-rc.d");

    /**
     * One round.
     *
     * @param normalMpps       frames forwarded per second by the NORMAL bridge, both ports' tx summed
     * @param crossConnectMpps the same through {@code in_port=n0,actions=output:n1} and back
     * @param rewrittenFrames  frames in the NORMAL window whose datapath flow still wrote the MACs
     * @param pmdCpuShare      share of the PMD cores' time the PMD threads ran in the NORMAL window
     */
    public record Round(double normalMpps, double crossConnectMpps, long rewrittenFrames, double pmdCpuShare) {
        static final Round STOPPED = new Round(Double.NaN, Double.NaN, -1, Double.NaN);
    }

    private final Path dir;
    private final Map<String, String> env;
    private final String bridge;
    private final Process ovsdb;
    private Process vswitchd;
    private String pmdMask = "";
    private boolean closed;

    private OvsDpdkPeer(Path dir, Process ovsdb) {
        this.dir = dir;
        this.ovsdb = ovsdb;
        this.env = Map.of("OVS_RUNDIR", dir.toString(), "OVS_DBDIR", dir.toString(), "OVS_LOGDIR", dir.toString(),
                "OVS_SYSCONFDIR", dir.toString());
        this.bridge = "pfcbench" + ProcessHandle.current().pid() % 10_000_000;
    }

    // ------------------------------------------------------------------ installation

    /** Whether OVS-DPDK and its tools are installed. */
    public static boolean installed() {
        if (!Files.isExecutable(VSWITCHD) || !Files.isReadable(SCHEMA)) {
            return false;
        }
        for (String tool : TOOLS) {
            if (tool(tool) == null) {
                return false;
            }
        }
        return true;
    }

    /**
     * Installs {@value #PACKAGE} with apt-get when it is missing (root only), without starting its
     * services: a {@code policy-rc.d} that denies them is put in place for the install when there
     * is none, and a daemon the install started anyway is stopped again.
     *
     * @throws IllegalStateException when it is missing and this is not root, or the install failed
     */
    public static void ensureInstalled(PrintWriter err) throws Exception {
        if (installed()) {
            return;
        }
        if (!ProcStat.isRoot()) {
            throw new IllegalStateException("--peer ovs: Open vSwitch with DPDK is not installed, and installing it needs root. "
                    + "Run as root (the bench then installs it), or: sudo apt-get install -y --no-install-recommends " + PACKAGE);
        }
        err.println("bench fwd: installing " + PACKAGE + " (Open vSwitch 3.1 with DPDK) with apt-get; its services stay stopped");
        err.flush();
        List<Long> before = ovsPids();
        boolean policyByUs = false;
        if (!Files.exists(POLICY_RC_D)) {
            Files.writeString(POLICY_RC_D, "#!/bin/sh\n# put here by pfcswitch bench fwd for an install: start no services\nexit 101\n");
            POLICY_RC_D.toFile().setExecutable(true, false);
            policyByUs = true;
        }
        try {
            List<String> install = List.of("apt-get", "install", "-y", "-qq", "--no-install-recommends", PACKAGE);
            Exec r = exec(Map.of("DEBIAN_FRONTEND", "noninteractive"), install, 600);
            if (r.code != 0) {
                exec(Map.of("DEBIAN_FRONTEND", "noninteractive"), List.of("apt-get", "update", "-qq"), 600);
                r = exec(Map.of("DEBIAN_FRONTEND", "noninteractive"), install, 600);
            }
            if (r.code != 0) {
                throw new IllegalStateException("apt-get install " + PACKAGE + " failed (exit " + r.code + "):\n" + r.output);
            }
        } finally {
            if (policyByUs) {
                Files.deleteIfExists(POLICY_RC_D);
            }
            List<Long> started = ovsPids();
            started.removeAll(before);
            if (!started.isEmpty()) {
                // The package's service came up after all (a systemd host ignoring policy-rc.d): stop it by its own script.
                exec(Map.of(), List.of("/usr/share/openvswitch/scripts/ovs-ctl", "stop"), 60);
                started.retainAll(ovsPids());
                if (!started.isEmpty()) {
                    err.println("bench fwd: the install started Open vSwitch daemons that did not stop: pids " + started);
                }
            }
        }
        if (!installed()) {
            throw new IllegalStateException("apt-get installed " + PACKAGE + " but " + VSWITCHD + " or the ovs tools are missing");
        }
    }

    /** Running ovs-vswitchd (any build) and ovsdb-server processes. */
    public static List<Long> ovsPids() {
        List<Long> pids = new ArrayList<>(ProcStat.pidsNamed("ovs-vswitchd"));
        pids.addAll(ProcStat.pidsNamed("ovsdb-server"));
        return pids;
    }

    private static String tool(String name) {
        List<String> dirs = new ArrayList<>(List.of(System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)));
        dirs.addAll(List.of("/usr/sbin", "/usr/bin", "/sbin", "/bin"));
        for (String d : dirs) {
            if (!d.isEmpty() && Files.isExecutable(Path.of(d, name))) {
                return Path.of(d, name).toString();
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ life cycle

    /**
     * Starts ovsdb-server and ovs-vswitchd-dpdk in a new temporary directory and creates the bridge.
     *
     * @param mainCpu  the CPU of OVS's main thread ({@code dpdk-lcore-mask}); its other non-PMD threads inherit it
     * @param memoryMb hugepage memory DPDK takes at start ({@code dpdk-socket-mem}, also the limit)
     */
    public static OvsDpdkPeer start(int mainCpu, int memoryMb) throws Exception {
        removeStaleBridgePorts();
        Path dir = Files.createTempDirectory("pfcswitch-ovs-");
        Map<String, String> env = Map.of("OVS_RUNDIR", dir.toString(), "OVS_DBDIR", dir.toString(),
                "OVS_LOGDIR", dir.toString(), "OVS_SYSCONFDIR", dir.toString());
        Exec created = exec(env, List.of(tool("ovsdb-tool"), "create", dir.resolve("conf.db").toString(), SCHEMA.toString()), 30);
        if (created.code != 0) {
            deleteTree(dir);
            throw new IllegalStateException("ovsdb-tool create failed: " + created.output);
        }
        Process ovsdb = daemon(env, dir, "ovsdb-server", List.of(tool("ovsdb-server"), dir.resolve("conf.db").toString(),
                "--remote=punix:" + dir.resolve("db.sock"), "--pidfile=" + dir.resolve("ovsdb-server.pid"),
                "--unixctl=" + dir.resolve("ovsdb-server.ctl"), "--log-file=" + dir.resolve("ovsdb-server.log"), "-vconsole:off"));
        OvsDpdkPeer peer = new OvsDpdkPeer(dir, ovsdb);
        try {
            peer.awaitFile(dir.resolve("db.sock"), ovsdb, "ovsdb-server", 20);
            peer.vsctl("--no-wait", "init");
            peer.vsctl("--no-wait", "set", "Open_vSwitch", ".", "other_config:dpdk-init=true",
                    "other_config:dpdk-socket-mem=" + memoryMb, "other_config:dpdk-socket-limit=" + memoryMb,
                    "other_config:dpdk-lcore-mask=0x" + Long.toHexString(1L << mainCpu),
                    "other_config:per-port-memory=true", "other_config:dpdk-extra=\"--no-pci --no-telemetry\"");
            peer.vswitchd = daemon(env, dir, "ovs-vswitchd", List.of(VSWITCHD.toString(), "unix:" + dir.resolve("db.sock"),
                    "--pidfile=" + dir.resolve("ovs-vswitchd.pid"), "--unixctl=" + dir.resolve("ovs-vswitchd.ctl"),
                    "--log-file=" + dir.resolve("ovs-vswitchd.log"), "-vconsole:off"));
            long deadline = System.nanoTime() + 90_000_000_000L;
            while (!"true".equals(peer.vsctlQuiet("get", "Open_vSwitch", ".", "dpdk_initialized"))) {
                if (!peer.vswitchd.isAlive() || System.nanoTime() > deadline) {
                    throw new IllegalStateException("ovs-vswitchd-dpdk did not initialise DPDK" + peer.logTail());
                }
                Thread.sleep(200);
            }
            peer.vsctl("--timeout=60", "add-br", peer.bridge, "--", "set", "bridge", peer.bridge, "datapath_type=netdev",
                    "fail_mode=secure");
            return peer;
        } catch (Exception | Error e) {
            peer.close();
            throw e;
        }
    }

    /**
     * The bridge's local port is a tap device that OVS keeps (persistent) until the bridge is
     * deleted; a bench killed with SIGKILL leaves its {@code pfcbenchPID}. Removes those whose
     * bench process is gone.
     */
    private static void removeStaleBridgePorts() throws Exception {
        try (Stream<Path> links = Files.list(Path.of("/sys/class/net"))) {
            for (Path link : links.toList()) {
                String name = link.getFileName().toString();
                if (name.matches("pfcbench\\d+")
                        && ProcessHandle.of(Long.parseLong(name.substring(8))).map(h -> !h.isAlive()).orElse(true)) {
                    String ip = tool("ip");
                    if (ip != null) {
                        exec(Map.of(), List.of(ip, "link", "del", name), 10);
                    }
                }
            }
        } catch (IOException e) {
            // no sysfs
        }
    }

    // ------------------------------------------------------------------ one round

    /**
     * Adds the two ports, measures the NORMAL bridge and the cross-connect, removes the ports.
     *
     * @param pmdCpus the PMD cores ({@code pmd-cpu-mask}); port 0's rx queue on the first, port 1's on the second (or the first)
     * @param mac0    the station behind port 0 (the source of the frames port 0 receives)
     * @param mac1    the station behind port 1
     * @param stop    true once the run is interrupted: the round ends early
     */
    public Round round(int[] pmdCpus, int frameBytes, long mac0, long mac1, int settleSeconds, int seconds,
                       BooleanSupplier stop) throws Exception {
        long mask = 0;
        for (int c : pmdCpus) {
            mask |= 1L << c;
        }
        String hex = "0x" + Long.toHexString(mask);
        if (!hex.equals(pmdMask)) {
            vsctl("--timeout=60", "set", "Open_vSwitch", ".", "other_config:pmd-cpu-mask=" + hex);
            pmdMask = hex;
        }
        List<String> add = new ArrayList<>(List.of("--timeout=60"));
        for (int p = 0; p < 2; p++) {
            String name = "n" + p;
            int core = pmdCpus[Math.min(p, pmdCpus.length - 1)];
            add.addAll(List.of("--", "add-port", bridge, name, "--", "set", "interface", name, "type=dpdk",
                    "ofport_request=" + (p + 1), "options:dpdk-devargs=net_null" + p + ",size=" + frameBytes,
                    "other_config:pmd-rxq-affinity=0:" + core));
            if (frameBytes > 1500) {
                add.add("mtu_request=" + frameBytes);          // mbufs large enough for net_null's frames
            }
        }
        vsctl(add.toArray(String[]::new));
        try {
            for (String port : List.of("n0", "n1")) {
                String error = vsctlQuiet("get", "interface", port, "error");
                if (error != null && !error.equals("[]")) {
                    throw new IllegalStateException("OVS could not add " + port + ": " + error + logTail());
                }
            }
            String m0 = mac(mac0);
            String m1 = mac(mac1);
            flows("in_port=1,actions=mod_dl_src:" + m0 + ",mod_dl_dst:" + m1 + ",NORMAL",
                    "in_port=2,actions=mod_dl_src:" + m1 + ",mod_dl_dst:" + m0 + ",NORMAL");
            appctl("fdb/flush", bridge);
            appctl("fdb/add", bridge, "n0", "0", m0);
            appctl("fdb/add", bridge, "n1", "0", m1);
            Window normal = window(pmdCpus.length, settleSeconds, seconds, stop, true);
            if (normal == null) {
                return Round.STOPPED;
            }
            flows("in_port=1,actions=output:2", "in_port=2,actions=output:1");
            Window cross = window(pmdCpus.length, settleSeconds, seconds, stop, false);
            return new Round(normal.mpps, cross == null ? Double.NaN : cross.mpps, normal.rewritten, normal.cpuShare);
        } finally {
            if (vswitchd.isAlive()) {
                vsctl("--timeout=60", "--if-exists", "del-port", bridge, "n0", "--", "--if-exists", "del-port", bridge, "n1");
            }
        }
    }

    private record Window(double mpps, long rewritten, double cpuShare) {}

    private Window window(int cores, int settleSeconds, int seconds, BooleanSupplier stop, boolean countRewrites)
            throws Exception {
        if (!sleep(settleSeconds * 1000L, stop)) {
            return null;
        }
        Map<String, Long> flows0 = countRewrites ? rewritingFlows() : Map.of();
        long ticks0 = ProcStat.threadTicks(vswitchd.pid(), "pmd-c");
        long a0 = System.nanoTime();
        long tx0 = txPackets();
        long a1 = System.nanoTime();
        if (!sleep(seconds * 1000L, stop)) {
            return null;
        }
        long b0 = System.nanoTime();
        long tx1 = txPackets();
        long b1 = System.nanoTime();
        long ticks1 = ProcStat.threadTicks(vswitchd.pid(), "pmd-c");
        Map<String, Long> flows1 = countRewrites ? rewritingFlows() : Map.of();
        long rewritten = 0;
        for (Map.Entry<String, Long> f : flows1.entrySet()) {
            rewritten += Math.max(0, f.getValue() - flows0.getOrDefault(f.getKey(), 0L));
        }
        double wall = ((b0 + b1) / 2 - (a0 + a1) / 2) / 1e9;   // between the midpoints of the two counter reads
        double share = ticks0 >= 0 && ticks1 >= 0 ? (ticks1 - ticks0) / (double) ProcStat.ticksPerSecond() / wall / cores
                : Double.NaN;
        return new Window((tx1 - tx0) / wall / 1e6, rewritten, share);
    }

    /** Packets both dpdk ports sent, from {@code ovs-ofctl dump-ports} (read from the ports now, not the 5 s database copy). */
    private long txPackets() throws Exception {
        long sum = 0;
        boolean port = false;
        for (String line : ofctl("dump-ports", bridge).split("\n")) {
            String t = line.trim();
            if (t.startsWith("port ")) {
                port = !t.startsWith("port LOCAL");
            } else if (port && t.startsWith("tx pkts=")) {
                sum += Long.parseLong(t.substring(8, t.indexOf(',')));
                port = false;
            }
        }
        return sum;
    }

    /** Datapath flows whose actions write Ethernet addresses, by flow, with their packet counts. */
    private Map<String, Long> rewritingFlows() throws Exception {
        Map<String, Long> flows = new HashMap<>();
        for (String line : appctl("dpctl/dump-flows").split("\n")) {
            int packets = line.indexOf(", packets:");
            int actions = line.indexOf("actions:");
            if (packets < 0 || actions < 0 || !line.substring(actions).contains("set(eth")) {
                continue;
            }
            int end = line.indexOf(',', packets + 10);
            flows.merge(line.substring(0, packets), Long.parseLong(line.substring(packets + 10, end).trim()), Long::sum);
        }
        return flows;
    }

    private void flows(String... rules) throws Exception {
        Path file = dir.resolve("flows.txt");
        Files.writeString(file, String.join("\n", rules) + "\n");
        ofctl("replace-flows", bridge, file.toString());
    }

    private static boolean sleep(long millis, BooleanSupplier stop) throws InterruptedException {
        long end = System.nanoTime() + millis * 1_000_000;
        while (System.nanoTime() < end) {
            if (stop.getAsBoolean()) {
                return false;
            }
            Thread.sleep(Math.min(100, Math.max(1, (end - System.nanoTime()) / 1_000_000)));
        }
        return !stop.getAsBoolean();
    }

    static String mac(long mac) {
        StringBuilder s = new StringBuilder();
        for (int i = 5; i >= 0; i--) {
            s.append(String.format(Locale.ROOT, "%02x", mac >>> (8 * i) & 0xFF)).append(i > 0 ? ":" : "");
        }
        return s.toString();
    }

    // ------------------------------------------------------------------ stopping

    /**
     * Stops ovs-vswitchd and ovsdb-server ({@code ovs-appctl exit}, then SIGTERM, then SIGKILL) and
     * deletes the directory. Safe to call twice and from a shutdown hook.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (vswitchd != null) {
            stopDaemon(vswitchd, dir.resolve("ovs-vswitchd.ctl"), List.of("exit", "--cleanup"));
        }
        stopDaemon(ovsdb, dir.resolve("ovsdb-server.ctl"), List.of("exit"));
        deleteTree(dir);
    }

    private void stopDaemon(Process p, Path ctl, List<String> exit) {
        try {
            if (p.isAlive() && Files.exists(ctl)) {
                List<String> cmd = new ArrayList<>(List.of(tool("ovs-appctl"), "-t", ctl.toString(), "--timeout=10"));
                cmd.addAll(exit);
                exec(env, cmd, 15);
            }
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroy();
                if (!p.waitFor(5, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                    p.waitFor(5, TimeUnit.SECONDS);
                }
            }
        } catch (Exception e) {
            p.destroyForcibly();
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException e) {
            // left in /tmp
        }
    }

    // ------------------------------------------------------------------ commands

    private record Exec(int code, String output) {}

    private static Exec exec(Map<String, String> env, List<String> cmd, int timeoutSeconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + cmd.getFirst() + ": " + e.getMessage());
        }
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", cmd) + " did not finish within " + timeoutSeconds + " s");
        }
        return new Exec(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }

    /**
     * Starts a daemon in the foreground, as a child of this JVM, its output into the directory.
     * Through util-linux's {@code setpriv --pdeathsig TERM} when there is one, so that it stops
     * even if this JVM is killed with SIGKILL (it must be started from a thread that lives as long
     * as the daemon should: the parent-death signal follows the thread that started it).
     */
    private static Process daemon(Map<String, String> env, Path dir, String name, List<String> command) throws IOException {
        List<String> cmd = new ArrayList<>();
        String setpriv = tool("setpriv");
        if (setpriv != null) {
            cmd.addAll(List.of(setpriv, "--pdeathsig", "TERM"));
        }
        cmd.addAll(command);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve(name + ".out").toFile());
        pb.environment().putAll(env);
        return pb.start();
    }

    private String run(List<String> cmd) throws Exception {
        Exec r = exec(env, cmd, 90);
        if (r.code != 0) {
            throw new IllegalStateException(String.join(" ", cmd) + " failed (exit " + r.code + "): " + r.output.strip() + logTail());
        }
        return r.output;
    }

    private String vsctl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool("ovs-vsctl"), "--db=unix:" + dir.resolve("db.sock")));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    /** ovs-vsctl's answer without quotes, or null if it failed. */
    private String vsctlQuiet(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool("ovs-vsctl"), "--db=unix:" + dir.resolve("db.sock"), "--timeout=5"));
        cmd.addAll(List.of(args));
        Exec r = exec(env, cmd, 10);
        return r.code == 0 ? r.output.strip().replace("\"", "") : null;
    }

    private String ofctl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool("ovs-ofctl")));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private String appctl(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(tool("ovs-appctl"), "-t", dir.resolve("ovs-vswitchd.ctl").toString()));
        cmd.addAll(List.of(args));
        return run(cmd);
    }

    private void awaitFile(Path file, Process owner, String what, int seconds) throws Exception {
        long deadline = System.nanoTime() + seconds * 1_000_000_000L;
        while (!Files.exists(file)) {
            if (!owner.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(what + " did not start" + logTail());
            }
            Thread.sleep(50);
        }
    }

    /** The last lines of the OVS logs, for an error message. */
    private String logTail() {
        StringBuilder s = new StringBuilder();
        for (String log : List.of("ovsdb-server.log", "ovsdb-server.out", "ovs-vswitchd.log", "ovs-vswitchd.out")) {
            try {
                List<String> lines = Files.readAllLines(dir.resolve(log));
                if (!lines.isEmpty()) {
                    s.append("\n--- ").append(log).append(" (last lines)\n");
                    s.append(String.join("\n", lines.subList(Math.max(0, lines.size() - 12), lines.size())));
                }
            } catch (IOException e) {
                // not written
            }
        }
        return s.toString();
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pfcswitch run} in a child JVM: start-up log, clean stop on a signal, and bad configurations. */
class RunCommandTest {

    @TempDir
    Path dir;

    private Path config(String name, String yaml) throws Exception {
        Path file = dir.resolve(name + ".yaml");
        Files.writeString(file, yaml);
        return file;
    }

    @Test
    void helpTeachesTheSwitchCoreSchemesAndStopSignals() {
        Cli r = Cli.run("run", "--help");
        assertEquals(0, r.exitCode());
        assertTrue(r.out().contains("802.1Qbb PFC frame"), r.out());
        assertTrue(r.out().contains("st, dt, sonic, dsh, spfc, reverie, capfc, bfc"), r.out());
        assertTrue(r.out().contains("stop it with SIGTERM"), r.out());
        assertTrue(r.out().contains("Examples:"), r.out());
    }

    /**
     * SIGTERM, not SIGINT: a suite started from a background script inherits SIGINT as ignored,
     * and the switch keeps it ignored (and says so). SIGTERM stops it whatever the parent did.
     */
    @Test
    void runsTheSwitchCoreOnRingAndNullVdevsAndStopsCleanlyOnSigterm() throws Exception {
        int lastCpu = org.pfcswitch.dataplane.ThreadAffinity.onlineCpus().length() - 1;
        Path cfg = config("ring", """
                eal: {memoryMb: 256, hugepages: off}
                workers: [{cpu: %d, ports: [loop, sink]}]
                ports:
                  - {name: loop, device: net_ring0, speed: 10G}
                  - {name: sink, device: net_null0}
                forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: loop}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                mmu: {totalBytes: 2MiB, scheme: st}
                """.formatted(lastCpu));
        try (SwitchProcess p = SwitchProcess.start("run", "-c", cfg.toString(), "--scheme", "spfc", "--stats-every", "0.2")) {
            p.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            p.awaitLine("status sink", Duration.ofSeconds(10));
            String status = p.awaitLine("status buffer", Duration.ofSeconds(10));
            assertTrue(status.matches(".*rx missed \\d+, mbufs in use \\d+ of [1-9]\\d*, .*"),
                    "the status line counts ring drops and the mbufs out of the pool\n" + status);
            int code = p.signalAndWait("TERM", Duration.ofSeconds(30));
            String log = p.stdout();
            assertEquals(0, code, log + "\n" + p.stderr());
            assertTrue(log.contains("switch core: scheme spfc, shared buffer 2097152 bytes"), "--scheme overrides mmu.scheme\n" + log);
            assertTrue(log.contains("port loop: shaped to 10 Gbit/s, headroom"), log);
            assertTrue(log.contains("--no-huge -m 256 --no-shconf"), log);
            assertTrue(log.matches("(?s).*port 0 loop .*net_ring0.*link up.*MAC-control rx: yes.*"), log);
            assertTrue(log.contains("static mac 02:00:00:00:00:01 -> port loop"), log);
            assertTrue(log.contains("stopping on SIGTERM"), log);
            if (lastCpu > 0) {     // the worker's CPU is its own: every other thread of the switch is kept off it
                assertTrue(log.contains("cpus: CPUs " + lastCpu + " reserved for the workers: every other thread of this"
                        + " process"), log);
            }
            assertTrue(log.matches("(?s).*counters sink: rx [1-9].*"), "net_null frames were received and counted\n" + log);
            // net_null's frames are all-zero: source and destination MAC 00:..:00, learned on sink itself.
            assertTrue(log.matches("(?s).*counters sink: .*filtered [1-9].*"), log);
            assertTrue(log.matches("(?s).*packet pool: 0 of \\d+ mbufs in use after shutdown \\(all returned\\).*"), log);
            assertEquals("", p.stderr());
        }
    }

    /**
     * A switch killed with SIGKILL leaves nothing that stops the next one: no shared DPDK files
     * (--in-memory or --no-huge), a control port the kernel frees, a stale token file that the new
     * switch removes (its pid is gone) and replaces. The second run starts on the same config and control port, forwards, and
     * stops cleanly with every mbuf back.
     */
    @Test
    void restartsAfterSigkill() throws Exception {
        Path cfg = config("killed", "eal: {memoryMb: 256}\n" + ControlApiTest.FLOOD_SWITCH);
        int port = ControlApiTest.freePort();
        Path token = dir.resolve("killed.token");
        String[] args = {"run", "-c", cfg.toString(), "--control-port", Integer.toString(port), "--token-file", token.toString(),
                "--stats-every", "0.2"};
        try (SwitchProcess first = SwitchProcess.start(args)) {
            first.awaitLine("status sink", Duration.ofSeconds(30));
            assertEquals(137, first.signalAndWait("KILL", Duration.ofSeconds(30)));
        }
        assertTrue(Files.exists(token), "SIGKILL leaves the token file behind");
        String stale = Files.readString(token);
        String killedPid = Files.readString(token.resolveSibling(token.getFileName() + ".pid"));
        try (SwitchProcess second = SwitchProcess.start(args)) {
            second.awaitLine("control API on http://127.0.0.1:" + port, Duration.ofSeconds(30));
            second.awaitLine("removed " + token + ": its switch (pid " + killedPid + ") is gone", Duration.ofSeconds(1));
            second.awaitLine("status sink", Duration.ofSeconds(10));
            assertNotEquals(stale, Files.readString(token), "a fresh token replaces the stale one");
            int code = second.signalAndWait("TERM", Duration.ofSeconds(30));
            assertEquals(0, code, second.stdout() + "\n" + second.stderr());
            assertTrue(second.stdout().contains("(all returned)"), second.stdout());
        }
    }

    /**
     * The live hot path allocates nothing in steady state: net_null floods a 1 Gb/s port with
     * lossless frames (admission, queueing, PFC, drops at full rate) while /metrics is scraped
     * every second; after the 5 s warm-up, every one-second window of the worker thread allocates
     * nothing, save at most one (a JIT deoptimization runs the loop interpreted for a moment, and
     * the interpreter's VarHandle calls box a few values; 168 bytes were seen). The 60-second
     * version is the benchmark in docs/performance.md.
     */
    @Test
    void theLiveWorkerAllocatesNothingAfterWarmUp() throws Exception {
        Path cfg = config("alloc", "eal: {memoryMb: 256, hugepages: off}\n" + ControlApiTest.FLOOD_SWITCH);
        int port = ControlApiTest.freePort();
        try (SwitchProcess p = SwitchProcess.start("run", "-c", cfg.toString(), "--control-port", Integer.toString(port),
                "--token-file", dir.resolve("alloc.token").toString())) {
            p.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            var http = java.net.http.HttpClient.newHttpClient();
            var metrics = java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics")).build();
            for (int s = 0; s < 16; s++) {
                assertEquals(200, http.send(metrics, java.net.http.HttpResponse.BodyHandlers.ofString()).statusCode());
                Thread.sleep(1000);
            }
            assertEquals(0, p.signalAndWait("TERM", Duration.ofSeconds(30)), p.stdout() + "\n" + p.stderr());
            String line = p.awaitLine("worker heap allocation after", Duration.ofSeconds(1));
            var m = java.util.regex.Pattern.compile("in (\\d+) one-second windows \\((\\d+) windows allocated, most (\\d+) bytes;"
                    + " none in the last (\\d+)\\)").matcher(line);
            assertTrue(m.find(), line);
            assertTrue(Integer.parseInt(m.group(1)) >= 8, "windows measured: " + line);
            // Steady state: the worker allocates nothing for the last five seconds at least, while /metrics is
            // scraped. On a quiet machine it allocates nothing at all after the warm-up; on a loaded one the JIT
            // may still be compiling the loop's last methods in the first windows (their interpreted and C1
            // code allocate what C2's escape analysis removes), which the windows before those five may show.
            assertTrue(Integer.parseInt(m.group(4)) >= 5, line);
            assertTrue(Integer.parseInt(m.group(2)) <= 3, line);
        }
    }

    @Test
    void saysWhenSigintIsInheritedAsIgnoredAndStopsOnSigterm() throws Exception {
        Path cfg = config("ignored", """
                eal: {memoryMb: 256, hugepages: off}
                ports:
                  - {name: sink, device: net_null0}
                mmu: {totalBytes: 1MiB}
                """);
        try (SwitchProcess p = SwitchProcess.startWithSigintIgnored("run", "-c", cfg.toString())) {
            p.awaitLine("forwarding; stop with SIGTERM", Duration.ofSeconds(30));
            assertTrue(p.stdout().contains("SIGINT is ignored by this process"), p.stdout());
            int code = p.signalAndWait("TERM", Duration.ofSeconds(30));
            assertEquals(0, code, p.stdout() + "\n" + p.stderr());
            assertTrue(p.stdout().contains("(all returned)"), p.stdout());
        }
    }

    /** The shipped lab configs stay valid: the real 9-port lab (PCI ports + clones) and the emulated one. */
    @Test
    void shippedLabConfigsPassTheCheck() {
        for (String file : new String[] {"lab/switch-9port.yaml", "emulated-9port.yaml", "netns-3hosts.yaml"}) {
            Cli r = Cli.run("run", "-c", Path.of("..", "testbed-configs", file).toString(), "--check");
            assertEquals(0, r.exitCode(), file + ": " + r.out() + r.err());
            assertTrue(r.out().contains("configuration OK"), r.out());
        }
        Cli lab = Cli.run("run", "-c", Path.of("..", "testbed-configs", "lab", "switch-9port.yaml").toString(), "--check");
        assertTrue(lab.out().contains("9 ports") && lab.out().contains("port C4: clone of H1 (pfc: ignore)"), lab.out());
    }

    /**
     * {@code run --check} says per port how long a worker stall its rx ring rides out at its speed,
     * and {@code poll.rxStall} grows the rings to ride out that much (or names what cannot).
     */
    @Test
    void checkSaysWhatStallEachRxRingRidesOutAndRxStallSizesThem() throws Exception {
        String ports = "ports:\n  - {name: a, device: \"net_af_packet0,iface=veth-a\", speed: 1G}\n"
                + "  - {name: b, device: net_null0, speed: 1G, rxDescriptors: 512}\n";
        Cli plain = Cli.run("run", "-c", config("plain", ports).toString(), "--check");
        assertEquals(0, plain.exitCode(), plain.out() + plain.err());
        assertTrue(plain.out().contains("port a: net_af_packet0,iface=veth-a, shaped to 1000000000 bit/s, rx ring 512 frames"
                + " (af_packet default; framecnt= sets it): 6.1 ms of 1500 B frames at 1 Gbit/s"), plain.out());
        assertTrue(plain.out().contains("port b: net_null0, shaped to 1000000000 bit/s, rx ring 512 frames (descriptors):"
                + " 6.1 ms of 1500 B frames at 1 Gbit/s"), plain.out());

        Cli sized = Cli.run("run", "-c", config("sized", ports + "poll: {rxStall: 20ms}\n").toString(), "--check");
        assertEquals(0, sized.exitCode(), sized.out() + sized.err());
        assertTrue(sized.out().contains("rx ring 1696 frames (af_packet framecnt): 20.4 ms of 1500 B frames at 1 Gbit/s"),
                sized.out());
        assertTrue(sized.out().contains("port b: net_null0, shaped to 1000000000 bit/s, rx ring 1696 frames (descriptors):"
                + " 20.4 ms"), sized.out());

        // The stall a port tolerates: the shorter of its ring's and its lossless headroom's line time.
        Cli tolerance = Cli.run("run", "-c", config("tolerance", ports + "poll: {rxStall: 20ms}\n"
                + "mmu: {headroomFormula: fixed, headroomBytes: 1MiB}\n").toString(), "--check");
        assertEquals(0, tolerance.exitCode(), tolerance.out() + tolerance.err());
        assertTrue(tolerance.out().contains("stall tolerance a: a worker stall up to 8.4 ms loses no lossless frame of a"
                + " sender that obeys PFC (rx ring 20.4 ms, headroom 1048576 B 8.4 ms, at 1 Gbit/s)"), tolerance.out());
        Cli ringBound = Cli.run("run", "-c", config("ring-bound", ports + "mmu: {headroomFormula: fixed, headroomBytes: 1MiB}\n")
                .toString(), "--check");
        assertTrue(ringBound.out().contains("stall tolerance b: a worker stall up to 6.1 ms"), ringBound.out());
    }

    @Test
    void aStallNoRingCanRideOutIsOneLineNamingPollRxStall() throws Exception {
        Path cfg = config("too-long", "ports:\n  - {name: a, device: net_null0, speed: 100G}\npoll: {rxStall: 10ms}\n");
        Cli r = Cli.run("run", "-c", cfg.toString(), "--check");
        assertEquals(1, r.exitCode(), r.out() + r.err());
        assertEquals(1, r.err().lines().count(), r.err());
        assertTrue(r.err().contains("poll.rxStall: port a needs a ring of 83360 frames to ride out 10.0 ms at 100 Gbit/s;"
                + " at most 16384 rx descriptors (2.0 ms at that speed)"), r.err());
        Cli few = Cli.run("run", "-c", config("few-mbufs", "eal: {mbufs: 2048}\nports:\n  - {name: a, device: net_null0,"
                + " speed: 10G}\npoll: {rxStall: 2ms}\n").toString(), "--check");
        assertEquals(1, few.exitCode(), few.out() + few.err());
        assertTrue(few.err().contains("poll.rxStall: the rings it sizes hold 2720 mbufs, as many as eal.mbufs (2048) or more"),
                few.err());
    }

    @Test
    void badConfigurationsGiveOneLineAndANonZeroExit() throws Exception {
        String ring = "  - {name: a, device: net_ring0}\n";
        record Case(String name, String yaml, List<String> jvm, String expect) {}
        List<Case> cases = List.of(
                new Case("unknown-vdev", "ports:\n" + ring + "  - {name: b, device: \"net_bogus0,x=1\"}\n", List.of(),
                        "port b: no DPDK driver takes 'net_bogus0' (unknown vdev 'net_bogus'"),
                new Case("bad-pci", "ports:\n  - {name: a, device: \"0000:3g:00.0\"}\n", List.of(),
                        "ports[0].device: malformed PCI address '0000:3g:00.0'"),
                new Case("duplicate-port", "ports:\n" + ring + ring, List.of(), "ports[1].name: duplicate port 'a' (also ports[0])"),
                new Case("duplicate-device", "ports:\n" + ring + "  - {name: b, device: net_ring0}\n", List.of(),
                        "ports[1].device: duplicate device net_ring0 (also port a)"),
                new Case("unknown-key", "ports:\n" + ring + "forwarding: {learn: true}\n", List.of(),
                        "forwarding.learn: unknown key"),
                new Case("mmu-ports", "ports:\n" + ring + "mmu: {ports: {count: 1, speed: 10G}}\n", List.of(),
                        "mmu.ports: this file's ports are its ports: entries"),
                new Case("bad-scheme", "ports:\n" + ring + "mmu: {scheme: fifo}\n", List.of(), "scheme must be one of"),
                new Case("three-workers", "workers: 3\nports:\n" + ring + "  - {name: b, device: net_null0}\n", List.of(),
                        "workers: give a count from 1 to 2 (the ports with a device)"),
                new Case("port-twice", "workers: [{ports: [a]}, {ports: [a]}]\nports:\n" + ring
                        + "  - {name: b, device: net_null0}\n", List.of(), "port a is owned by another worker already"),
                new Case("port-unowned", "workers: [{ports: [a]}, {ports: [b]}]\nports:\n" + ring
                        + "  - {name: b, device: net_null0}\n  - {name: c, device: net_null1}\n", List.of(),
                        "port c is owned by no worker"),
                new Case("bad-quanta", "ports:\n" + ring + "pfc: {pauseQuanta: 0}\n", List.of(), "pfc.pauseQuanta"),
                new Case("clone-of-unknown", "ports:\n" + ring + "  - {name: c, kind: clone, of: x}\n", List.of(),
                        "ports[1].of: no port called 'x' is defined above this one"),
                new Case("clone-pfc", "ports:\n" + ring + "  - {name: c, kind: clone, of: a, pfc: drop}\n", List.of(),
                        "ports[1].pfc: expected ignore or skip"),
                new Case("no-hardware-pfc", "ports:\n  - {name: a, device: net_null0}\n"
                        + "pfc: {hardwareBackstop: {highWater: 96KiB, lowWater: 64KiB}}\n", List.of(),
                        "port a (net_null0): pfc.hardwareBackstop: net_null0's driver cannot send PFC from the NIC's receive"
                        + " buffer (rte_eth_dev_priority_flow_ctrl_set: not supported)"),
                new Case("dpdk-missing", "ports:\n" + ring, List.of("-Dpfcswitch.dpdk.shim=/nonexistent/libpfcswitch_dpdk.so"),
                        "DPDK is not available"));
        for (Case c : cases) {
            // 4 KiB pages whatever the machine has reserved: EAL warns on stderr about hugepage sizes it finds empty.
            Path cfg = config(c.name(), (c.yaml().contains("eal:") ? "" : "eal: {hugepages: off}\n") + c.yaml());
            // --no-control: a case that gets as far as the ports must not depend on port 9464 being free
            try (SwitchProcess p = SwitchProcess.start(c.jvm(), "run", "-c", cfg.toString(), "--no-control")) {
                int code = p.waitFor(Duration.ofSeconds(30));
                String err = p.stderr();
                assertEquals(1, code, c.name() + ": exit code\n" + p.stdout() + "\n" + err);
                assertEquals(1, err.lines().count(), c.name() + ": one line on stderr, got:\n" + err);
                assertTrue(err.startsWith("pfcswitch run: error: ") && err.contains(c.expect()), c.name() + ": " + err);
            }
        }
    }
}

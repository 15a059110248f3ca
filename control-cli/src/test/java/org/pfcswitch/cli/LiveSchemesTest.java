package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.dataplane.CpuReservation;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.ThreadAffinity;
import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.testbed.config.ScenarioLoader;
import org.pfcswitch.testbed.FlowRecords;
import org.pfcswitch.testbed.HostSendLog;
import org.pfcswitch.testbed.LiveResult;
import org.pfcswitch.testbed.LiveRun;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;

/**
 * Every scheme on the live switch between three namespace hosts that honour PFC (the emulated
 * RoCE hosts, in this JVM; under bfc they are BFC NICs, as in sim): repeated 2:1 incasts into h2
 * plus WebSearch flows among all three, with arrivals drawn from a seed of the scheme's own, for
 * 1.5 s at 200 Mb/s. Under every lossless scheme (all but bfc) the switch pauses the incast's
 * senders and loses no lossless frame of a sender that obeys PFC, whoever's it would be: {@code run --drop-log} names each frame the MMU
 * dropped and the hosts' send log says whose ({@link LiveDropReport}), and a frame a switch port's
 * af_packet ring dropped (its worker fell behind) counts as the switch's, as a NIC ring's would in a
 * lab; any of them fails the run, the emulated wires' too ({@link LosslessJudgement#none}). A run
 * loses no packet of a flow (no PSN missing at any receiver; a packet merely reordered on the way
 * is reported) beyond the frames the kernel dropped in a host's socket or a CPU's backlog. bfc is
 * not lossless by design (a pause goes out only after the frames over its threshold arrived), but
 * with this buffer it is held to the same: it pauses the BFC queues of h1, drops nothing (no
 * lossless violation, nothing in a port's rx ring) and loses no PSN beyond the wires' losses.
 *
 * <p>Rings and headroom are sized for the machine, not for cables: on two CPUs shared with the
 * emulated hosts and other builds the OS holds the worker off its CPU for tens to hundreds of
 * milliseconds (docs/performance.md, "Measured: lossless drops of the live scheme tests"), and no
 * XOFF goes out meanwhile. Each port's ring ({@code poll.rxStall}) and lossless headroom hold
 * {@link #STALL_MS} of line rate; the switch's start-up log says so per port ({@code stall
 * tolerance}) and the test prints it. The shared pool the schemes divide stays 512 KiB.
 */
class LiveSchemesTest extends ThreeHostLabTest {

    /** The schemes held to the lossless judgement live. */
    static final List<String> LOSSLESS = List.of("st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc");

    /**
     * The worker stall the rings and the headroom ride out, in ms: 250, past the longest stall of
     * nearly every run measured on this machine (docs/performance.md, runs G to L); a longer one can
     * still fail a run. pfcswitch.test.stallMs sets another; 0: DPDK's 512-frame rings and 512 KiB
     * of headroom.
     */
    static final int STALL_MS = Integer.getInteger("pfcswitch.test.stallMs", 250);
    /**
     * The hosts' data frame: 1024 B of payload with Ethernet, IPv4, UDP, BTH and ICRC. A ring holds
     * frames, not bytes, and {@code poll.rxStall} counts 1500 B ones: the rings are asked for the
     * stall in these.
     */
    static final int FRAME_BYTES = 1024 + 58;
    /** Headroom per port: the stall at 200 Mb/s. */
    static final long HEADROOM_BYTES = STALL_MS > 0 ? STALL_MS * 200_000_000L / 8 / 1000 : 512 * 1024;
    /** The buffer beyond the headroom of the three ports (the shared pool the schemes divide, and ρ). */
    static final long SHARED_BYTES = 512 * 1024;

    static Path scenario;

    @BeforeAll
    static void writeScenario() throws Exception {
        scenario = dir.resolve("incasts.yaml");
        Path cdf = Path.of("..", "testbed-configs", "workloads", "websearch.cdf").toAbsolutePath();
        Files.writeString(scenario, """
                name: live-incasts
                duration: 1500ms
                seed: 1
                payloadMtu: 1024
                cc: {mode: none}
                hosts:
                  - {name: h0, speed: 200M, delay: 1us}
                  - {name: h1, speed: 200M, delay: 1us}
                  - {name: h2, speed: 200M, delay: 1us}
                mmu: {totalBytes: 2MiB}             # not used live: the switch has its own
                traffic:
                  incast: {kind: incast, from: [h0, h1], to: h2, bytes: 512KiB, start: 50ms, repeatUntil: 1500ms}
                  web: {kind: poisson, from: all, to: all, cdf: %s, load: 0.3, start: 0us}
                """.formatted(cdf));
    }

    /**
     * Every scheme on one worker and on two: worker 0 owns h0 and h2, worker 1 owns h1, so h1's
     * half of each incast into h2 crosses between workers (admitted by worker 1, queued and sent by
     * worker 0, released back to worker 1), as do h2's pauses' effects on it; under bfc the frame
     * crosses with its flow and joins the BFC queue worker 0 assigns it.
     */
    @ParameterizedTest(name = "{0}, {1} worker(s)")
    @CsvSource({"st, 1", "dt, 1", "sonic, 1", "dsh, 1", "spfc, 1", "reverie, 1", "capfc, 1", "bfc, 1",
        "st, 2", "dt, 2", "sonic, 2", "dsh, 2", "spfc, 2", "reverie, 2", "capfc, 2", "bfc, 2"})
    void schemeRunsLiveWithRandomizedIncasts(String scheme, int workers) throws Exception {
        runLive(scheme, workers, List.of());
    }

    /**
     * Two workers, the incasts crossing between them as above, and the scheme changed live three
     * times during the run ({@code set scheme} through the control API, every worker swapping at
     * once with the buffer's bytes carried over): judged as every other run, so a change that lost
     * track of a queue's bytes or left a queue unpaused over its headroom fails here.
     */
    @org.junit.jupiter.api.Test
    void schemeChangesLiveDuringTheIncastsOnTwoWorkers() throws Exception {
        runLive("dt", 2, List.of("sonic", "spfc", "dt"));
    }

    /**
     * Runs the incasts through the switch under {@code scheme} on {@code workers} workers and judges
     * the run; {@code changes}: schemes set live, in turn, spread over the run (none: no control API).
     */
    private static void runLive(String scheme, int workers, List<String> changes) throws Exception {
        // Not pinned: on this shared machine a worker pinned to one CPU cannot move off it when other
        // processes crowd it (docs/performance.md measured stalls up to 1 s pinned, 31 ms not). Ring
        // and headroom grow together: a longer ring alone only moves a long stall's drops into the headroom.
        int workerCpu = ThreadAffinity.onlineCpus().length() - 1;
        boolean pinned = Boolean.getBoolean("pfcswitch.test.pinWorker") && workers == 1 && workerCpu > 0;
        Path cfg = lab.switchConfig("schemes-" + scheme + "-" + workers, """
                workers: %s
                eal: {memoryMb: 256, hugepages: off}
                forwarding: {learning: true, staticMacs: [{mac: "02:00:00:00:00:01", port: h0},
                  {mac: "02:00:00:00:00:02", port: h1}, {mac: "02:00:00:00:00:03", port: h2}]}
                classification: {trust: dscp, dscpMap: "26:3"}
                mmu: {totalBytes: %d, losslessPriorities: [3], headroomFormula: fixed, headroomBytes: %d}
                poll: {idleSleep: 50us%s}
                """.formatted(pinned ? "[{cpu: " + workerCpu + ", ports: [h0, h1, h2]}]" : Integer.toString(workers),
                SHARED_BYTES + 3 * HEADROOM_BYTES, HEADROOM_BYTES,
                STALL_MS > 0 ? ", rxStall: " + (STALL_MS * 1500 + FRAME_BYTES - 1) / FRAME_BYTES + "ms" : ""),
                "speed: 200M", "speed: 200M", "speed: 200M");
        int seed = List.of("st", "dt", "sonic", "dsh", "spfc", "reverie", "capfc", "bfc").indexOf(scheme) + 11 + 10 * (workers - 1);
        // The scenario's scheme is the switch's, so that the hosts are BFC NICs under bfc.
        Scenario s = ScenarioLoader.load(scenario, List.of("seed=" + seed, "mmu.scheme=" + scheme)).scenario();
        LiveResult r;
        String log;
        String attribution;
        Path dropLog = dir.resolve("drops-" + scheme + "-" + workers + ".csv");
        long backlogBefore = KernelDrops.backlog();
        long backlogDrops;
        long ringDrops = 0;
        List<String> args = new java.util.ArrayList<>(List.of("run", "-c", cfg.toString(), "--scheme", scheme,
                "--drop-log", dropLog.toString()));
        int controlPort = changes.isEmpty() ? 0 : ControlApiTest.freePort();
        Path token = dir.resolve("control-" + scheme + "-" + workers + ".token");
        // A control API only for live changes, on a free port: the default port is every other switch's on the machine.
        args.addAll(changes.isEmpty() ? List.of("--no-control")
                : List.of("--control-port", Integer.toString(controlPort), "--token-file", token.toString()));
        List<String> changed = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
        try (SwitchProcess sw = SwitchProcess.start(args.toArray(String[]::new))) {
            sw.awaitLine("forwarding; stop with", Duration.ofSeconds(30));
            Thread changer = changes.isEmpty() ? null
                    : Thread.ofPlatform().start(() -> changeDuringRun(controlPort, token, changes, s.durationNanos(), changed));
            try (CpuReservation offWorker = pinned ? CpuReservation.reserve(DpdkSwitch.workerCpus(
                    SwitchConfigReader.read(ConfigNode.load(cfg)))) : null;
                 LiveTestbedHosts hosts = LiveTestbedHosts.open(s, TestbedCommand.read(lab.testbedConfig()), scenario,
                    lab.testbedConfig())) {
                HostSendLog sends = new HostSendLog().attach(hosts.hosts());
                r = LiveRun.run(s, hosts.hosts(), s.durationNanos(), ScenarioRunner.Progress.NONE);
                if (changer != null) {
                    changer.join(30_000);
                }
                backlogDrops = KernelDrops.backlog() - backlogBefore;
                assertEquals(0, sw.signalAndWait("TERM", Duration.ofSeconds(30)), sw.stdout() + sw.stderr());
                log = sw.stdout();
                // Frames a switch port's af_packet ring had no room for (its worker fell behind): the switch's.
                for (int h = 0; h < 3; h++) {
                    ringDrops += KernelDrops.ring(log, "h" + h);
                }
                // every lossless drop of the switch, traced to its sender's log (same machine, same clock)
                attribution = !LOSSLESS.contains(scheme) ? scheme + ": no drop log (it does not pause with PFC)"
                        : scheme + " " + LiveDropReport.line(LiveDropReport.readCsv(dropLog, hosts::hostOnPort),
                                hosts.dropAttribution(sends, s.payloadMtu()), 0, ringDrops);
            }
        }
        FlowRecords f = r.flows();
        int completed = 0;
        long outOfOrder = 0;
        long missing = 0;
        for (int id = 0; id < f.count(); id++) {
            completed += f.completed(id) ? 1 : 0;
            outOfOrder += f.outOfOrder(id);
            missing += f.missingPackets(id);
        }
        // Frames the emulated hosts' own sockets lost: received ones their queue had no room for (a host
        // thread the OS held while frames came in), sends the kernel refused. Neither is the switch's.
        long hostSocketLosses = 0;
        for (LiveResult.Host h : r.hosts()) {
            hostSocketLosses += h.kernelDrops() + h.framesLost();
        }
        // Frames the kernel lost on the emulated wires before the switch or a host saw them: a CPU's
        // backlog (a veth's receiver fell behind). A switch port's rx ring is the switch's (above).
        long wireLosses = hostSocketLosses + backlogDrops;
        String what = scheme + " on " + workers + " worker(s)" + (changes.isEmpty() ? "" : ", set live: " + changed) + ": " + completed + " of " + f.count() + " flows completed, " + outOfOrder
                + " packets out of PSN order, " + missing + " PSNs missing; frames lost in the hosts' sockets " + hostSocketLosses
                + ", in the switch ports' rx rings " + ringDrops + ", in CPU backlogs " + backlogDrops
                + "; hosts' clock slip " + r.slipNanos() / 1e6 + " ms\n" + log;
        assertTrue(completed >= 10, what);
        for (int i = 0; i < changes.size(); i++) {
            assertTrue(i < changed.size() && changed.get(i).startsWith("200 "), "every live change applied: " + what);
        }
        assertTrue(log.contains("(all returned)"), what);
        if (pinned) {
            assertTrue(log.contains("cpus: CPUs " + workerCpu + " reserved for the workers"), what);
        }
        System.out.println("LiveSchemesTest " + scheme + " x" + workers + ": " + completed + "/" + f.count() + " flows, " + outOfOrder
                + " out of PSN order; " + log.lines().filter(l -> l.contains("poll-loop stalls"))
                .map(l -> l.substring(Math.min(13, l.length()))).toList() + "; "
                + log.lines().filter(l -> l.contains("stall tolerance h0: ")).map(l -> l.replaceAll(".*stall tolerance h0: a worker"
                        + " stall up to ([0-9.]+ ms).*", "a stall of up to $1 tolerated")).findFirst().orElse("no stall tolerance")
                + "; rx, rx missed by port "
                + log.lines().filter(l -> l.contains(" nic h")).map(l -> l.replaceAll(".*: nic (h\\d+): rx (\\d+), rx missed (\\d+).*", "$1 $2/$3"))
                .toList() + "; hosts' clock slip " + r.slipNanos() / 1_000_000 + " ms; " + attribution
                + (scheme.equals("bfc") ? "; " + log.lines().filter(l -> l.contains("counters h"))
                        .map(l -> l.replaceAll(".*counters (h\\d+): .*(bfc pause tx \\d+), (bfc resume tx \\d+).*", "$1 $2 $3"))
                        .toList() + "; " + log.lines().filter(l -> l.contains("lossless violations")).toList() : ""));
        if (LOSSLESS.contains(scheme)) {
            LosslessJudgement.none("LiveSchemesTest " + scheme, scheme, attribution + "\n" + what);
        } else {
            // bfc pauses per queue, not with PFC: no drop log to attribute, and no frame may have
            // been lost in a switch port's rx ring either.
            assertEquals(0, ringDrops, "frames the switch ports' rx rings dropped: " + what);
        }
        assertTrue(log.contains("lossless violations 0"), what);
        // The switch dropped nothing: a PSN missing at a receiver is then a frame lost on the
        // emulated wires, which the kernel counted (in a socket, a switch port's rx ring or a
        // CPU's backlog), or the test fails. Packets only out of order (every skipped PSN came
        // later) were reordered on the way, not lost: the kernel's per-CPU veth backlogs can swap
        // two frames of a thread that moved between CPUs (a CI run had 2 out of order and no drop).
        assertTrue(missing <= wireLosses, "PSNs missing beyond the frames the kernel dropped: " + what);
        if (missing > 0) {
            System.out.println("LiveSchemesTest " + scheme + ": " + missing + " PSNs missing with no switch drop;"
                    + " the kernel dropped " + wireLosses + " frames on the emulated wires (sockets "
                    + hostSocketLosses + ", CPU backlogs " + backlogDrops + ")");
        }
        if (outOfOrder > 0 && missing == 0) {
            System.out.println("LiveSchemesTest " + scheme + ": " + outOfOrder + " packets out of PSN order, none"
                    + " missing: reordered on the emulated wires");
        }
        if (LOSSLESS.contains(scheme)) {
            assertTrue(log.matches("(?s).*counters h0: .*pfc tx [^,]*p3=[1-9].*"), "the incasts made the switch pause h0\n" + what);
        } else {
            // h1 sends only into h0 and h2: on two workers each of its pauses was decided by their worker
            // and handed to h1's to send.
            assertTrue(log.matches("(?s).*counters h1: .*bfc pause tx [1-9].*"), "the incasts made the switch pause h1's"
                    + " BFC queues" + (workers > 1 ? ", from the other worker" : "") + "\n" + what);
            assertEquals(workers > 1, log.contains("bfc: a pause or resume between workers takes up to"),
                    "the start-up log states the hand-off bfc's threshold takes in\n" + what);
        }
    }

    /**
     * Sets each of {@code schemes} through the control API at even intervals of a run of {@code
     * runNanos}; records each answer as "status body" into {@code answers}.
     */
    private static void changeDuringRun(int port, Path token, List<String> schemes, long runNanos, List<String> answers) {
        java.net.http.HttpClient http = java.net.http.HttpClient.newHttpClient();
        try {
            for (String next : schemes) {
                Thread.sleep(runNanos / 1_000_000 / (schemes.size() + 1));
                java.net.http.HttpResponse<String> r;
                int tries = 0;
                do {        // 503: not applied (on a crowded machine the request can wait past its window): again
                    r = http.send(java.net.http.HttpRequest.newBuilder(
                                    java.net.URI.create("http://127.0.0.1:" + port + "/api/v1/scheme"))
                            .header("Authorization", "Bearer " + Files.readString(token).strip())
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"scheme\":\"" + next + "\"}")).build(),
                            java.net.http.HttpResponse.BodyHandlers.ofString());
                } while (r.statusCode() == 503 && ++tries < 3);
                answers.add(r.statusCode() + " " + r.body() + (tries > 0 ? " (after " + tries + " not applied)" : ""));
            }
        } catch (Exception e) {
            answers.add("failed: " + e);
        }
    }
}

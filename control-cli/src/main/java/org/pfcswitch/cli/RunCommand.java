package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.pfcswitch.control.ControlServer;
import org.pfcswitch.control.ControlToken;
import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.SwitchConfig;
import org.pfcswitch.dpdk.EthStats;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the PFC switch on DPDK ports until SIGTERM or SIGINT (Ctrl-C).",
            "",
            "One poll-mode thread feeds the switch core (the same one 'sim' runs) from DPDK",
            "bursts in real time: parse and classify (PCP or the DSCP map), forward by MAC",
            "(static entries, learning, flooding), admit through the MMU under the",
            "configured scheme (st, dt, sonic, dsh, spfc, reverie, capfc, bfc), queue per",
            "(port, priority), schedule, shape each port to its configured speed, mark ECN.",
            "When the scheme says XOFF for an ingress (port, priority) the switch sends an",
            "802.1Qbb PFC frame out of that port, refreshes it at half the pause time and",
            "sends quanta 0 (XON) when it clears. PFC and 802.3x PAUSE frames received on a",
            "port stop that port's egress priorities for the encoded time (at the port's",
            "speed); they are counted and never forwarded.",
            "",
            "Ports are PCI addresses (0000:3b:00.0) or DPDK virtual devices",
            "(net_af_packet0,iface=eth1 / net_af_xdp0,iface=eth1 / net_tap0 /",
            "net_memif0,... / net_ring0 / net_null0). The start-up log lists each port:",
            "MAC, link state, whether MAC-control frames (PFC, PAUSE) reach the switch on",
            "it, the speed it is shaped to and its headroom.",
            "",
            "EAL gets --lcores=0@(all CPUs) so no JVM thread is pinned by accident; the",
            "worker pins itself to the CPUs the config gives it. Hugepages are used when",
            "reserved (eal.hugepages: auto), otherwise --no-huge.",
            "",
            "On SIGTERM or SIGINT: the worker stops, frames still queued in the switch are",
            "freed, TX buffers are flushed, frames left in rx queues are freed, the pool's",
            "in-use count is checked (must be 0) and logged, the ports stop and close, and",
            "the exit code is 0. A shell that starts the switch in the background may leave",
            "SIGINT ignored (POSIX does so for background jobs of scripts): the switch then",
            "says so at start-up; stop it with SIGTERM (kill PID). Exit codes: 0 clean stop,",
            "1 error (bad config, port or DPDK failure: one line on stderr), 3 the worker",
            "failed or mbufs leaked, 4 a file the switch writes (--record, --drop-log) could",
            "not be written whole (a full disk, an I/O error): logged when it happened, the",
            "recording stopped there and keeps a readable prefix, forwarding went on.",
            "",
            "Control: the switch serves /metrics (Prometheus) and its control API on",
            "http://127.0.0.1:9464 (--control-port, --control-bind); 'pfcswitch show' reads",
            "it, 'pfcswitch set' changes the scheme or parameters with the token written to",
            "~/.pfcswitch/control-PORT.token (owner-only).",
            "",
            "The configuration format is documented in testbed-configs/README.md."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml --scheme spfc --stats-every 1",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml --shadow dsh,spfc   # then: show shadow",
            "  ./pfcswitch run -c lab.yaml --check       # validate and print what would start"})
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The switch configuration (YAML).")
    Path config;

    @Option(names = "--scheme", paramLabel = "NAME",
            description = "Buffer-admission scheme, overriding mmu.scheme of the config: ${COMPLETION-CANDIDATES}.",
            completionCandidates = SchemeNames.class)
    String scheme;

    @Mixin
    ShadowsOption shadowOption;

    @Option(names = "--stats-every", paramLabel = "SECONDS", defaultValue = "0",
            description = "Log a status line per port every SECONDS while running (0: only the counters at shutdown).")
    double statsEvery;

    @Option(names = "--record", paramLabel = "FILE",
            description = "Record every arrival (time, port, length, first 64 bytes) into FILE for 'sim --replay FILE'; "
                    + "the workers never wait: arrivals the writer thread cannot keep up with are dropped and counted; "
                    + "several workers' arrivals are merged in time order.")
    Path record;

    @Option(names = "--record-max", paramLabel = "N", defaultValue = "10000000",
            description = "With --record: record at most N arrivals, 80 bytes each (default: ${DEFAULT-VALUE}; at most "
                    + RECORD_MAX_LIMIT + ", 80 GB). A warning says at start when N of them would not fit the file system's free space.")
    long recordMax;

    /**
     * The most {@code --record-max} takes: 80 GB of records, hours of a busy lab port; a larger
     * number is a typo, not a plan (the free space is checked as well, at start).
     */
    static final long RECORD_MAX_LIMIT = 1_000_000_000L;

    @Option(names = "--drop-log", paramLabel = "FILE",
            description = "At shutdown, write the lossless drops of senders that obey PFC to FILE (CSV): port, priority, "
                    + "QP and PSN of each lost frame, when it was dropped, when its pause episode's first XOFF went out, "
                    + "the first frame into that queue's headroom and the headroom's bytes; times in CLOCK_MONOTONIC ns, "
                    + "to set beside the senders' own logs (the first " + org.pfcswitch.core.LosslessDropLog.CAPACITY
                    + " drops).")
    Path dropLog;

    @Option(names = "--check", description = "Read and validate the configuration, print what would start, and exit.")
    boolean check;

    @Option(names = "--control-port", paramLabel = "PORT", defaultValue = "9464",
            description = "Port of the control API and /metrics (default: ${DEFAULT-VALUE}, Prometheus's exporter range).")
    int controlPort;

    @Option(names = "--control-bind", paramLabel = "ADDR", defaultValue = "127.0.0.1",
            description = "Address the control API listens on (default: ${DEFAULT-VALUE}). Anything but loopback needs --allow-remote-control.")
    String controlBind;

    @Option(names = "--allow-remote-control", description = "Allow --control-bind on a non-loopback address (logged as a warning).")
    boolean allowRemoteControl;

    @Option(names = "--token-file", paramLabel = "FILE",
            description = "Where to write the token that mutations need (default: ~/.pfcswitch/control-PORT.token, mode 0600).")
    Path tokenFile;

    @Option(names = "--no-control", description = "Run without the control API and /metrics.")
    boolean noControl;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        if (statsEvery < 0) {
            throw new ParameterException(spec.commandLine(), "--stats-every must be >= 0, got " + statsEvery);
        }
        if (recordMax < 1 || recordMax > RECORD_MAX_LIMIT) {
            throw new ParameterException(spec.commandLine(), "--record-max must be 1.." + RECORD_MAX_LIMIT + ", got " + recordMax);
        }
        if (controlPort < 1 || controlPort > 65535) {
            throw new ParameterException(spec.commandLine(), "--control-port must be 1..65535, got " + controlPort);
        }
        if (!noControl && !allowRemoteControl && !java.net.InetAddress.getByName(controlBind).isLoopbackAddress()) {
            throw new ParameterException(spec.commandLine(), "--control-bind " + controlBind + " is not a loopback address:"
                    + " the network could read the switch; add --allow-remote-control to mean it");
        }
        List<String> shadows = shadowOption.checked();
        ConfigNode root = ConfigNode.load(config);
        SwitchConfig cfg = SwitchConfigReader.read(root, scheme).withShadows(shadows);
        log("pfcswitch run: " + config + ": " + cfg.ports().size() + " ports, scheme " + cfg.core().mmu().scheme());
        if (!shadows.isEmpty()) {
            log("shadow schemes: " + String.join(", ", shadows) + " (each keeps its own ledger; their XOFFs and drops are"
                    + " counted, never sent or made: 'pfcswitch show shadow', /metrics pfcswitch_shadow_*)");
        }
        if (check) {
            for (SwitchConfig.Port p : cfg.ports()) {
                // the worker stall each port's rx ring rides out before it drops (poll.rxStall sizes them)
                log("port " + p.name() + ": " + p.device() + ", shaped to " + p.speedBps() + " bit/s"
                        + (p.isClone() ? "" : org.pfcswitch.dataplane.RxRing.describe(p)));
            }
            DpdkSwitch.describeWorkers(cfg, null, this::log);
            logPortSecurity(cfg);
            logStallTolerance(cfg);
            var d = cfg.core().deadlock();
            log(d == null ? "deadlock detection: off" : String.format(java.util.Locale.ROOT,
                    "deadlock detection: a check every %.1f ms, a cycle reported after %.1f ms (misses under %.1f ms"
                    + " forgiven)", d.checkNanos() / 1e6, d.persistNanos() / 1e6, d.graceNanos() / 1e6));
            try {
                SwitchConfigReader.requireOnlineCpus(root, cfg);
            } catch (org.pfcswitch.config.ConfigException e) {
                log("note: " + e.getMessage() + ": the switch will not start on this machine");
            }
            warnIfRecordingOutgrowsDisk();
            log("configuration OK");
            return 0;
        }
        SwitchConfigReader.requireOnlineCpus(root, cfg);
        CountDownLatch stop = new CountDownLatch(1);
        String[] signalName = new String[1];
        List<String> ignored = Signals.onTermination(name -> {
            signalName[0] = name;
            stop.countDown();
        });
        for (String name : ignored) {
            log(name + " is ignored by this process (inherited from the shell that started it): stop the switch with SIGTERM");
        }

        org.pfcswitch.core.record.ArrivalRecorder recorder = null;
        if (record != null) {
            long[] speeds = cfg.ports().stream().mapToLong(SwitchConfig.Port::speedBps).toArray();
            java.util.Map<Long, Integer> macs = new java.util.LinkedHashMap<>();
            for (var s : cfg.core().staticMacs()) {
                macs.put(s.mac(), s.port());
            }
            int workers = cfg.workers().size();
            recorder = new org.pfcswitch.core.record.ArrivalRecorder(record,
                    new org.pfcswitch.core.record.ArrivalHeader(speeds, macs), workers,
                    org.pfcswitch.core.record.ArrivalRecorder.DEFAULT_RING, recordMax, this::log);
            log("recording arrivals to " + record + " (at most " + recordMax + ", ring of "
                    + org.pfcswitch.core.record.ArrivalRecorder.DEFAULT_RING
                    + (workers > 1 ? " per worker, merged in time order" : "") + ")");
            warnIfRecordingOutgrowsDisk();
        }
        org.pfcswitch.core.record.ArrivalRecorder rec = recorder;
        // The control port first: a second switch given a port in use stops before it opens a device.
        ControlServer.Port controlPortBound = null;
        if (!noControl) {
            try {
                controlPortBound = ControlServer.bind(controlBind, controlPort, allowRemoteControl);
            } catch (IOException | RuntimeException e) {
                spec.commandLine().getErr().println("pfcswitch run: error: " + e.getMessage());
                if (recorder != null) {
                    recorder.close();
                }
                return 1;
            }
        }
        DpdkSwitch sw;
        try {
            sw = Dpdk.guard(() -> DpdkSwitch.start(cfg, this::log, rec));
        } catch (RuntimeException | Error e) {
            if (controlPortBound != null) {
                controlPortBound.close();
            }
            throw e;
        }
        ControlServer control = null;
        if (controlPortBound != null) {
            try {
                control = controlPortBound.serve(sw, tokenFile != null ? tokenFile : ControlToken.defaultFile(controlPort),
                        this::log);
            } catch (IOException | RuntimeException e) {
                spec.commandLine().getErr().println("pfcswitch run: error: " + e.getMessage());
                sw.stop();
                if (recorder != null) {
                    recorder.close();
                }
                return 1;
            }
        }
        logPortSecurity(cfg);
        logStallTolerance(cfg);
        log("forwarding; stop with " + (ignored.contains("SIGINT") ? "SIGTERM" : "Ctrl-C or SIGTERM"));
        SwitchStatus status = new SwitchStatus(sw);
        WorkerAllocation allocation = new WorkerAllocation(sw.workerThreadIds(), System.nanoTime());
        long lastStats = System.nanoTime();
        long statsNanos = (long) (statsEvery * 1e9);
        org.pfcswitch.core.SwitchWorkers cores = sw.cores();
        org.pfcswitch.core.SwitchCore anyCore = cores.core(0);   // what every worker's core shares: configuration
        if (anyCore.pfcWatchdog() != null) {
            var w = anyCore.pfcWatchdog();
            log(String.format(java.util.Locale.ROOT, "pfcwd: on, detection %.1f ms, restoration %.1f ms, action %s, poll %.1f ms",
                    w.detectionNanos() / 1e6, w.restorationNanos() / 1e6, w.action().label(), w.pollNanos() / 1e6));
        }
        org.pfcswitch.core.PfcWatchdogEvents.Sink wdLog = (storm, port, priority, nanos, at, action) -> log(storm
                ? String.format(java.util.Locale.ROOT, "pfcwd: storm on %s priority %d (paused without a break for %.1f ms): %s",
                        cfg.ports().get(port).name(), priority, nanos / 1e6, switch (action) {
                            case DROP -> "its frames are dropped";
                            case FORWARD -> "its frames are sent through the pauses";
                            case ALERT -> "reported only, it still obeys the pauses";
                        })
                : String.format(java.util.Locale.ROOT, "pfcwd: restored %s priority %d after %.1f ms stormed (no pause frame for"
                        + " the restoration time)", cfg.ports().get(port).name(), priority, nanos / 1e6));
        org.pfcswitch.core.deadlock.DeadlockWatch deadlock = anyCore.deadlockWatch();   // with several workers worker 0 searches
        List<String> portNames = cfg.ports().stream().map(SwitchConfig.Port::name).toList();
        java.util.function.Consumer<org.pfcswitch.core.deadlock.CycleRecord> deadlockLog = r -> log(String.format(
                java.util.Locale.ROOT, "deadlock: %s (a cycle of paused queues for %.1f ms; pfcswitch show deadlock)",
                r.describe(portNames), (r.reportedNanos - r.sinceNanos) / 1e6));
        log(deadlock == null ? "deadlock detection: off" : String.format(java.util.Locale.ROOT,
                "deadlock detection: a check every %.1f ms, a cycle reported after %.1f ms (misses under %.1f ms forgiven)",
                deadlock.config().checkNanos() / 1e6, deadlock.config().persistNanos() / 1e6,
                deadlock.config().graceNanos() / 1e6));
        org.pfcswitch.core.MacMoveEvents.Sink moveLog = (mac, from, to, denied, since, at) -> log("mac "
                + org.pfcswitch.codec.MacAddress.format(mac) + (denied ? " seen on " + portNames.get(to) + " stays on "
                        + portNames.get(from) + " (a static entry there, or " + portNames.get(to) + "'s learning moves: deny)"
                        : " moved from " + portNames.get(from) + " to " + portNames.get(to))
                + (since > 0 ? "; " + since + " more moves and denied moves on " + portNames.get(to) + " since its last line"
                        : "") + " (one line per port per second at most; show ports counts them all)");
        while (!stop.await(50, TimeUnit.MILLISECONDS) && sw.failure() == null) {
            allocation.sample(System.nanoTime());
            drainWatchdogEvents(cores, wdLog);
            for (int w = 0; w < cores.workers(); w++) {
                cores.core(w).macMoveEvents().drain(moveLog);
            }
            if (deadlock != null) {
                deadlock.events().drain(deadlockLog);
            }
            if (statsNanos > 0 && System.nanoTime() - lastStats >= statsNanos) {
                status.lines().forEach(this::log);
                lastStats = System.nanoTime();
            }
        }
        log(allocation.summary());
        if (control != null) {
            control.close();
        }
        Throwable failure = sw.failure();
        log(failure != null ? "stopping: the worker failed: " + failure : "stopping on " + signalName[0]);
        DpdkSwitch.Shutdown down = sw.stop();
        boolean outputFailed = false;
        if (dropLog != null && !anyCore.pausesWithPfc()) {
            log("drop log: none under " + anyCore.mmu().config().scheme() + ", which does not pause with PFC");
        } else if (dropLog != null) {
            try {
                int rows = DropLog.write(sw, dropLog);
                log("drop log: " + rows + " lossless drops of senders that obey PFC written to " + dropLog
                        + (DropLog.overflow(cores) > 0 ? ", " + DropLog.overflow(cores) + " more not logged" : ""));
            } catch (IOException e) {
                log("drop log: cannot write " + dropLog + ": " + e.getMessage());
                outputFailed = true;
            }
        }
        if (recorder != null) {
            var r = recorder.close();
            log("recorded " + r.written() + " arrivals to " + r.file() + ", " + r.droppedRingFull()
                    + " dropped (ring full), " + r.overMax() + " beyond --record-max"
                    + (r.failed() ? ", " + r.afterFailure() + " after the recording stopped on a failed write" : ""));
            outputFailed |= r.failed();
        }
        drainWatchdogEvents(cores, wdLog);
        if (deadlock != null) {
            deadlock.events().drain(deadlockLog);
        }
        status.counters().forEach(this::log);
        for (int p = 0; p < down.nicStats().size(); p++) {
            EthStats n = down.nicStats().get(p);
            if (n == null) {
                log("clone " + cfg.ports().get(p).name() + ": copies skipped while paused " + sw.cloneSkipped(p)
                        + ", copies without an mbuf " + sw.cloneNoBuffer(p));
                continue;
            }
            log("nic " + cfg.ports().get(p).name() + ": rx " + n.rxPackets() + ", rx missed " + n.rxMissed()
                    + " (no room in the port's rx ring), rx errors " + n.rxErrors() + ", rx no mbuf " + n.rxNoMbuf()
                    + ", tx " + n.txPackets() + ", tx errors " + n.txErrors());
        }
        log("worker stopped, " + down.queuedFrames() + " frames still queued in the switch freed, TX buffers flushed, "
                + down.drainedFrames() + " frames freed from rx queues, ports stopped and closed");
        log("packet pool: " + down.mbufsInUse() + " of " + down.poolSize() + " mbufs in use after shutdown"
                + (down.mbufsInUse() == 0 ? " (all returned)" : " -- LEAK"));
        if (failure != null) {
            spec.commandLine().getErr().println("pfcswitch run: error: worker failed: " + failure);
            return 3;
        }
        if (down.mbufsInUse() != 0) {
            return 3;
        }
        if (outputFailed) {
            spec.commandLine().getErr().println("pfcswitch run: error: " + (recorder != null && recorder.writeFailures() > 0
                    ? "the recording " + record + " stopped early on a failed write" : "the drop log " + dropLog
                    + " could not be written whole") + " (see the log)");
            return 4;
        }
        return 0;
    }

    /** One line per port whose learning is limited (ports: learning: {maxMacs, moves}). */
    /**
     * With {@code --record}: one line when {@code --record-max} arrivals would not fit the free
     * space of the recording's file system. A warning, not a refusal: the limit is a ceiling, a
     * short run writes far less, and a disk that fills stops the recording cleanly (a readable
     * prefix, exit 4).
     */
    private void warnIfRecordingOutgrowsDisk() {
        if (record == null) {
            return;
        }
        long most = recordMax * org.pfcswitch.core.record.ArrivalFormat.RECORD_BYTES;
        Path folder = record.toAbsolutePath().getParent();
        try {
            long free = java.nio.file.Files.getFileStore(folder).getUsableSpace();
            if (most > free) {
                log(String.format(java.util.Locale.ROOT, "warning: --record-max %d arrivals take up to %.1f MB, more than"
                        + " the %.1f MB free on the file system of %s: the recording stops when it is full", recordMax,
                        most / 1e6, free / 1e6, record));
            }
        } catch (java.io.IOException e) {
            log("warning: cannot read the free space of " + folder + " for --record: " + e.getMessage());
        }
    }

    /**
     * Per port with a receive ring and a speed, the worker stall it rides out without losing a frame
     * of a sender that obeys PFC. While the worker is stalled no XOFF goes out, so the sender goes
     * on at line rate: its ring must hold all of it (else the kernel or NIC drops it), and when the
     * worker runs again that backlog reaches the lossless queue at once, where the headroom must hold
     * it. The shorter of the two, at line rate in the ring's 1500 B frames; less whatever the cable
     * and the sender's own reaction take of the headroom.
     */
    private void logStallTolerance(SwitchConfig cfg) {
        org.pfcswitch.mmu.MmuConfig mmu = cfg.core().mmu();
        if (mmu.losslessCount() == 0 || mmu.scheme().equals("bfc")) {
            return;
        }
        for (int p = 0; p < cfg.ports().size(); p++) {
            SwitchConfig.Port port = cfg.ports().get(p);
            if (port.isClone() || port.speedBps() <= 0) {
                continue;
            }
            double ringMs = org.pfcswitch.dataplane.RxRing.rideOutNanos(org.pfcswitch.dataplane.RxRing.frames(port),
                    port.speedBps()) / 1e6;
            double headroomMs = mmu.headroomBytes(p) * 8 * 1e3 / port.speedBps();
            log(String.format(java.util.Locale.ROOT, "stall tolerance %s: a worker stall up to %.1f ms loses no lossless"
                    + " frame of a sender that obeys PFC (rx ring %.1f ms, headroom %d B %.1f ms, at %s)", port.name(),
                    Math.min(ringMs, headroomMs), ringMs, mmu.headroomBytes(p), headroomMs,
                    org.pfcswitch.dataplane.Rates.format(port.speedBps())));
        }
    }

    private void logPortSecurity(SwitchConfig cfg) {
        for (int p = 0; p < cfg.ports().size(); p++) {
            org.pfcswitch.core.PortLearning l = cfg.core().portLearning().get(p);
            if (!l.equals(org.pfcswitch.core.PortLearning.OPEN)) {
                log("port security " + cfg.ports().get(p).name() + ": "
                        + (l.maxMacs() == org.pfcswitch.core.PortLearning.UNLIMITED ? "any number of stations"
                                : "at most " + l.maxMacs() + (l.maxMacs() == 1 ? " station" : " stations")) + " learned, "
                        + (l.moves() == org.pfcswitch.core.PortLearning.Moves.DENY
                                ? "a station learned on another port does not move here" : "stations may move here"));
            }
        }
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private void log(String line) {
        out.println(LocalTime.now().format(TIME) + " " + line);
        out.flush();
    }

    /** Logs the storms and restorations each worker's watchdog reported since the last call. */
    private static void drainWatchdogEvents(org.pfcswitch.core.SwitchWorkers cores,
                                            org.pfcswitch.core.PfcWatchdogEvents.Sink log) {
        for (int w = 0; w < cores.workers(); w++) {
            org.pfcswitch.core.PfcWatchdogEvents events = cores.core(w).pfcWatchdogEvents();
            if (events != null) {
                events.drain(log);
            }
        }
    }
}

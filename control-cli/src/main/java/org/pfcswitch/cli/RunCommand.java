package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.pfcswitch.cli.config.ConfigNode;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.Forwarder;
import org.pfcswitch.dataplane.PortCounters;
import org.pfcswitch.dataplane.SwitchConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "run",
        mixinStandardHelpOptions = true,
        description = {
            "Runs the switch on DPDK ports until SIGINT (Ctrl-C) or SIGTERM.",
            "",
            "NOTE: the switch core (MMU admission, egress queues, scheduler, PFC",
            "generation) is not wired in yet. 'run' forwards WITHOUT THE MMU, as an L2",
            "learning switch: static MACs from the config, learning, flooding of",
            "broadcast and unknown destinations. Every frame is classified (priority from",
            "PCP or the DSCP map) and counted per (port, priority); received PFC and",
            "PAUSE frames are counted per priority and are never forwarded.",
            "",
            "Ports are PCI addresses (0000:3b:00.0) or DPDK virtual devices",
            "(net_af_packet0,iface=eth1 / net_af_xdp0,iface=eth1 / net_tap0 /",
            "net_memif0,... / net_ring0 / net_null0). The start-up log lists each port:",
            "MAC, link state, and whether MAC-control frames (PFC, PAUSE) reach the",
            "switch on it.",
            "",
            "EAL gets --lcores=0@(all CPUs) so no JVM thread is pinned by accident;",
            "workers pin themselves to the CPUs the config gives them. Hugepages are used",
            "when reserved (eal.hugepages: auto), otherwise --no-huge.",
            "",
            "On SIGINT/SIGTERM: workers stop, TX buffers are flushed, frames left in rx",
            "queues are freed, the pool's in-use count is checked (must be 0) and logged,",
            "the ports stop and close, and the exit code is 0. Exit codes: 0 clean stop,",
            "1 error (bad config, port or DPDK failure: one line on stderr), 3 a worker",
            "failed or mbufs leaked.",
            "",
            "The configuration format is documented in testbed-configs/README.md."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch testbed up -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml",
            "  ./pfcswitch run -c testbed-configs/netns-3hosts.yaml --stats-every 10",
            "  ./pfcswitch run -c lab.yaml --check       # validate and print the EAL line only"})
final class RunCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "FILE", description = "The switch configuration (YAML).")
    Path config;

    @Option(names = "--stats-every", paramLabel = "SECONDS", defaultValue = "0",
            description = "Log per-port counters every SECONDS while running (0: only at shutdown).")
    int statsEvery;

    @Option(names = "--check", description = "Read and validate the configuration, print what would start, and exit.")
    boolean check;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        SwitchConfig cfg = SwitchConfigReader.read(ConfigNode.load(config));
        log("pfcswitch run: " + config + ": " + cfg.ports().size() + " ports, " + cfg.workers().size() + " worker(s)");
        log("forwarding WITHOUT the MMU: the switch core is not wired in yet (L2 learning switch, no queues, no PFC generation)");
        if (check) {
            for (SwitchConfig.Port p : cfg.ports()) {
                log("port " + p.name() + ": " + p.device());
            }
            log("configuration OK");
            return 0;
        }
        CountDownLatch stop = new CountDownLatch(1);
        String[] signalName = new String[1];
        Signals.onTermination(name -> {
            signalName[0] = name;
            stop.countDown();
        });

        DpdkSwitch sw = Dpdk.guard(() -> DpdkSwitch.start(cfg, this::log));
        log("forwarding; stop with Ctrl-C or SIGTERM");
        Forwarder forwarder = sw.forwarder();
        long lastStats = System.nanoTime();
        while (!stop.await(200, TimeUnit.MILLISECONDS) && forwarder.failure() == null) {
            if (statsEvery > 0 && System.nanoTime() - lastStats >= statsEvery * 1_000_000_000L) {
                logCounters(sw);
                lastStats = System.nanoTime();
            }
        }
        Throwable failure = forwarder.failure();
        log(failure != null ? "stopping: a worker failed: " + failure : "stopping on " + signalName[0]);
        DpdkSwitch.Shutdown down = sw.stop();
        logCounters(sw);
        log("workers stopped, TX buffers flushed, " + down.drainedFrames() + " frames freed from rx queues, ports stopped and closed");
        log("packet pool: " + down.mbufsInUse() + " of " + down.poolSize() + " mbufs in use after shutdown"
                + (down.mbufsInUse() == 0 ? " (all returned)" : " -- LEAK"));
        if (failure != null) {
            spec.commandLine().getErr().println("pfcswitch run: error: worker failed: " + failure);
            return 3;
        }
        return down.mbufsInUse() == 0 ? 0 : 3;
    }

    private void logCounters(DpdkSwitch sw) {
        Forwarder f = sw.forwarder();
        int ports = f.portCount();
        for (int p = 0; p < ports; p++) {
            StringBuilder line = new StringBuilder("counters ").append(sw.config().ports().get(p).name()).append(':');
            long rx = 0;
            StringBuilder byPriority = new StringBuilder();
            StringBuilder pfc = new StringBuilder();
            for (int prio = 0; prio < PortCounters.PRIORITIES; prio++) {
                int i = p * PortCounters.PRIORITIES + prio;
                long frames = f.total(c -> c.rxFrames, i);
                rx += frames;
                if (frames > 0) {
                    byPriority.append(" p").append(prio).append('=').append(frames);
                }
                long pfcFrames = f.total(c -> c.pfcRx, i);
                if (pfcFrames > 0) {
                    pfc.append(" p").append(prio).append('=').append(pfcFrames);
                }
            }
            int port = p;
            line.append(" rx ").append(rx).append(byPriority.isEmpty() ? "" : " (" + byPriority.toString().trim() + ")")
                    .append(", tx ").append(f.total(c -> c.txFrames, port))
                    .append(", tx-full drops ").append(f.total(c -> c.txDropFull, port))
                    .append(", pfc rx").append(pfc.isEmpty() ? " 0" : pfc.toString())
                    .append(", pause rx ").append(f.total(c -> c.pauseRx, port))
                    .append(", flooded ").append(f.total(c -> c.floodedRx, port))
                    .append(", filtered ").append(f.total(c -> c.filteredRx, port))
                    .append(", runts ").append(f.total(c -> c.runtRx, port))
                    .append(", malformed ").append(f.total(c -> c.malformedRx, port));
            log(line.toString());
        }
        log("forwarding table: " + sw.table().size() + " stations" + (sw.table().learnTableFull() > 0
                ? ", " + sw.table().learnTableFull() + " not learned (table full)" : ""));
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private void log(String line) {
        out.println(LocalTime.now().format(TIME) + " " + line);
        out.flush();
    }
}

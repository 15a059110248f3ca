package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.testbed.config.ScenarioLoader;
import org.pfcswitch.cli.switchconfig.SwitchConfigReader;
import org.pfcswitch.cli.switchconfig.TestbedConfig;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.dataplane.SwitchConfig;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.testbed.FlowRecords;
import org.pfcswitch.testbed.HostSendLog;
import org.pfcswitch.testbed.LiveResult;
import org.pfcswitch.testbed.LiveRun;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.ScenarioRunner;
import org.pfcswitch.testbed.SchemeResult;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "lab",
        mixinStandardHelpOptions = true,
        header = "Runs a scenario on the live switch and in virtual time, side by side, scheme by scheme.",
        description = {
            "Runs a scenario on the live switch and in virtual time, scheme by scheme, and",
            "prints the two side by side.",
            "",
            "Brings up the testbed of CONFIG (network namespaces on veth pairs), starts the",
            "switch of CONFIG on DPDK, and for each scheme: replaces the switch core by one",
            "under that scheme (same ports, fresh counters), runs the scenario's traffic on",
            "emulated RoCE hosts in the namespaces in real time (as 'pfcswitch hosts' does)",
            "while printing a status line per second, and keeps the switch's counters and the",
            "hosts' results. Then it stops the switch (every mbuf must be back), removes the",
            "testbed, runs the same scenario in 'sim' under each scheme, and prints one table:",
            "a 'live' and a 'sim' row per scheme with the same columns.",
            "",
            "After each live scheme it says whose every lossless drop of a sender that obeys",
            "PFC was, from the switch's drop log and the hosts' send log: the switch's, the",
            "host's, or the emulated wires' (the sender obeyed, the headroom held what it had",
            "in flight, but the pause took longer than the headroom's line time to stop it).",
            "",
            "Throughput is over the whole run in both rows. The scenario's clone ports are the",
            "switch's kind: clone ports live; the switch config's mmu: section should be the",
            "scenario's (the lab's files are). Needs root and DPDK.",
            "",
            "The table is followed, per scheme, by what the switch counted during its live run",
            "(as 'hosts' prints it): lossless drops from senders that obey PFC and from those",
            "that ignore it, PFC frames sent and received, frames the rx rings had no room for.",
            "",
            "Exit status: 0; " + SwitchRunSummary.EXIT_LOSSLESS_DROPS + " when the switch dropped lossless frames from"
                + " senders that obey PFC in any live run."
        },
        footer = {"", "Example (what 'make demo' runs, about a minute):",
            "  ./pfcswitch lab -c testbed-configs/emulated-9port.yaml \\",
            "      --scenario testbed-configs/scenarios/emulated-9port.yaml --scheme dt,spfc"})
final class LabCommand implements Callable<Integer> {

    @Option(names = {"-c", "--config"}, required = true, paramLabel = "CONFIG",
            description = "Switch configuration with a testbed: section (ports on the testbed's veths, clone ports, mmu).")
    Path config;

    @Option(names = "--scenario", required = true, paramLabel = "SCENARIO",
            description = "The traffic (a scenario file as for 'sim'); its host names are the testbed's.")
    Path scenario;

    @Mixin
    SchemesOption schemes;

    @Option(names = "--duration", paramLabel = "TIME",
            description = "How long each live run and each sim run lasts (default: the scenario's duration).")
    String duration;

    @Option(names = "--warmup", paramLabel = "TIME", defaultValue = "1s",
            description = "Traffic run live before the first scheme's run and not reported, so that JIT compilation of the"
                    + " switch and the hosts does not fall into it (default ${DEFAULT-VALUE}; 0 for none).")
    String warmup;

    @Spec
    CommandSpec spec;

    private PrintWriter out;

    private record Live(String scheme, long[] pausesByPort, long losslessViolations, long maxBufferBytes, LiveResult hosts,
                        SwitchRunSummary switchCounts) {}

    @Override
    public Integer call() throws Exception {
        out = spec.commandLine().getOut();
        List<String> sets = new ArrayList<>();
        long runNanos;
        if (duration != null) {
            runNanos = TimeOption.nanos(spec.commandLine(), "--duration", duration, false);
            sets.add("duration=" + duration);
        } else {
            runNanos = ScenarioLoader.load(scenario, sets).scenario().durationNanos();
        }
        // Both rows report the whole run: the sim's measure window is made the run.
        sets.add("measure={from: 0ns, to: " + runNanos + "ns}");
        ScenarioLoader.Loaded loaded = ScenarioLoader.load(scenario, sets);
        Scenario s = loaded.scenario();
        List<String> run = schemes.orElse(loaded.schemes());
        ConfigNode root = ConfigNode.load(config);
        SwitchConfig cfg = SwitchConfigReader.read(root, run.getFirst());
        SwitchConfigReader.requireOnlineCpus(root, cfg);
        for (String scheme : run) {
            org.pfcswitch.mmu.Schemes.validate(cfg.core().mmu().withScheme(scheme));    // every scheme before anything starts
        }
        TestbedConfig tb = TestbedConfig.read(root, cfg);
        long warmupNanos = TimeOption.nanos(spec.commandLine(), "--warmup", warmup, true);

        List<Live> live = new ArrayList<>();
        TestbedCommand.create(tb, out);
        try {
            DpdkSwitch sw = Dpdk.guard(() -> DpdkSwitch.start(cfg, line -> { }));
            log("switch up: " + cfg.ports().size() + " ports (" + cfg.devicePorts().size() + " on DPDK af_packet, "
                    + (cfg.ports().size() - cfg.devicePorts().size()) + " clone ports)");
            try {
                if (warmupNanos > 0) {
                    warmUp(s, tb, warmupNanos);
                }
                for (String scheme : run) {
                    sw.replaceCore(scheme);            // also after the warm-up: fresh counters for every run
                    live.add(runLive(s, tb, sw, scheme));
                }
            } finally {
                DpdkSwitch.Shutdown down = sw.stop();
                log("switch stopped: " + down.mbufsInUse() + " of " + down.poolSize() + " mbufs in use"
                        + (down.mbufsInUse() == 0 ? " (all returned)" : " -- LEAK"));
            }
        } finally {
            TestbedCommand.remove(tb);
            log("testbed removed");
        }
        List<SchemeResult> sim = new ArrayList<>();
        for (String scheme : run) {
            log("sim " + scheme + ": " + s.durationNanos() / 1e9 + " s of virtual time");
            Progress progress = new Progress(spec.commandLine().getErr(), "sim " + scheme, "simulated");
            sim.add(ScenarioRunner.run(s, scheme, progress));
            progress.done(null);
        }
        printTable(s, cfg, live, sim);
        boolean lossy = false;
        for (Live l : live) {
            out.println();
            l.switchCounts().lines().forEach(out::println);
            lossy |= l.switchCounts().obeyingLosslessDrops() > 0;
        }
        out.flush();
        return lossy ? SwitchRunSummary.EXIT_LOSSLESS_DROPS : 0;
    }

    /** The scenario's traffic for {@code nanos}, results dropped: the JIT compiles the switch's and the hosts' paths. */
    private void warmUp(Scenario s, TestbedConfig tb, long nanos) {
        log("warm-up: " + nanos / 1e9 + " s of traffic, not reported");
        try (LiveTestbedHosts hosts = LiveTestbedHosts.open(s, tb, scenario, config)) {
            LiveRun.run(s, hosts.hosts(), nanos, ScenarioRunner.Progress.NONE);
        }
    }

    private Live runLive(Scenario s, TestbedConfig tb, DpdkSwitch sw, String scheme) throws Exception {
        log("live " + scheme + ": " + s.durationNanos() / 1e9 + " s of traffic on the emulated hosts");
        SwitchStatus status = new SwitchStatus(sw);
        long rxMissedBefore = sw.rxMissed();
        int portCount = sw.config().ports().size();
        long[] rxMissedByPort = new long[portCount];
        for (int p = 0; p < portCount; p++) {
            rxMissedByPort[p] = -sw.rxMissed(p);
        }
        LiveResult r;
        String dropReport;
        long rxMissed;
        try (LiveTestbedHosts hosts = LiveTestbedHosts.open(s, tb, scenario, config)) {
            HostSendLog sends = new HostSendLog().attach(hosts.hosts());
            long[] next = {1_000_000_000L};
            r = LiveRun.run(s, hosts.hosts(), s.durationNanos(), (now, total) -> {
                if (now >= next[0]) {
                    next[0] += 1_000_000_000L;
                    log(String.format(Locale.ROOT, "  %s t=%.1fs %s", scheme, now / 1e9, status.compactLine()));
                }
            });
            rxMissed = sw.rxMissed() - rxMissedBefore;
            for (int p = 0; p < portCount; p++) {
                rxMissedByPort[p] += sw.rxMissed(p);
            }
            dropReport = !sw.cores().core(0).pausesWithPfc() ? "lossless drops not attributed: " + scheme + " does not pause with PFC"
                    : LiveDropReport.line(LiveDropReport.fromSwitch(sw,
                            port -> hosts.hostOnPort(sw.config().ports().get(port).name())),
                            hosts.dropAttribution(sends, s.payloadMtu()), DropLog.overflow(sw.cores()), rxMissed);
        }
        org.pfcswitch.core.SwitchWorkers cores = sw.cores();
        SwitchCounters c = cores.counters();
        long[] pauses = new long[c.ports()];
        for (int p = 0; p < pauses.length; p++) {
            for (int prio = 0; prio < SwitchCounters.PRIORITIES; prio++) {
                pauses[p] += c.pfcXoffTx[p * SwitchCounters.PRIORITIES + prio];
            }
        }
        StringBuilder drops = new StringBuilder();
        for (int p = 0; p < c.ports(); p++) {
            long n = 0;
            for (int prio = 0; prio < SwitchCounters.PRIORITIES; prio++) {
                n += c.drops(p, prio, org.pfcswitch.mmu.Verdict.DROP_LOSSLESS_VIOLATION);
            }
            if (n > 0) {
                drops.append(' ').append(sw.config().ports().get(p).name()).append(' ').append(n);
            }
        }
        long[] stalls = sw.stalls();
        long received = 0;
        long sent = 0;
        for (LiveResult.Host h : r.hosts()) {
            received += h.kernelDrops();
            sent += h.framesLost();
        }
        log(String.format(Locale.ROOT, "  %s done: hosts' clock slipped %.1f ms, their sockets lost %d frames received and %d"
                        + " sent; the switch ports' rx rings had no room for %d; switch worker stalls >= 1 ms %d, >= 10 ms %d,"
                        + " longest %.1f ms; lossless drops by ingress port:%s; %s", scheme, r.slipNanos() / 1e6, received, sent,
                rxMissed, stalls[1], stalls[2], sw.longestPassNanos() / 1e6, drops.isEmpty() ? " none" : drops,
                SwitchStatus.obeyingDrops(cores)));
        if (c.lastLosslessDropPort >= 0) {
            log("  " + scheme + " " + status.losslessDropLine());
        }
        log("  " + scheme + " " + dropReport);
        List<String> portNames = sw.config().ports().stream().map(SwitchConfig.Port::name).toList();
        return new Live(scheme, pauses, cores.mmuLosslessViolations(), c.maxBufferBytes(), r,
                SwitchRunSummary.fromCores("the live " + scheme + " run", portNames, cores, rxMissedByPort));
    }

    /** One row per (scheme, live|sim); switch ports in config order, traffic in scenario order. */
    private void printTable(Scenario s, SwitchConfig cfg, List<Live> live, List<SchemeResult> sim) {
        List<String> traffic = new ArrayList<>();
        for (Scenario.TrafficSpec t : s.traffic()) {
            traffic.add(t.create().name());
        }
        StringBuilder head = new StringBuilder(String.format("%-7s %-4s %10s", "scheme", "run", "PFC pauses"));
        for (SwitchConfig.Port p : cfg.ports()) {
            head.append(String.format(" %6s", "@" + p.name()));
        }
        for (String t : traffic) {
            head.append(String.format(" %10s", t + " Gb/s"));
        }
        head.append(String.format(" %10s %10s %10s %10s %9s", "flows done", "FCT p50", "FCT p99", "max buffer", "lossless"));
        out.println();
        out.println("scenario " + s.name() + " (" + s.durationNanos() / 1e9 + " s), live on the emulated lab and in virtual time:");
        out.println(head);
        out.println("-".repeat(head.length()));
        for (int i = 0; i < live.size(); i++) {
            Live l = live.get(i);
            SchemeResult v = sim.get(i);
            double[] liveRates = new double[traffic.size()];
            Arrays.fill(liveRates, Double.NaN);              // a replay traffic is the switch's: no live host measures it
            for (LiveResult.Traffic t : l.hosts().traffic()) {
                int k = traffic.indexOf(t.name());
                if (k >= 0) {
                    liveRates[k] = t.throughputBps();
                }
            }
            out.println(row(l.scheme(), "live", l.pausesByPort(), liveRates, l.hosts().flows(), f -> true,
                    l.maxBufferBytes(), l.losslessViolations(), l.hosts().durationNanos()));
            double[] simRates = wholeRunRates(v, traffic.size(), s.durationNanos());
            // The sim's clone ports carry shadow flows; live they are copies the switch makes, not flows.
            FlowRecords simFlows = v.flows();
            out.println(row(v.scheme(), "sim", v.pausesSentByPort(), simRates, simFlows,
                    f -> s.hosts().get(simFlows.src(f)).cloneOf() < 0, v.maxBufferBytes(), v.losslessViolations(),
                    s.durationNanos()));
        }
        out.println("PFC pauses: PFC frames with a pause time the switch sent (refreshes included), in all and per port;"
                + " throughput: payload received per traffic over the whole run; flows done: completed/started, clone"
                + " ports' shadow flows not counted; FCT over completed flows; lossless: lossless frames the MMU could not place.");
        out.flush();
    }

    /** The sim's throughput over the whole run, from its per-sample series (its table's is over the measure window). */
    private static double[] wholeRunRates(SchemeResult v, int traffics, long duration) {
        double[] rates = new double[traffics];
        SchemeResult.Series series = v.series();
        long[] t = series.timeNanos();
        for (int k = 0; k < traffics && k < series.throughputBps().length; k++) {
            double bits = 0;
            long previous = 0;
            for (int i = 0; i < t.length; i++) {
                bits += series.throughputBps()[k][i] * (t[i] - previous) / 1e9;
                previous = t[i];
            }
            rates[k] = bits * 1e9 / Math.max(1, duration);
        }
        return rates;
    }

    private static String row(String scheme, String run, long[] pausesByPort, double[] rates, FlowRecords flows,
                              java.util.function.IntPredicate counted, long maxBuffer, long lossless, long end) {
        StringBuilder r = new StringBuilder(String.format("%-7s %-4s %10d", scheme, run, Arrays.stream(pausesByPort).sum()));
        for (long p : pausesByPort) {
            r.append(String.format(" %6d", p));
        }
        for (double rate : rates) {
            r.append(Double.isNaN(rate) ? String.format(" %10s", "-") : String.format(Locale.ROOT, " %10.3f", rate / 1e9));
        }
        long[] fct = completedFcts(flows, counted, end);
        int started = 0;
        for (int f = 0; f < flows.count(); f++) {
            started += counted.test(f) && flows.startNanos(f) <= end ? 1 : 0;
        }
        r.append(String.format(Locale.ROOT, " %10s %10s %10s %10s %9d", fct.length + "/" + started,
                fct.length == 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", percentile(fct, 0.50) / 1e6),
                fct.length == 0 ? "-" : String.format(Locale.ROOT, "%.2f ms", percentile(fct, 0.99) / 1e6),
                String.format(Locale.ROOT, "%.0f KB", maxBuffer / 1e3), lossless));
        return r.toString();
    }

    private static long[] completedFcts(FlowRecords flows, java.util.function.IntPredicate counted, long end) {
        List<Long> fct = new ArrayList<>();
        for (int f = 0; f < flows.count(); f++) {
            if (counted.test(f) && flows.completed(f) && flows.startNanos(f) <= end) {
                fct.add(flows.fctNanos(f));
            }
        }
        return fct.stream().mapToLong(Long::longValue).sorted().toArray();
    }

    /** Nearest-rank percentile of sorted values. */
    private static long percentile(long[] sorted, double q) {
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private void log(String line) {
        out.println(LocalTime.now().format(TIME) + " " + line);
        out.flush();
    }
}

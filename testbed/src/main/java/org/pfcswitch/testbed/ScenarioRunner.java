package org.pfcswitch.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.SchemeCounters;
import org.pfcswitch.testbed.topology.FabricPlan;
import org.pfcswitch.core.ShadowMmus;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.core.trace.TraceHeader;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Runs a {@link Scenario} under one scheme: builds the testbed, installs the traffic (each
 * generator with its own stream split from the seed, in scenario order), advances virtual time in
 * sample steps, and reduces the run to a {@link SchemeResult}.
 */
public final class ScenarioRunner {

    /** Told after every sample step how far the run is; for progress bars. */
    @FunctionalInterface
    public interface Progress {
        void at(long simulatedNanos, long totalNanos);

        Progress NONE = (t, total) -> {};
    }

    /**
     * A trace of one switch of the run ({@link SwitchTrace}) into {@code file}, one sample per
     * {@code everyNanos}; {@code switchIndex} as {@link #switchNames} orders them.
     */
    public record Tracing(Path file, long everyNanos, int switchIndex) {}

    private ScenarioRunner() {}

    public static SchemeResult run(Scenario s, String scheme) {
        return run(s, scheme, Progress.NONE);
    }

    public static SchemeResult run(Scenario s, String scheme, Progress progress) {
        return run(s, scheme, progress, (Tracing) null);
    }

    /** Runs {@code s} under {@code scheme}, tracing one switch when {@code tracing} is not null. */
    public static SchemeResult run(Scenario s, String scheme, Progress progress, Tracing tracing) {
        return run(s, scheme, List.of(), progress, tracing);
    }

    /**
     * Runs {@code s} under {@code scheme} with shadow schemes {@code shadows} on every switch (empty:
     * none), tracing one switch when {@code tracing} is not null. The shadows change nothing the
     * switches do; the result's {@link SchemeResult#shadows} says what they would have.
     */
    public static SchemeResult run(Scenario s, String scheme, List<String> shadows, Progress progress, Tracing tracing) {
        return run(s, scheme, shadows, progress, tracing, 1);
    }

    /**
     * The same on {@code threads} partitions of the event loop ({@link Testbed.Builder#threads}): the
     * result is the same for any number, but for the frame memory, which each partition takes for itself.
     */
    public static SchemeResult run(Scenario s, String scheme, List<String> shadows, Progress progress, Tracing tracing,
                                   int threads) {
        Testbed tb = build(s, scheme, shadows, threads);
        try {
            SchemeResult result = runTraced(tb, s, scheme, progress, tracing);
            tb.loop().eventCounts().forEach((what, n) -> System.err.printf("%s %s: %,d events%n", s.name(), what, n));
            return result;
        } finally {
            tb.close();        // a grid's next run needs the frames' memory now, not at the next collection
        }
    }

    private static SchemeResult runTraced(Testbed tb, Scenario s, String scheme, Progress progress, Tracing tracing) {
        if (tracing == null) {
            return runOn(tb, s, scheme, progress);
        }
        List<String> names = switchNames(s);
        if (tracing.switchIndex() < 0 || tracing.switchIndex() >= names.size()) {
            throw new IllegalArgumentException("no switch " + tracing.switchIndex() + " to trace; the switches are "
                    + String.join(", ", names));
        }
        TraceHeader header = new TraceHeader(scheme, tracing.everyNanos(), 0, "sim", names.get(tracing.switchIndex()),
                portNames(s, tracing.switchIndex()));
        SwitchTrace trace;
        try {
            trace = SwitchTrace.attach(tb, tracing.switchIndex(), tracing.file(), tracing.everyNanos(), header);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + tracing.file() + ": " + e.getMessage(), e);
        }
        try (trace) {
            SchemeResult result = runOn(tb, s, scheme, progress);
            trace.finish(tb.now());
            return result;
        }
    }

    /**
     * Runs {@code scheme} on {@code s} as {@link #run} does and records every frame arriving at its
     * switch into {@code file} (the arrival-record format of {@code run --record}): the scenario's
     * closed-loop traffic becomes an open-loop recording that {@code sim --replay} runs through any
     * scheme. Single-switch scenarios only (a leaf's recording would lack the remote hosts' routes).
     */
    public static SchemeResult runRecorded(Scenario s, String scheme, Progress progress, Path file) {
        return runRecorded(s, scheme, List.of(), progress, file);
    }

    /** {@link #runRecorded} with shadow schemes {@code shadows} on the switch (empty: none). */
    public static SchemeResult runRecorded(Scenario s, String scheme, List<String> shadows, Progress progress, Path file) {
        Testbed tb = build(s, scheme, shadows);
        if (tb.switches() != 1) {
            throw new IllegalArgumentException("recording arrivals needs a single-switch scenario; " + s.name() + " has "
                    + tb.switches() + " switches");
        }
        try (org.pfcswitch.core.record.ArrivalWriter w = org.pfcswitch.core.record.ArrivalWriter.create(file, tb.arrivalHeader(0))) {
            tb.recordArrivals(0, w);
            return runOn(tb, s, scheme, progress);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the arrival record " + file + ": " + e.getMessage(), e);
        } finally {
            tb.close();
        }
    }

    /**
     * What one run of a scenario may take, known before it runs.
     *
     * @param frameBytes the frames if every switch's buffer filled with full-size frames (outside the heap)
     * @param heapBytes  the Java heap for the hosts, their flows and the switches
     */
    public record MemoryEstimate(long frameBytes, long heapBytes) {
        public long totalBytes() {
            return frameBytes + heapBytes;
        }
    }

    /**
     * Heap per host, and per host and millisecond simulated (flows and their records): the 256-host
     * fabric at load 0.9 (testbed-configs/benchmarks/fabric-memory-256.yaml) allocated 37 MB over
     * 0.5 ms and 53 MB over 2 ms, about 120 KB a host and 42 KB a host per ms; these allow two to
     * three times that.
     */
    private static final long HEAP_PER_HOST = 256 << 10;
    private static final long HEAP_PER_HOST_MS = 128 << 10;

    /** An upper bound of what running {@code s} takes: its buffers full, and its hosts' state. */
    public static MemoryEstimate estimateMemory(Scenario s) {
        long switches = switchNames(s).size();
        long framesPerBuffer = (s.mmu().totalBytes() + s.payloadMtu() - 1) / s.payloadMtu();
        long frames = switches * framesPerBuffer * Testbed.slotBytes(s.payloadMtu());
        long hosts = s.hosts().size();
        double ms = s.durationNanos() / 1e6;
        return new MemoryEstimate(frames, hosts * HEAP_PER_HOST + (long) (hosts * HEAP_PER_HOST_MS * ms));
    }

    /** The switches of {@code s}: {@code switch} alone, {@code sw0..} of a ring, or a fabric's in its plan's order (leaves, then spines). */
    public static List<String> switchNames(Scenario s) {
        Scenario.Topology topo = s.topology();
        List<String> names = new ArrayList<>();
        if (topo.isRing()) {
            for (int i = 0; i < topo.ringSwitches(); i++) {
                names.add("sw" + i);
            }
            return names;
        }
        if (!topo.isFabric()) {
            return List.of("switch");
        }
        for (int sw = 0; sw < topo.plan().switches(); sw++) {
            names.add(topo.plan().switchName(sw));
        }
        return names;
    }

    /** Port i's name on switch {@code sw}: the host behind it, or the switch at the other end of a fabric link. */
    public static List<String> portNames(Scenario s, int sw) {
        Scenario.Topology topo = s.topology();
        List<String> names = new ArrayList<>();
        if (topo.isRing()) {
            int n = topo.ringSwitches();
            names.add(s.hosts().get(sw).name());
            names.add("sw" + (sw + 1) % n);
            names.add("sw" + (sw + n - 1) % n);
        } else if (!topo.isFabric()) {
            s.hosts().forEach(h -> names.add(h.name()));
        } else {
            FabricPlan plan = topo.plan();
            for (int p = 0; p < plan.ports(sw); p++) {
                int h = plan.hostAt(sw, p);
                names.add(h >= 0 ? s.hosts().get(h).name() : plan.switchName(plan.peerSwitch(sw, p)));
            }
        }
        return names;
    }

    static SchemeResult runOn(Testbed tb, Scenario s, String scheme, Progress progress) {
        // The switches' partitions may run on threads of their own: events are collected from all and
        // put in (time, switch) order after the run, each switch's own in the order it had them.
        List<SchemeResult.Pfcwd.Event> wdEvents = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int sw = 0; sw < tb.switches(); sw++) {
            int index = sw;
            tb.core(sw).pfcWatchdogListener(new org.pfcswitch.core.PfcWatchdogListener() {
                @Override
                public void onStorm(int port, int priority, long pausedNanos, long now) {
                    wdEvents.add(new SchemeResult.Pfcwd.Event("storm", index, port, priority, now, pausedNanos));
                }

                @Override
                public void onRestore(int port, int priority, long stormedNanos, long now) {
                    wdEvents.add(new SchemeResult.Pfcwd.Event("restore", index, port, priority, now, stormedNanos));
                }
            });
        }
        DeadlockDetector detector = s.deadlock() == null ? null
                : new DeadlockDetector(tb, switchNames(s), s.deadlock().checkNanos(), s.deadlock().persistNanos(), null);
        SplittableRandom seeds = new SplittableRandom(s.seed() ^ 0x5DEECE66DL);
        List<Traffic> traffic = new ArrayList<>();
        for (Scenario.TrafficSpec spec : s.traffic()) {
            Traffic t = spec.create();
            t.install(tb, seeds.split());
            traffic.add(t);
        }
        int ports = s.hosts().size();
        int[] report = s.reportPorts().stream().mapToInt(Integer::intValue).toArray();
        int samples = (int) ((s.durationNanos() + s.sampleNanos() - 1) / s.sampleNanos());
        long[] times = new long[samples];
        long[][] queue = new long[report.length][samples];
        boolean[][] paused = new boolean[report.length][samples];
        double[][] thr = new double[traffic.size()][samples];
        long[] lastBytes = new long[traffic.size()];
        long[] windowStart = new long[traffic.size()];
        long[] windowEnd = new long[traffic.size()];

        long prev = 0;
        for (int i = 0; i < samples; i++) {
            long t = Math.min(s.durationNanos(), (i + 1) * s.sampleNanos());
            if (prev < s.measureFromNanos() && s.measureFromNanos() <= t) {     // stop exactly at the window's edges
                tb.runUntil(s.measureFromNanos());
                receivedBytes(tb, traffic, windowStart);
            }
            if (prev < s.measureToNanos() && s.measureToNanos() <= t) {
                tb.runUntil(s.measureToNanos());
                receivedBytes(tb, traffic, windowEnd);
            }
            tb.runUntil(t);
            times[i] = t;
            for (int r = 0; r < report.length; r++) {
                int p = report[r];
                queue[r][i] = tb.coreOf(p).queuedBytes(tb.portOf(p));
                paused[r][i] = tb.host(p).isPaused(t);
            }
            long[] now = new long[traffic.size()];
            receivedBytes(tb, traffic, now);
            for (int k = 0; k < traffic.size(); k++) {
                thr[k][i] = (now[k] - lastBytes[k]) * 8e9 / (t - prev);
                lastBytes[k] = now[k];
            }
            prev = t;
            progress.at(t, s.durationNanos());
        }

        long end = tb.now();
        long[] pauses = new long[ports];
        long[] xoffEdges = new long[ports];
        long[] pausedNanos = new long[ports];
        long[] firstPause = new long[ports];
        long first = -1;
        long cnps = 0;
        for (int p = 0; p < ports; p++) {
            pauses[p] = tb.coreOf(p).pauseFramesSent(tb.portOf(p));
            for (int prio = 0; prio < 8; prio++) {        // lossless only: a DSH port pause also pauses the lossy ones
                xoffEdges[p] += s.mmu().isLossless(prio) ? tb.coreOf(p).mmu().flowControl().xoffCount(tb.portOf(p), prio) : 0;
            }
            RoceHost h = tb.host(p);
            boolean holdsNothing = h.ignoresPfc() || h.cloneSource() >= 0 && h.clonePfc() == ClonePfc.IGNORE;   // a PAUSE stops nothing there
            pausedNanos[p] = holdsNothing ? 0 : h.pausedNanos(end);
            firstPause[p] = h.firstPauseNanos();
            if (firstPause[p] >= 0 && (first < 0 || firstPause[p] < first)) {
                first = firstPause[p];
            }
            cnps += h.cnpsSent();
        }
        long[] fabricPauses = new long[tb.switches() > 1 ? tb.switches() : 0];
        long violations = 0;
        long violationsIgnoring = 0;
        long violationsObeying = 0;
        long drops = 0;
        long maxBuffer = 0;
        long storms = 0;
        long restorations = 0;
        long wdDrops = 0;
        for (int sw = 0; sw < tb.switches(); sw++) {
            SwitchCounters c = tb.core(sw).counters();
            storms += sumOf(c.pfcwdStorms);
            restorations += sumOf(c.pfcwdRestorations);
            wdDrops += sumOf(c.pfcwdDrops) + sumOf(c.pfcwdIngressDrops);
            for (int port = 0; port < tb.core(sw).ports(); port++) {
                if (!tb.isHostPort(sw, port)) {
                    fabricPauses[sw] += tb.core(sw).pauseFramesSent(port);
                }
            }
            violations += tb.core(sw).mmu().losslessViolations();
            violationsIgnoring += tb.core(sw).losslessViolations(true);
            violationsObeying += tb.core(sw).losslessViolations(false);
            drops += c.totalDrops();
            maxBuffer = Math.max(maxBuffer, c.maxBufferBytes());
        }
        double window = (s.measureToNanos() - s.measureFromNanos()) / 1e9;
        double[] throughput = new double[traffic.size()];
        for (int k = 0; k < traffic.size(); k++) {
            throughput[k] = (windowEnd[k] - windowStart[k]) * 8 / window;
        }
        FlowRecords rec = tb.records();
        long[] fct = completedFcts(rec, 0, Long.MAX_VALUE);
        int[] everyFlow = new int[rec.count()];
        for (int f = 0; f < everyFlow.length; f++) {
            everyFlow[f] = f;
        }
        List<SchemeResult.Bin> bins = bins(rec, everyFlow, s.fctBinEdges(), end);
        List<SchemeResult.TrafficBins> byTraffic = new ArrayList<>();
        for (Traffic t : traffic) {
            int[] ids = t.flowIds().stream().mapToInt(Integer::intValue).toArray();
            byTraffic.add(new SchemeResult.TrafficBins(t.name(), bins(rec, ids, s.fctBinEdges(), end)));
        }
        return new SchemeResult(scheme, pauses, xoffEdges, fabricPauses, pausedNanos, first, firstPause, throughput, fct.length,
                started(rec, end), percentile(fct, 0.50), percentile(fct, 0.99), bins, byTraffic, violations,
                violationsObeying, violationsIgnoring, drops, maxBuffer, cnps, tb.loop().eventsDispatched(),
                new SchemeResult.Series(times, report, queue, paused, thr), rec,
                s.pfcwd() == null ? null : new SchemeResult.Pfcwd(storms, restorations, wdDrops, inSwitchOrder(wdEvents)),
                detector == null ? null : new SchemeResult.Deadlock(detector.checkNanos(), detector.persistNanos(),
                        detector.checks(), detector.reports()),
                shadows(tb, s), tb.peakFrameBytes());
    }

    /** {@code events} by time, then switch; a switch's events at one instant in the order it had them. */
    private static List<SchemeResult.Pfcwd.Event> inSwitchOrder(List<SchemeResult.Pfcwd.Event> events) {
        List<SchemeResult.Pfcwd.Event> sorted = new ArrayList<>(events);
        sorted.sort(java.util.Comparator.comparingLong(SchemeResult.Pfcwd.Event::atNanos)
                .thenComparingInt(SchemeResult.Pfcwd.Event::switchIndex));
        return sorted;
    }

    /** The active scheme's and every shadow's decisions summed over the switches, or null without shadows. */
    private static SchemeResult.Shadows shadows(Testbed tb, Scenario s) {
        ShadowMmus first = tb.core(0).shadows();
        if (first == null) {
            return null;
        }
        SchemeCounters[] active = new SchemeCounters[tb.switches()];
        SchemeCounters[][] shadow = new SchemeCounters[first.count()][tb.switches()];
        for (int sw = 0; sw < tb.switches(); sw++) {
            active[sw] = SchemeCounters.of(tb.core(sw).mmu(), tb.core(sw).counters().maxBufferBytes());
            SchemeCounters[] of = SchemeCounters.ofShadows(tb.core(sw).shadows());
            for (int i = 0; i < of.length; i++) {
                shadow[i][sw] = of[i];
            }
        }
        List<SchemeResult.Decisions> shadows = new ArrayList<>();
        for (SchemeCounters[] perSwitch : shadow) {
            shadows.add(decisions(perSwitch, s.mmu()));
        }
        return new SchemeResult.Shadows(decisions(active, s.mmu()), shadows);
    }

    private static SchemeResult.Decisions decisions(SchemeCounters[] perSwitch, MmuConfig mmu) {
        long xoffs = 0;
        long drops = 0;
        long lossless = 0;
        long max = 0;
        for (SchemeCounters c : perSwitch) {
            for (int port = 0; port < c.ports; port++) {
                for (int prio = 0; prio < SchemeCounters.PRIORITIES; prio++) {
                    xoffs += mmu.isLossless(prio) ? c.xoff(port, prio) : 0;     // as xoffEdges: lossless only
                }
            }
            drops += c.totalDrops();
            lossless += c.losslessDrops;
            max = Math.max(max, c.maxBufferBytes);
        }
        return new SchemeResult.Decisions(perSwitch[0].scheme, xoffs, drops, lossless, max);
    }

    /** The testbed for {@code s} with {@code scheme}; public so speed probes and tests can drive it themselves. */
    public static Testbed build(Scenario s, String scheme) {
        return build(s, scheme, List.of());
    }

    /** The same with shadow schemes {@code shadows} on every switch. */
    public static Testbed build(Scenario s, String scheme, List<String> shadows) {
        return build(s, scheme, shadows, 1);
    }

    /**
     * The same on {@code threads} threads (at most one per switch), with a partition of the event
     * loop per switch ({@link Testbed.Builder#partitionPerSwitch}) unless a traffic adds flows as
     * the run goes.
     */
    public static Testbed build(Scenario s, String scheme, List<String> shadows, int threads) {
        return build(s, scheme, shadows, threads, s.traffic().stream().noneMatch(Scenario.TrafficSpec::addsFlowsAsItRuns));
    }

    /** The same with a partition per switch or one per thread. */
    static Testbed build(Scenario s, String scheme, List<String> shadows, int threads, boolean partitionPerSwitch) {
        Scenario.Topology topo = s.topology();
        Testbed.Builder b = (topo.isFabric()
                ? Testbed.fabric(topo.plan())
                : topo.isRing()
                ? Testbed.ring(topo.ringSwitches(), topo.ringOneWay()).fabricLinks(topo.fabricBps(), topo.fabricDelayNanos())
                : Testbed.singleSwitch(s.hosts().size())).seed(s.seed()).payloadMtu(s.payloadMtu())
                .dcqcn(s.dcqcn()).mmu(s.model().schemeDefaults().apply(s.mmu()).toBuilder().scheme(scheme)).core(c -> c.pauseQuanta(s.pauseQuanta()).pfcwd(s.pfcwd()).shadows(shadows))
                .switchModel(s.model().switches()).hostModel(s.model().hosts())
                .headroomQueues(s.model().headroom()).hostAddresses(s.model().addresses()).threads(threads)
                .partitionPerSwitch(partitionPerSwitch);
        for (int i = 0; i < s.hosts().size(); i++) {
            Scenario.Host h = s.hosts().get(i);
            b.link(i, h.rateBps(), h.delayNanos());
            if (h.cloneOf() >= 0) {
                b.cloneOf(i, h.cloneOf(), h.clonePfc());
            }
            b.ignoresPfc(i, h.ignoresPfc());
        }
        return b.build();
    }

    private static long sumOf(long[] values) {
        long n = 0;
        for (long v : values) {
            n += v;
        }
        return n;
    }

    private static void receivedBytes(Testbed tb, List<Traffic> traffic, long[] into) {
        FlowRecords rec = tb.records();
        for (int k = 0; k < traffic.size(); k++) {
            long sum = 0;
            if (traffic.get(k).flowIds() instanceof IntIds ids) {     // a flow list's: no Integer per id and sample
                for (int i = 0; i < ids.size(); i++) {
                    sum += rec.receivedPayloadBytes(ids.id(i));
                }
            } else {
                for (int id : traffic.get(k).flowIds()) {
                    sum += rec.receivedPayloadBytes(id);
                }
            }
            into[k] = sum;
        }
    }

    private static int started(FlowRecords rec, long end) {
        int n = 0;
        for (int f = 0; f < rec.count(); f++) {
            n += rec.startNanos(f) <= end ? 1 : 0;
        }
        return n;
    }

    private static long[] completedFcts(FlowRecords rec, long low, long high) {
        long[] v = new long[rec.count()];
        int n = 0;
        for (int f = 0; f < rec.count(); f++) {
            if (rec.completed(f) && rec.sizeBytes(f) >= low && rec.sizeBytes(f) < high) {
                v[n++] = rec.fctNanos(f);
            }
        }
        v = Arrays.copyOf(v, n);
        Arrays.sort(v);
        return v;
    }

    /** Size bins with the given inner edges (0 and "no limit" added) over the flows {@code ids} started by {@code end}. */
    public static List<SchemeResult.Bin> bins(FlowRecords rec, int[] ids, List<Long> innerEdges, long end) {
        List<Long> edges = new ArrayList<>();
        edges.add(0L);
        edges.addAll(innerEdges);
        edges.add(Long.MAX_VALUE);
        List<SchemeResult.Bin> bins = new ArrayList<>();
        for (int b = 0; b + 1 < edges.size(); b++) {
            bins.add(bin(rec, ids, edges.get(b), edges.get(b + 1), end));
        }
        return bins;
    }

    private static SchemeResult.Bin bin(FlowRecords rec, int[] ids, long low, long high, long end) {
        long[] fct = new long[ids.length];
        double[] slow = new double[ids.length];
        int n = 0;
        int started = 0;
        double sum = 0;
        for (int f : ids) {
            if (rec.sizeBytes(f) < low || rec.sizeBytes(f) >= high || rec.startNanos(f) > end) {
                continue;
            }
            started++;
            if (rec.completed(f)) {
                fct[n] = rec.fctNanos(f);
                slow[n++] = rec.slowdown(f);
                sum += rec.slowdown(f);
            }
        }
        fct = Arrays.copyOf(fct, n);
        slow = Arrays.copyOf(slow, n);
        Arrays.sort(fct);
        Arrays.sort(slow);
        return new SchemeResult.Bin(low, high, n, started, percentile(fct, 0.50), percentile(fct, 0.99),
                n == 0 ? Double.NaN : sum / n, percentile(slow, 0.95), percentile(slow, 0.99));
    }

    /** Nearest-rank percentile of sorted values, or NaN when there are none. */
    static double percentile(double[] sorted, double q) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }

    /** Nearest-rank percentile of sorted values, or -1 when there are none. */
    static long percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return -1;
        }
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))];
    }
}

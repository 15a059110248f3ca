package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

import org.pfcswitch.cli.bench.OvsDpdkPeer;
import org.pfcswitch.cli.bench.ProcStat;
import org.pfcswitch.cli.bench.TestpmdPeer;
import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.codec.PriorityClassifier;
import org.pfcswitch.dataplane.Frames;
import org.pfcswitch.dataplane.Hugepages;
import org.pfcswitch.dataplane.PipelineBench;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.MbufLayout;
import org.pfcswitch.dpdk.Mempool;
import org.pfcswitch.mmu.MmuConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "bench",
        mixinStandardHelpOptions = true,
        description = "Measurements against a reference, in the same run. Run 'pfcswitch bench fwd --help'.",
        subcommands = BenchCommand.Fwd.class)
final class BenchCommand {

    @Command(name = "fwd",
            mixinStandardHelpOptions = true,
            description = {
                "Forwarding rate of pfcswitch's poll loop against dpdk-testpmd --forward-mode=mac and, with --peer "
                        + "ovs, Open vSwitch with DPDK: on the same two vdevs, the same worker cores, burst 32 and the same "
                        + "memory mode, alternating rounds in one run (median of rounds).",
                "",
                "Without --pipeline the Java side is the bare forwarder, DPDK's l2fwd in Java: rx burst, both MACs "
                        + "rewritten as testpmd's mac mode does, tx burst to the paired port. It is no switch (no "
                        + "classification, no table, no MMU): it shows what the Java FFM poll loop itself costs, the floor "
                        + "under the pipeline's figure.",
                "",
                "--pipeline measures the live switch instead: the SwitchCore on its CoreWorker poll loop, as "
                        + "'pfcswitch run' runs it (full pfc-codec parse, classification, learning and forwarding lookup, dt "
                        + "admission into the MMU and release at dequeue, egress queue, strict-priority scheduler, PFC XOFF/XON "
                        + "state, ECN check, TX buffers and bulk frees), with the shaper off (CoreConfig.shaped = false: a "
                        + "frame leaves as soon as its queue may send). Only the egress MAC rewrite is bench code.",
                "",
                "Devices. ring (the default without a peer): two looped-back net_ring vdevs, 64 frames circulate (32 "
                        + "injected per port, as testpmd's --tx-first); rx and tx only move pointers. null (the default with "
                        + "--peer ovs): two net_null vdevs, as a NIC port: rx allocates every frame from the pool and tx frees "
                        + "it (testpmd likewise), which also shows what the per-lcore pool cache (--pool-cache; the worker "
                        + "registers as an EAL thread) is worth. Each port's frames go out of the other port.",
                "",
                "Peers. testpmd is the I/O limit: one process per round, --forward-mode=mac, one forwarding lcore per "
                        + "worker core (with 2, each serves one port). --peer ovs adds what a lab would run instead: "
                        + "ovs-vswitchd-dpdk (Debian's openvswitch-switch-dpdk, OVS 3.1 on DPDK 22.11; installed with apt-get "
                        + "on first use when root, its services left stopped) with its own ovsdb-server on a fresh database in "
                        + "a temporary directory; one bridge (datapath_type=netdev) with two type=dpdk ports on the same "
                        + "net_null vdevs (dpdk-devargs=net_nullK,size=BYTES), one PMD thread per worker core (pmd-cpu-mask; "
                        + "port 0's rx queue on the first core, port 1's on the second), a mempool per port as ours. OVS's "
                        + "figure is its L2 learning bridge, the fair peer of a learning L2 switch: the NORMAL action with the "
                        + "MAC table seeded by 'ovs-appctl fdb/add' (one station behind each port, so nothing is flooded). A "
                        + "two-rule cross-connect (in_port=n0,actions=output:n1 and back: no table at all) is measured after it "
                        + "in the same round and shown beside it. OVS's rate comes from its own port counters (tx packets of "
                        + "both ports, ovs-ofctl dump-ports) over a window as long as ours, after the same settle time. Between "
                        + "its rounds OVS has no ports, so its PMD threads sleep while the other sides run. Every OVS process "
                        + "is stopped at the end, also on an error or a signal.",
                "",
                "Same frames, same decision. net_null never writes frame data, and OVS's fresh pools hand out "
                        + "zero-filled frames (both MACs 00:00:00:00:00:00, EtherType 0). An ingress rule in OVS writes the "
                        + "station MACs (02:00:00:00:00:01 -> :02 on port 0, back on port 1) before NORMAL; its mbufs return to "
                        + "their port's pool still carrying them, so in the measured window OVS's datapath flow is the bridge's "
                        + "decision alone (in_port(n0),eth(src=:01,dst=:02) -> n1; frames that still needed the write are "
                        + "counted: ovsRewrittenFrames). With --peer ovs pfcswitch's pools hold the very same frames (those "
                        + "MACs, EtherType 0, zero payload; without a peer IPv4/UDP with DSCP 26), its static MACs send each to "
                        + "the other port, and the pipeline writes no MACs on egress.",
                "",
                "--peer ovs with --devices ring is refused: OVS attaches net_ring vdevs, but its PMD threads transmit "
                        + "on tx queues of their own (queue 0 is its main thread's) while a net_ring vdev loops queue k back to "
                        + "rx queue k only, and NORMAL never sends a frame back out of the port it came in on, so a looped-back "
                        + "ring would need extra rx queues and a MAC rewrite on every hop: a set-up no lab runs, and no longer "
                        + "the same work on both sides.",
                "",
                "Workers. --workers 1,2 measures each count: N worker cores for pfcswitch, N forwarding lcores for "
                        + "testpmd, N PMD cores for OVS. The cores are the last N CPUs (or from --cpu on); pfcswitch's other "
                        + "threads (main, JIT compilers, GC), testpmd's main lcore, OVS's non-PMD threads and the OS get the "
                        + "first CPU no worker has, so on a "
                        + "2-CPU machine 1 worker has a core to itself, and 2 workers share both cores with the OS and the main "
                        + "thread. pfcswitch's ports are dealt out to its workers as run's workers: N does (port p to worker "
                        + "p mod N), so with 2 workers every frame of the bench crosses from one worker to the other on the "
                        + "rings between them, the switch's own price for a second core; the bare forwarder is split the "
                        + "same way. mppsPerWorker and ratioToOvs compare per core (ours per "
                        + "worker / OVS per PMD core); scaling is the Mpps at N over the Mpps at 1 worker.",
                "",
                "One forwarder serves all rounds of a worker count: it is paused (parked, its TX buffers sent) while "
                        + "the peers run and resumed for its next round, so its JIT-compiled loop is kept. It warms up once for "
                        + "3 s (with --devices null: once per frame size); each round of every side then has 2 unmeasured "
                        + "seconds before its measured window.",
                "",
                "Memory: hugepages when they can be reserved (as root the command reserves what it needs and restores "
                        + "/proc/sys/vm/nr_hugepages afterwards, also on an error), else --no-huge; OVS-DPDK needs hugepages, "
                        + "so --peer ovs fails without them. Also reported: GC count and heap bytes the worker allocated in the "
                        + "measured windows, the load average before and after, the CPU time the hypervisor stole, and the "
                        + "share of their cores' time each side's forwarding threads actually ran in their windows (below 100 "
                        + "%%: the OS or other work took the rest).",
                "",
                "Needs DPDK with dpdk-testpmd (package dpdk-dev) and 2 CPUs; --peer ovs needs root (hugepages, and "
                        + "the install on first use). Takes about 3 + sizes x workers x rounds x (2 x seconds + 6) seconds, "
                        + "plus 2 x (seconds + 2) + 1 per round with --peer ovs."
            },
            footer = {"", "Examples:",
                "  ./pfcswitch bench fwd",
                "  ./pfcswitch bench fwd --json --seconds 5 --rounds 5",
                "  ./pfcswitch bench fwd --memory no-huge --sizes 64",
                "  ./pfcswitch bench fwd --pipeline --json",
                "  ./pfcswitch bench fwd --pipeline --devices null --pool-cache 0",
                "  ./pfcswitch bench fwd --pipeline --peer ovs --workers 1,2 --json",
                "  ./pfcswitch bench fwd --devices null --peer ovs"})
    static final class Fwd implements Callable<Integer> {

        @Option(names = "--json", description = "One JSON object per (workers, frame size): workers, frameBytes, mpps, mppsPerWorker, "
                + "scaling, testpmdMpps, ratioToTestpmd, ovsMpps, ratioToOvs, ovsCrossConnectMpps, the rounds, CPU shares, load.")
        boolean json;

        @Option(names = "--seconds", defaultValue = "3", paramLabel = "S", description = "Length of each measured round (default ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--rounds", defaultValue = "3", paramLabel = "N", description = "Rounds per side, worker count and frame size (default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--sizes", defaultValue = "64,1024", split = ",", paramLabel = "BYTES", description = "Frame sizes (default ${DEFAULT-VALUE}).")
        int[] sizes;

        @Option(names = "--workers", defaultValue = "1", split = ",", paramLabel = "N", description = "Worker counts to measure, "
                + "e.g. 1,2 (default ${DEFAULT-VALUE}): N cores for each side, pfcswitch's ports dealt out to its N workers.")
        int[] workers;

        @Option(names = "--peer", defaultValue = "none", paramLabel = "NAME", description = "ovs: also measure Open vSwitch with "
                + "DPDK (NORMAL bridge with its MAC table seeded, and a cross-connect) on the same null devices, frames and cores. "
                + "none (default): testpmd only.")
        String peer;

        @Option(names = "--memory", defaultValue = "auto", paramLabel = "MODE", description = "auto, hugepages or no-huge (default ${DEFAULT-VALUE}).")
        String memory;

        @Option(names = "--cpu", defaultValue = "-1", paramLabel = "CPU", description = "The first worker core; N workers use "
                + "CPU .. CPU+N-1 (default: the last N CPUs).")
        int cpu;

        @Option(names = "--testpmd", defaultValue = "dpdk-testpmd", paramLabel = "PATH", description = "The testpmd binary (default ${DEFAULT-VALUE}).")
        String testpmd;

        @Option(names = "--pipeline", description = "Measure the live switch pipeline (the SwitchCore on its CoreWorker poll "
                + "loop, as 'pfcswitch run' runs it: full parse, forwarding lookup, dt admission and release, egress queue, "
                + "scheduler, PFC state, ECN check; shaper off) instead of the bare L2 forwarder.")
        boolean pipeline;

        @Option(names = "--devices", paramLabel = "KIND", description = "ring: two looped-back net_ring vdevs, 64 frames "
                + "circulate, rx and tx only move pointers (the default without --peer). null: two net_null vdevs, as a NIC port: "
                + "rx allocates every frame from the pool, tx frees it (the default with --peer ovs, which needs it).")
        String devices;

        @Option(names = "--pool-cache", defaultValue = "256", paramLabel = "N", description = "Per-lcore cache of pfcswitch's "
                + "mbuf pools (0 = none; the worker registers as an EAL thread either way). testpmd and OVS keep their defaults. "
                + "Default ${DEFAULT-VALUE}.")
        int poolCache;

        @Spec
        CommandSpec spec;

        private static final long H0 = 0x02_00_00_00_00_01L;
        private static final long H1 = 0x02_00_00_00_00_02L;
        private static final int MEMORY_MB = 256;
        /** OVS's DPDK memory: two per-port pools of about 25 000 mbufs, and room for 2000-byte frames. */
        private static final int OVS_MEMORY_MB = 512;

        private final AtomicBoolean interrupted = new AtomicBoolean();
        private volatile OvsDpdkPeer ovs;

        /**
         * One (workers, frame size): per side one value per round (NaN where not measured). A null
         * {@code unsupported} means pfcswitch was measured; otherwise it says why not.
         */
        record Row(int workers, String workerCpus, int frameBytes, String unsupported,
                   double[] javaRounds, double[] cpuShares, double[] testpmdRounds, double[] testpmdCpuShares,
                   double[] ovsRounds, double[] ovsCrossRounds, double[] ovsCpuShares, long ovsRewritten,
                   long gcCount, long heapBytes) {
            double mpps() { return median(javaRounds); }
            double testpmdMpps() { return median(testpmdRounds); }
            double ovsMpps() { return median(ovsRounds); }
        }

        /** Which cores a worker count uses. */
        record Layout(int workers, int[] workerCpus, int mainCpu) {
            String cpuList() {
                return Arrays.stream(workerCpus).mapToObj(Integer::toString).collect(Collectors.joining(","));
            }
        }

        @Override
        public Integer call() throws Exception {
            PrintWriter out = spec.commandLine().getOut();
            PrintWriter err = spec.commandLine().getErr();
            if (seconds < 1 || rounds < 1 || sizes.length == 0) {
                throw new IllegalArgumentException("--seconds and --rounds must be at least 1");
            }
            for (int s : sizes) {
                if (s < 60 || s > 2000) {
                    throw new IllegalArgumentException("frame sizes must be 60..2000 bytes, got " + s);
                }
            }
            boolean withOvs = switch (peer.toLowerCase(Locale.ROOT)) {
                case "ovs" -> true;
                case "none" -> false;
                default -> throw new IllegalArgumentException("--peer must be ovs or none, got '" + peer + "'");
            };
            devices = devices == null ? (withOvs ? "null" : "ring") : devices.toLowerCase(Locale.ROOT);
            boolean nulls = nullDevices();
            if (withOvs && !nulls) {
                throw new IllegalArgumentException("--peer ovs runs on --devices null only: OVS's PMD threads send on tx queues that a"
                        + " looped-back net_ring does not bring back, and its NORMAL bridge never returns a frame out of its"
                        + " ingress port (see --help)");
            }
            if (poolCache < 0 || poolCache > 512) {
                throw new IllegalArgumentException("--pool-cache must be 0..512, got " + poolCache);
            }
            int cpus = Runtime.getRuntime().availableProcessors();
            if (cpus < 2) {
                throw new IllegalStateException("bench fwd needs 2 CPUs (one for the worker, one for the rest)");
            }
            List<Layout> layouts = new ArrayList<>();
            for (int n : Arrays.stream(workers).distinct().toArray()) {
                layouts.add(layout(n, cpus));
            }
            if (withOvs) {
                if (memory.equalsIgnoreCase("no-huge")) {
                    throw new IllegalArgumentException("--peer ovs needs hugepages: OVS-DPDK runs with --in-memory, which cannot use"
                            + " 4 KiB pages (--memory no-huge)");
                }
                OvsDpdkPeer.ensureInstalled(err);
            }
            Signals.onTermination(name -> interrupted.set(true));
            long originalPages = Hugepages.reserved();
            Thread restore = new Thread(() -> {
                stopOvs();
                restorePages(originalPages);
            });
            Runtime.getRuntime().addShutdownHook(restore);
            double[] load0 = ProcStat.loadAverage();
            ProcStat.CpuTimes cpu0 = ProcStat.cpuTimes();
            try {
                boolean huge = chooseMemory(originalPages, withOvs, err);
                if (withOvs && !huge) {
                    throw new IllegalStateException("--peer ovs needs hugepages, and " + (2 * MEMORY_MB + OVS_MEMORY_MB + 64)
                            + " MiB of them could not be reserved (reserving needs root)");
                }
                int mainCpu = fewestWorkers(layouts).mainCpu();
                TestpmdPeer reference = new TestpmdPeer(testpmd, memoryArgs(huge), nulls, interrupted::get);
                if (withOvs) {
                    ovs = OvsDpdkPeer.start(mainCpu, OVS_MEMORY_MB);
                }
                List<Row> rows = measure(huge, layouts, reference, err);
                stopOvs();
                double[] load1 = ProcStat.loadAverage();
                ProcStat.CpuTimes cpu1 = ProcStat.cpuTimes();
                print(out, rows, huge, withOvs, new Load(load0, load1, cpu1.stealPercentSince(cpu0), cpu1.busyPercentSince(cpu0), cpus));
                return interrupted.get() ? 1 : 0;
            } finally {
                stopOvs();
                restorePages(originalPages);
                Runtime.getRuntime().removeShutdownHook(restore);
            }
        }

        /** The machine while the bench ran. */
        record Load(double[] before, double[] after, double stealPercent, double busyPercent, int cpus) {}

        private Layout layout(int n, int cpus) {
            if (n < 1) {
                throw new IllegalArgumentException("--workers must be at least 1, got " + n);
            }
            int first = cpu >= 0 ? cpu : cpus - n;
            if (first < 0 || first + n > cpus) {
                throw new IllegalArgumentException(n + " workers from CPU " + Math.max(first, 0) + " do not fit in this machine's "
                        + cpus + " CPUs");
            }
            int[] w = new int[n];
            for (int i = 0; i < n; i++) {
                w[i] = first + i;
            }
            int main = 0;
            while (main < cpus && main >= first && main < first + n) {
                main++;
            }
            return new Layout(n, w, main < cpus ? main : first);  // every CPU a worker's: the main thread shares the first
        }

        /** The layout whose main CPU this JVM's EAL main thread and OVS's main thread use for the whole run. */
        private static Layout fewestWorkers(List<Layout> layouts) {
            return layouts.stream().min(java.util.Comparator.comparingInt(Layout::workers)).orElseThrow();
        }

        private void stopOvs() {
            OvsDpdkPeer o = ovs;
            if (o != null) {
                o.close();
            }
        }

        private boolean reservedByUs;

        /** Hugepages if enough are free or can be reserved now; otherwise 4 KiB pages. */
        private boolean chooseMemory(long originalPages, boolean withOvs, PrintWriter err) {
            String mode = memory.toLowerCase(Locale.ROOT);
            if (mode.equals("no-huge")) {
                return false;
            }
            if (!mode.equals("auto") && !mode.equals("hugepages")) {
                throw new IllegalArgumentException("--memory must be auto, hugepages or no-huge, got '" + memory + "'");
            }
            // this JVM and testpmd, each -m 256, and OVS's socket memory (OVS runs for the whole run, testpmd per round)
            long needMb = 2L * MEMORY_MB + 64 + (withOvs ? OVS_MEMORY_MB : 0);
            if (Hugepages.freeMb() < needMb && originalPages >= 0) {
                long pages = originalPages + (needMb - Hugepages.freeMb()) * 1024 / Hugepages.pageKb() + 1;
                reservedByUs = Hugepages.reserve(pages);
            }
            boolean ok = Hugepages.freeMb() >= needMb;
            if (!ok && mode.equals("hugepages")) {
                throw new IllegalStateException("--memory hugepages: only " + Hugepages.freeMb() + " MiB of hugepages free, "
                        + needMb + " MiB needed (reserving needs root)");
            }
            if (!ok && !withOvs) {
                err.println("bench fwd: hugepages could not be reserved; measuring with --no-huge (both sides)");
            }
            return ok;
        }

        private synchronized void restorePages(long originalPages) {
            if (reservedByUs && originalPages >= 0) {
                Hugepages.reserve(originalPages);
                reservedByUs = false;
            }
        }

        private List<String> memoryArgs(boolean huge) {
            return huge ? List.of("--in-memory", "-m", Integer.toString(MEMORY_MB))
                    : List.of("--no-huge", "-m", Integer.toString(MEMORY_MB), "--no-shconf");
        }

        /** What a round measures: our loop, paused while the peers run. */
        interface Subject {
            void pause();

            void resume();

            long received();

            /** The worker threads: their CPU time and heap allocation are summed. */
            long[] threadIds();

            Throwable failure();

            void stop() throws Exception;
        }

        /** A started subject, or why the worker count cannot be run (then {@code subject} is null). */
        record Started(Subject subject, String unsupported) {}

        private boolean nullDevices() {
            if (!devices.equals("ring") && !devices.equals("null")) {
                throw new IllegalArgumentException("--devices must be ring or null, got '" + devices + "'");
            }
            return devices.equals("null");
        }

        /**
         * The frame each port of a null device hands out: IPv4/UDP with DSCP 26 on its own, or with
         * OVS beside it, what OVS sees: the two station MACs, EtherType 0 and zeros (see --help).
         */
        private byte[] nullFrame(long dst, long src, int size, int seed) {
            if (ovs == null) {
                return Frames.udp(dst, src, 26, size, seed);
            }
            byte[] f = new byte[size];
            for (int i = 0; i < 6; i++) {
                f[i] = (byte) (dst >>> (40 - 8 * i));
                f[6 + i] = (byte) (src >>> (40 - 8 * i));
            }
            return f;
        }

        private List<Row> measure(boolean huge, List<Layout> layouts, TestpmdPeer reference, PrintWriter err) throws Exception {
            boolean nulls = nullDevices();
            List<String> eal = new ArrayList<>(List.of("--lcores=0@" + fewestWorkers(layouts).mainCpu()));
            eal.addAll(memoryArgs(huge));
            eal.addAll(List.of("--no-pci", "--no-telemetry", "--log-level=*:warning"));
            if (nulls) {
                for (int k = 0; k < sizes.length; k++) {       // net_null's frame size is fixed per device
                    eal.add("--vdev=net_null" + 2 * k + ",size=" + sizes[k]);
                    eal.add("--vdev=net_null" + (2 * k + 1) + ",size=" + sizes[k]);
                }
            } else {
                eal.addAll(List.of("--vdev=net_ring0", "--vdev=net_ring1"));
            }
            Dpdk.guard(() -> Eal.init(eal.toArray(String[]::new)));
            confineJvm(fewestWorkers(layouts).mainCpu(), err);
            List<Row> rows = new ArrayList<>();
            try (Arena arena = Arena.ofShared()) {
                List<Mempool> pools = new ArrayList<>();
                if (nulls) {
                    for (int k = 0; k < sizes.length && !interrupted.get(); k++) {
                        // Each port's rx allocates from a pool of its own whose every mbuf holds that
                        // port's frame; tx frees a frame into the pool it came from.
                        Mempool a = Mempool.create(arena, "bench_a" + k, 4095, poolCache, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
                        Mempool b = Mempool.create(arena, "bench_b" + k, 4095, poolCache, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
                        pools.add(a);
                        pools.add(b);
                        Frames.fill(a, nullFrame(H1, H0, sizes[k], 1));
                        Frames.fill(b, nullFrame(H0, H1, sizes[k], 2));
                        EthPort p0 = EthPort.byName("net_null" + 2 * k);
                        EthPort p1 = EthPort.byName("net_null" + (2 * k + 1));
                        for (Layout layout : layouts) {
                            if (interrupted.get()) {
                                break;
                            }
                            setUp(p0, a, layout.workers());
                            setUp(p1, b, layout.workers());
                            // Frames from port 0 leave port 1 unchanged in content (H0 -> H1), and back;
                            // with OVS beside it the pipeline writes nothing, as OVS's datapath does not.
                            long[] egress = ovs != null && pipeline ? null : new long[] {H0, H1, H1, H0};
                            Started started = start(p0, p1, a, layout, egress);
                            try {
                                rows.add(measureSize(sizes[k], layout, started, null, p0, p1, reference, true, err));
                            } finally {
                                if (started.subject() != null) {
                                    started.subject().stop();
                                }
                                p0.stop();
                                p1.stop();
                            }
                        }
                    }
                } else {
                    Mempool pool = Mempool.create(arena, "bench_pkts", 8191, poolCache, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
                    pools.add(pool);
                    EthPort p0 = EthPort.byName("net_ring0");
                    EthPort p1 = EthPort.byName("net_ring1");
                    for (Layout layout : layouts) {
                        if (interrupted.get()) {
                            break;
                        }
                        setUp(p0, pool, layout.workers());
                        setUp(p1, pool, layout.workers());
                        // One subject per worker count, paused while the peers run: its compiled loop
                        // survives from round to round, as a switch's loop does in service. Egress
                        // rewrites MACs so that each looped-back port answers like a host.
                        Started started = start(p0, p1, pool, layout, new long[] {H1, H0, H0, H1});
                        try {
                            boolean first = true;              // the JIT warm-up runs once, with the first size's frames
                            for (int size : sizes) {
                                if (interrupted.get()) {
                                    break;
                                }
                                rows.add(measureSize(size, layout, started, pool, p0, p1, reference, first, err));
                                first = false;
                            }
                        } finally {
                            if (started.subject() != null) {
                                started.subject().stop();
                            }
                            p0.stop();
                            p1.stop();
                        }
                    }
                }
                for (Mempool pool : pools) {
                    if (pool.inUseCount() != 0) {
                        err.println("bench fwd: " + pool.inUseCount() + " mbufs of " + pool.name() + " not returned to the pool");
                    }
                }
            }
            Eal.cleanup();
            return rows;
        }

        /**
         * Puts every thread of this JVM (JIT compilers, GC, the main thread) on the main CPU, as
         * OVS's non-PMD threads are on its lcore mask: the workers, started later, pin themselves to
         * their cores and so have them to themselves as far as this process is concerned.
         */
        private static void confineJvm(int mainCpu, PrintWriter err) {
            try {
                Process p = new ProcessBuilder("taskset", "-a", "-p", "-c", Integer.toString(mainCpu),
                        Long.toString(ProcessHandle.current().pid())).redirectErrorStream(true).start();
                String output = new String(p.getInputStream().readAllBytes());
                if (p.waitFor() != 0) {
                    err.println("bench fwd: could not keep the JVM's own threads on CPU " + mainCpu + ": " + output.strip());
                }
            } catch (Exception e) {
                err.println("bench fwd: could not keep the JVM's own threads on CPU " + mainCpu + " (taskset: " + e.getMessage() + ")");
            }
        }

        /** Configures a (stopped) port with the queues the pipeline wants for this many workers, and starts it. */
        private static void setUp(EthPort p, Mempool pool, int workers) {
            int rxq = PipelineBench.rxQueuesPerPort(workers);
            int txq = PipelineBench.txQueuesPerPort(workers);
            p.configure(rxq, txq);
            for (int q = 0; q < rxq; q++) {
                p.rxQueueSetup(q, 1024, pool);
            }
            for (int q = 0; q < txq; q++) {
                p.txQueueSetup(q, 1024);
            }
            p.start();
        }

        /** The bare forwarder or the live pipeline on ports 0 and 1, paused; or why it cannot run this many workers. */
        private Started start(EthPort p0, EthPort p1, Mempool pool, Layout layout, long[] egressMacs) {
            PriorityClassifier classifier = PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0);
            PipelineBench b;
            try {
                b = pipeline
                        ? PipelineBench.start(pipelineConfig(classifier), new EthPort[] {p0, p1}, pool, egressMacs, layout.workers(),
                                layout.cpuList(), true, Arena.global())
                        : PipelineBench.startBareForwarder(new EthPort[] {p0, p1}, egressMacs, layout.workers(), layout.cpuList(),
                                true, Arena.global());
            } catch (IllegalArgumentException e) {
                return new Started(null, e.getMessage());
            }
            return new Started(new Subject() {
                public void pause() { b.pause(); }
                public void resume() { b.resume(); }
                public long received() { return b.framesReceived(); }
                public long[] threadIds() { return b.threads().stream().mapToLong(Thread::threadId).toArray(); }
                public Throwable failure() { return b.failure(); }
                public void stop() throws Exception { b.stop(); }
            }, null);
        }

        /**
         * The pipeline's switch: 2 ports of 100 Gb/s (1 us cables), dt over 16 MiB, priority 3
         * lossless with PFC, DSCP 26 -> 3, static MACs H0 -> 0 and H1 -> 1, learning on, and the
         * shaper off ({@link CoreConfig#shaped}): every frame is admitted, queued, dequeued and
         * released at once unless its queue is paused.
         */
        static CoreConfig pipelineConfig(PriorityClassifier classifier) {
            MmuConfig mmu = MmuConfig.builder().ports(2, 100_000_000_000L, 1_000).scheme("dt").build();
            return CoreConfig.builder(mmu).classifier(classifier).staticMac(H0, 0).staticMac(H1, 1).learning(true)
                    .shaper(false).build();
        }

        /** Unmeasured seconds before each window, on every side: testpmd's first two stats periods are skipped too. */
        private static final int SETTLE_SECONDS = 2;
        /** Once per subject, before its first round: the JIT compiles the loop. The peers need none. */
        private static final int JIT_WARM_UP_SECONDS = 3;

        private Row measureSize(int size, Layout layout, Started started, Mempool pool, EthPort p0, EthPort p1,
                                TestpmdPeer reference, boolean warmUp, PrintWriter err) throws Exception {
            Subject f = started.subject();
            if (pool != null && f != null) {
                // Rings: the subject is paused: 32 frames per port, as testpmd's --tx-first: H0->H1 on port 0, H1->H0 on port 1.
                List<byte[]> frames = new ArrayList<>();
                for (int i = 0; i < 32; i++) {
                    frames.add(Frames.udp(H1, H0, 26, size, i));
                }
                Frames.send(pool, p0, frames);
                frames.replaceAll(fr -> Frames.udp(H0, H1, 26, size, 7));
                Frames.send(pool, p1, frames);
            }

            var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            double[] java = nans(rounds);
            double[] javaCpu = nans(rounds);
            double[] reference1 = nans(rounds);
            double[] referenceCpu = nans(rounds);
            double[] ovsNormal = nans(rounds);
            double[] ovsCross = nans(rounds);
            double[] ovsCpu = nans(rounds);
            long rewritten = ovs == null ? -1 : 0;
            long gc = 0;
            long heap = 0;
            if (warmUp && f != null) {
                f.resume();
                Thread.sleep(JIT_WARM_UP_SECONDS * 1000L);
                f.pause();
            }
            for (int r = 0; r < rounds && !interrupted.get(); r++) {
                if (f != null) {
                    long[] tids = f.threadIds();
                    f.resume();
                    try {
                        Thread.sleep(SETTLE_SECONDS * 1000L);
                        long gc0 = gcCount();
                        long heap0 = sum(threads.getThreadAllocatedBytes(tids));
                        long cpu0 = sum(threads.getThreadCpuTime(tids));
                        long frames0 = f.received();
                        long sent0 = p0.stats().txPackets() + p1.stats().txPackets();
                        long t0 = System.nanoTime();
                        Thread.sleep(seconds * 1000L);
                        long frames1 = f.received();
                        long t1 = System.nanoTime();
                        long sent1 = p0.stats().txPackets() + p1.stats().txPackets();
                        if (sent1 - sent0 < 0.99 * (frames1 - frames0)) {
                            err.printf("bench fwd: pfcswitch sent %d frames of the %d it received in the window%n", sent1 - sent0,
                                    frames1 - frames0);
                        }
                        long cpu1 = sum(threads.getThreadCpuTime(tids));
                        heap += sum(threads.getThreadAllocatedBytes(tids)) - heap0;
                        gc += gcCount() - gc0;
                        java[r] = (frames1 - frames0) / ((t1 - t0) / 1e3);
                        javaCpu[r] = cpu0 >= 0 && cpu1 >= 0 ? (cpu1 - cpu0) / (double) (t1 - t0) / tids.length : Double.NaN;
                    } finally {
                        f.pause();
                    }
                    if (f.failure() != null) {
                        throw new IllegalStateException("worker failed: " + f.failure(), f.failure());
                    }
                }
                if (interrupted.get()) {
                    break;
                }
                TestpmdPeer.Round tp = reference.round(size, layout.mainCpu(), layout.workerCpus(), SETTLE_SECONDS, seconds);
                reference1[r] = tp.mpps();
                referenceCpu[r] = tp.cpuShare();
                String ovsText = "";
                if (ovs != null && !interrupted.get()) {
                    OvsDpdkPeer.Round o = ovs.round(layout.workerCpus(), size, H0, H1, SETTLE_SECONDS, seconds, interrupted::get);
                    ovsNormal[r] = o.normalMpps();
                    ovsCross[r] = o.crossConnectMpps();
                    ovsCpu[r] = o.pmdCpuShare();
                    rewritten += Math.max(0, o.rewrittenFrames());
                    ovsText = ", OVS " + num(o.normalMpps(), 2) + " Mpps (cross-connect " + num(o.crossConnectMpps(), 2) + ")";
                }
                err.printf(Locale.ROOT, "bench fwd%s: %d B, %d worker%s, round %d/%d: %s, testpmd %s Mpps%s%n",
                        pipeline ? " --pipeline" : "", size, layout.workers(), layout.workers() == 1 ? "" : "s", r + 1, rounds,
                        f == null ? "pfcswitch not run" : "pfcswitch " + num(java[r], 2) + " Mpps", num(tp.mpps(), 2), ovsText);
                err.flush();
            }
            if (pool != null && f != null) {
                // Take the circulating frames out again (the paused worker holds none): every mbuf back before the next size.
                Frames.receive(p0, Integer.MAX_VALUE);
                Frames.receive(p1, Integer.MAX_VALUE);
            }
            return new Row(layout.workers(), layout.cpuList(), size, started.unsupported(), java, javaCpu, reference1, referenceCpu,
                    ovsNormal, ovsCross, ovsCpu, rewritten, f == null ? -1 : gc, f == null ? -1 : heap);
        }

        /** The sum, or -1 if any is unknown (a thread ended, or the JVM does not measure it). */
        private static long sum(long[] values) {
            long s = 0;
            for (long v : values) {
                if (v < 0) {
                    return -1;
                }
                s += v;
            }
            return s;
        }

        private static double[] nans(int n) {
            double[] v = new double[n];
            Arrays.fill(v, Double.NaN);
            return v;
        }

        private static long gcCount() {
            long n = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                n += Math.max(0, gc.getCollectionCount());
            }
            return n;
        }

        /** The median of the measured values (NaN ones are rounds not run); NaN if none. */
        static double median(double[] v) {
            double[] s = Arrays.stream(v).filter(Double::isFinite).sorted().toArray();
            if (s.length == 0) {
                return Double.NaN;
            }
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }

        /** The same side's median at 1 worker for the same frame size, or NaN. */
        private static double atOneWorker(List<Row> rows, Row r, java.util.function.ToDoubleFunction<Row> side) {
            for (Row one : rows) {
                if (one.workers() == 1 && one.frameBytes() == r.frameBytes()) {
                    return side.applyAsDouble(one);
                }
            }
            return Double.NaN;
        }

        private void print(PrintWriter out, List<Row> rows, boolean huge, boolean withOvs, Load load) {
            String mode = huge ? "hugepages" : "no-huge";
            String frames = nullDevices() && withOvs ? "l2-station-macs-ethertype-0" : "ipv4-udp-dscp26";
            if (json) {
                for (Row r : rows) {
                    double mpps = r.mpps();
                    double tp = r.testpmdMpps();
                    double ov = r.ovsMpps();
                    int n = r.workers();
                    JsonOutput j = new JsonOutput().beginObject()
                            .field("mode", pipeline ? "pipeline" : "forwarder").field("devices", devices).field("frames", frames)
                            .field("poolCache", poolCache).field("workers", n).field("workerCpus", r.workerCpus())
                            .field("frameBytes", r.frameBytes())
                            .field("supported", r.unsupported() == null).field("unsupported", r.unsupported())
                            .field("mpps", mpps, 3).field("mppsPerWorker", mpps / n, 3)
                            .field("scaling", mpps / atOneWorker(rows, r, Row::mpps), 3)
                            .field("testpmdMpps", tp, 3).field("ratioToTestpmd", mpps / tp, 3)
                            .field("testpmdScaling", tp / atOneWorker(rows, r, Row::testpmdMpps), 3)
                            .field("ovsMpps", ov, 3).field("ovsMppsPerCore", ov / n, 3).field("ratioToOvs", (mpps / n) / (ov / n), 3)
                            .field("ovsScaling", ov / atOneWorker(rows, r, Row::ovsMpps), 3)
                            .field("ovsCrossConnectMpps", median(r.ovsCrossRounds()), 3);
                    if (r.ovsRewritten() >= 0) {
                        j.field("ovsRewrittenFrames", r.ovsRewritten());
                    } else {
                        j.nullField("ovsRewrittenFrames");
                    }
                    j.field("javaMpps", mpps, 3).field("ratio", mpps / tp, 3)     // the names before --workers and --peer
                            .field("memory", mode).field("rounds", rounds).field("seconds", seconds)
                            .field("javaRoundsMpps", r.javaRounds(), 3).field("testpmdRoundsMpps", r.testpmdRounds(), 3)
                            .field("ovsRoundsMpps", r.ovsRounds(), 3).field("ovsCrossConnectRoundsMpps", r.ovsCrossRounds(), 3)
                            .field("cpuShare", median(r.cpuShares()), 3).field("testpmdCpuShare", median(r.testpmdCpuShares()), 3)
                            .field("ovsCpuShare", median(r.ovsCpuShares()), 3);
                    if (r.gcCount() >= 0) {
                        j.field("gcCount", r.gcCount()).field("heapBytesAllocated", r.heapBytes());
                    } else {
                        j.nullField("gcCount").nullField("heapBytesAllocated");
                    }
                    j.field("workerCpu", Integer.parseInt(r.workerCpus().split(",")[0])).field("cpus", load.cpus()).field("loadAverageBefore", load.before(), 2)
                            .field("loadAverageAfter", load.after(), 2).field("stealPercent", load.stealPercent(), 2)
                            .field("machineBusyPercent", load.busyPercent(), 1)
                            .endObject().println(out);
                }
                out.flush();
                return;
            }
            out.printf("bench fwd: %s on %s, pool cache %d,%n", pipeline ? "live pipeline (SwitchCore, shaper off)" : "bare forwarder",
                    nullDevices() ? "net_null0 + net_null1 (rx allocates, tx frees)" : "net_ring0 + net_ring1 (each looped back)", poolCache);
            out.printf("           frames %s, burst 32, memory %s,%n", frames.equals("ipv4-udp-dscp26") ? "IPv4/UDP DSCP 26"
                    : "02:00:00:00:00:01 <-> :02, EtherType 0, zero payload (what OVS sees on net_null)",
                    huge ? "hugepages (--in-memory)" : "4 KiB pages (--no-huge)");
            out.printf("           %d rounds x %d s per side, alternating; medians; GC and heap bytes over pfcswitch's measured windows%n",
                    rounds, seconds);
            out.printf("           peers: dpdk-testpmd --forward-mode=mac%s%n", withOvs
                    ? "; OVS 3.1 (DPDK): NORMAL bridge, MAC table seeded; x-conn: in_port=n0,actions=output:n1 and back" : "");
            String ovsHead = withOvs ? String.format("%9s %8s %9s ", "OVS Mpps", "ours/OVS", "OVS xconn") : "";
            out.printf("%-7s %-5s %-4s %10s %8s %7s %s%8s %8s %5s %14s%n", "workers", "frame", "CPUs", "ours Mpps", "/worker",
                    "scaling", ovsHead, "testpmd", "ours/tp", "GCs", "heap allocated");
            for (Row r : rows) {
                double mpps = r.mpps();
                int n = r.workers();
                String ovsCells = withOvs ? String.format(Locale.ROOT, "%9s %8s %9s ", num(r.ovsMpps(), 2),
                        num(mpps / r.ovsMpps(), 3), num(median(r.ovsCrossRounds()), 2)) : "";
                out.printf(Locale.ROOT, "%-7d %-5d %-4s %10s %8s %7s %s%8s %8s %5s %14s%n", n, r.frameBytes(), r.workerCpus(),
                        num(mpps, 2), num(mpps / n, 2), num(mpps / atOneWorker(rows, r, Row::mpps), 2), ovsCells,
                        num(r.testpmdMpps(), 2), num(mpps / r.testpmdMpps(), 3), r.gcCount() < 0 ? "-" : Long.toString(r.gcCount()),
                        r.heapBytes() < 0 ? "-" : r.heapBytes() + " B");
            }
            out.printf(Locale.ROOT, "share of their cores the forwarding threads ran (medians): %s%n", rows.stream()
                    .map(r -> String.format(Locale.ROOT, "%d x %d B: ours %s, testpmd %s%s", r.workers(), r.frameBytes(),
                            pct(median(r.cpuShares())), pct(median(r.testpmdCpuShares())),
                            withOvs ? ", OVS PMDs " + pct(median(r.ovsCpuShares())) : ""))
                    .collect(Collectors.joining("; ")));
            out.printf(Locale.ROOT, "machine: %d CPUs, load average %.2f before, %.2f after; CPU busy %.0f %%, stolen by the hypervisor %.2f %%%n",
                    load.cpus(), load.before()[0], load.after()[0], load.busyPercent(), load.stealPercent());
            if (withOvs) {
                long rewritten = rows.stream().mapToLong(r -> Math.max(0, r.ovsRewritten())).sum();
                out.printf("OVS frames that still needed the MAC write in its NORMAL windows: %d%n", rewritten);
            }
            rows.stream().filter(r -> r.unsupported() != null).map(r -> r.workers() + " workers: pfcswitch not run: " + r.unsupported())
                    .distinct().forEach(out::println);
            out.flush();
        }

        private static String num(double v, int decimals) {
            return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + decimals + "f", v) : "-";
        }

        private static String pct(double share) {
            return Double.isFinite(share) ? String.format(Locale.ROOT, "%.0f %%", 100 * share) : "-";
        }
    }
}

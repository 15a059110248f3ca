package org.pfcswitch.cli;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.lang.foreign.Arena;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.pfcswitch.cli.json.JsonOutput;
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
                "Forwarding rate of pfcswitch's poll loop against dpdk-testpmd --forward-mode=mac,",
                "on the same two looped-back net_ring vdevs, the same single worker core, burst 32",
                "and the same memory mode, alternating rounds in one run (median of rounds).",
                "",
                "64 frames circulate (32 injected per port, as testpmd's --tx-first). Without",
                "--pipeline the Java side is the bare forwarder, DPDK's l2fwd in Java: rx burst,",
                "both MACs rewritten as testpmd's mac mode does, tx burst to the paired port. It",
                "is no switch (no classification, no table, no MMU): it shows what the Java FFM",
                "poll loop itself costs, the floor under the pipeline's figure.",
                "",
                "--pipeline measures the live switch instead: the SwitchCore on its CoreWorker",
                "poll loop, as 'pfcswitch run' runs it (full pfc-codec parse, classification,",
                "learning and forwarding lookup, dt admission into the MMU and release at dequeue,",
                "egress queue, strict-priority scheduler, PFC XOFF/XON state, ECN check, TX buffers",
                "and bulk frees), with the shaper off (CoreConfig.shaped = false: a frame leaves as",
                "soon as its queue may send). Only the egress MAC rewrite is bench code.",
                "",
                "--devices null uses net_null vdevs instead of looped-back rings: as on a NIC, rx",
                "allocates every frame from the pool and tx frees it (testpmd likewise), which",
                "shows what the per-lcore pool cache (--pool-cache; the worker registers as an EAL",
                "thread) is worth.",
                "",
                "One forwarder serves every round: it is paused (parked, its TX buffers sent)",
                "while testpmd runs and resumed for its next round, so its JIT-compiled loop is",
                "kept. It warms up once for 3 s (with --devices null: once per frame size);",
                "each round of either side then has 2 unmeasured seconds before its measured window.",
                "",
                "Memory: hugepages when they can be reserved (as root the command reserves what it",
                "needs and restores /proc/sys/vm/nr_hugepages afterwards), else --no-huge. Also",
                "reported: GC count and heap bytes the worker allocated in the measured windows.",
                "",
                "Needs DPDK with dpdk-testpmd (package dpdk-dev) and 2 CPUs. Takes about",
                "3 + sizes x rounds x (2 x seconds + 6) seconds."
            },
            footer = {"", "Examples:",
                "  ./pfcswitch bench fwd",
                "  ./pfcswitch bench fwd --json --seconds 5 --rounds 5",
                "  ./pfcswitch bench fwd --memory no-huge --sizes 64",
                "  ./pfcswitch bench fwd --pipeline --json",
                "  ./pfcswitch bench fwd --pipeline --devices null --pool-cache 0"})
    static final class Fwd implements Callable<Integer> {

        @Option(names = "--json", description = "One JSON object per frame size (frameBytes, javaMpps, testpmdMpps, ratio, ...).")
        boolean json;

        @Option(names = "--seconds", defaultValue = "3", paramLabel = "S", description = "Length of each measured round (default ${DEFAULT-VALUE}).")
        int seconds;

        @Option(names = "--rounds", defaultValue = "3", paramLabel = "N", description = "Rounds per side and frame size (default ${DEFAULT-VALUE}).")
        int rounds;

        @Option(names = "--sizes", defaultValue = "64,1024", split = ",", paramLabel = "BYTES", description = "Frame sizes (default ${DEFAULT-VALUE}).")
        int[] sizes;

        @Option(names = "--memory", defaultValue = "auto", paramLabel = "MODE", description = "auto, hugepages or no-huge (default ${DEFAULT-VALUE}).")
        String memory;

        @Option(names = "--cpu", defaultValue = "-1", paramLabel = "CPU", description = "The worker core for both (default: the last CPU).")
        int cpu;

        @Option(names = "--testpmd", defaultValue = "dpdk-testpmd", paramLabel = "PATH", description = "The testpmd binary (default ${DEFAULT-VALUE}).")
        String testpmd;

        @Option(names = "--pipeline", description = {"Measure the live switch pipeline (the SwitchCore on its CoreWorker poll loop, as",
                "'pfcswitch run' runs it: full parse, forwarding lookup, dt admission and release, egress queue, scheduler,",
                "PFC state, ECN check; shaper off) instead of the bare L2 forwarder."})
        boolean pipeline;

        @Option(names = "--devices", defaultValue = "ring", paramLabel = "KIND", description = {
                "ring: two looped-back net_ring vdevs, 64 frames circulate, rx and tx only move pointers (default).",
                "null: two net_null vdevs, as a NIC port: rx allocates every frame from the pool, tx frees it."})
        String devices;

        @Option(names = "--pool-cache", defaultValue = "256", paramLabel = "N", description = {
                "Per-lcore cache of pfcswitch's mbuf pools (0 = none; the worker registers as an EAL thread",
                "either way). testpmd keeps its default (250). Default ${DEFAULT-VALUE}."})
        int poolCache;

        @Spec
        CommandSpec spec;

        private static final long H0 = 0x02_00_00_00_00_01L;
        private static final long H1 = 0x02_00_00_00_00_02L;
        private static final int MEMORY_MB = 256;

        private final AtomicBoolean interrupted = new AtomicBoolean();

        record Row(int frameBytes, double javaMpps, double testpmdMpps, double[] javaRounds, double[] testpmdRounds,
                   long gcCount, long heapBytes) {}

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
            int cpus = Runtime.getRuntime().availableProcessors();
            int workerCpu = cpu >= 0 ? cpu : cpus - 1;
            int mainCpu = workerCpu == 0 ? 1 : 0;
            if (cpus < 2) {
                throw new IllegalStateException("bench fwd needs 2 CPUs (one for the worker, one for the rest)");
            }
            Signals.onTermination(name -> interrupted.set(true));
            long originalPages = Hugepages.reserved();
            boolean huge = chooseMemory(originalPages, err);
            Thread restore = new Thread(() -> restorePages(originalPages));
            Runtime.getRuntime().addShutdownHook(restore);
            try {
                List<Row> rows = measure(huge, workerCpu, mainCpu, err);
                print(out, rows, huge, workerCpu);
                return interrupted.get() ? 1 : 0;
            } finally {
                restorePages(originalPages);
                Runtime.getRuntime().removeShutdownHook(restore);
            }
        }

        private boolean reservedByUs;

        /** Hugepages if enough are free or can be reserved now; otherwise 4 KiB pages. */
        private boolean chooseMemory(long originalPages, PrintWriter err) {
            String mode = memory.toLowerCase(Locale.ROOT);
            if (mode.equals("no-huge")) {
                return false;
            }
            if (!mode.equals("auto") && !mode.equals("hugepages")) {
                throw new IllegalArgumentException("--memory must be auto, hugepages or no-huge, got '" + memory + "'");
            }
            long needMb = 2L * MEMORY_MB + 64;                      // this JVM and testpmd, each -m 256
            if (Hugepages.freeMb() < needMb && originalPages >= 0) {
                long pages = originalPages + (needMb - Hugepages.freeMb()) * 1024 / Hugepages.pageKb() + 1;
                reservedByUs = Hugepages.reserve(pages);
            }
            boolean ok = Hugepages.freeMb() >= needMb;
            if (!ok && mode.equals("hugepages")) {
                throw new IllegalStateException("--memory hugepages: only " + Hugepages.freeMb() + " MiB of hugepages free, "
                        + needMb + " MiB needed (reserving needs root)");
            }
            if (!ok) {
                err.println("bench fwd: hugepages could not be reserved; measuring with --no-huge (both sides)");
            }
            return ok;
        }

        private void restorePages(long originalPages) {
            if (reservedByUs && originalPages >= 0) {
                Hugepages.reserve(originalPages);
                reservedByUs = false;
            }
        }

        private List<String> memoryArgs(boolean huge) {
            return huge ? List.of("--in-memory", "-m", Integer.toString(MEMORY_MB))
                    : List.of("--no-huge", "-m", Integer.toString(MEMORY_MB), "--no-shconf");
        }

        /** What a round measures: our loop, paused while testpmd runs. */
        interface Subject {
            void pause();

            void resume();

            long received();

            long threadId();

            Throwable failure();

            void stop() throws Exception;
        }

        private boolean nullDevices() {
            String d = devices.toLowerCase(Locale.ROOT);
            if (!d.equals("ring") && !d.equals("null")) {
                throw new IllegalArgumentException("--devices must be ring or null, got '" + devices + "'");
            }
            return d.equals("null");
        }

        private List<Row> measure(boolean huge, int workerCpu, int mainCpu, PrintWriter err) throws Exception {
            boolean nulls = nullDevices();
            if (poolCache < 0 || poolCache > 512) {
                throw new IllegalArgumentException("--pool-cache must be 0..512, got " + poolCache);
            }
            List<String> eal = new ArrayList<>(List.of("--lcores=0@" + mainCpu));
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
                        Frames.fill(a, Frames.udp(H1, H0, 26, sizes[k], 1));
                        Frames.fill(b, Frames.udp(H0, H1, 26, sizes[k], 2));
                        EthPort p0 = EthPort.byName("net_null" + 2 * k);
                        EthPort p1 = EthPort.byName("net_null" + (2 * k + 1));
                        setUp(p0, a);
                        setUp(p1, b);
                        // Frames from port 0 leave port 1 unchanged in content (H0 -> H1), and back.
                        Subject subject = start(p0, p1, a, workerCpu, new long[] {H0, H1, H1, H0});
                        try {
                            rows.add(measureSize(sizes[k], subject, null, p0, p1, huge, workerCpu, mainCpu, true, err));
                        } finally {
                            subject.stop();
                        }
                        p0.stop();
                        p1.stop();
                    }
                } else {
                    Mempool pool = Mempool.create(arena, "bench_pkts", 8191, poolCache, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
                    pools.add(pool);
                    EthPort p0 = EthPort.byName("net_ring0");
                    EthPort p1 = EthPort.byName("net_ring1");
                    setUp(p0, pool);
                    setUp(p1, pool);
                    // One subject for the whole run, paused while testpmd runs: its compiled loop
                    // survives from round to round, as a switch's loop does in service. Egress
                    // rewrites MACs so that each looped-back port answers like a host.
                    Subject subject = start(p0, p1, pool, workerCpu, new long[] {H1, H0, H0, H1});
                    try {
                        for (int size : sizes) {
                            if (interrupted.get()) {
                                break;
                            }
                            boolean first = rows.isEmpty();    // the JIT warm-up runs once, with the first size's frames
                            rows.add(measureSize(size, subject, pool, p0, p1, huge, workerCpu, mainCpu, first, err));
                        }
                    } finally {
                        subject.stop();
                    }
                    p0.stop();
                    p1.stop();
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

        private static void setUp(EthPort p, Mempool pool) {
            p.configure(1, 1);
            p.rxQueueSetup(0, 1024, pool);
            p.txQueueSetup(0, 1024);
            p.start();
        }

        /** The bare forwarder or the live pipeline on ports 0 and 1, paused. */
        private Subject start(EthPort p0, EthPort p1, Mempool pool, int workerCpu, long[] egressMacs) {
            PriorityClassifier classifier = PriorityClassifier.trustDscp(PriorityClassifier.dscpMap("26:3"), 0);
            String cpu = Integer.toString(workerCpu);
            PipelineBench b = pipeline
                    ? PipelineBench.start(pipelineConfig(classifier), new EthPort[] {p0, p1}, pool, egressMacs, cpu, true, Arena.global())
                    : PipelineBench.startBareForwarder(new EthPort[] {p0, p1}, egressMacs, cpu, true, Arena.global());
            return new Subject() {
                public void pause() { b.pause(); }
                public void resume() { b.resume(); }
                public long received() { return b.framesReceived(); }
                public long threadId() { return b.thread().threadId(); }
                public Throwable failure() { return b.failure(); }
                public void stop() throws Exception { b.stop(); }
            };
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

        /** Unmeasured seconds before each window, on both sides: testpmd's first two stats periods are skipped too. */
        private static final int SETTLE_SECONDS = 2;
        /** Once per run, before the first round: the JIT compiles the loop. testpmd needs none. */
        private static final int JIT_WARM_UP_SECONDS = 3;

        private Row measureSize(int size, Subject f, Mempool pool, EthPort p0, EthPort p1, boolean huge, int workerCpu,
                                int mainCpu, boolean warmUp, PrintWriter err) throws Exception {
            if (pool != null) {
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
            long tid = f.threadId();
            double[] java = new double[rounds];
            double[] reference = new double[rounds];
            long gc = 0;
            long heap = 0;
            if (warmUp) {
                f.resume();
                Thread.sleep(JIT_WARM_UP_SECONDS * 1000L);
                f.pause();
            }
            for (int r = 0; r < rounds && !interrupted.get(); r++) {
                f.resume();
                try {
                    Thread.sleep(SETTLE_SECONDS * 1000L);
                    long gc0 = gcCount();
                    long heap0 = threads.getThreadAllocatedBytes(tid);
                    long frames0 = f.received();
                    long t0 = System.nanoTime();
                    Thread.sleep(seconds * 1000L);
                    long frames1 = f.received();
                    long t1 = System.nanoTime();
                    heap += threads.getThreadAllocatedBytes(tid) - heap0;
                    gc += gcCount() - gc0;
                    java[r] = (frames1 - frames0) / ((t1 - t0) / 1e3);
                } finally {
                    f.pause();
                }
                if (f.failure() != null) {
                    throw new IllegalStateException("worker failed: " + f.failure(), f.failure());
                }
                reference[r] = testpmdRound(size, huge, workerCpu, mainCpu);
                err.printf(Locale.ROOT, "bench fwd%s: %d B round %d/%d: java %.2f Mpps, testpmd %.2f Mpps%n",
                        pipeline ? " --pipeline" : "", size, r + 1, rounds, java[r], reference[r]);
                err.flush();
            }
            if (pool != null) {
                // Take the circulating frames out again (the paused worker holds none): every mbuf back before the next size.
                Frames.receive(p0, Integer.MAX_VALUE);
                Frames.receive(p1, Integer.MAX_VALUE);
            }
            return new Row(size, median(java), median(reference), java, reference, gc, heap);
        }

        private static long gcCount() {
            long n = 0;
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                n += Math.max(0, gc.getCollectionCount());
            }
            return n;
        }

        /** One testpmd run: the mean of its per-second Rx-pps (both ports summed) after two warm-up seconds. */
        private double testpmdRound(int size, boolean huge, int workerCpu, int mainCpu) throws Exception {
            List<String> cmd = new ArrayList<>(List.of(testpmd, "--lcores=0@" + mainCpu + ",1@" + workerCpu));
            cmd.addAll(memoryArgs(huge));
            cmd.addAll(List.of("--no-pci", "--no-telemetry", "--log-level=*:warning"));
            if (nullDevices()) {
                cmd.addAll(List.of("--vdev=net_null0,size=" + size, "--vdev=net_null1,size=" + size,
                        "--", "--forward-mode=mac", "--burst=32"));
            } else {
                cmd.addAll(List.of("--vdev=net_ring0", "--vdev=net_ring1",
                        "--", "--forward-mode=mac", "--tx-first", "--burst=32", "--txpkts=" + size));
            }
            cmd.addAll(List.of("--stats-period=1", "--total-num-mbufs=8192", "--nb-cores=1"));
            Process p;
            try {
                p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start " + testpmd + " (apt-get install dpdk-dev): " + e.getMessage());
            }
            List<Long> perPort = new ArrayList<>();
            StringBuilder output = new StringBuilder();
            long deadline = System.nanoTime() + (seconds + 2 + 20) * 1_000_000_000L;
            int wanted = 2 * (seconds + 2);
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    output.append(line).append('\n');
                    String t = line.trim();
                    if (t.startsWith("Rx-pps:")) {
                        perPort.add(Long.parseLong(t.substring(7).trim().split("\\s+")[0]));
                        if (perPort.size() >= wanted) {
                            break;
                        }
                    }
                    if (System.nanoTime() > deadline || interrupted.get()) {
                        break;
                    }
                }
            } finally {
                p.destroy();                                   // SIGTERM: testpmd stops its ports and exits
                if (!p.waitFor(10, TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            }
            if (perPort.size() < wanted) {
                throw new IllegalStateException("testpmd printed " + perPort.size() + " Rx-pps samples, expected " + wanted
                        + "; its output:\n" + output);
            }
            double sum = 0;
            int n = 0;
            for (int i = 4; i + 1 < wanted; i += 2) {          // skip 2 periods of start-up; sum ports 0 and 1
                sum += perPort.get(i) + perPort.get(i + 1);
                n++;
            }
            return sum / n / 1e6;
        }

        private static double median(double[] v) {
            double[] s = v.clone();
            Arrays.sort(s);
            return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
        }

        private void print(PrintWriter out, List<Row> rows, boolean huge, int workerCpu) {
            String mode = huge ? "hugepages" : "no-huge";
            if (json) {
                for (Row r : rows) {
                    new JsonOutput().beginObject()
                            .field("mode", pipeline ? "pipeline" : "forwarder").field("devices", devices)
                            .field("poolCache", poolCache).field("frameBytes", r.frameBytes())
                            .field("javaMpps", r.javaMpps(), 3).field("testpmdMpps", r.testpmdMpps(), 3)
                            .field("ratio", r.javaMpps() / r.testpmdMpps(), 3)
                            .field("memory", mode).field("rounds", rounds).field("seconds", seconds)
                            .field("javaRoundsMpps", r.javaRounds(), 3).field("testpmdRoundsMpps", r.testpmdRounds(), 3)
                            .field("gcCount", r.gcCount()).field("heapBytesAllocated", r.heapBytes())
                            .field("workerCpu", workerCpu).endObject().println(out);
                }
                out.flush();
                return;
            }
            out.printf("bench fwd: %s on %s, pool cache %d,%n", pipeline ? "live pipeline (SwitchCore, shaper off)" : "bare forwarder",
                    nullDevices() ? "net_null0 + net_null1 (rx allocates, tx frees)" : "net_ring0 + net_ring1 (each looped back)", poolCache);
            out.printf("           1 worker on CPU %d, burst 32, memory %s,%n"
                    + "           %d rounds x %d s per side, alternating; medians; GC and heap bytes over pfcswitch's measured windows%n",
                    workerCpu, huge ? "hugepages (--in-memory)" : "4 KiB pages (--no-huge)", rounds, seconds);
            out.printf("%-6s %12s %14s %7s %5s %16s%n", "frame", "java Mpps", "testpmd Mpps", "ratio", "GCs", "heap allocated");
            for (Row r : rows) {
                out.printf(Locale.ROOT, "%-6d %12.2f %14.2f %7.2f %5d %14d B%n", r.frameBytes(), r.javaMpps(), r.testpmdMpps(),
                        r.javaMpps() / r.testpmdMpps(), r.gcCount(), r.heapBytes());
            }
            out.flush();
        }
    }
}

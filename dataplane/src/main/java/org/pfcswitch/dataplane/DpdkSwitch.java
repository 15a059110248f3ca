package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.CoreMailbox;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchWorkers;
import org.pfcswitch.core.WorkersMmuChange;
import org.pfcswitch.core.trace.TraceMerge;
import org.pfcswitch.core.trace.TraceRecorder;
import org.pfcswitch.dpdk.DpdkException;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.EthStats;
import org.pfcswitch.dpdk.MbufLayout;
import org.pfcswitch.dpdk.Mempool;
import org.pfcswitch.mmu.MmuConfig;

/**
 * A running switch on DPDK, from a {@link SwitchConfig}: EAL, one packet pool, the ports, and the
 * switch core on its poll-mode {@link CoreWorker} threads (MMU admission under the configured
 * scheme, egress queues, per-port shaper at the configured speeds, PFC sent and obeyed): one
 * worker by default, or N that split the ports and share one buffer ({@link SwitchWorkers}).
 * {@link #stop} takes it apart in order and checks that every mbuf went back to the pool.
 */
public final class DpdkSwitch {

    /**
     * What {@link #stop} found. {@code mbufsInUse} is 0 when nothing leaked; {@code nicStats} are
     * each port's own counters (frames its rx ring had no room for are {@code rxMissed}), read
     * before the ports closed, by switch port (null for a clone port).
     */
    public record Shutdown(int queuedFrames, long drainedFrames, int mbufsInUse, int poolSize, List<EthStats> nicStats) {}

    /** The pool holds the MMU's whole shared buffer in frames of this size (and more of larger ones). */
    static final int POOL_SIZING_FRAME_BYTES = 512;
    /** Memory one mbuf of the pool takes: header, headroom and data room, rounded up. */
    static final int MBUF_FOOTPRINT_BYTES = 2432;

    private final SwitchConfig config;
    private final Arena arena;
    private final Mempool pool;
    private final DpdkPorts ports;
    private final EthPort[] ethByPort;
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private SwitchConfig running;       // the configuration of the core now running (its scheme may differ)
    /** The running workers and their cores; replaced as a whole by {@link #replaceCore}. */
    private volatile CoreWorker.Group group;
    /** {@code run --record}: every core's worker records its arrivals here; null: no recording. */
    private org.pfcswitch.core.record.ArrivalRecorder recorder;
    /** By switch port, the worker that owns it (fixed by the config, kept across {@link #replaceCore}). */
    private final int[] workerOf;
    /** Control requests, one mailbox per worker, kept across {@link #replaceCore}. */
    private final CoreMailbox[] mailboxes;
    /** With several workers: each worker's part of a snapshot, merged into the caller's. */
    private final CoreSnapshot[] snapshotParts;
    private volatile Thread[] threads;
    /** The pinned workers' CPUs kept free of every other thread of the process; null when no worker is pinned. */
    private CpuReservation reservation;
    private int queuedAtReplace;        // frames freed by replaceCore, reported with the shutdown
    private final boolean hugepages;
    private boolean stopped;
    private Shutdown shutdown;

    private DpdkSwitch(SwitchConfig config, Arena arena, Mempool pool, DpdkPorts ports, EthPort[] ethByPort,
                       boolean hugepages) {
        this.config = config;
        this.arena = arena;
        this.pool = pool;
        this.ports = ports;
        this.ethByPort = ethByPort;
        this.hugepages = hugepages;
        int n = config.workers().size();
        this.workerOf = config.workerOf();
        this.mailboxes = new CoreMailbox[n];
        for (int w = 0; w < n; w++) {
            mailboxes[w] = new CoreMailbox();
        }
        this.snapshotParts = new CoreSnapshot[n > 1 ? n : 0];
        for (int w = 0; w < snapshotParts.length; w++) {
            snapshotParts[w] = new CoreSnapshot(config.ports().size());
        }
    }

    /** Builds the cores for {@code cfg} on the open ports and starts their worker threads. */
    private void startCore(SwitchConfig cfg) {
        CoreConfig core = withDeviceMacs(cfg.core(), ports, ethByPort);
        running = cfg;
        CoreWorker.Group g = CoreWorker.group(core, workerOf, ethByPort, clones(cfg), cfg.idleSleepNanos(), pool,
                System.nanoTime(), arena, null, pool.size());
        int n = g.workers().length;
        Thread[] started = new Thread[n];
        for (int w = 0; w < n; w++) {
            CoreWorker worker = g.workers()[w];
            worker.useMailbox(mailboxes[w]);
            worker.recordInto(recorder == null ? null : recorder.ring(w));
            String cpus = cfg.workers().get(w).cpus();
            started[w] = new Thread(() -> runWorker(worker, cpus), n == 1 ? "pfcswitch-core" : "pfcswitch-core-" + w);
            started[w].setDaemon(true);
        }
        group = g;
        threads = started;
        for (Thread t : started) {
            t.start();
        }
    }

    /** Stops the worker threads and frees what their cores held; returns the frames they still queued. */
    private int stopCore() {
        CoreWorker[] workers = group.workers();
        for (CoreWorker w : workers) {
            w.requestStop();
        }
        for (Thread t : threads) {
            try {
                t.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                throw new IllegalStateException(t.getName() + " did not stop within 10 s");
            }
        }
        return workers.length == 1 ? workers[0].finish() : CoreWorker.finishAll(workers);
    }

    /**
     * Replaces the running core by a new one under {@code scheme}, on the same ports and pool:
     * the worker stops, every frame the old core queued is freed (released from its MMU; a frame
     * in flight is lost, as when a real switch reloads), and a new core with fresh counters starts.
     * This is how a lab compares schemes on one switch without restarting DPDK.
     *
     * @throws IllegalArgumentException for an unknown scheme or parameters it rejects (the old core keeps running)
     */
    public synchronized void replaceCore(String scheme) {
        if (stopped) {
            throw new IllegalStateException("the switch is stopped");
        }
        SwitchConfig next = running.withScheme(scheme);
        org.pfcswitch.mmu.Schemes.validate(next.core().mmu());    // before anything stops
        queuedAtReplace += stopCore();
        startCore(next);
    }

    /**
     * Copies the running core's state into {@code into}, on the worker thread between two bursts
     * (the worker pauses for the copy, a few microseconds; nothing else waits on it).
     *
     * @throws TimeoutException the worker did not answer in {@code timeoutNanos}
     */
    public void snapshot(CoreSnapshot into, long timeoutNanos) throws TimeoutException, InterruptedException {
        snapshot(into, false, timeoutNanos);
    }

    /**
     * {@link #snapshot}, and each worker restarts its watermarks in the same task, right after its
     * copy ({@link CoreSnapshot#captureAndResetWatermarks}): the copy has every maximum up to the reset.
     */
    public void snapshotAndResetWatermarks(CoreSnapshot into, long timeoutNanos) throws TimeoutException, InterruptedException {
        snapshot(into, true, timeoutNanos);
    }

    private void snapshot(CoreSnapshot into, boolean resetWatermarks, long timeoutNanos)
            throws TimeoutException, InterruptedException {
        if (mailboxes.length == 1) {
            mailboxes[0].call(resetWatermarks ? into::captureAndResetWatermarks : into::capture, timeoutNanos);
        } else {
            synchronized (snapshotParts) {
                for (int w = 0; w < mailboxes.length; w++) {
                    CoreSnapshot part = snapshotParts[w];
                    mailboxes[w].call(resetWatermarks ? part::captureAndResetWatermarks : part::capture, timeoutNanos);
                }
                into.merge(snapshotParts, workerOf);
            }
        }
        org.pfcswitch.core.record.ArrivalRecorder rec = recorder;
        into.recordWriteFailures = rec == null ? 0 : rec.writeFailures();
        into.recordArrivalsAfterFailure = rec == null ? 0 : rec.afterStop();
    }

    /**
     * Puts the running core's buffer under {@code next} (another scheme or other parameters) between
     * two bursts, keeping every queued frame: see {@link SwitchCore#changeMmu}. The change is
     * validated first; a refused one changes nothing. With several workers every worker changes at
     * one point ({@link WorkersMmuChange}), and this returns once they all have; if one of them does
     * not stop for it within {@code timeoutNanos}, none changes.
     *
     * @throws IllegalArgumentException bad parameters, or a change to or from bfc
     * @throws TimeoutException         a worker did not answer in {@code timeoutNanos} (the message names it)
     */
    public synchronized void changeMmu(MmuConfig next, long timeoutNanos) throws TimeoutException, InterruptedException {
        if (stopped) {
            throw new IllegalStateException("the switch is stopped");
        }
        org.pfcswitch.mmu.Schemes.validate(next);
        if (mailboxes.length == 1) {
            mailboxes[0].call((core, now) -> core.changeMmu(next, now), timeoutNanos);
        } else {
            changeEveryWorker(group.cores().mmuChange(next), timeoutNanos);
        }
        running = new SwitchConfig(running.eal(), running.ports(), running.workers(), running.core().withMmu(next),
                running.idleSleepNanos(), running.hardwarePfc());
    }

    /** Hands {@code change} to every worker and waits until all changed, or none did (time out). */
    private void changeEveryWorker(WorkersMmuChange change, long timeoutNanos) throws TimeoutException, InterruptedException {
        long deadline = System.nanoTime() + timeoutNanos;
        CoreMailbox.Posted[] posted = new CoreMailbox.Posted[mailboxes.length];
        boolean stopped = false;
        try {
            for (int w = 0; w < mailboxes.length; w++) {
                int worker = w;
                posted[w] = mailboxes[w].post((core, now) -> change.runOn(worker, core, now),
                        Math.max(0, deadline - System.nanoTime()));
            }
            stopped = change.awaitStopped(Math.max(0, deadline - System.nanoTime()));
        } finally {
            if (!stopped) {
                change.abandon();
            }
            for (CoreMailbox.Posted p : posted) {
                if (p != null && (stopped || !p.withdraw())) {
                    p.await(Long.MAX_VALUE, timeoutNanos);      // it runs to the end (abandoned: returns at once)
                }
            }
        }
        if (!stopped) {
            throw new TimeoutException("worker(s) " + change.missing() + " did not stop for the change within "
                    + timeoutNanos / 1_000_000 + " ms: no worker changed, the switch runs " + running.core().mmu().scheme()
                    + " as before");
        }
        RuntimeException refused = change.refusal();
        if (refused != null) {
            throw new IllegalArgumentException(refused.getMessage() + " (no worker changed)", refused);
        }
    }

    /**
     * Starts (or changes) the PFC watchdog on {@code ports} for {@code priorities} under
     * {@code settings}, or, with {@code settings} null, stops it there (a stormed queue is restored
     * first): on each port's own worker, between two bursts ({@link SwitchCore#startPfcWatchdog}).
     * With several workers each owner takes its ports in its own turn, in port order.
     *
     * @return by port, the priorities whose stormed queue the change restored
     * @throws IllegalStateException the switch is stopped, or its scheme runs no PFC (bfc)
     * @throws TimeoutException      a worker did not answer in {@code timeoutNanos} (the ports of the
     *                               workers before it are changed already)
     */
    public synchronized int[] changePfcWatchdog(int[] ports, int priorities, org.pfcswitch.core.PfcWatchdogConfig settings,
                                               long timeoutNanos) throws TimeoutException, InterruptedException {
        if (stopped) {
            throw new IllegalStateException("the switch is stopped");
        }
        int[] restored = new int[workerOf.length];
        for (int w = 0; w < mailboxes.length; w++) {
            int worker = w;
            int[] own = java.util.Arrays.stream(ports).filter(p -> workerOf[p] == worker).toArray();
            if (own.length == 0) {
                continue;
            }
            mailboxes[w].call((core, now) -> {
                for (int p : own) {
                    restored[p] = settings == null ? core.stopPfcWatchdog(p, now)
                            : core.startPfcWatchdog(p, priorities, settings, now);
                }
            }, timeoutNanos);
        }
        return restored;
    }

    /**
     * Starts a trace of the running switch: every worker samples its own ports into its recorder of
     * {@code trace} (bound to its core here, on its thread), once per pass, self-throttled to the
     * period; the caller drains {@code trace}, which merges the workers' samples.
     *
     * @param trace made for this switch's ports and workers ({@link #workerOf()})
     * @return the clock (ns) when the first worker started sampling: the trace's time origin
     */
    public long startTrace(TraceMerge trace, long timeoutNanos) throws TimeoutException, InterruptedException {
        if (trace.workers() != mailboxes.length) {
            throw new IllegalArgumentException("the trace is made for " + trace.workers() + " workers, the switch runs "
                    + mailboxes.length);
        }
        long[] origin = {Long.MAX_VALUE};
        CoreWorker[] workers = group.workers();
        int started = 0;
        try {
            for (; started < mailboxes.length; started++) {
                CoreWorker worker = workers[started];
                TraceRecorder recorder = trace.recorder(started);
                mailboxes[started].call((core, now) -> {
                    recorder.bind(core);
                    origin[0] = Math.min(origin[0], now);
                    worker.traceInto(recorder);
                }, timeoutNanos);
            }
        } finally {
            if (started < mailboxes.length) {       // a worker did not answer: the ones that started stop again
                for (int w = 0; w < started; w++) {
                    CoreWorker worker = workers[w];
                    mailboxes[w].call((core, now) -> worker.traceInto(null), timeoutNanos);
                }
            }
        }
        return origin[0];
    }

    /** Stops the trace started by {@link #startTrace}, after one last sample on every worker. */
    public void stopTrace(TraceMerge trace, long timeoutNanos) throws TimeoutException, InterruptedException {
        CoreWorker[] workers = group.workers();
        try {
            for (int w = 0; w < mailboxes.length; w++) {
                CoreWorker worker = workers[w];
                TraceRecorder recorder = trace.recorder(w);
                mailboxes[w].call((core, now) -> {
                    worker.traceInto(null);
                    recorder.sampleNow(core, now);
                }, timeoutNanos);
            }
        } finally {
            trace.producersStopped();
        }
    }

    /** By switch port, the worker that owns it. */
    public int[] workerOf() {
        return workerOf.clone();
    }

    /** The MMU configuration of the running core (scheme and parameters as last changed). */
    public synchronized MmuConfig mmuConfig() {
        return running.core().mmu();
    }

    /** The scheme the running core uses. */
    public synchronized String scheme() {
        return running.core().mmu().scheme();
    }

    /**
     * Starts EAL (once per JVM), the ports and the core's worker, logging each step to {@code log}.
     *
     * @throws DpdkPorts.PortException   a port failed (the message names it)
     * @throws IllegalArgumentException  the configuration cannot work here (e.g. hugepages required)
     * @throws org.pfcswitch.dpdk.DpdkException EAL itself failed
     */
    public static DpdkSwitch start(SwitchConfig config, Consumer<String> log) {
        return start(config, log, null);
    }

    /**
     * As {@link #start(SwitchConfig, Consumer)}, and the worker records every arrival on a device port
     * into {@code recorder} (null: none) from its first burst; close the recorder after {@link #stop}.
     */
    public static DpdkSwitch start(SwitchConfig config, Consumer<String> log,
                                   org.pfcswitch.core.record.ArrivalRecorder recorder) {
        List<Device.Pci> pci = new ArrayList<>();
        for (SwitchConfig.Port p : config.ports()) {
            if (p.device() instanceof Device.Pci d) {
                pci.add(d);
            }
        }
        EalArguments eal = EalArguments.of(config.eal(), pci, Hugepages.freeMb());
        log.accept("EAL " + String.join(" ", eal.args()));
        log.accept("memory: " + (eal.hugepages() ? "hugepages (--in-memory), " + Hugepages.freeMb() + " MiB free before start"
                : "4 KiB pages (--no-huge): no hugepages reserved" + (config.eal().hugepages() == SwitchConfig.Hugepages.OFF ? " (eal.hugepages: off)" : "")));
        Eal.init(eal.args().toArray(String[]::new));

        int mbufs = config.eal().mbufs() > 0 ? config.eal().mbufs() : poolSizeFor(config);
        Arena arena = Arena.ofShared();
        DpdkPorts ports = null;
        CpuReservation reservation = null;
        try {
            Mempool pool = createPool(config, arena, mbufs);
            log.accept("packet pool: " + mbufs + " mbufs of " + MbufLayout.DEFAULT_DATA_ROOM + " bytes"
                    + (config.eal().mbufs() > 0 ? " (eal.mbufs)" : " (rx and tx rings, and the " + config.core().mmu().totalBytes()
                    + "-byte shared buffer in frames of " + POOL_SIZING_FRAME_BYTES + " bytes)"));
            ports = DpdkPorts.open(config.devicePorts(), pool, config.hardwarePfc());
            EthPort[] ethByPort = new EthPort[config.ports().size()];
            for (int i = 0, d = 0; i < ethByPort.length; i++) {
                SwitchConfig.Port port = config.ports().get(i);
                if (port.isClone()) {
                    log.accept(String.format("port %d %-8s %s, station mac %s, speed %s", i, port.name(), port.device(),
                            MacAddress.format(port.mac()), Rates.format(port.speedBps())));
                } else {
                    DpdkPorts.OpenPort open = ports.ports().get(d++);
                    ethByPort[i] = open.ethPort();
                    log.accept(DpdkPorts.describe(i, open));
                }
            }
            for (CoreConfig.StaticMac s : config.core().staticMacs()) {
                log.accept("static mac " + MacAddress.format(s.mac()) + " -> port " + config.ports().get(s.port()).name());
            }
            log.accept("forwarding: L2, learning " + (config.core().learning() ? "on" : "off") + ", table of "
                    + config.core().tableCapacity()
                    + " stations, unknown and broadcast destinations flooded; classification: " + describe(config));
            describeMmu(config, log);
            if (recorder != null && recorder.workers() != config.workers().size()) {
                throw new IllegalArgumentException("the recorder takes " + recorder.workers() + " workers' arrivals, the switch"
                        + " config has " + config.workers().size() + " workers");
            }
            DpdkSwitch sw = new DpdkSwitch(config, arena, pool, ports, ethByPort, eal.hugepages());
            sw.recorder = recorder;
            reservation = reserveWorkerCpus(config);
            sw.reservation = reservation;
            sw.startCore(config);
            describeWorkers(config, sw.group.cores(), log);
            return sw;
        } catch (RuntimeException e) {
            if (reservation != null) {
                reservation.close();
            }
            if (ports != null) {
                ports.close();
            }
            arena.close();
            Eal.cleanup();
            throw e;
        }
    }

    private static Mempool createPool(SwitchConfig config, Arena arena, int mbufs) {
        try {
            return Mempool.create(arena, "pfcswitch_pkts", mbufs, poolCacheFor(mbufs), 0, MbufLayout.DEFAULT_DATA_ROOM,
                    Mempool.ANY_SOCKET);
        } catch (DpdkException e) {
            if (e.rteErrno() != 12) {
                throw e;
            }
            throw new IllegalArgumentException("the packet pool of " + mbufs + " mbufs (about "
                    + (long) mbufs * MBUF_FOOTPRINT_BYTES / (1 << 20) + " MiB) does not fit in EAL's memory (eal.memoryMb: "
                    + config.eal().memoryMb() + "): raise eal.memoryMb, or set eal.mbufs, or make mmu.totalBytes smaller");
        }
    }

    private void runWorker(CoreWorker w, String cpus) {
        try {
            if (cpus != null && reservation != null) {
                reservation.enterWorker(cpus);
            } else if (cpus != null) {
                ThreadAffinity.pinCurrentThread(cpus);
            }
            Eal.registerThread();      // an lcore id of its own: the pool's per-lcore cache serves its allocs and frees
            w.run();
        } catch (Throwable t) {
            failure.compareAndSet(null, t);
        } finally {
            Eal.unregisterThread();
            if (cpus != null && reservation != null) {
                reservation.leaveWorker();
            }
        }
    }

    /**
     * The CPUs the configuration pins workers to, with every other thread of this process kept off
     * them ({@link CpuReservation}); null when no worker is pinned or the workers' CPUs are all there are.
     */
    private static CpuReservation reserveWorkerCpus(SwitchConfig config) {
        BitSet cpus = workerCpus(config);
        BitSet others = ThreadAffinity.onlineCpus();
        others.andNot(cpus);
        return cpus.isEmpty() || others.isEmpty() ? null : CpuReservation.reserve(cpus);
    }

    /** The union of the CPUs the configuration pins workers to (empty: none pinned). */
    public static BitSet workerCpus(SwitchConfig config) {
        BitSet cpus = new BitSet();
        for (SwitchConfig.Worker w : config.workers()) {
            if (w.cpus() != null) {
                cpus.or(ThreadAffinity.parseCpuList(w.cpus()));
            }
        }
        return cpus;
    }

    /** What {@link #reserveWorkerCpus} does with this configuration on this machine, in one phrase; null: nothing pinned. */
    static String describeReservation(SwitchConfig config) {
        BitSet cpus = workerCpus(config);
        if (cpus.isEmpty()) {
            return null;
        }
        BitSet others = ThreadAffinity.onlineCpus();
        others.andNot(cpus);
        if (others.isEmpty()) {
            return "the workers' CPUs " + ThreadAffinity.format(cpus) + " are every CPU online: the other threads of this"
                    + " process (control, GC, JIT, emulated hosts) run beside them";
        }
        return "CPUs " + ThreadAffinity.format(cpus) + " reserved for the workers: every other thread of this process"
                + " (control, GC, JIT, emulated hosts, and those started later) kept on CPUs " + ThreadAffinity.format(others);
    }

    /**
     * Per-lcore mempool cache: {@value #POOL_CACHE} mbufs (DPDK allows up to 512 and at most
     * size / 1.5), so the worker's bulk allocs and frees stay in its cache instead of the pool's
     * shared ring.
     */
    static int poolCacheFor(int mbufs) {
        return Math.min(POOL_CACHE, mbufs * 2 / 3);
    }

    /** The per-lcore cache size of the packet pool. */
    static final int POOL_CACHE = 256;

    /** Per switch port: the clone port's source and PAUSE mode and station MAC, or null for a port with a device. */
    private static CoreWorker.Clone[] clones(SwitchConfig config) {
        CoreWorker.Clone[] clones = new CoreWorker.Clone[config.ports().size()];
        for (int i = 0; i < clones.length; i++) {
            SwitchConfig.Port p = config.ports().get(i);
            if (p.device() instanceof Device.Clone c) {
                clones[i] = new CoreWorker.Clone(config.portIndex(c.source()), c.pfc(), p.mac());
            }
        }
        return clones;
    }

    /**
     * The core's configuration with each device port's MAC as it was opened (the source of the
     * PFC frames that port sends); a clone port keeps its configured station MAC.
     */
    static CoreConfig withDeviceMacs(CoreConfig core, DpdkPorts ports, EthPort[] ethByPort) {
        for (int p = 0, d = 0; p < ethByPort.length; p++) {
            if (ethByPort[p] != null) {
                core = core.withPortMac(p, ports.ports().get(d++).mac());
            }
        }
        return core;
    }

    /**
     * One line per worker: the ports it owns, where it runs and whether its CPUs are its own
     * ({@link CpuIsolation}); with several, how they share the buffer ({@code cores} null: not
     * started, as {@code run --check} describes it).
     */
    public static void describeWorkers(SwitchConfig config, SwitchWorkers cores, Consumer<String> log) {
        String sleep = config.idleSleepNanos() > 0
                ? ", sleeps up to " + config.idleSleepNanos() / 1000 + " us when idle (poll.idleSleep)" : ", polls without pause";
        CpuIsolation isolation = CpuIsolation.ofThisMachine();
        List<SwitchConfig.Worker> workers = config.workers();
        String reserved = describeReservation(config);
        if (workers.size() == 1) {
            String cpus = workers.getFirst().cpus();
            log.accept("worker: one poll-mode thread owns the switch core and every port" + sleep + "; "
                    + isolation.describe(cpus));
            if (reserved != null) {
                log.accept("cpus: " + reserved);
            }
            return;
        }
        int[] workerOf = config.workerOf();
        for (int w = 0; w < workers.size(); w++) {
            List<String> owned = new ArrayList<>();
            for (int p = 0; p < workerOf.length; p++) {
                if (workerOf[p] == w) {
                    owned.add(config.ports().get(p).name());
                }
            }
            log.accept("worker " + w + ": owns " + String.join(", ", owned) + sleep + "; "
                    + isolation.describe(workers.get(w).cpus()));
        }
        if (reserved != null) {
            log.accept("cpus: " + reserved);
        }
        if (cores != null) {
            log.accept("workers: " + workers.size() + " share one buffer; frames cross between them on rings; "
                    + cores.reserveBytes() + " B of the shared pool reserved for the workers' views of each other (at most "
                    + cores.stalenessBoundBytes() + " B behind per worker); each tells the others the stations it learns");
            if (cores.pauseHandOffNanos() > 0) {
                log.accept(config.core().mmu().scheme() + ": a pause or resume between workers takes up to "
                        + cores.pauseHandOffNanos() / 1000 + " us more (a pass of each), which its threshold takes into"
                        + " the hop's round trip: " + cores.core(0).mmu().scheme().emptyBufferThreshold(0, 0)
                        + " B with one active queue at port " + config.ports().get(0).name());
            }
        }
    }

    private static void describeMmu(SwitchConfig config, Consumer<String> log) {
        MmuConfig m = config.core().mmu();
        StringBuilder lossless = new StringBuilder();
        for (int p = 0; p < MmuConfig.PRIORITIES; p++) {
            if (m.isLossless(p)) {
                lossless.append(lossless.isEmpty() ? "" : ",").append(p);
            }
        }
        log.accept("switch core: scheme " + m.scheme() + ", shared buffer " + m.totalBytes() + " bytes"
                + (m.cellBytes() > 0 ? " in " + m.cellBytes() + "-byte cells" : "") + ", lossless priorities " + lossless
                + ", PFC XOFF quanta " + config.core().pauseQuanta() + " (refreshed at half the pause time, XON = quanta 0)");
        for (int p = 0; p < m.portCount(); p++) {
            log.accept("port " + config.ports().get(p).name() + ": shaped to " + Rates.format(m.port(p).speedBps())
                    + ", headroom " + m.headroomDescription(p));
        }
    }

    private static String describe(SwitchConfig config) {
        var c = config.core().classifier();
        return "trust " + c.trust().name().toLowerCase(java.util.Locale.ROOT) + ", default priority " + c.defaultPriority();
    }

    /**
     * Enough mbufs for full rx and tx rings on every port, the TX buffers and the allocator's
     * stash, and the MMU's whole shared buffer in frames of {@value #POOL_SIZING_FRAME_BYTES}
     * bytes (the core holds one mbuf per queued frame). Smaller frames can fill the pool before
     * the MMU's buffer: the pool-empty count in the log says when that happened.
     */
    static int poolSizeFor(SwitchConfig config) {
        long need = 1024L + mbufsForRings(config) + config.core().mmu().totalBytes() / POOL_SIZING_FRAME_BYTES;
        return (int) Math.min(need, (1 << 22) - 1);
    }

    /**
     * The fewest mbufs a switch receives with: full rx and tx rings on every port, two bursts per
     * port in the TX buffers, and what the threads' pool caches may hold. With fewer, rx rings stay
     * empty and the switch receives nothing ({@code eal.mbufs} is checked against it before EAL starts).
     */
    public static int mbufsForRings(SwitchConfig config) {
        long need = 0;
        for (SwitchConfig.Port p : config.ports()) {
            need += p.rxDescriptors() + p.txDescriptors() + 2L * CoreWorker.BURST;
        }
        need += 2L * 3 * POOL_CACHE / 2;      // what the main thread's and the worker's caches may hold (1.5 x size each)
        return (int) Math.min(need, (1 << 22) - 1);
    }

    /** The first exception the worker died of, or null. */
    public Throwable failure() {
        return failure.get();
    }

    /**
     * The switch's cores, one per worker. Written by the worker threads: read them for status
     * (recent, unordered values) or after {@link #stop}.
     */
    public SwitchWorkers cores() {
        return group.cores();
    }

    /** The worker that owns {@code port}. */
    private CoreWorker ownerOf(int port) {
        return group.workers()[workerOf[port]];
    }

    /**
     * A time on the running core's clock (what its counters and {@link SwitchCore#losslessDropLog} hold) as
     * {@link System#nanoTime()} read it, so it can be set beside what other threads of this JVM timed.
     */
    public long systemNanos(long coreNanos) {
        return group.workers()[0].systemNanos(coreNanos);     // the workers of a switch read one clock
    }

    /** Frames the core sent on {@code port} that the port's TX queue refused after the retries (lost there). */
    public long txRefused(int port) {
        return ownerOf(port).txRefused(port);
    }

    /**
     * Frames the ports' receive rings had no room for since the switch started, all device ports
     * together: {@code imissed}, and for af_packet ports the kernel's ring drops (a worker that fell
     * behind). Control plane: a driver call, and a system call per af_packet socket, per port.
     */
    public long rxMissed() {
        long missed = 0;
        for (int p = 0; p < ethByPort.length; p++) {
            missed += rxMissed(p);
        }
        return missed;
    }

    /** {@link #rxMissed()} of switch port {@code port} (0 for a clone port, which has no ring). */
    public synchronized long rxMissed(int port) {
        EthPort eth = ethByPort[port];
        if (eth == null) {
            return 0;
        }
        return stopped ? shutdown.nicStats().get(port).rxMissed() : eth.stats().rxMissed();   // ports closed: as they last were
    }

    /**
     * Mbufs out of the packet pool now: in rx and tx rings, queued in the buffer, in the workers'
     * hands (0 once stopped with all returned). Control plane: one native call; a running worker's
     * per-lcore cache makes it a moment's count, not an exact one.
     */
    public synchronized int mbufsInUse() {
        return stopped ? shutdown.mbufsInUse() : pool.inUseCount();
    }

    /** The packet pool's size in mbufs. */
    public int poolSize() {
        return pool.size();
    }

    /** Times the core needed an mbuf (PFC frame, flood copy) and the pool was empty. */
    public long allocationFailures() {
        long n = 0;
        for (CoreWorker w : group.workers()) {
            n += w.allocationFailures();
        }
        return n;
    }

    /** The longest time between two poll-loop passes so far (the worst stall), in nanoseconds. */
    public long longestPassNanos() {
        long longest = 0;
        for (CoreWorker w : group.workers()) {
            longest = Math.max(longest, w.longestPassNanos());
        }
        return longest;
    }

    /** The longest poll-loop stall of any worker that began in an idle sleep ({@code poll.idleSleep}); counted in {@link #stalls} too. */
    public long longestHeldPastSleepNanos() {
        long longest = 0;
        for (CoreWorker w : group.workers()) {
            longest = Math.max(longest, w.longestHeldPastSleepNanos());
        }
        return longest;
    }

    /**
     * Poll-loop stalls: for each bound of {@link #STALL_BOUNDS_NANOS}, the passes that began at
     * least that long after the previous one (a PFC refresh due in the gap went out that late).
     */
    public long[] stalls() {
        long[] s = new long[STALL_BOUNDS_NANOS.length];
        for (int b = 0; b < s.length; b++) {
            for (CoreWorker w : group.workers()) {
                s[b] += w.stalls(b);
            }
        }
        return s;
    }

    /** Lower bounds of the {@link #stalls} buckets, in nanoseconds. */
    public static final long[] STALL_BOUNDS_NANOS = CoreWorker.STALL_BOUNDS_NANOS.clone();

    /** Copies a clone port skipped while paused ({@code pfc: skip}), by switch port. */
    public long cloneSkipped(int port) {
        return ownerOf(port).cloneSkipped(port);
    }

    /** Copies a clone port could not make for want of an mbuf, by switch port. */
    public long cloneNoBuffer(int port) {
        return ownerOf(port).cloneNoBuffer(port);
    }

    /** Idle sleeps so far ({@code poll.idleSleep}). */
    public long idleSleeps() {
        long n = 0;
        for (CoreWorker w : group.workers()) {
            n += w.idleSleeps();
        }
        return n;
    }

    /** The worker threads' ids (for their allocation counters). */
    public long[] workerThreadIds() {
        Thread[] t = threads;
        return t == null ? new long[0] : java.util.Arrays.stream(t).mapToLong(Thread::threadId).toArray();
    }

    /** Poll-loop passes so far, every worker's. */
    public long passes() {
        long n = 0;
        for (CoreWorker w : group.workers()) {
            n += w.passes();
        }
        return n;
    }

    public DpdkPorts ports() {
        return ports;
    }

    public Mempool pool() {
        return pool;
    }

    public SwitchConfig config() {
        return config;
    }

    public boolean hugepages() {
        return hugepages;
    }

    /**
     * Stops the worker, frees the frames the core still queues, sends what the TX buffers hold,
     * frees frames still waiting in rx queues, stops and closes the ports, reads the pool's in-use
     * count, frees the pool and cleans EAL up. Counters stay readable through {@link #core()}.
     * Idempotent: a second call returns the first result.
     *
     * @throws IllegalStateException if the worker does not stop within 10 s (nothing is freed then:
     *                               freeing under a running thread would corrupt its buffers)
     */
    public synchronized Shutdown stop() {
        if (stopped) {
            return shutdown;
        }
        int queued = stopCore() + queuedAtReplace;
        stopped = true;
        if (reservation != null) {
            reservation.close();
        }
        long drained = ports.drainRx();
        List<EthStats> nicStats = new ArrayList<>();
        for (EthPort p : ethByPort) {
            nicStats.add(p == null ? null : p.stats());
        }
        ports.close();
        int inUse = pool.inUseCount();
        int size = pool.size();
        if (inUse == 0) {
            arena.close();     // freeing a pool whose mbufs are still out would corrupt them
            Eal.cleanup();
        }
        shutdown = new Shutdown(queued, drained, inUse, size, java.util.Collections.unmodifiableList(nicStats));
        return shutdown;
    }
}

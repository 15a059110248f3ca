package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.core.deadlock.DeadlockWatch;
import org.pfcswitch.core.deadlock.PfcPortState;
import org.pfcswitch.core.deadlock.PublishedPfcPorts;
import org.pfcswitch.mmu.LedgerPeers;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.UpstreamPausing;

/**
 * The switch: frames in, frames out, time passed in. One instance is owned by one thread and
 * reads no clock; every driver (virtual time, DPDK poll loop, a test) feeds it three things:
 *
 * <pre>
 *   core.onFrame(port, handle, now);      // a frame arrived; the core owns the handle from now on
 *   core.onTimer(now);                    // whenever now >= core.nextTimerDue()
 *   sink.transmit(port, handle, len, t)   // the core's output: a frame starts on the line at t
 * </pre>
 *
 * The core is four stages, each owning its state, wired here once:
 * <pre>
 *   ReceiveStage ──▶ AdmissionStage ──▶ EgressStage ──▶ sink
 *   parse, MAC       MMU admit or drop,  queues, scheduler,
 *   control, route   shadows, lossless   shaper, ECN, release
 *        ▲           attribution              │
 *        └────────── LinkControl (PFC or BFC) ◀┘  pauses in and out, watchdog
 * </pre>
 * A received frame is parsed in place; a MAC-control frame goes to the {@link LinkControl}, any
 * other is classified, forwarded by MAC (an ECMP group chosen by flow hash, else static, learned,
 * or flooded), admitted by the MMU and queued at its egress port in the queue the link control
 * picks (the priority under PFC, the flow's queue under BFC). Each port has a shaper at its line
 * rate: when the line is free, the port sends an owed control frame first, else the head of the
 * queue its scheduler picks among those the downstream neighbour has not paused. Leaving frames
 * are ECN-marked when the MMU says so (at the {@link SwitchModel}'s {@link EcnPoint}) and released
 * from the MMU. Pauses towards the upstream neighbours (PFC frames from the MMU's XOFF/XON, or BFC
 * pauses from over-threshold arrivals) are the link control's business; the egress stage only
 * gives them the line first. Shadow schemes ({@link ShadowMmus}, {@link CoreConfig#shadows}) see
 * every admission and release too, and only count. This class is the drivers' entry points, the
 * timers' dispatch, and what operators read.
 *
 * <p>Per-packet state lives in primitive arrays indexed by slot; after warm-up (the first time
 * queues reach their depth) the per-frame path allocates nothing.
 */
public final class SwitchCore implements PfcPortState {

    /** What {@link #nextTimerDue} returns when no timer is set. */
    public static final long NO_TIMER = DeadlineHeap.NEVER;

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;
    private final ReceiveStage receive;
    private final AdmissionStage admission;
    private final EgressStage egress;
    private final LinkControl link;
    private final PfcLink pfcLink;          // null when the scheme pauses per queue (bfc)
    private final BfcLink bfcLink;          // null when the scheme pauses with PFC
    /**
     * Timer ids: {@code port} = the port's line wake-up (the egress stage's), {@code ports + port} =
     * its link timer, {@code 2 * ports} the watchdog's poll, {@code 2 * ports + 1} the deadlock check.
     */
    private final DeadlineHeap timers;
    private final SwitchCounters counters;
    /** The PFC watchdog (watching no port until started, unless the config has one), or null under bfc, which runs no PFC. */
    private final PfcWatchdog watchdog;
    /** The watchdog's settings at start (every port), or null. */
    private final PfcWatchdogConfig watchdogAtStart;
    /** The switch's own deadlock detection, or null (off, under bfc, which runs no PFC, or a worker that does not search). */
    private final DeadlockWatch deadlock;
    /** With several workers and deadlock detection: every port's PFC state as its worker published it, else null. */
    private final PublishedPfcPorts pfcPorts;
    /** This core's worker among the switch's (0 for the whole switch). */
    private final int worker;
    /** The rings to the other workers' cores, or null when this core runs every port. */
    private final WorkerCrossings crossings;
    private long ledgerPublishedAt = Long.MIN_VALUE / 2;
    private final long deadlockCheckNanos;

    /**
     * @param memory    turns the driver's handles into bytes
     * @param allocator buffers for the frames the core builds, and where consumed or dropped frames go
     * @param sink      where transmitted frames go
     * @param random    the MMU's randomness (ECN marking); seed it for reproducible runs
     */
    public SwitchCore(CoreConfig config, PacketMemory memory, FrameAllocator allocator, FrameSink sink,
                      RandomSource random) {
        this(config, SwitchModel.DEFAULT, memory, allocator, sink, random);
    }

    /**
     * A core under the model choices of {@code model} (a simulated switch that behaves as another
     * simulator's does; the live switch runs {@link SwitchModel#DEFAULT}).
     */
    public SwitchCore(CoreConfig config, SwitchModel model, PacketMemory memory, FrameAllocator allocator,
                      FrameSink sink, RandomSource random) {
        this(config, model, memory, allocator, sink, random, null, null, null, null, 0);
    }

    /**
     * Worker {@code worker}'s core of a switch whose ports are split among workers
     * ({@link SwitchWorkers}): it polls, admits and sends for its own ports, hands frames for the
     * others' ports to them through {@code crossings}, and keeps its part of the buffer in a ledger
     * among {@code peers}, and its part of each shadow scheme's in a ledger among {@code shadowPeers[i]};
     * with deadlock detection it publishes its ports' PFC state into {@code pfcPorts}, which worker
     * {@link #DEADLOCK_SEARCHER} searches. All null: the whole switch.
     */
    SwitchCore(CoreConfig config, SwitchModel model, PacketMemory memory, FrameAllocator allocator, FrameSink sink,
               RandomSource random, WorkerCrossings crossings, LedgerPeers peers, LedgerPeers[] shadowPeers,
               PublishedPfcPorts pfcPorts, int worker) {
        this.ports = config.ports();
        this.crossings = crossings;
        this.watchdogAtStart = config.pfcwd();
        this.pfcPorts = pfcPorts;
        this.worker = worker;
        long[] speedBps = new long[ports];
        long[] portMac = new long[ports];
        for (int p = 0; p < ports; p++) {
            speedBps[p] = config.speedBps(p);
            portMac[p] = config.portMac(p);
        }
        this.timers = new DeadlineHeap(2 * ports + 2);
        this.counters = new SwitchCounters(ports);
        // The MMU reports XOFF/XON to the PFC link. The scheme decides which link control the ports
        // run: one that pauses per queue (bfc) raises no XOFF and brings its own backpressure state.
        PfcLink pfc = new PfcLink(speedBps, config.pauseQuanta(), model.pfc(), counters, timers, ports);
        Mmu mmu = Mmu.create(config.mmu(), pfc.mmuListener(), random, peers, worker);
        EgressScheduler scheduler;
        if (config.mmu().upstreamPausing() == UpstreamPausing.PER_QUEUE) {
            this.pfcLink = null;
            BfcLink bfc = BfcLink.of(mmu, config.bfcBitmapPeriodNanos(), counters, timers, ports);
            bfc.connect(crossings);
            this.bfcLink = bfc;
            this.link = bfc;
            this.watchdog = null;
            scheduler = EgressScheduler.fairQueuing(ports, bfc.queuesPerPort(), config.mmu().mtuBytes(),
                    bfc.classBands());
        } else {
            this.pfcLink = pfc;
            this.bfcLink = null;
            this.link = pfc.attach(mmu.flowControl());
            watchdog = new PfcWatchdog(config.pfcwd(), ports, pfc.pauses(), timers, 2 * ports, counters);
            pfc.watchdog(watchdog);
            scheduler = model.scheduling().create(config.schedulers().toArray(SchedulerPolicy[]::new));
        }
        EcnStage ecn = EcnStage.of(model.ecnAt());
        this.admission = new AdmissionStage(config, mmu, peers, shadowPeers, worker, pfcLink, link, ecn, model.frameCost(), memory,
                allocator, random, counters);
        this.egress = new EgressStage(config, speedBps, portMac, ecn, model.frameCost(), memory, allocator, sink, link,
                scheduler, admission, counters, timers);
        admission.connect(egress, crossings, watchdog);
        egress.connect(crossings);
        this.receive = new ReceiveStage(config, model, memory, allocator, link, watchdog, admission, egress, counters);
        receive.connect(crossings);
        if (config.deadlock() != null && pfcLink != null) {
            deadlock = pfcPorts == null ? new DeadlockWatch(this, config.deadlock())
                    : worker == DEADLOCK_SEARCHER ? new DeadlockWatch(pfcPorts, config.deadlock()) : null;
            deadlockCheckNanos = config.deadlock().checkNanos();
            timers.set(deadlockTimer(), deadlockCheckNanos);
        } else {
            deadlock = null;
            deadlockCheckNanos = 0;
        }
    }

    /** With several workers, the worker whose core searches the whole switch for deadlocks. */
    public static final int DEADLOCK_SEARCHER = 0;

    private int deadlockTimer() {
        return 2 * ports + 1;
    }

    // ------------------------------------------------------------------ driver entry points

    /** A frame arrived (its last bit was received) on {@code port} at {@code now}. */
    public void onFrame(int port, long handle, long now) {
        receive.receive(port, handle, now);
    }

    /**
     * {@code count} frames arrived on {@code port} at {@code now}, {@code handles[from]} first (a
     * poll-mode rx burst): the same as {@link #onFrame} for each in turn, with the whole burst
     * parsed before the first goes on (the core owns every handle from now on).
     */
    public void onFrames(int port, long[] handles, int from, int count, long now) {
        receive.receiveBurst(port, handles, from, count, now);
    }

    /** Runs every timer due at or before {@code now}: line wake-ups, pause expiries, link timers. */
    public void onTimer(long now) {
        while (timers.earliest() <= now) {
            int id = timers.earliestId();
            if (id < ports) {
                // No cancel first: serve always ends by setting or cancelling this port's line timer,
                // and moving it down from the top is one sift where cancel-then-set is three.
                egress.serve(id, now);
            } else if (id < 2 * ports) {
                timers.cancel(id);
                link.onTimer(id - ports, now);
            } else if (id == 2 * ports) {
                pollWatchdog(now);
            } else {
                // from now, not from the due time: after a stall the checks do not come in a burst
                timers.set(id, now + deadlockCheckNanos);
                if (pfcPorts != null) {
                    pfcPorts.publish(this, worker, now);
                }
                if (deadlock != null) {
                    deadlock.check(now);
                }
            }
        }
        egress.sendOwedControlFrames(now);
    }

    /**
     * With several workers: takes what the other workers handed this one since the last call (under
     * bfc the pauses they ask of its ports' upstream queues, the releases of frames this worker
     * admitted, the stations they learned, then the frames admitted for its ports) and sends what
     * that allows. Call it once per pass; a no-op for a core that runs every port.
     *
     * @return releases and frames taken (a bounded number per call: call again to take more)
     */
    public int onCrossings(long now) {
        if (crossings == null) {
            return 0;
        }
        int taken = crossings.takeUpstreamPauses(bfcLink, now) + crossings.takeReleases(admission, now)
                + crossings.takeLearned(receive)
                + crossings.takeFrames(egress, now);
        egress.sendOwedControlFrames(now);
        return taken;
    }

    /**
     * With several workers, at the end of every pass: publishes what this worker handed to the
     * others during the pass, and, at most every {@value #LEDGER_PUBLISH_NANOS} ns, its part of the
     * buffer as it is now ({@link LedgerPeers}; it also publishes by itself whenever it has charged a
     * quantum, which is what bounds the others' staleness). Publishing the ledger every pass would
     * have the other workers miss its cache lines on nearly every admission. A no-op for a core that
     * runs every port.
     */
    public void publishToPeers(long now) {
        if (crossings != null) {
            crossings.flush();
            if (now - ledgerPublishedAt >= LEDGER_PUBLISH_NANOS) {
                ledgerPublishedAt = now;
                publishLedgers();
            }
        }
    }

    /** {@link #publishToPeers(long)} with the ledger published now whatever the time (tests, shutdown). */
    public void publishToPeers() {
        if (crossings != null) {
            crossings.flush();
            publishLedgers();
        }
    }

    /** The active MMU's ledger and each shadow's, to the other workers. */
    private void publishLedgers() {
        admission.mmu().ledger().publish();
        if (admission.shadows() != null) {
            admission.shadows().publish();
        }
    }

    /** How stale the others' view of this worker's buffer may get in time when it admits little. */
    static final long LEDGER_PUBLISH_NANOS = 20_000;

    /** When the core next needs {@link #onTimer}, or {@link #NO_TIMER}. */
    public long nextTimerDue() {
        return timers.earliest();
    }

    // ------------------------------------------------------------------ PFC watchdog

    /** The watchdog's poll: a queue newly stormed under action drop loses what it holds; every changed port is served. */
    private void pollWatchdog(long now) {
        if (!watchdog.poll(now)) {
            return;
        }
        for (int port = 0; port < ports; port++) {
            if (watchdog.changed[port] == 0) {
                continue;
            }
            for (int v = watchdog.droppingNow(port); v != 0; v &= v - 1) {
                egress.dropQueue(port, Integer.numberOfTrailingZeros(v), now);
            }
            egress.serve(port, now);
        }
    }

    /**
     * Starts (or changes) the watchdog on {@code port}, for the priorities in {@code priorities},
     * at {@code now}: see {@link PfcWatchdog#start}. A queue restored by the change obeys its
     * neighbour again at once. Call on the thread that owns the core (through its
     * {@link CoreMailbox}, between bursts).
     *
     * @return the priorities whose stormed queue the change restored
     * @throws IllegalStateException the scheme runs no PFC (bfc), so there is nothing to watch
     */
    public int startPfcWatchdog(int port, int priorities, PfcWatchdogConfig config, long now) {
        requireWatchdog();
        java.util.Objects.checkIndex(port, ports);
        if (priorities == 0 || priorities >>> PRIORITIES != 0) {
            throw new IllegalArgumentException("pfcwd priorities: a mask of priorities 0-7, got " + priorities);
        }
        int restored = watchdog.start(port, priorities, java.util.Objects.requireNonNull(config, "config"), now);
        if (restored != 0) {
            egress.serve(port, now);
        }
        return restored;
    }

    /**
     * Stops the watchdog on {@code port} at {@code now}; a queue stormed there is restored first
     * (counted as a restoration) and obeys its neighbour again at once. Call on the thread that
     * owns the core.
     *
     * @return the priorities whose stormed queue was restored
     */
    public int stopPfcWatchdog(int port, long now) {
        requireWatchdog();
        java.util.Objects.checkIndex(port, ports);
        int restored = watchdog.stop(port, now);
        if (restored != 0) {
            egress.serve(port, now);
        }
        return restored;
    }

    private void requireWatchdog() {
        if (watchdog == null) {
            throw new IllegalStateException("the PFC watchdog needs a scheme that runs PFC; "
                    + admission.mmu().schemeName() + " pauses per queue (BFC)");
        }
    }

    /** Where the watchdog reports storms and restorations (on the thread that owns the core); null for none. */
    public void pfcWatchdogListener(PfcWatchdogListener listener) {
        if (watchdog != null) {
            watchdog.listener(listener);
        }
    }

    /**
     * The watchdog's storms and restorations as a ring another thread drains (the live switch logs
     * them from its main thread), or null under a scheme that runs no PFC.
     */
    public PfcWatchdogEvents pfcWatchdogEvents() {
        return watchdog == null ? null : watchdog.events;
    }

    /** The watchdog's settings in the switch's config (every port from the start), or null when it had none. */
    public PfcWatchdogConfig pfcWatchdog() {
        return watchdogAtStart;
    }

    /** The watchdog's settings on {@code port} now, or null when the port is not watched. */
    public PfcWatchdogConfig pfcWatchdog(int port) {
        return watchdog == null ? null : watchdog.settings(port);
    }

    /** The priorities the watchdog watches on {@code port} (a mask; 0 when the port is not watched). */
    public int pfcWatchdogPriorities(int port) {
        return watchdog == null ? 0 : watchdog.watchedMask[port];
    }

    /** Whether the watchdog has declared egress queue {@code (port, priority)} stormed. */
    public boolean isStormed(int port, int priority) {
        return watchdog != null && watchdog.isStormed(port, priority);
    }

    // ------------------------------------------------------------------ shutdown and MMU changes

    /**
     * Shutdown: takes every frame out of the egress queues, releases it from the MMU and gives its
     * buffer back to the allocator, so the driver can check that no buffer is missing. The core
     * sends nothing more for these frames; call it once the driver has stopped feeding the core.
     *
     * @return frames discarded
     */
    public int discardQueuedFrames(long now) {
        return egress.discardQueuedFrames(now);
    }

    /**
     * Puts the buffer under another MMU configuration (a scheme or parameter change) at {@code now},
     * keeping every frame: what a lab does between runs without restarting the switch.
     *
     * <ul>
     * <li>Frames already queued stay queued, in order. The new MMU takes each over with
     *     {@link Mmu#adopt} (charged where the new scheme puts it; never dropped), so its ledger
     *     holds exactly the bytes in the buffer, and they are released from it as they leave.</li>
     * <li>PFC follows the new scheme at once: an ingress queue the adoption puts over the new XOFF
     *     threshold is paused (a PFC frame goes out), and one the old MMU held paused but the new
     *     one does not is resumed (XON). Pauses received from neighbours are kept.</li>
     * <li>The MMU's own counters (drops, lossless violations, admitted) start again from 0; the
     *     core's counters go on.</li>
     * <li>Shadow schemes are not touched: they never depended on the active MMU, so their ledgers
     *     (the queued frames they admitted), counters and parameters go on.</li>
     * </ul>
     *
     * @throws IllegalArgumentException the port count differs, or either scheme pauses per queue
     *                                  (bfc: its link control and queue structure differ: restart
     *                                  the core instead)
     */
    public void changeMmu(MmuConfig next, long now) {
        checkLiveChange(next);
        Mmu old = admission.mmu();
        Mmu fresh = admission.install(next);
        egress.adoptQueuedFrames(fresh, now);
        resumeAfterChange(old, now);
    }

    /**
     * Whether this core can take {@code next} live ({@link #changeMmu}); says why not.
     *
     * @throws IllegalArgumentException the port count differs, or either scheme pauses per queue
     */
    void checkLiveChange(MmuConfig next) {
        if (next.portCount() != ports) {
            throw new IllegalArgumentException("the new MMU has " + next.portCount() + " ports, the switch " + ports);
        }
        if (pfcLink == null || next.upstreamPausing() != UpstreamPausing.PFC) {
            String other = pfcLink == null ? admission.mmu().scheme().name() : next.scheme();
            throw new IllegalArgumentException(other + " runs its own link control and queues: a change to or from "
                    + other + " needs a new core (restart the switch with --scheme), not a live change");
        }
    }

    /** XON for what {@code old} paused and the MMU now in force does not, and the PFC frames that are owed. */
    private void resumeAfterChange(Mmu old, long now) {
        admission.resumeWhatItNoLongerPauses(old, ports, now);
        egress.sendOwedControlFrames(now);
    }

    // The steps of a change on several workers, in the order WorkersMmuChange runs them on each worker's thread.

    /** Takes every frame the other workers handed this one into its queues (they have stopped). */
    void takeAllCrossingFrames(long now) {
        crossings.takeAllFrames(egress, now);
    }

    /** Takes every release the other workers sent into the MMU in force (they have stopped and sent their last). */
    void takeAllCrossingReleases(long now) {
        crossings.takeAllReleases(admission, now);
    }

    /** {@code next}'s MMU for this worker, built, not yet in force. */
    Mmu buildMmu(MmuConfig next) {
        return admission.build(next);
    }

    /**
     * Puts {@code fresh} in force and has it adopt every queued frame that arrived on this worker's
     * ports, wherever it is queued ({@code cores}: every worker's, all stopped); publishes the new ledger.
     *
     * @return the MMU it replaced
     */
    Mmu installAndAdopt(Mmu fresh, MmuConfig next, SwitchCore[] cores, int[] workerOf, int worker, long now) {
        Mmu old = admission.mmu();
        admission.install(fresh, next);
        for (SwitchCore c : cores) {
            c.egress.adoptQueuedFrames(fresh, now, workerOf, worker);
        }
        fresh.ledger().publish();
        return old;
    }

    /** The last step of a change on several workers: see {@link #resumeAfterChange}. */
    void finishChange(Mmu old, long now) {
        resumeAfterChange(old, now);
    }

    // ------------------------------------------------------------------ observation

    @Override
    public int ports() {
        return ports;
    }

    public Mmu mmu() {
        return admission.mmu();
    }

    /** The shadow schemes, or null when there are none. */
    public ShadowMmus shadows() {
        return admission.shadows();
    }

    public SwitchCounters counters() {
        return counters;
    }

    /**
     * Restarts the watermarks of every ingress priority group and egress queue from what each holds
     * now ({@link SwitchCounters#maxIngressBytes}, {@link SwitchCounters#maxQueueBytes}). Call on the
     * thread that owns the core, e.g. in a {@link CoreMailbox} task right after a snapshot, so no
     * maximum between the two is lost.
     */
    public void resetWatermarks() {
        admission.resetWatermarks();
    }

    /** The lossless drops frame by frame, with what each episode's headroom was filled from. */
    public LosslessDropLog losslessDropLog() {
        return admission.losslessDropLog();
    }

    public ForwardingTable forwardingTable() {
        return receive.forwardingTable();
    }

    /** MAC moves and denied moves seen on this core's ports, rate-limited, for the live switch's log. */
    public MacMoveEvents macMoveEvents() {
        return receive.moveEvents();
    }

    public long speedBps(int port) {
        return egress.speedBps(port);
    }

    /** Frames waiting in egress queue {@code (port, queue)} (the queue is the priority under PFC). */
    public int queuedFrames(int port, int queue) {
        return egress.queuedFrames(port, queue);
    }

    /** Bytes waiting in egress queue {@code (port, queue)} (the queue is the priority under PFC). */
    @Override
    public long queuedBytes(int port, int queue) {
        return egress.queuedBytes(port, queue);
    }

    /** Bytes waiting in all of {@code port}'s egress queues. */
    public long queuedBytes(int port) {
        return egress.queuedBytes(port);
    }

    /** Egress queues per port: 8 priorities under PFC, the per-flow queues under BFC. */
    public int queuesPerPort() {
        return egress.queuesPerPort();
    }

    /** Frames the core holds in its egress queues. */
    public int framesHeld() {
        return egress.framesHeld();
    }

    /** Whether the downstream neighbour keeps egress queue {@code (port, queue)} from starting a frame at {@code now}. */
    @Override
    public boolean isPaused(int port, int queue, long now) {
        return link.pausedMask(port, 1 << queue, now) != 0;
    }

    /**
     * Whether the switch currently advertises XOFF for ingress {@code (port, priority)}: it is pausing
     * the upstream neighbour behind {@code port} on that priority (read-only, allocation-free).
     */
    @Override
    public boolean isAdvertisingXoff(int port, int priority) {
        return admission.mmu().flowControl().isAdvertisedXoff(port, priority);
    }

    /** Time egress queue {@code (port, queue)} has spent paused by its downstream neighbour, up to {@code now}. */
    public long pausedNanos(int port, int queue, long now) {
        return link.pausedNanos(port, queue, now);
    }

    /** Control frames {@code port} sent that paused its upstream neighbour (PFC XOFF or BFC PAUSE frames). */
    public long pauseFramesSent(int port) {
        return link.pauseFramesSent(port);
    }

    /** Whether the sender behind {@code port} ignores the PFC frames the switch sends it ({@link CoreConfig#senderIgnoresPfc}). */
    public boolean senderIgnoresPfc(int port) {
        return admission.senderIgnoresPfc(port);
    }

    /**
     * Lossless frames dropped at admission since the core started (across MMU changes, unlike
     * {@link Mmu#losslessViolations}), from senders that ignore PFC ({@code ignoring}) or from
     * senders that obey it. A violation of an obeying sender's frame is the switch's fault (headroom
     * too small, a scheme that pauses too late); one of an ignoring sender's is not.
     */
    public long losslessViolations(boolean ignoring) {
        long n = 0;
        for (int port = 0; port < ports; port++) {
            if (admission.senderIgnoresPfc(port) == ignoring) {
                for (int q = 0; q < PRIORITIES; q++) {
                    n += counters.losslessDrops[port * PRIORITIES + q];
                }
            }
        }
        return n;
    }

    /** The source MAC of the PFC frames {@code port} sends (its own MAC). */
    @Override
    public long portMac(int port) {
        return egress.portMac(port);
    }

    /**
     * The source MAC of the last PFC or PAUSE frame received on {@code port} (0: none yet, or under
     * bfc): the MAC of the neighbour's port that pauses this port's egress.
     */
    @Override
    public long pfcSenderMac(int port) {
        return pfcLink == null ? 0 : pfcLink.senderMac(port);
    }

    /** Whether this switch pauses its neighbours with PFC (every scheme but bfc, whose pauses are per upstream queue). */
    public boolean pausesWithPfc() {
        return pfcLink != null;
    }

    /**
     * What the deadlock detection reads of the switch: this core, or with several workers every
     * port as its worker last published it ({@link PublishedPfcPorts}).
     */
    public PfcPortState deadlockView() {
        return pfcPorts != null ? pfcPorts : this;
    }

    /** The switch's deadlock detection, or null when it is off (or, with several workers, on all but worker 0's core). */
    public DeadlockWatch deadlockWatch() {
        return deadlock;
    }

    /** When the frame now on {@code port}'s line has left it (in the past when the line is idle). */
    public long lineFreeAt(int port) {
        return egress.lineFreeAt(port);
    }
}

package org.pfcswitch.core;

import java.util.Arrays;

import org.pfcswitch.core.deadlock.PublishedPfcPorts;
import org.pfcswitch.core.ring.SpscLongRing;
import org.pfcswitch.mmu.LedgerPeers;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.UpstreamPausing;

/**
 * One switch whose ports are split among N workers, each a thread of its own running a
 * {@link SwitchCore} for its ports: it polls them, runs the receive and admission stages for
 * frames arriving there, and owns their egress (queues, scheduler, shaper, PFC in and out). Frames
 * and releases cross between workers on single-producer single-consumer rings
 * ({@link WorkerCrossings}); the buffer stays one shared buffer, kept in one ledger per worker
 * ({@link LedgerPeers}): exact for each worker's own ingress queues, the switch-wide and egress
 * views stale by a bound that is reserved from the shared pool ({@link #reserveBytes}).
 *
 * <p>A driver runs each core on its worker's thread as it runs a single core, and once per pass
 * also calls {@link SwitchCore#onCrossings} (before its rx bursts) and
 * {@link SwitchCore#publishToPeers} (after them). With one worker this is a single core and nothing
 * else: no rings, no peers, no reserve.
 *
 * <p>What a scheme sees across workers: its per-ingress-queue state (bytes, headroom, XOFF, SPFC's
 * victim state and departure rates, Reverie's filtered lengths, DSH's per-port insurance) is exact,
 * since one worker admits and releases for each ingress port, though releases of frames that left
 * by another worker's port arrive a pass late (the queue looks longer for that long, which can only
 * pause earlier or resume later); the switch-wide pools and the egress queue lengths (DT's free
 * space, SONiC's and Reverie's pools, DSH's shared pool, RED's queue length) are the worker's own
 * bytes plus what the others last published.
 *
 * <p>Under bfc a queue's per-flow state (flow table, queue lengths, pauses received) lives with the
 * egress port's worker and the pauses sent upstream with the ingress port's ({@link BfcLink}); an
 * egress worker's pause or resume of another worker's port waits for that worker's next pass, and
 * the frames it judges waited for the egress worker's, so the hop's round trip is longer by up to
 * one pass of each ({@link #handOffNanos}), which BFC's threshold takes in as it takes in the
 * cable's ({@code handOffNs}).
 */
public final class SwitchWorkers {

    /** What a worker charges before it publishes its ledger to the others (and the bulk of the staleness bound). */
    public static final long PUBLISH_QUANTUM_BYTES = 32 * 1024;

    /**
     * The work of one busy pass of a live worker: at most one rx burst (32 frames) from each of its
     * ports and 256 records from each ring at the core's 100-200 ns a frame, for a worker of a few
     * ports. A pass that takes longer is a stall: it delays a pause as a stall of one worker does.
     */
    public static final long BUSY_PASS_NANOS = 20_000;

    /** The bfc parameter that lengthens the hop's round trip by the hand-off between workers. */
    static final String HAND_OFF_PARAMETER = "handOffNs";

    private final SwitchCore[] cores;
    private final int[] workerOf;
    private final LedgerPeers peers;
    private final long pauseHandOffNanos;

    private SwitchWorkers(SwitchCore[] cores, int[] workerOf, LedgerPeers peers, long pauseHandOffNanos) {
        this.cores = cores;
        this.workerOf = workerOf;
        this.peers = peers;
        this.pauseHandOffNanos = pauseHandOffNanos;
    }

    /**
     * Builds the workers' cores.
     *
     * @param workerOf     by switch port, the worker that owns it (0 to N-1, each worker at least one port)
     * @param allocators   by worker, where its core gets and frees frame buffers (one per thread)
     * @param sinks        by worker, where its core transmits
     * @param randoms      by worker, its MMU's randomness
     * @param ringCapacity records each ring between two workers holds: at least every frame the switch
     *                     can hold at once (the packet pool), rounded up to a power of two
     * @param passNanos    the longest pass of a worker the switch is sized for (not a stall): the longest
     *                     a worker takes to act on what another handed it ({@link #passNanos(long)})
     * @throws IllegalArgumentException a bad partition
     */
    public static SwitchWorkers create(CoreConfig config, SwitchModel model, int[] workerOf, PacketMemory memory,
                                       FrameAllocator[] allocators, FrameSink[] sinks, RandomSource[] randoms,
                                       int ringCapacity, long passNanos) {
        int workers = check(config, workerOf);
        if (allocators.length != workers || sinks.length != workers || randoms.length != workers) {
            throw new IllegalArgumentException("one allocator, sink and random source per worker");
        }
        int[] owner = workerOf.clone();
        if (workers == 1) {
            return new SwitchWorkers(new SwitchCore[] {
                    new SwitchCore(config, model, memory, allocators[0], sinks[0], randoms[0])}, owner, null, 0);
        }
        MmuConfig mmu = config.mmu();
        long maxCharged = model.frameCost().bufferBytes(mmu.mtuBytes() + 64);   // an MTU of payload with its headers
        if (mmu.cellBytes() > 0) {
            maxCharged = (maxCharged + mmu.cellBytes() - 1) / mmu.cellBytes() * mmu.cellBytes();
        }
        LedgerPeers peers = new LedgerPeers(workers, config.ports(), PUBLISH_QUANTUM_BYTES, maxCharged);
        LedgerPeers[] shadowPeers = new LedgerPeers[config.shadows().size()];
        for (int i = 0; i < shadowPeers.length; i++) {
            shadowPeers[i] = new LedgerPeers(workers, config.ports(), PUBLISH_QUANTUM_BYTES, maxCharged);
        }
        MmuConfig.Builder shared = mmu.toBuilder().totalBytes(mmu.totalBytes() - peers.reserveBytes());
        boolean perQueue = mmu.upstreamPausing() == UpstreamPausing.PER_QUEUE;
        if (perQueue && !mmu.parametersOf(mmu.scheme()).containsKey(HAND_OFF_PARAMETER)) {
            shared.schemeParameter(mmu.scheme(), HAND_OFF_PARAMETER, Long.toString(handOffNanos(passNanos)));
        }
        MmuConfig sharedMmu = shared.build();
        long handOff = perQueue ? Long.parseLong(sharedMmu.parametersOf(mmu.scheme()).get(HAND_OFF_PARAMETER)) : 0;
        CoreConfig reserved = config.withMmu(sharedMmu);
        int capacity = Integer.highestOneBit(Math.max(2, ringCapacity) - 1) << 1;
        SpscLongRing[][] frames = new SpscLongRing[workers][workers];
        SpscLongRing[][] releases = new SpscLongRing[workers][workers];
        SpscLongRing[][] learned = new SpscLongRing[workers][workers];
        SpscLongRing[][] pauses = perQueue ? new SpscLongRing[workers][workers] : null;
        for (int from = 0; from < workers; from++) {
            for (int to = 0; to < workers; to++) {
                if (from != to) {
                    frames[from][to] = new SpscLongRing(capacity, WorkerCrossings.FRAME_LONGS);
                    releases[from][to] = new SpscLongRing(capacity, WorkerCrossings.RELEASE_LONGS);
                    learned[from][to] = new SpscLongRing(WorkerCrossings.LEARNED_CAPACITY, WorkerCrossings.LEARNED_LONGS);
                    if (perQueue) {
                        pauses[from][to] = new SpscLongRing(2 * capacity, WorkerCrossings.PAUSE_LONGS);
                    }
                }
            }
        }
        PublishedPfcPorts pfcPorts = config.deadlock() == null ? null : new PublishedPfcPorts(owner);
        SwitchCore[] cores = new SwitchCore[workers];
        for (int w = 0; w < workers; w++) {
            WorkerCrossings crossings = new WorkerCrossings(w, owner, frames[w], releases[w], learned[w],
                    perQueue ? pauses[w] : null, column(frames, w), column(releases, w), column(learned, w),
                    perQueue ? column(pauses, w) : null);
            cores[w] = new SwitchCore(reserved, model, memory, allocators[w], sinks[w], randoms[w], crossings, peers,
                    shadowPeers, pfcPorts, w);
        }
        return new SwitchWorkers(cores, owner, peers, handOff);
    }

    /** The rings into worker {@code w}, by the worker they come from. */
    private static SpscLongRing[] column(SpscLongRing[][] rings, int w) {
        SpscLongRing[] into = new SpscLongRing[rings.length];
        for (int from = 0; from < rings.length; from++) {
            into[from] = rings[from][w];
        }
        return into;
    }

    /** Validates a partition of the ports among workers and what the config asks of them; returns the worker count. */
    static int check(CoreConfig config, int[] workerOf) {
        if (workerOf.length != config.ports()) {
            throw new IllegalArgumentException("the worker partition names " + workerOf.length + " ports, the switch has "
                    + config.ports());
        }
        int workers = Arrays.stream(workerOf).max().orElse(0) + 1;
        int[] owned = new int[workers];
        for (int p = 0; p < workerOf.length; p++) {
            if (workerOf[p] < 0) {
                throw new IllegalArgumentException("port " + p + " has no worker");
            }
            owned[workerOf[p]]++;
        }
        for (int w = 0; w < workers; w++) {
            if (owned[w] == 0) {
                throw new IllegalArgumentException("worker " + w + " owns no port: give each worker at least one");
            }
        }
        return workers;
    }

    /**
     * {@code passNanos} of {@link #create} for the live worker loop: one busy pass, and the idle
     * sleep a pass that found nothing takes before the next ({@code poll.idleSleep}, 0 when it polls
     * without pause).
     */
    public static long passNanos(long idleSleepNanos) {
        return idleSleepNanos + BUSY_PASS_NANOS;
    }

    /**
     * How much longer BFC's pause loop is when its frames cross between workers, with passes of up
     * to {@code passNanos}: a frame from another worker's port waits in the frame ring up to one
     * pass of its egress worker before its queue's length decides a pause, and the pause waits in
     * the pause ring up to one pass of the ingress worker before it goes upstream; a resume and the
     * data it lets through take the same two hand-offs the other way.
     */
    static long handOffNanos(long passNanos) {
        return 2 * passNanos;
    }

    public int workers() {
        return cores.length;
    }

    /** Worker {@code w}'s core: only that worker's thread may call it. */
    public SwitchCore core(int w) {
        return cores[w];
    }

    /** The worker that owns {@code port}. */
    public int workerOf(int port) {
        return workerOf[port];
    }

    /** By port, the worker that owns it (not a copy: read only). */
    int[] workerOfPorts() {
        return workerOf;
    }

    /**
     * A live change of every worker's MMU to {@code next}, for each worker to run on its thread
     * ({@link WorkersMmuChange}).
     *
     * @throws IllegalArgumentException the change cannot be made live
     */
    public WorkersMmuChange mmuChange(MmuConfig next) {
        return new WorkersMmuChange(this, next);
    }

    /** Bytes reserved from the shared pool for the staleness of the workers' views (0 with one worker). */
    public long reserveBytes() {
        return peers == null ? 0 : peers.reserveBytes();
    }

    /**
     * How much longer a per-queue scheme's (bfc's) pause loop is for a frame and pause that cross
     * between workers, which its threshold takes in (0 with one worker or a scheme that pauses with PFC).
     */
    public long pauseHandOffNanos() {
        return pauseHandOffNanos;
    }

    /** How far one worker's published counters can lag its own (0 with one worker). */
    public long stalenessBoundBytes() {
        return peers == null ? 0 : peers.stalenessBoundBytes();
    }

    // ------------------------------------------------------------------ the whole switch, read from another thread

    /** The core that owns {@code port}. */
    public SwitchCore ownerOf(int port) {
        return cores[workerOf[port]];
    }

    /**
     * Every worker's counters added up ({@link SwitchCounters#addFrom}), into a new copy. From a
     * thread other than the workers' the values are recent and unordered, as a single core's are.
     */
    public SwitchCounters counters() {
        SwitchCounters sum = new SwitchCounters(cores[0].ports());
        sum.copyFrom(cores[0].counters());
        for (int w = 1; w < cores.length; w++) {
            sum.addFrom(cores[w].counters());
        }
        return sum;
    }

    /** Bytes the shared buffer holds: every worker's own part added up. */
    public long bufferUsed() {
        long used = 0;
        for (SwitchCore c : cores) {
            used += c.mmu().ledger().ownTotalUsed();
        }
        return used;
    }

    /** Lossless frames the MMUs dropped since their last scheme change, every worker. */
    public long mmuLosslessViolations() {
        long n = 0;
        for (SwitchCore c : cores) {
            n += c.mmu().losslessViolations();
        }
        return n;
    }

    /** {@link SwitchCore#losslessViolations(boolean)} of every worker. */
    public long losslessViolations(boolean ignoring) {
        long n = 0;
        for (SwitchCore c : cores) {
            n += c.losslessViolations(ignoring);
        }
        return n;
    }

    /** Stations in the forwarding tables: the largest worker's (each worker learns from its own ports). */
    public int forwardingTableSize() {
        int n = 0;
        for (SwitchCore c : cores) {
            n = Math.max(n, c.forwardingTable().size());
        }
        return n;
    }
}

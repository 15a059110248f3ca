package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.FlowControlListener;
import org.pfcswitch.mmu.LedgerPeers;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.Verdict;

/**
 * The admission stage: a routed frame is charged to the shared buffer or dropped. The MMU's scheme
 * decides; the shadow schemes see the same arrival and only count; a dropped lossless frame is
 * counted with what its drop says about the cause (before or after the XOFF that should have
 * stopped it); an admitted frame goes to the {@link EgressStage} queue the link control picks, of
 * this worker or, through {@link WorkerCrossings}, of the worker that owns the egress port.
 * Leaving frames come back here to be released ({@link #release}), and the RED/ECN decision is the
 * MMU's ({@link #markEcn}).
 *
 * <p><b>Owns</b>: the active MMU (its ledger, thresholds and XOFF state; replaced only by
 * {@link #install}), the shadows, the drop and lossless-attribution counters, the
 * {@link LosslessDropLog} and the buffer watermarks. <b>Reads</b>: the PFC watchdog's stormed queues.
 */
final class AdmissionStage {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final PacketMemory memory;
    private final MemorySegment bytes;
    private final FrameAllocator allocator;
    private final LinkControl link;
    /** The PFC link the MMU's XOFF/XON go to, or null when the scheme pauses per queue (bfc). */
    private final PfcLink pfcLink;
    private final RandomSource random;
    /** Shadow schemes ({@link CoreConfig#shadows}), or null when there are none: one test per packet. */
    private final ShadowMmus shadows;
    private final EcnStage ecnStage;
    private final FrameCost frameCost;        // what a frame is charged in the MMU
    private final SwitchCounters counters;
    private final LosslessDropLog dropLog;
    /** By ingress port: the sender there does not obey PFC ({@link CoreConfig#senderIgnoresPfc}). */
    private final boolean[] senderIgnoresPfc;
    /** Replaced only by {@link #install}, between two driver calls, on the thread that owns the core. */
    private Mmu mmu;
    private final LedgerPeers peers;
    private final int worker;
    /** The MMU's lossless priorities (follows {@link #install}). */
    private int losslessMask;
    /** {@link Mmu#passesPrivateUncharged} of the MMU in force (follows {@link #install}). */
    private boolean passUncharged;
    /** The PFC watchdog, or null under bfc, which runs no PFC. */
    private PfcWatchdog watchdog;
    private EgressStage egress;
    /** The rings to the other workers, or null when one worker runs every port. */
    private WorkerCrossings crossings;

    /**
     * @param peers       the other workers' ledgers when the switch's ports are split among workers, else null
     * @param shadowPeers by shadow scheme, the other workers' ledgers of that shadow; null with {@code peers}
     * @param worker      this worker's index among {@code peers}
     */
    AdmissionStage(CoreConfig config, Mmu mmu, LedgerPeers peers, LedgerPeers[] shadowPeers, int worker, PfcLink pfcLink,
                   LinkControl link,
                   EcnStage ecnStage, FrameCost frameCost, PacketMemory memory, FrameAllocator allocator,
                   RandomSource random, SwitchCounters counters) {
        this.mmu = mmu;
        this.peers = peers;
        this.worker = worker;
        this.pfcLink = pfcLink;
        this.link = link;
        this.ecnStage = ecnStage;
        this.frameCost = frameCost;
        this.memory = memory;
        this.bytes = memory.bytes();
        this.allocator = allocator;
        this.random = random;
        this.counters = counters;
        this.shadows = config.shadows().isEmpty() ? null
                : ShadowMmus.create(config.mmu(), config.shadows(), shadowPeers, worker);
        this.dropLog = new LosslessDropLog(config.ports() * PRIORITIES);
        this.losslessMask = config.mmu().losslessPriorityMask();
        this.passUncharged = mmu.passesPrivateUncharged();
        this.senderIgnoresPfc = config.senderIgnoresPfc();
    }

    /**
     * Wiring, once, before the first frame: where admitted frames go (this worker's egress, or
     * another worker's through {@code crossings}, null with one worker) and which queues are stormed.
     */
    void connect(EgressStage egress, WorkerCrossings crossings, PfcWatchdog watchdog) {
        this.egress = egress;
        this.crossings = crossings;
        this.watchdog = watchdog;
    }

    /**
     * MMU admission, then the egress queue the link control picks; a refused frame is dropped and
     * counted. The MMU accounts egress bytes per (port, priority) whatever the physical queue.
     * What only some frames need (drops, the first headroom frame, a hand-over to another worker)
     * and each of the two ways on (passed, charged) are in methods of their own, so that each stays
     * under the JIT's hot-method inlining limit (325 bytecodes) and inlines into the receive path.
     *
     * <p>A frame that goes straight to an idle line of this worker ({@link EgressStage#sendsAtOnce})
     * and that the MMU places in the private segment of a queue holding private bytes only passes
     * uncharged when the scheme allows it ({@link Mmu#admit(int, int, int, int, int, long, boolean)},
     * {@link Verdict#PASSED}): its charge would be released before anything else happens, so only
     * what reads the buffer in between (ECN, the watermarks) sees it, by adding its bytes.
     */
    void admit(ParsedFrame frame, int inPort, int priority, int outPort, long handle, int length, short ipv4Offset,
               long now) {
        if (watchdog != null && watchdog.drops(outPort, priority)) {
            counters.pfcwdDrops[outPort * PRIORITIES + priority]++;     // a stormed queue, action drop
            allocator.free(handle);
            return;
        }
        long flowWord = link.flowWord(frame);
        boolean local = crossings == null || crossings.owns(outPort);
        // A frame for another worker's port gets its queue there: that worker keeps the queues' per-flow state.
        int queue = local ? link.queueFor(flowWord, priority, outPort, now) : 0;
        int charged = frameCost.bufferBytes(length);
        boolean atOnce = passUncharged && local && egress.sendsAtOnce(outPort, queue, now);
        int verdict = mmu.admit(inPort, priority, outPort, priority, charged, now, atOnce);
        int shadowsHeld = shadows == null ? 0 : shadows.admit(inPort, priority, outPort, priority, charged, now, verdict);
        if (verdict == Verdict.PASSED) {
            passed(inPort, priority, outPort, queue, handle, length, charged, ipv4Offset, shadowsHeld, now);
            return;
        }
        if (!Verdict.isAdmitted(verdict)) {
            dropped(frame, inPort, priority, verdict, handle, now);
            return;
        }
        charged(frame, flowWord, inPort, priority, outPort, queue, handle, length, charged, ipv4Offset, shadowsHeld,
                verdict, now);
    }

    /** A frame charged to the buffer goes to its egress queue, of this worker or another's. */
    private void charged(ParsedFrame frame, long flowWord, int inPort, int priority, int outPort, int queue, long handle,
                         int length, int charged, short ipv4Offset, int shadowsHeld, int verdict, long now) {
        if (verdict == Verdict.HEADROOM) {
            headroomAdmitted(frame, inPort, priority, charged, now);
        }
        if (ipv4Offset >= 0) {
            ecnStage.admitted(this, outPort, priority, memory.offset(handle) + ipv4Offset);
        }
        recordWatermarks(inPort * PRIORITIES + priority, outPort * PRIORITIES + priority, 0);
        if (crossings == null || crossings.owns(outPort)) {
            egress.admitted(flowWord, inPort, priority, outPort, queue, handle, length, ipv4Offset, shadowsHeld, now);
        } else {
            handOver(flowWord, inPort, priority, outPort, handle, length, ipv4Offset, shadowsHeld, now);
        }
    }

    /**
     * A frame the MMU let pass uncharged goes on the line at once: what happens to an admitted frame
     * that leaves at once, in the same order, with its bytes added where the buffer is read while
     * it would be charged (ECN at enqueue and dequeue, the watermarks).
     */
    private void passed(int inPort, int priority, int outPort, int queue, long handle, int length, int charged,
                        short ipv4Offset, int shadowsHeld, long now) {
        long inBuffer = mmu.chargedBytes(charged);          // whole cells, as the ledger would hold it
        if (ipv4Offset >= 0) {
            ecnStage.passing(this, outPort, priority, memory.offset(handle) + ipv4Offset, inBuffer);
        }
        recordWatermarks(inPort * PRIORITIES + priority, outPort * PRIORITIES + priority, inBuffer);
        if (shadows != null) {
            shadows.release(shadowsHeld, inPort, priority, outPort, priority, charged, now);
        }
        egress.sendAtOnce(outPort, priority, queue, handle, length, now);
    }

    /**
     * The most bytes ingress priority group {@code pg}, egress queue {@code q} and the whole buffer
     * held, after an admission (the only time any of them grows); {@code uncharged} bytes of a passing
     * frame are in the buffer besides the ledger's. Each stores only on a new maximum: rarely, once
     * the buffer has filled.
     */
    private void recordWatermarks(int pg, int q, long uncharged) {
        BufferLedger ledger = mmu.ledger();
        long held = ledger.ingressBytes(pg) + uncharged;
        long[] maxIngress = counters.maxIngressBytes;
        if (held > maxIngress[pg]) {
            maxIngress[pg] = held;
        }
        long queued = ledger.egressBytes(q) + uncharged;
        long[] maxQueue = counters.maxQueueBytes;
        if (queued > maxQueue[q]) {
            maxQueue[q] = queued;
        }
        long used = ledger.totalUsed() + uncharged;
        if (used > counters.maxBufferBytes) {
            counters.maxBufferBytes = used;
        }
    }

    /**
     * Starts the per-group and per-queue watermarks again from what each holds now (an operator's
     * clear; the buffer-wide maximum keeps counting since start).
     */
    void resetWatermarks() {
        BufferLedger ledger = mmu.ledger();
        for (int k = 0; k < counters.maxIngressBytes.length; k++) {
            counters.maxIngressBytes[k] = ledger.ingressBytes(k);
            counters.maxQueueBytes[k] = ledger.egressBytes(k);
        }
    }

    /** The MMU refused the frame: counted by reason (and, lossless, with its cause) and freed. */
    private void dropped(ParsedFrame frame, int inPort, int priority, int verdict, long handle, long now) {
        counters.drops[(inPort * PRIORITIES + priority) * Verdict.DROP_REASONS + Verdict.dropIndex(verdict)]++;
        if ((losslessMask >>> priority & 1) != 0) {
            recordLosslessDrop(frame, inPort, priority, verdict, now);
        }
        allocator.free(handle);
    }

    /** A frame charged to headroom: the first since the queue's headroom was last empty is what its overflow is judged from. */
    private void headroomAdmitted(ParsedFrame frame, int inPort, int priority, int charged, long now) {
        int k = inPort * PRIORITIES + priority;
        if (mmu.ledger().ingressHeadroom(k) == charged) {
            dropLog.headroomAdmitted(k, frame.destQp(), frame.psn(), now);
        }
    }

    /** An admitted frame for another worker's port goes on the frame ring to it (released at once if the ring is full). */
    private void handOver(long flowWord, int inPort, int priority, int outPort, long handle, int length,
                          short ipv4Offset, int shadowsHeld, long now) {
        if (!crossings.sendFrame(handle, inPort, priority, outPort, length, ipv4Offset, shadowsHeld, flowWord)) {
            counters.crossingRingFull++;            // cannot happen with rings sized to the switch's frames
            release(inPort, priority, outPort, length, shadowsHeld, now);
            allocator.free(handle);
        }
    }

    /** A lossless frame from {@code (inPort, priority)} was dropped: counted, and what the drop says about its cause kept. */
    private void recordLosslessDrop(ParsedFrame frame, int inPort, int priority, int verdict, long now) {
        int k = inPort * PRIORITIES + priority;
        counters.losslessDrops[k]++;
        long since = counters.xoffSentSince[k];
        long after = since < 0 ? -1 : now - since;
        if (!senderIgnoresPfc[inPort]) {
            if (since < 0) {
                counters.obeyingDropsBeforeXoffSent++;
            } else if (counters.obeyingDropMinNanosAfterXoff < 0 || after < counters.obeyingDropMinNanosAfterXoff) {
                counters.obeyingDropMinNanosAfterXoff = after;
            }
        }
        if (since < 0) {
            counters.losslessDropsBeforeXoffSent++;
        } else {
            counters.losslessDropMaxNanosAfterXoff = Math.max(counters.losslessDropMaxNanosAfterXoff, after);
        }
        counters.lastLosslessDropPort = inPort;
        counters.lastLosslessDropPriority = priority;
        counters.lastLosslessDropVerdict = verdict;
        counters.lastLosslessDropAt = now;
        counters.lastLosslessDropIngressBytes = mmu.ledger().ingressBytes(k);
        counters.lastLosslessDropHeadroomBytes = mmu.ledger().ingressHeadroom(k);
        counters.lastLosslessDropNanosAfterXoff = after;
        if (!senderIgnoresPfc[inPort] && pfcLink != null) {
            dropLog.dropped(k, frame.destQp(), frame.psn(), now, since, mmu.ledger().ingressHeadroom(k));
        }
    }

    /**
     * A frame of {@code length} bytes left egress {@code (outPort, priority)}: released from the
     * MMU and from the shadows in {@code shadowsHeld} (the bits {@link ShadowMmus#admit} returned).
     */
    void release(int inPort, int priority, int outPort, int length, int shadowsHeld, long now) {
        int charged = frameCost.bufferBytes(length);
        mmu.release(inPort, priority, outPort, priority, charged, now);
        if (shadows != null) {
            shadows.release(shadowsHeld, inPort, priority, outPort, priority, charged, now);
        }
    }

    /** ECN for an ECN-capable frame, when its {@link EcnStage} says: CE when the MMU's RED says so. */
    void markEcn(int port, int priority, long ipv4At) {
        markEcn(port, priority, ipv4At, 0);
    }

    /** {@link #markEcn(int, int, long)} with {@code uncharged} bytes of a passing frame in the queue besides the ledger's. */
    void markEcn(int port, int priority, long ipv4At, long uncharged) {
        if (mmu.shouldMarkEcn(port, priority, uncharged) && Ipv4.markCongestionExperienced(bytes, ipv4At)) {
            counters.ecnMarked[port * PRIORITIES + priority]++;
        }
    }

    // ------------------------------------------------------------------ a change of MMU

    /**
     * Builds the MMU of {@code next} and makes it the one that admits from now on; the caller has it
     * adopt the queued frames, then calls {@link #resumeWhatItNoLongerPauses}. PFC only.
     *
     * @return the new MMU
     * @throws IllegalArgumentException bad parameters; nothing changed then
     */
    Mmu install(MmuConfig next) {
        return install(build(next), next);
    }

    /**
     * The MMU of {@code next}, built but not in force: nothing changes until {@link #install(Mmu, MmuConfig)}.
     *
     * @throws IllegalArgumentException bad parameters
     */
    Mmu build(MmuConfig next) {
        return Mmu.create(next, pfcLink.mmuListener(), random, peers, worker);
    }

    /** Makes {@code fresh}, built by {@link #build} from {@code next}, the MMU that admits from now on. */
    Mmu install(Mmu fresh, MmuConfig next) {
        pfcLink.attach(fresh.flowControl());
        mmu = fresh;
        losslessMask = next.losslessPriorityMask();
        passUncharged = fresh.passesPrivateUncharged();
        return fresh;
    }

    /** XON for every ingress queue {@code old} held paused and the MMU now in force does not. */
    void resumeWhatItNoLongerPauses(Mmu old, int ports, long now) {
        FlowControlListener emitter = pfcLink.mmuListener();
        for (int port = 0; port < ports; port++) {
            for (int priority = 0; priority < PRIORITIES; priority++) {
                if (old.flowControl().isAdvertisedXoff(port, priority) && !mmu.flowControl().isAdvertisedXoff(port, priority)) {
                    emitter.onXon(port, priority, now);
                }
            }
        }
    }

    // ------------------------------------------------------------------ observation

    Mmu mmu() {
        return mmu;
    }

    ShadowMmus shadows() {
        return shadows;
    }

    LosslessDropLog losslessDropLog() {
        return dropLog;
    }

    boolean senderIgnoresPfc(int port) {
        return senderIgnoresPfc[port];
    }
}

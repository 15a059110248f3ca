package org.pfcswitch.mmu;

/**
 * The facade the switch core calls for every packet. One instance per switch, owned by one thread.
 *
 * <pre>
 *   int v = mmu.admit(inPort, prio, outPort, queue, frameLen, now);
 *   if (Verdict.isAdmitted(v)) enqueue(...)  // remember inPort, prio, outPort, queue, frameLen
 *   ...
 *   mmu.release(inPort, prio, outPort, queue, frameLen, now);   // when the packet leaves
 * </pre>
 *
 * Admission charges the one {@link BufferLedger} (bytes or cells), the scheme decides the segment
 * and drives {@link FlowControl}, whose transitions reach the {@link FlowControlListener}. Nothing on
 * this path allocates, reads a clock or throws for a lossless drop: a lossless packet that cannot be
 * placed is dropped, counted as {@code lossless_violation}, and the switch keeps going.
 */
public final class Mmu {
    private final MmuConfig config;
    private final BufferLedger ledger;
    private final FlowControl flowControl;
    private final AdmissionScheme scheme;
    private final RandomSource random;
    private final RedMarker[] ecn;
    private final int losslessMask;
    private final int cellBytes;
    /** {@link AdmissionScheme#privatePassesUnseen} of the scheme. */
    private final boolean privatePassesUncharged;
    private final long[] drops = new long[Verdict.DROP_REASONS];
    private long losslessViolations;
    private long admitted;
    private long released;
    private long adoptedOverLimit;

    private Mmu(MmuConfig config, FlowControlListener listener, RandomSource random, LedgerPeers peers, int worker) {
        this.config = config;
        this.ledger = new BufferLedger(config.portCount(), peers, worker);
        this.flowControl = new FlowControl(config.portCount(), listener);
        this.random = random;
        SchemeParameters params = new SchemeParameters(config.scheme(), config.parametersOf(config.scheme()));
        this.scheme = Schemes.create(config.scheme(), new SchemeContext(config, ledger, flowControl, params, random));
        this.losslessMask = config.losslessPriorityMask();
        this.cellBytes = config.cellBytes();
        this.privatePassesUncharged = scheme.privatePassesUnseen();
        this.ecn = new RedMarker[config.portCount() * MmuConfig.PRIORITIES];
        for (int p = 0; p < config.portCount(); p++) {
            RedMarker dflt = RedMarker.dcqcnDefault(config.port(p).speedBps());
            RedMarker red = new RedMarker(config.ecnKminBytes() > 0 ? config.ecnKminBytes() : dflt.kminBytes(),
                    config.ecnKmaxBytes() > 0 ? config.ecnKmaxBytes() : dflt.kmaxBytes(), config.ecnPmax());
            for (int q = 0; q < MmuConfig.PRIORITIES; q++) {
                ecn[BufferLedger.key(p, q)] = red;
            }
        }
    }

    /** Builds the MMU; throws {@link IllegalArgumentException} naming the field for a bad scheme parameter. */
    public static Mmu create(MmuConfig config, FlowControlListener listener) {
        return new Mmu(config, listener, RandomSource.seeded(0x5eed), null, 0);
    }

    public static Mmu create(MmuConfig config, FlowControlListener listener, RandomSource random) {
        return new Mmu(config, listener, random, null, 0);
    }

    /**
     * Worker {@code worker}'s MMU of a buffer whose ports are split among workers: it admits the
     * frames arriving on that worker's ports into a ledger of its own, one of {@code peers}, and its
     * scheme sees the switch-wide and egress views of every worker ({@link LedgerPeers}).
     */
    public static Mmu create(MmuConfig config, FlowControlListener listener, RandomSource random, LedgerPeers peers,
                             int worker) {
        return new Mmu(config, listener, random, peers, worker);
    }

    /**
     * Admits or drops one packet arriving on {@code inPort} with {@code priority}, bound for egress
     * queue {@code (outPort, queue)}.
     *
     * @return a {@link Verdict}: segment charged (&ge; 0) or drop reason (&lt; 0)
     */
    public int admit(int inPort, int priority, int outPort, int queue, int frameBytes, long nowNanos) {
        return admit(inPort, priority, outPort, queue, frameBytes, nowNanos, false);
    }

    /**
     * {@link #admit(int, int, int, int, int, long)} of a packet that, if admitted, leaves at once
     * ({@code leavesAtOnce}: it goes straight to an idle line, before any other packet is admitted
     * or released). When {@link #passesPrivateUncharged}, the verdict is {@link Verdict#PRIVATE}
     * and the ingress queue holds private bytes only, the packet passes ({@link Verdict#PASSED}):
     * counted admitted and released, the scheme told both (with the segment {@code PRIVATE}), the
     * ledger never charged; the caller must not {@link #release} it, and a view it takes meanwhile
     * (ECN, a watermark) adds the packet's bytes itself. Every other case is an ordinary admission. A queue with shared or headroom bytes is
     * left out because a release takes those first ({@link BufferLedger#release}): there the
     * charge and release move bytes out of them. Otherwise they change nothing but the private and
     * egress bytes, which such a scheme never reads, so everything it decides is the same.
     */
    public int admit(int inPort, int priority, int outPort, int queue, int frameBytes, long nowNanos,
                     boolean leavesAtOnce) {
        long bytes = charged(frameBytes);
        boolean lossless = (losslessMask >>> priority & 1) != 0;
        int verdict = scheme.decide(inPort, priority, outPort, queue, bytes, nowNanos);
        if (leavesAtOnce && verdict == Verdict.PRIVATE && privatePassesUncharged
                && ledger.holdsOnlyPrivate(BufferLedger.key(inPort, priority))) {
            return pass(inPort, priority, outPort, queue, bytes, nowNanos);
        }
        if (verdict >= 0) {
            ledger.charge(BufferLedger.key(inPort, priority), BufferLedger.key(outPort, queue), lossless, verdict,
                    bytes);
            admitted++;
            scheme.onAdmitted(inPort, priority, outPort, queue, bytes, verdict, nowNanos);
        } else {
            drops[-verdict - 1]++;
            if (lossless) {
                losslessViolations++;
            }
        }
        return verdict;
    }

    /** A private packet that leaves at once, uncharged: the scheme sees it admitted and released. */
    private int pass(int inPort, int priority, int outPort, int queue, long bytes, long nowNanos) {
        admitted++;
        scheme.onAdmitted(inPort, priority, outPort, queue, bytes, Verdict.PRIVATE, nowNanos);
        released++;
        scheme.onReleased(inPort, priority, outPort, queue, bytes, nowNanos);
        return Verdict.PASSED;
    }

    /**
     * Takes over a packet that another MMU admitted and that is still stored (a live change of
     * scheme or parameters): charged to the segment this scheme's {@link AdmissionScheme#decide}
     * names, then reported to the scheme as admitted, so its XOFF and estimator state follow the
     * buffer as it is. A stored packet cannot be dropped: where this scheme would have refused it,
     * it is charged to headroom (lossless) or the shared segment (lossy) and counted in {@link #adoptedOverLimit()}, and the
     * scheme sees its ingress view over the limit (XOFF) until the bytes drain.
     */
    public void adopt(int inPort, int priority, int outPort, int queue, int frameBytes, long nowNanos) {
        long bytes = charged(frameBytes);
        boolean lossless = (losslessMask >>> priority & 1) != 0;
        int verdict = scheme.decide(inPort, priority, outPort, queue, bytes, nowNanos);
        if (verdict < 0) {
            adoptedOverLimit++;
            verdict = lossless ? Verdict.HEADROOM : Verdict.SHARED;   // where this scheme puts what is past its limit
        }
        ledger.charge(BufferLedger.key(inPort, priority), BufferLedger.key(outPort, queue), lossless, verdict, bytes);
        admitted++;
        scheme.onAdmitted(inPort, priority, outPort, queue, bytes, verdict, nowNanos);
    }

    /** Packets {@link #adopt} took over that this scheme would have dropped. */
    public long adoptedOverLimit() { return adoptedOverLimit; }

    /** Releases a packet admitted earlier with the same arguments, when it leaves its egress queue. */
    public void release(int inPort, int priority, int outPort, int queue, int frameBytes, long nowNanos) {
        long bytes = charged(frameBytes);
        boolean lossless = (losslessMask >>> priority & 1) != 0;
        ledger.release(BufferLedger.key(inPort, priority), BufferLedger.key(outPort, queue), lossless, bytes);
        released++;
        scheme.onReleased(inPort, priority, outPort, queue, bytes, nowNanos);
    }

    /** RED/ECN decision for a packet leaving egress queue {@code (outPort, queue)}, on its current length. */
    public boolean shouldMarkEcn(int outPort, int queue) {
        return shouldMarkEcn(outPort, queue, 0);
    }

    /** {@link #shouldMarkEcn(int, int)} with {@code unchargedBytes} in the queue besides its charged bytes (a passing packet). */
    public boolean shouldMarkEcn(int outPort, int queue, long unchargedBytes) {
        int k = BufferLedger.key(outPort, queue);
        return ecn[k].shouldMark(ledger.egressBytes(k) + unchargedBytes, random);
    }

    /** Whether a private packet that leaves at once passes uncharged ({@link AdmissionScheme#privatePassesUnseen}). */
    public boolean passesPrivateUncharged() {
        return privatePassesUncharged;
    }

    /** Installs a WRED profile on one egress queue. */
    public void setRedProfile(int outPort, int queue, RedMarker marker) {
        ecn[BufferLedger.key(outPort, queue)] = marker;
    }

    public RedMarker redProfile(int outPort, int queue) {
        return ecn[BufferLedger.key(outPort, queue)];
    }

    /** What a frame of {@code frameBytes} is charged: itself, or whole cells. */
    public long chargedBytes(int frameBytes) {
        return charged(frameBytes);
    }

    private long charged(int frameBytes) {
        return cellBytes == 0 ? frameBytes : (long) (frameBytes + cellBytes - 1) / cellBytes * cellBytes;
    }

    public MmuConfig config() { return config; }
    public BufferLedger ledger() { return ledger; }
    public FlowControl flowControl() { return flowControl; }
    public AdmissionScheme scheme() { return scheme; }
    public String schemeName() { return scheme.name(); }

    /** Drops with reason {@code verdict} (one of the {@code Verdict.DROP_*} codes). */
    public long drops(int verdict) { return drops[-verdict - 1]; }

    /** Lossless packets dropped for any reason: 0 whenever headroom is sized as the scheme says. */
    public long losslessViolations() { return losslessViolations; }

    public long admittedPackets() { return admitted; }
    public long releasedPackets() { return released; }

    /** Where the buffer goes under this MMU's scheme. */
    public MmuExplanation explain() {
        return MmuExplanation.of(config, scheme);
    }
}

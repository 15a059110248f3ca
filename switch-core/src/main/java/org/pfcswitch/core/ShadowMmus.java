package org.pfcswitch.core;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.pfcswitch.mmu.FlowControlListener;
import org.pfcswitch.mmu.LedgerPeers;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.Schemes;
import org.pfcswitch.mmu.UpstreamPausing;
import org.pfcswitch.mmu.Verdict;

/**
 * Shadow schemes: MMUs that see every arrival and departure of the real buffer, decide as if they
 * ran it, and only count. Each shadow is an ordinary {@link Mmu} built from the active MMU's
 * configuration under another scheme, with its own ledger, scheme state and {@link
 * org.pfcswitch.mmu.FlowControl}, whose XOFF/XON transitions go to no listener: a shadow never sends
 * a PFC frame and never drops or delays a frame. What it would have done is in its own counters
 * (drops by reason, lossless violations, XOFF transitions by ingress queue, XON transitions) and in
 * {@link #maxBufferBytes}.
 *
 * <p>The approximation, and why: the shadows are driven by what really happened, not by what their
 * own decisions would have caused. A frame a shadow admits is charged to its ledger and released
 * when the real frame leaves its egress queue; a frame the active scheme dropped but a shadow
 * admitted never leaves, so it is released from that shadow at once (it is counted as admitted but
 * holds no bytes). So a shadow's queues are never longer than the real ones, senders keep sending
 * through a shadow's XOFF (the real switch did not pause them), and the real pauses the active
 * scheme sends shape the arrivals every shadow sees. The counts answer "how often would this
 * scheme have paused or dropped on this traffic", not "what would the network have done".
 *
 * <p>The core remembers, per queued frame, which shadows admitted it (a bit per shadow, hence at
 * most {@link #MAX} shadows), so each departure is released only from those. A live change of the
 * active scheme ({@link SwitchCore#changeMmu}) leaves the shadows as they are: they never depended
 * on the active MMU, so their ledgers, counters and parameters go on. bfc cannot be a shadow: it
 * assigns frames to its own queues and pauses upstream queues through its link layer, neither of
 * which a ledger beside the real buffer can have.
 *
 * <p>Per packet: one {@link Mmu#admit} per shadow on arrival (and one {@link Mmu#release} when it
 * was admitted), no allocation. Owned by the thread that owns the core.
 */
public final class ShadowMmus {

    /** At most this many shadows: the core keeps one bit per shadow in a byte per queued frame. */
    public static final int MAX = 8;

    private final Mmu[] mmus;
    private final String[] names;
    private final long[] maxBufferBytes;
    /** Arrivals the active scheme dropped that the shadow admitted (released from it at once). */
    private final long[] admittedActiveDropped;

    private ShadowMmus(Mmu[] mmus) {
        this.mmus = mmus;
        this.names = new String[mmus.length];
        for (int i = 0; i < mmus.length; i++) {
            names[i] = mmus[i].schemeName();
        }
        this.maxBufferBytes = new long[mmus.length];
        this.admittedActiveDropped = new long[mmus.length];
    }

    /**
     * One shadow per name of {@code schemes}, each over {@code active} with its scheme replaced (the
     * same buffer, ports, lossless priorities and scheme parameters).
     *
     * @throws IllegalArgumentException an unknown or repeated name, bfc, more than {@link #MAX}, or a bad
     *                                  scheme parameter
     */
    public static ShadowMmus create(MmuConfig active, List<String> schemes) {
        return create(active, schemes, null, 0);
    }

    /**
     * As {@link #create(MmuConfig, List)}, for worker {@code worker} of a switch whose ports are split
     * among workers: shadow i keeps its part of the buffer in a ledger among {@code peers[i]} (the
     * workers' ledgers of that shadow), as the active MMU does among its own. Null: the whole switch.
     */
    public static ShadowMmus create(MmuConfig active, List<String> schemes, LedgerPeers[] peers, int worker) {
        check(schemes);
        Mmu[] mmus = new Mmu[schemes.size()];
        for (int i = 0; i < mmus.length; i++) {
            // Its own random source: a shadow must never draw from the one the real ECN marking uses.
            mmus[i] = Mmu.create(active.withScheme(schemes.get(i)), FlowControlListener.NONE,
                    RandomSource.seeded(0x5bad0 + i), peers == null ? null : peers[i], worker);
        }
        return new ShadowMmus(mmus);
    }

    /** Publishes each shadow's ledger to the other workers' ledgers of that shadow (several workers only). */
    public void publish() {
        for (Mmu m : mmus) {
            m.ledger().publish();
        }
    }

    /** Validates a list of shadow scheme names without building anything (for config readers). */
    public static void check(List<String> schemes) {
        if (schemes.size() > MAX) {
            throw new IllegalArgumentException("at most " + MAX + " shadow schemes, got " + schemes.size());
        }
        Set<String> seen = new HashSet<>();
        for (String s : schemes) {
            if (!Schemes.NAMES.contains(s)) {
                throw new IllegalArgumentException("shadow scheme must be one of " + String.join(", ", shadowable())
                        + ", got '" + s + "'");
            }
            if (Schemes.upstreamPausing(s) != UpstreamPausing.PFC) {
                throw new IllegalArgumentException(s + " cannot be a shadow scheme: it needs its own queues and link"
                        + " control; shadow one of " + String.join(", ", shadowable()));
            }
            if (!seen.add(s)) {
                throw new IllegalArgumentException("shadow scheme '" + s + "' given twice");
            }
        }
    }

    /** The schemes that can run as shadows. */
    public static List<String> shadowable() {
        List<String> names = new ArrayList<>();
        for (String s : Schemes.NAMES) {
            if (Schemes.upstreamPausing(s) == UpstreamPausing.PFC) {
                names.add(s);
            }
        }
        return names;
    }

    /**
     * Offers an arrival to every shadow, after the active scheme's {@code activeVerdict}.
     *
     * @return bit {@code i} set when shadow {@code i} admitted it and holds it until {@link #release};
     *         when the active scheme dropped the frame, 0 (a shadow that admitted it has let it go already)
     */
    public int admit(int inPort, int priority, int outPort, int queue, int frameBytes, long now, int activeVerdict) {
        boolean stays = Verdict.isAdmitted(activeVerdict);
        int held = 0;
        for (int i = 0; i < mmus.length; i++) {
            Mmu m = mmus[i];
            if (!Verdict.isAdmitted(m.admit(inPort, priority, outPort, queue, frameBytes, now))) {
                continue;
            }
            long used = m.ledger().totalUsed();
            if (used > maxBufferBytes[i]) {
                maxBufferBytes[i] = used;
            }
            if (stays) {
                held |= 1 << i;
            } else {
                admittedActiveDropped[i]++;
                m.release(inPort, priority, outPort, queue, frameBytes, now);   // it never departs for real
            }
        }
        return held;
    }

    /** A frame left (or was discarded): released from the shadows in {@code held}. */
    public void release(int held, int inPort, int priority, int outPort, int queue, int frameBytes, long now) {
        for (int bits = held; bits != 0; bits &= bits - 1) {
            mmus[Integer.numberOfTrailingZeros(bits)].release(inPort, priority, outPort, queue, frameBytes, now);
        }
    }

    public int count() {
        return mmus.length;
    }

    /** Shadow {@code i}'s MMU: its counters, ledger and PFC state (read only; do not admit or release). */
    public Mmu mmu(int i) {
        return mmus[i];
    }

    public String scheme(int i) {
        return names[i];
    }

    /** The most bytes shadow {@code i}'s ledger held at once. */
    public long maxBufferBytes(int i) {
        return maxBufferBytes[i];
    }

    /** Arrivals the active scheme dropped that shadow {@code i} would have admitted. */
    public long admittedActiveDropped(int i) {
        return admittedActiveDropped[i];
    }
}

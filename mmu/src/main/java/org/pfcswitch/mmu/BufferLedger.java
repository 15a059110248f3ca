package org.pfcswitch.mmu;

/**
 * The one byte ledger over the switch's shared memory (DESIGN.md, "The buffer ledger"). A packet is
 * charged once when admitted and released once when it leaves; every view is a derived counter of
 * those same bytes:
 * <ul>
 *   <li>ingress {@code (port, priority)}: private, shared and headroom bytes;</li>
 *   <li>egress {@code (port, queue)}: bytes queued;</li>
 *   <li>per ingress port: private, shared (split by class) and headroom (= DSH insurance) bytes;</li>
 *   <li>switch-wide: private, shared, headroom, per class (lossless/lossy) shared and egress bytes, total.</li>
 * </ul>
 * Keys are {@code port * 8 + priority} (ingress) and {@code port * 8 + queue} (egress).
 *
 * <p>Release is fungible within an ingress queue: headroom first, then shared, then private (the HPCC
 * MMU order the DSH, SONiC and Reverie specs all adopt), so the caller only has to remember where a
 * packet came from, not which segment took it. Counters never go negative: a release that finds
 * fewer bytes than it frees clamps and counts an accounting error instead of throwing.
 *
 * <p>When a switch's ports are split among workers, each worker has a ledger of its own that is one
 * of several {@link LedgerPeers}: it charges and releases what its worker admitted (exact for its own
 * ingress queues), and its switch-wide and egress views add what the other workers last published.
 * The {@code own*} readers give this ledger's part alone.
 */
public final class BufferLedger {
    // Per ingress key, stride 4: private, shared, headroom (one cache line holds two keys).
    private static final int I_PRIVATE = 0;
    private static final int I_SHARED = 1;
    private static final int I_HEADROOM = 2;
    // Per port, stride 8: private, shared lossless, shared lossy, headroom, egress bytes.
    private static final int P_PRIVATE = 0;
    private static final int P_SHARED_LOSSLESS = 1;
    private static final int P_SHARED_LOSSY = 2;
    private static final int P_HEADROOM = 3;
    private static final int P_EGRESS = 4;

    private final int ports;
    private final long[] ingress;
    private final long[] egress;
    private final long[] port;
    private long privateUsed;
    private long sharedLossless;
    private long sharedLossy;
    private long headroomUsed;
    private long egressLossless;
    private long egressLossy;
    private long accountingErrors;
    /** The other workers' ledgers, or null when this one keeps the whole buffer. */
    private final LedgerPeers peers;
    private final int worker;
    /** Bytes charged since this ledger last published to its peers. */
    private long unpublished;
    /** Something was charged or released since the last publication (an idle worker publishes nothing). */
    private boolean changed;

    public BufferLedger(int ports) {
        this(ports, null, 0);
    }

    /** Worker {@code worker}'s ledger among {@code peers} (null: the only ledger of the buffer). */
    public BufferLedger(int ports, LedgerPeers peers, int worker) {
        this.ports = ports;
        this.peers = peers;
        this.worker = worker;
        int keys = ports * MmuConfig.PRIORITIES;
        ingress = new long[keys * 4];
        egress = new long[keys];
        port = new long[ports * 8];
    }

    public static int key(int port, int priorityOrQueue) {
        return port << 3 | priorityOrQueue;
    }

    /** Charges {@code bytes} to {@code segment} ({@link Verdict#PRIVATE}, SHARED or HEADROOM) of both views. */
    public void charge(int ingressKey, int egressKey, boolean lossless, int segment, long bytes) {
        int i = ingressKey << 2;
        int p = (ingressKey >>> 3) << 3;
        switch (segment) {
            case Verdict.PRIVATE -> {
                ingress[i + I_PRIVATE] += bytes;
                port[p + P_PRIVATE] += bytes;
                privateUsed += bytes;
            }
            case Verdict.SHARED -> {
                ingress[i + I_SHARED] += bytes;
                if (lossless) {
                    port[p + P_SHARED_LOSSLESS] += bytes;
                    sharedLossless += bytes;
                } else {
                    port[p + P_SHARED_LOSSY] += bytes;
                    sharedLossy += bytes;
                }
            }
            case Verdict.HEADROOM -> {
                ingress[i + I_HEADROOM] += bytes;
                port[p + P_HEADROOM] += bytes;
                headroomUsed += bytes;
            }
            default -> {
                accountingErrors++;
                return;
            }
        }
        egress[egressKey] += bytes;
        port[((egressKey >>> 3) << 3) + P_EGRESS] += bytes;
        if (lossless) {
            egressLossless += bytes;
        } else {
            egressLossy += bytes;
        }
        if (peers != null) {
            changed = true;
            if ((unpublished += bytes) >= peers.quantumBytes()) {
                publish();
            }
        }
    }

    /** Lets the other workers see this ledger as it is now (a no-op for the only ledger of a buffer). */
    public void publish() {
        if (changed) {
            peers.publish(worker, privateUsed, sharedLossless, sharedLossy, headroomUsed, egressLossless, egressLossy,
                    egress, port, 8, P_EGRESS);
            unpublished = 0;
            changed = false;
        }
    }

    /**
     * Releases {@code bytes} of an ingress queue, headroom first, then shared, then private.
     * Split into small steps so that the JIT inlines all of it into the caller's per-frame path
     * (as one method it was over the hot-method inlining limit).
     */
    public void release(int ingressKey, int egressKey, boolean lossless, long bytes) {
        int i = ingressKey << 2;
        int p = (ingressKey >>> 3) << 3;
        long left = bytes;
        if (ingress[i + I_HEADROOM] > 0) {
            left = releaseHeadroom(i, p, left);
        }
        if (left > 0 && ingress[i + I_SHARED] > 0) {
            left = releaseShared(i, p, lossless, left);
        }
        if (left > 0) {
            releasePrivate(i, p, left);
        }
        releaseEgress(egressKey, lossless, bytes);
        if (peers != null) {
            changed = true;
        }
    }

    /** @return what is left to release after the headroom */
    private long releaseHeadroom(int i, int p, long left) {
        long headroom = ingress[i + I_HEADROOM];
        long take = Math.min(headroom, left);
        ingress[i + I_HEADROOM] = headroom - take;
        port[p + P_HEADROOM] -= take;
        headroomUsed -= take;
        return left - take;
    }

    /** @return what is left to release after the shared segment */
    private long releaseShared(int i, int p, boolean lossless, long left) {
        long shared = ingress[i + I_SHARED];
        long take = Math.min(shared, left);
        ingress[i + I_SHARED] = shared - take;
        if (lossless) {
            port[p + P_SHARED_LOSSLESS] -= take;
            sharedLossless -= take;
        } else {
            port[p + P_SHARED_LOSSY] -= take;
            sharedLossy -= take;
        }
        return left - take;
    }

    private void releasePrivate(int i, int p, long left) {
        long priv = ingress[i + I_PRIVATE];
        if (left > priv) {
            accountingErrors++;
            left = priv;
        }
        ingress[i + I_PRIVATE] = priv - left;
        port[p + P_PRIVATE] -= left;
        privateUsed -= left;
    }

    private void releaseEgress(int egressKey, boolean lossless, long bytes) {
        long queued = egress[egressKey];
        long fromEgress = bytes;
        if (fromEgress > queued) {
            accountingErrors++;
            fromEgress = queued;
        }
        egress[egressKey] = queued - fromEgress;
        port[((egressKey >>> 3) << 3) + P_EGRESS] -= fromEgress;
        if (lossless) {
            egressLossless -= fromEgress;
        } else {
            egressLossy -= fromEgress;
        }
    }

    public int ports() { return ports; }

    // ---- ingress (port, priority) view
    public long ingressPrivate(int key) { return ingress[(key << 2) + I_PRIVATE]; }
    public long ingressShared(int key) { return ingress[(key << 2) + I_SHARED]; }
    public long ingressHeadroom(int key) { return ingress[(key << 2) + I_HEADROOM]; }
    /** Whether ingress queue {@code key} holds no shared and no headroom bytes (a release would take from its private bytes). */
    public boolean holdsOnlyPrivate(int key) {
        int i = key << 2;
        return ingress[i + I_SHARED] == 0 && ingress[i + I_HEADROOM] == 0;
    }

    public long ingressBytes(int key) {
        int i = key << 2;
        return ingress[i + I_PRIVATE] + ingress[i + I_SHARED] + ingress[i + I_HEADROOM];
    }

    // ---- egress (port, queue) view: every worker's bytes
    public long egressBytes(int key) {
        return peers == null ? egress[key] : egress[key] + peers.othersEgress(worker, key);
    }

    public long egressPortBytes(int p) {
        long own = port[(p << 3) + P_EGRESS];
        return peers == null ? own : own + peers.othersEgressPort(worker, p);
    }

    // ---- per ingress port (exact: a port's ingress belongs to one worker)
    public long portPrivate(int p) { return port[(p << 3) + P_PRIVATE]; }
    public long portSharedLossless(int p) { return port[(p << 3) + P_SHARED_LOSSLESS]; }
    public long portSharedLossy(int p) { return port[(p << 3) + P_SHARED_LOSSY]; }
    /** Headroom bytes of all queues of the port; under DSH this is the port's insurance occupancy. */
    public long portHeadroom(int p) { return port[(p << 3) + P_HEADROOM]; }

    // ---- switch-wide pools: every worker's bytes
    public long privateUsed() { return privateUsed + others(LedgerPeers.PRIVATE); }
    public long sharedUsed() { return sharedLossless + sharedLossy + others(LedgerPeers.SHARED); }
    public long sharedUsedLossless() { return sharedLossless + others(LedgerPeers.SHARED_LOSSLESS); }
    public long sharedUsedLossy() { return sharedLossy + others(LedgerPeers.SHARED_LOSSY); }
    public long headroomUsed() { return headroomUsed + others(LedgerPeers.HEADROOM); }
    public long egressUsedLossless() { return egressLossless + others(LedgerPeers.EGRESS_LOSSLESS); }
    public long egressUsedLossy() { return egressLossy + others(LedgerPeers.EGRESS_LOSSY); }
    public long totalUsed() {
        return privateUsed + sharedLossless + sharedLossy + headroomUsed + others(LedgerPeers.USED);
    }

    private long others(int field) {
        return peers == null ? 0 : peers.others(worker, field);
    }

    // ---- this ledger's part alone (the same as the views above when it keeps the whole buffer)
    public long ownEgressBytes(int key) { return egress[key]; }
    public long ownTotalUsed() { return privateUsed + sharedLossless + sharedLossy + headroomUsed; }

    /** Releases that found fewer bytes than they freed (a caller bug); stays 0 in a correct switch. */
    public long accountingErrors() { return accountingErrors; }

    /**
     * Cross-checks every derived view against the per-queue counters.
     *
     * @return null when consistent, otherwise a one-line description of the first mismatch
     */
    public String checkConsistency() {
        long priv = 0, shared = 0, headroom = 0, egressSum = 0;
        for (int p = 0; p < ports; p++) {
            long pp = 0, ps = 0, ph = 0, pe = 0;
            for (int q = 0; q < MmuConfig.PRIORITIES; q++) {
                int k = key(p, q);
                if (ingressPrivate(k) < 0 || ingressShared(k) < 0 || ingressHeadroom(k) < 0 || egress[k] < 0) {
                    return "negative counter at key " + k;
                }
                pp += ingressPrivate(k);
                ps += ingressShared(k);
                ph += ingressHeadroom(k);
                pe += egress[k];
            }
            if (pp != portPrivate(p) || ps != portSharedLossless(p) + portSharedLossy(p) || ph != portHeadroom(p)
                    || pe != port[(p << 3) + P_EGRESS]) {
                return "port " + p + " sums disagree with its queues";
            }
            if (portSharedLossless(p) < 0 || portSharedLossy(p) < 0) {
                return "negative per-class shared counter at port " + p;
            }
            priv += pp;
            shared += ps;
            headroom += ph;
            egressSum += pe;
        }
        if (priv != privateUsed || shared != sharedLossless + sharedLossy || headroom != headroomUsed) {
            return "switch totals disagree with the per-queue counters";
        }
        if (egressSum != ownTotalUsed() || egressLossless + egressLossy != egressSum) {
            return "egress view (" + egressSum + " B) disagrees with the ingress view (" + ownTotalUsed() + " B)";
        }
        if (sharedLossless < 0 || sharedLossy < 0 || egressLossless < 0 || egressLossy < 0) {
            return "negative class counter";
        }
        return null;
    }
}

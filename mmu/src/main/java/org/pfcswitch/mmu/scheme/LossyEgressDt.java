package org.pfcswitch.mmu.scheme;

import org.pfcswitch.mmu.BufferLedger;
import org.pfcswitch.mmu.Thresholds;
import org.pfcswitch.mmu.Verdict;

/**
 * Lossy admission for the PFC schemes whose papers leave lossy traffic out of scope (SIH/DT, ST, DSH,
 * SPFC, CaPFC): lossy bytes share the scheme's shared pool and are egress-accounted with a dynamic
 * threshold, dropping when an egress queue exceeds {@code α·(pool − used)} (DSH §II-C: "lossy traffic
 * has a separate pool that is egress-accounted"). Lossless admission in these schemes checks the same
 * pool's occupancy, so lossy bytes can never push a lossless queue past its headroom.
 */
final class LossyEgressDt {
    private final BufferLedger ledger;
    private final double alpha;
    private final long pool;

    LossyEgressDt(BufferLedger ledger, double alpha, long pool) {
        this.ledger = ledger;
        this.alpha = alpha;
        this.pool = pool;
    }

    int decide(int egressKey, long bytes) {
        long used = ledger.sharedUsed();
        if (used + bytes > pool) {
            return Verdict.DROP_BUFFER_FULL;
        }
        if (ledger.egressBytes(egressKey) + bytes > Thresholds.dynamic(alpha, pool, used)) {
            return Verdict.DROP_LOSSY_THRESHOLD;
        }
        return Verdict.SHARED;
    }

    long emptyThreshold() {
        return Thresholds.dynamic(alpha, pool, 0);
    }
}

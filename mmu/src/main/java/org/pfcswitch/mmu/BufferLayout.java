package org.pfcswitch.mmu;

import java.util.List;

/**
 * The static partition a scheme makes of the buffer.
 *
 * @param headroomKind      "per-queue", "per-port insurance", "shared pool" or "none"
 * @param privatePerQueue   ρ of each lossless ingress queue
 * @param privateTotal      all private bytes
 * @param headroomPerPort   per port: the per-queue headroom, or the port's insurance (DSH)
 * @param headroomTotal     all bytes set aside as headroom or insurance
 * @param sharedPool        the pool the dynamic thresholds divide
 * @param extraPools        further pools the scheme names (SONiC ingress/egress pools, lossy pool...)
 */
public record BufferLayout(String headroomKind, long privatePerQueue, long privateTotal, long[] headroomPerPort,
        long headroomTotal, long sharedPool, List<MmuExplanation.Pool> extraPools) {

    /**
     * Private ρ per lossless queue and Φ per lossless queue (SIH), {@code headroomRatio} of it pooled
     * (1 = no oversubscription). The shared pool is what remains, as in DSH §II-C.
     */
    public static BufferLayout perQueueHeadroom(MmuConfig cfg, double headroomRatio) {
        int nq = cfg.losslessCount();
        long[] perPort = new long[cfg.portCount()];
        long headroom = 0;
        for (int p = 0; p < perPort.length; p++) {
            perPort[p] = cfg.headroomBytes(p);
            headroom += perPort[p] * nq;
        }
        headroom = (long) Math.floor(headroom * headroomRatio);
        long priv = cfg.privateBytes() * nq * cfg.portCount();
        String kind = headroomRatio < 1 ? "shared pool" : "per-queue";
        return new BufferLayout(kind, cfg.privateBytes(), priv, perPort, headroom,
                requirePositive(cfg, cfg.totalBytes() - priv - headroom, priv, headroom), List.of());
    }

    static long requirePositive(MmuConfig cfg, long shared, long priv, long headroom) {
        if (shared <= 0) {
            throw new IllegalArgumentException("mmu.totalBytes leaves no shared pool for scheme " + cfg.scheme()
                    + ": private " + priv + " B + headroom " + headroom + " B >= total, got " + cfg.totalBytes());
        }
        return shared;
    }
}

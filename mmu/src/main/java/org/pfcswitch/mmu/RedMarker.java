package org.pfcswitch.mmu;

/**
 * RED/ECN marking of one egress queue, as DCQCN's congestion point does it on the instantaneous queue
 * length: never below {@code kmin}, always above {@code kmax}, and with probability
 * {@code pmax·(q − kmin)/(kmax − kmin)} in between (HPCC/ns3-datacenter {@code ShouldSendCN}).
 * Different profiles per queue make it WRED.
 */
public final class RedMarker {
    private final long kminBytes;
    private final long kmaxBytes;
    private final double pmax;

    public RedMarker(long kminBytes, long kmaxBytes, double pmax) {
        if (kminBytes < 0 || kmaxBytes < kminBytes) {
            throw new IllegalArgumentException("RED needs 0 <= kmin <= kmax, got kmin " + kminBytes + ", kmax "
                    + kmaxBytes);
        }
        if (!(pmax >= 0 && pmax <= 1)) {
            throw new IllegalArgumentException("RED pmax must be in [0, 1], got " + pmax);
        }
        this.kminBytes = kminBytes;
        this.kmaxBytes = kmaxBytes;
        this.pmax = pmax;
    }

    /**
     * DCQCN switch defaults scaled to the port speed, as the HPCC and Reverie simulators configure them:
     * kmin 100 KB and kmax 400 KB at 25 Gb/s (400/1600 KB at 100 Gb/s), pmax 0.2; KB = 1000 B.
     */
    public static RedMarker dcqcnDefault(long speedBps) {
        return new RedMarker(speedBps / 250_000, speedBps / 62_500, 0.2);
    }

    /** The marking probability for a queue of {@code queueBytes}. */
    public double probability(long queueBytes) {
        if (queueBytes <= kminBytes) {
            return 0;
        }
        if (queueBytes > kmaxBytes) {
            return 1;
        }
        return ramp(queueBytes);
    }

    /** Whether to set CE on a packet leaving a queue of {@code queueBytes}; draws randomness only in the ramp. */
    public boolean shouldMark(long queueBytes, RandomSource random) {
        if (queueBytes <= kminBytes) {
            return false;
        }
        if (queueBytes > kmaxBytes) {
            return true;
        }
        return random.nextDouble() < ramp(queueBytes);
    }

    /** pmax·(q − kmin)/(kmax − kmin), for kmin &lt; q &le; kmax (the fraction first, so round values stay exact). */
    private double ramp(long queueBytes) {
        return pmax * ((double) (queueBytes - kminBytes) / (kmaxBytes - kminBytes));
    }

    public long kminBytes() { return kminBytes; }
    public long kmaxBytes() { return kmaxBytes; }
    public double pmax() { return pmax; }
}

package org.pfcswitch.mmu;

/**
 * One switch port as the MMU sees it: its line rate and the one-way propagation delay of the cable
 * to its peer. Both enter the headroom formula; the rate also scales SPFC's rate detector, ECN
 * thresholds and BFC's pause threshold.
 *
 * @param speedBps     line rate in bit/s, &gt; 0
 * @param cableDelayNs one-way propagation delay in ns, &ge; 0
 */
public record PortConfig(long speedBps, long cableDelayNs) {
    public PortConfig {
        if (speedBps <= 0) {
            throw new IllegalArgumentException("port speedBps must be > 0, got " + speedBps);
        }
        if (cableDelayNs < 0) {
            throw new IllegalArgumentException("port cableDelayNs must be >= 0, got " + cableDelayNs);
        }
    }

    /** Bytes the link delivers in {@code nanos} at line rate, rounded up (exact integer arithmetic). */
    public long bytesIn(long nanos) {
        return ceilDiv(Math.multiplyExact(speedBps, nanos), 8_000_000_000L);
    }

    /** Nanoseconds the link needs to deliver {@code bytes} at line rate, rounded up. */
    public long nanosFor(long bytes) {
        return ceilDiv(Math.multiplyExact(bytes, 8_000_000_000L), speedBps);
    }

    private static long ceilDiv(long a, long b) {
        return -Math.floorDiv(-a, b);
    }
}

package org.pfcswitch.core;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.mmu.FlowControl;
import org.pfcswitch.mmu.Mmu;
import org.pfcswitch.mmu.Verdict;

/**
 * What one MMU decided, copied out of it: the XOFF transitions it asserted per ingress queue, its
 * XON transitions, its drops by reason, its lossless drops, and buffer use. The same numbers for the
 * active scheme and for every shadow ({@link ShadowMmus}), so they can be put side by side
 * ({@code show shadow}, /metrics, {@code sim --shadow}). Preallocated; {@link #copyFrom} allocates
 * nothing.
 */
public final class SchemeCounters {

    public static final int PRIORITIES = MacControl.PRIORITIES;

    public final int ports;
    public String scheme;
    /** XOFF transitions the MMU asserted, by ingress {@code port * 8 + priority} (sent or, for a shadow, only counted). */
    public final long[] xoff;
    public long xoffTotal;
    public long xonTotal;
    /** Drops by {@link Verdict#dropIndex}. */
    public final long[] drops = new long[Verdict.DROP_REASONS];
    /** Lossless frames dropped (every reason). */
    public long losslessDrops;
    public long admitted;
    /** Bytes the MMU's ledger holds now, and the most it held at once. */
    public long bufferBytes;
    public long maxBufferBytes;

    public SchemeCounters(int ports) {
        this.ports = ports;
        this.xoff = new long[ports * PRIORITIES];
    }

    /** Copies {@code mmu}'s counters; {@code maxBufferBytes} is kept by its owner (the core or {@link ShadowMmus}). */
    public void copyFrom(Mmu mmu, long maxBufferBytes) {
        if (mmu.config().portCount() != ports) {
            throw new IllegalArgumentException("counters of " + ports + " ports, MMU of " + mmu.config().portCount());
        }
        FlowControl flow = mmu.flowControl();
        scheme = mmu.schemeName();
        for (int p = 0; p < ports; p++) {
            for (int q = 0; q < PRIORITIES; q++) {
                xoff[p * PRIORITIES + q] = flow.xoffCount(p, q);
            }
        }
        xoffTotal = flow.xoffEvents();
        xonTotal = flow.xonEvents();
        for (int r = 0; r < Verdict.DROP_REASONS; r++) {
            drops[r] = mmu.drops(-r - 1);
        }
        losslessDrops = mmu.losslessViolations();
        admitted = mmu.admittedPackets();
        bufferBytes = mmu.ledger().totalUsed();
        this.maxBufferBytes = maxBufferBytes;
    }

    /** Makes this a copy of {@code other}. */
    public void copyFrom(SchemeCounters other) {
        scheme = other.scheme;
        System.arraycopy(other.xoff, 0, xoff, 0, xoff.length);
        xoffTotal = other.xoffTotal;
        xonTotal = other.xonTotal;
        System.arraycopy(other.drops, 0, drops, 0, drops.length);
        losslessDrops = other.losslessDrops;
        admitted = other.admitted;
        bufferBytes = other.bufferBytes;
        maxBufferBytes = other.maxBufferBytes;
    }

    /**
     * Adds another worker's counts of the same scheme ({@link SwitchWorkers}): each worker's MMU
     * counts the decisions for its own ingress ports; the buffer in use and its maximum are each
     * worker's view of the whole buffer, so the larger is kept.
     */
    public void addFrom(SchemeCounters other) {
        for (int k = 0; k < xoff.length; k++) {
            xoff[k] += other.xoff[k];
        }
        xoffTotal += other.xoffTotal;
        xonTotal += other.xonTotal;
        for (int r = 0; r < drops.length; r++) {
            drops[r] += other.drops[r];
        }
        losslessDrops += other.losslessDrops;
        admitted += other.admitted;
        bufferBytes = Math.max(bufferBytes, other.bufferBytes);
        maxBufferBytes = Math.max(maxBufferBytes, other.maxBufferBytes);
    }

    /** A fresh copy of {@code mmu}'s counters (off the per-packet path: reports). */
    public static SchemeCounters of(Mmu mmu, long maxBufferBytes) {
        SchemeCounters c = new SchemeCounters(mmu.config().portCount());
        c.copyFrom(mmu, maxBufferBytes);
        return c;
    }

    /** Every shadow's counters, in the order the shadows were given (off the per-packet path). */
    public static SchemeCounters[] ofShadows(ShadowMmus shadows) {
        SchemeCounters[] all = new SchemeCounters[shadows == null ? 0 : shadows.count()];
        for (int i = 0; i < all.length; i++) {
            all[i] = of(shadows.mmu(i), shadows.maxBufferBytes(i));
        }
        return all;
    }

    public long drops(int verdict) {
        return drops[Verdict.dropIndex(verdict)];
    }

    public long totalDrops() {
        long n = 0;
        for (long d : drops) {
            n += d;
        }
        return n;
    }

    /** XOFF transitions of ingress {@code (port, priority)}. */
    public long xoff(int port, int priority) {
        return xoff[port * PRIORITIES + priority];
    }
}

package org.pfcswitch.core;

import java.util.Arrays;

/**
 * How one egress port chooses among its eight priority queues, ETS-style: the priorities in
 * {@code strictMask} are served first, highest priority number first; the rest share what is
 * left by deficit weighted round robin, each getting {@code weights[q] × quantumBytes} of credit
 * per round. All strict is plain strict priority; none strict is plain DWRR.
 *
 * @param strictMask   bit q set = queue q is strict priority
 * @param weights      eight DWRR weights (for the non-strict queues; each at least 1)
 * @param quantumBytes credit per weight unit and round; at least one MTU keeps rounds short
 */
public record SchedulerPolicy(int strictMask, int[] weights, int quantumBytes) {

    public static final int DEFAULT_QUANTUM_BYTES = 1536;

    public SchedulerPolicy {
        if ((strictMask & ~0xFF) != 0) {
            throw new IllegalArgumentException("scheduler strictMask is 8 bits, got 0x" + Integer.toHexString(strictMask));
        }
        if (weights == null || weights.length != 8) {
            throw new IllegalArgumentException("scheduler weights must list 8 values, got "
                    + (weights == null ? "none" : Arrays.toString(weights)));
        }
        weights = weights.clone();
        for (int w : weights) {
            if (w < 1 || w > 1_000_000) {
                throw new IllegalArgumentException("scheduler weights must be 1..1000000, got " + Arrays.toString(weights));
            }
        }
        if (quantumBytes < 64) {
            throw new IllegalArgumentException("scheduler quantumBytes must be >= 64, got " + quantumBytes);
        }
    }

    /** Strict priority over all eight queues: 7 first. */
    public static SchedulerPolicy strictPriority() {
        return new SchedulerPolicy(0xFF, equalWeights(), DEFAULT_QUANTUM_BYTES);
    }

    /** DWRR over all eight queues with these weights. */
    public static SchedulerPolicy dwrr(int... weights) {
        return new SchedulerPolicy(0, weights, DEFAULT_QUANTUM_BYTES);
    }

    /** ETS: {@code strictMask} queues strict, the others DWRR with {@code weights}. */
    public static SchedulerPolicy ets(int strictMask, int... weights) {
        return new SchedulerPolicy(strictMask, weights, DEFAULT_QUANTUM_BYTES);
    }

    @Override
    public int[] weights() {
        return weights.clone();
    }

    int weight(int queue) {
        return weights[queue];
    }

    private static int[] equalWeights() {
        int[] w = new int[8];
        Arrays.fill(w, 1);
        return w;
    }

    @Override
    public String toString() {
        return "strict 0x" + Integer.toHexString(strictMask) + ", dwrr weights " + Arrays.toString(weights)
                + " x " + quantumBytes + " B";
    }
}

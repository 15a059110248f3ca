package org.pfcswitch.core.trace;

/**
 * Where a {@link TraceWriter} takes its records from, on the consumer's side: one core's
 * {@link TraceRing}, or the {@link TraceMerge} of several workers' rings.
 */
public interface TraceSource {

    /** Receives drained records, one call per record, on the consumer's thread. */
    @FunctionalInterface
    interface RecordConsumer {
        void accept(long w0, long w1, long w2, long w3, long w4);
    }

    /**
     * Consumer only. Hands at most {@code max} records that are ready, oldest first, to {@code to}.
     *
     * @return records handed over
     */
    int drain(RecordConsumer to, int max);

    /** Records the producers dropped because a ring was full; any thread. */
    long dropped();
}

package org.pfcswitch.core.record;

/**
 * The recorder's view of several workers' {@link ArrivalRing}s as one stream in time order: a k-way
 * merge, in place in the rings (it holds no copy of a record, so its memory is the rings'). Each
 * ring is in time order already (a worker stamps its arrivals from one clock that never goes back);
 * arrivals of equal time from several workers go in worker order (ring index), and those of one
 * worker in the order it offered them.
 *
 * <p>An arrival is handed over only when no worker can still precede it: every other worker either
 * has an unread arrival after it (the merge takes the earliest head first), or has read nothing new
 * and its watermark ({@link ArrivalRing#advance}) is later than the arrival, or equal to it with a
 * higher worker index. The watermark is read before the ring is looked at, so what a worker may
 * still publish is never earlier than it. A worker that does not move its watermark holds the merge
 * up; the others' rings then fill and drop what does not fit (counted), so memory stays bounded.
 * One thread, the consumer of every ring; allocates nothing per call.
 */
final class ArrivalMerge {

    private final ArrivalRing[] rings;
    /** Per ring, within one call: the watermark and the arrivals seen, and those handed over. */
    private final long[] watermark;
    private final int[] seen;
    private final int[] taken;

    ArrivalMerge(ArrivalRing[] rings) {
        this.rings = rings.clone();
        this.watermark = new long[rings.length];
        this.seen = new int[rings.length];
        this.taken = new int[rings.length];
    }

    /**
     * Hands at most {@code limit} arrivals, in merged order, to {@code to}, then frees their slots.
     *
     * @param producersStopped every worker has stopped offering: whatever the rings hold goes, in order
     * @return arrivals handed over
     */
    int drain(ArrivalRing.Consumer to, int limit, boolean producersStopped) {
        int n = rings.length;
        for (int j = 0; j < n; j++) {
            watermark[j] = producersStopped ? Long.MAX_VALUE : rings[j].watermark();    // before the ring
            seen[j] = rings[j].available(Integer.MAX_VALUE);   // all: a ring's unseen part could precede its watermark
            taken[j] = 0;
        }
        int handed = 0;
        try {
            while (handed < limit) {
                int best = -1;
                long time = Long.MAX_VALUE;
                for (int j = 0; j < n; j++) {
                    if (taken[j] < seen[j]) {
                        long t = rings[j].time(taken[j]);
                        if (best < 0 || t < time) {            // strict: the lower worker wins a tie
                            best = j;
                            time = t;
                        }
                    }
                }
                if (best < 0 || !noneCanPrecede(best, time)) {
                    break;
                }
                ArrivalRing r = rings[best];
                to.accept(r.words(), r.readIndex(taken[best]));
                taken[best]++;
                handed++;
            }
        } finally {
            for (int j = 0; j < n; j++) {
                rings[j].consume(taken[j]);
            }
        }
        return handed;
    }

    /** Whether no worker whose seen arrivals are all taken can still publish one before (time, worker). */
    private boolean noneCanPrecede(int worker, long time) {
        for (int j = 0; j < rings.length; j++) {
            if (j != worker && taken[j] == seen[j]) {
                long w = watermark[j];
                if (w < time || (w == time && j < worker)) {
                    return false;
                }
            }
        }
        return true;
    }
}

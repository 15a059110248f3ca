package org.pfcswitch.core.record;

import java.util.Arrays;

/**
 * What one scheme did with a replayed recording.
 *
 * @param pfcFramesSent       PFC frames the switch sent, by port (XOFF and XON)
 * @param xoffSent            pause (XOFF) priority bits the switch sent, by port
 * @param txFrames            frames transmitted, by egress port
 * @param drops               frames dropped at admission
 * @param losslessViolations  lossless frames dropped
 * @param maxBufferBytes      most bytes the shared buffer held
 * @param meanQueueDelayNanos mean time a transmitted frame waited in its egress queue
 * @param slabFull            arrivals the replay had no slot for (0 unless the buffer is huge)
 * @param stoppedEarly        the recording stopped early on a write error ({@link ArrivalReader#stoppedEarly}):
 *                            these are the arrivals before it
 */
public record ReplayResult(String scheme, long arrivals, long lastArrivalNanos, long events, long[] pfcFramesSent,
                           long[] xoffSent, long[] txFrames, long drops, long losslessViolations, long maxBufferBytes,
                           double meanQueueDelayNanos, long maxQueueDelayNanos, long slabFull, int framesLeftQueued,
                           boolean stoppedEarly) {

    public long pfcFramesSentTotal() {
        return Arrays.stream(pfcFramesSent).sum();
    }

    public long xoffSentTotal() {
        return Arrays.stream(xoffSent).sum();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ReplayResult r && scheme.equals(r.scheme) && arrivals == r.arrivals
                && lastArrivalNanos == r.lastArrivalNanos && events == r.events
                && Arrays.equals(pfcFramesSent, r.pfcFramesSent) && Arrays.equals(xoffSent, r.xoffSent)
                && Arrays.equals(txFrames, r.txFrames) && drops == r.drops && losslessViolations == r.losslessViolations
                && maxBufferBytes == r.maxBufferBytes && Double.compare(meanQueueDelayNanos, r.meanQueueDelayNanos) == 0
                && maxQueueDelayNanos == r.maxQueueDelayNanos && slabFull == r.slabFull
                && framesLeftQueued == r.framesLeftQueued && stoppedEarly == r.stoppedEarly;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(events) * 31 + Arrays.hashCode(pfcFramesSent);
    }

    static final class Builder {
        final String scheme;
        long arrivals;
        long lastArrivalNanos;
        long events;
        final long[] pfcFramesSent;
        final long[] xoffSent;
        final long[] txFrames;
        long drops;
        long losslessViolations;
        long maxBufferBytes;
        double meanQueueDelayNanos;
        long maxQueueDelayNanos;
        long slabFull;
        int framesLeftQueued;
        boolean stoppedEarly;

        Builder(String scheme, int ports) {
            this.scheme = scheme;
            pfcFramesSent = new long[ports];
            xoffSent = new long[ports];
            txFrames = new long[ports];
        }

        ReplayResult build() {
            return new ReplayResult(scheme, arrivals, lastArrivalNanos, events, pfcFramesSent, xoffSent, txFrames, drops,
                    losslessViolations, maxBufferBytes, meanQueueDelayNanos, maxQueueDelayNanos, slabFull, framesLeftQueued,
                    stoppedEarly);
        }
    }
}

package org.pfcswitch.testbed;

import java.util.List;

import org.pfcswitch.core.ClonePfc;

/**
 * What one scheme did on one scenario: counters after the run, flow statistics and the sampled
 * time series. Everything here is a function of the scenario, the scheme and the seed (no wall
 * clock), so two runs give equal results.
 *
 * @param scheme             the MMU scheme
 * @param pausesSentByPort   PFC frames with a pause (quanta &gt; 0) the switch sent, per host port (refreshes included)
 * @param xoffEdgesByPort    XOFF transitions the switch's flow control advertised per host port, summed over the
 *                           lossless priorities: one per pause episode, refreshes not counted (what ns-3's PFC,
 *                           which never refreshes, counts as PAUSEs; 0 under bfc, whose pauses are not PFC)
 * @param fabricPausesBySwitch pause frames as in {@code pausesSentByPort} that each switch of a leaf-spine sent on
 *                           its switch-to-switch ports, by switch index (leaves, then spines); empty on one switch
 * @param pausedNanosByPort  time each host was kept from sending, per port: the time any of its priorities was
 *                           paused by PFC (priorities paused at once count once), plus BFC pauses under bfc; 0 for
 *                           a clone port that ignores PAUSE ({@link ClonePfc#IGNORE}), which nothing holds
 * @param firstPauseNanos    when the first pause reached any host, or -1
 * @param firstPauseByPort   when the first pause reached each host, or -1
 * @param throughputBps      per traffic (scenario order): payload bits received in the measure window per second
 * @param flowsCompleted     flows whose last byte arrived
 * @param flowsStarted       flows that started
 * @param fctP50Nanos        median FCT of completed flows (-1 if none)
 * @param fctP99Nanos        99th percentile FCT of completed flows (-1 if none)
 * @param bins               FCT statistics by flow-size bin
 * @param binsByTraffic      the same per traffic (scenario order), over that generator's flows only
 * @param losslessViolations lossless frames the MMU could not place (all switches)
 * @param losslessViolationsObeying  of those, frames whose sender obeys PFC (a host, a switch, a clone with
 *                           {@code pfc: skip}): the switch's fault, never expected
 * @param losslessViolationsIgnoring of those, frames from a sender that ignores PFC (a clone with {@code pfc: ignore}):
 *                           no scheme can promise them
 * @param drops              frames dropped at admission (any class, all switches)
 * @param maxBufferBytes     most bytes the shared buffer ever held (the fullest switch's)
 * @param cnpsSent           CNPs the receivers sent
 * @param events             events the loop ran (the packet-event count of the speed figures)
 * @param series             the time series
 * @param flows              every flow's record (start, end, size, FCT, slowdown)
 * @param pfcwd              what the PFC watchdog did (all switches), or null when the scenario has none
 * @param deadlock           what deadlock detection found, or null when the scenario has no {@code deadlock:} section
 * @param shadows            the shadow schemes' would-be XOFFs and drops beside the active scheme's real ones, or null
 *                           when the run had no shadow schemes ({@code sim --shadow})
 * @param frameMemoryBytes   memory the frames took: the most frames held at once, in whole pages of
 *                           slab slots ({@link HeapSlab#peakFrameBytes}); outside the Java heap
 */
public record SchemeResult(String scheme, long[] pausesSentByPort, long[] xoffEdgesByPort, long[] fabricPausesBySwitch,
                           long[] pausedNanosByPort, long firstPauseNanos,
                           long[] firstPauseByPort, double[] throughputBps, int flowsCompleted, int flowsStarted,
                           long fctP50Nanos, long fctP99Nanos, List<Bin> bins, List<TrafficBins> binsByTraffic,
                           long losslessViolations, long losslessViolationsObeying,
                           long losslessViolationsIgnoring, long drops,
                           long maxBufferBytes, long cnpsSent, long events, Series series,
                           FlowRecords flows, Pfcwd pfcwd, Deadlock deadlock,
                           Shadows shadows, long frameMemoryBytes) {

    /**
     * What the active scheme did and what each shadow scheme would have done on the same arrivals and
     * departures (org.pfcswitch.core.ShadowMmus), every switch summed: the shadows' pauses were never
     * sent and their drops never made, so the traffic is the active scheme's.
     */
    public record Shadows(Decisions active, List<Decisions> shadows) {
        public Shadows {
            shadows = List.copyOf(shadows);
        }
    }

    /**
     * One scheme's decisions over the run, every switch summed: XOFF transitions of lossless ingress
     * queues (every port, fabric links too), drops at admission, of which lossless, and the fullest
     * switch's most bytes held.
     */
    public record Decisions(String scheme, long xoffs, long drops, long losslessDrops, long maxBufferBytes) {}

    /**
     * Deadlock detection in a run ({@link DeadlockDetector}): its settings, the checks it made and
     * every deadlock it reported (the cycle's ports, first seen, reported).
     */
    public record Deadlock(long checkNanos, long persistNanos, long checks, List<DeadlockDetector.Report> reports) {
        public Deadlock {
            reports = List.copyOf(reports);
        }

        public long deadlocks() {
            return reports.size();
        }
    }

    /**
     * The PFC watchdog's work in a run: storms declared, restorations, frames dropped in stormed
     * queues, and every event in order ({@code switchIndex}, egress port, priority, time).
     */
    public record Pfcwd(long storms, long restorations, long droppedFrames, List<Event> events) {
        public Pfcwd {
            events = List.copyOf(events);
        }

        /** {@code kind} storm or restore; {@code durationNanos}: paused that long before the storm / stormed that long before the restoration. */
        public record Event(String kind, int switchIndex, int port, int priority, long atNanos, long durationNanos) {}
    }

    /**
     * FCT statistics of the completed flows with {@code lowBytes <= size < highBytes}; {@code started}
     * counts the flows of that size that started, completed or not (percentiles are nearest-rank).
     */
    public record Bin(long lowBytes, long highBytes, int count, int started, long fctP50Nanos, long fctP99Nanos,
                      double slowdownMean, double slowdownP95, double slowdownP99) {}

    /** The size bins of one traffic's flows. */
    public record TrafficBins(String traffic, List<Bin> bins) {}

    /**
     * Samples every {@code sampleNanos}: {@code timeNanos[i]}; per report port, the bytes queued
     * at its egress and whether its host was paused; per traffic, the throughput since the last sample.
     */
    public record Series(long[] timeNanos, int[] ports, long[][] queueBytes, boolean[][] paused, double[][] throughputBps) {}

    /** Pause frames sent on switch-to-switch ports, all switches together (0 on one switch). */
    public long fabricPausesSent() {
        long s = 0;
        for (long v : fabricPausesBySwitch) {
            s += v;
        }
        return s;
    }

    /** Pause frames every switch sent, to hosts and across the fabric. */
    public long pausesSent() {
        long s = fabricPausesSent();
        for (long v : pausesSentByPort) {
            s += v;
        }
        return s;
    }

    /** XOFF transitions on all host ports. */
    public long xoffEdges() {
        long s = 0;
        for (long v : xoffEdgesByPort) {
            s += v;
        }
        return s;
    }

    public long pausedNanos() {
        long s = 0;
        for (long v : pausedNanosByPort) {
            s += v;
        }
        return s;
    }
}

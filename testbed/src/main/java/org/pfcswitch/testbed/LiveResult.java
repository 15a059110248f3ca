package org.pfcswitch.testbed;

import java.util.List;

/**
 * What a real-time run of a scenario's traffic on live hosts did ({@link LiveRun}): per traffic,
 * per host and per flow. Unlike a {@link SchemeResult} it depends on the machine: times are on the
 * hosts' clock, which follows real time except for {@code slipNanos}.
 *
 * @param durationNanos how long the hosts ran (their clock)
 * @param slipNanos     how far their clock fell behind real time ({@link LiveHosts#slipNanos}): 0 when
 *                      the driver kept up with every host's line
 * @param passes        driver passes (each: receive on every port, run what is due)
 * @param traffic       per traffic, in scenario order
 * @param bins          FCT statistics by flow-size bin, all flows
 * @param binsByTraffic the same per traffic
 * @param hosts         per host, in testbed order
 * @param flows         every flow's record
 */
public record LiveResult(long durationNanos, long slipNanos, long passes, List<Traffic> traffic, List<SchemeResult.Bin> bins,
                         List<SchemeResult.TrafficBins> binsByTraffic, List<Host> hosts, FlowRecords flows) {

    /** One traffic's flows: started, completed, payload received and its rate over the whole run. */
    public record Traffic(String name, int flows, int completed, long receivedBytes, double throughputBps) {}

    /**
     * One host's counters: frames on its port (kernel drops: received frames its socket queue had
     * no room for; lost: sends the kernel refused), PFC and PAUSE frames received and the time they
     * kept it paused (summed over priorities), DCQCN and ACK traffic, and frames it dropped as
     * malformed or not for it.
     */
    public record Host(String name, long framesSent, long framesReceived, long pfcFramesReceived,
                       long pauseFramesReceived, long pausedNanos, long cnpsSent, long cnpsReceived, long acksSent,
                       long malformedFrames, long foreignFrames, long kernelDrops, long framesLost) {}
}

package org.pfcswitch.cli.scenario;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.FlowRecords;
import org.pfcswitch.testbed.LiveResult;
import org.pfcswitch.testbed.SchemeResult;

/** {@code pfcswitch hosts --json}: its keys and numbers (a live run needs root, so a made-up result). */
class HostsReportTest {

    @Test
    void jsonKeysNumbersAndNulls() {
        LiveResult r = new LiveResult(2_000_000_000L, 1_500_000L, 1234,
                List.of(new LiveResult.Traffic("web", 3, 2, 10_000, 1.23456e9),
                        new LiveResult.Traffic("x\"y", 0, 0, 0, Double.POSITIVE_INFINITY)),
                List.of(new SchemeResult.Bin(0, 10_000, 2, 3, 5_000, 9_000, 1.5, 2, 3),
                        new SchemeResult.Bin(10_000, Long.MAX_VALUE, 0, 0, -1, -1, Double.NaN, Double.NaN, Double.NaN)),
                List.of(),
                List.of(new LiveResult.Host("h0", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)),
                new FlowRecords());
        assertEquals("{\"scenario\":\"s\",\"testbed\":\"tb.yaml\",\"durationNs\":2000000000,\"slipNs\":1500000,"
                + "\"passes\":1234,\"traffic\":{\"web\":{\"flows\":3,\"completed\":2,\"receivedBytes\":10000,"
                + "\"throughputGbps\":1.2346},\"x\\\"y\":{\"flows\":0,\"completed\":0,\"receivedBytes\":0,"
                + "\"throughputGbps\":null}},\"fctBins\":[{\"lowBytes\":0,\"highBytes\":10000,\"count\":2,\"started\":3,"
                + "\"fctP50Ns\":5000,\"fctP99Ns\":9000,\"slowdownMean\":1.5000},{\"lowBytes\":10000,\"highBytes\":null,"
                + "\"count\":0,\"started\":0,\"fctP50Ns\":-1,\"fctP99Ns\":-1,\"slowdownMean\":null}],"
                + "\"hosts\":{\"h0\":{\"framesSent\":1,\"framesReceived\":2,\"pfcFramesReceived\":3,"
                + "\"pauseFramesReceived\":4,\"pausedNs\":5,\"cnpsSent\":6,\"cnpsReceived\":7,\"acksSent\":8,"
                + "\"malformedFrames\":9,\"foreignFrames\":10,\"kernelDrops\":11,\"framesLost\":12}},\"flows\":[]}",
                new HostsReport("s", "tb.yaml", r).json());
    }

    @Test
    void theSummarySaysWhenPacketsWereLostBetweenTheHostsThoughTheirSocketsLostNone() {
        assertEquals("packets lost between the hosts: none (no PSN missing at any receiver)", HostsReport.lossLine(0, 0));
        String lost = HostsReport.lossLine(1_000_000, 7);
        assertTrue(lost.startsWith("packets lost between the hosts: 1,000,000 PSNs of 7 flows never reached their receivers"),
                lost);
        assertTrue(lost.contains("rx rings"), lost);
    }
}

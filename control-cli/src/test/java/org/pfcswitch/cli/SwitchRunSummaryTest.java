package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.pfcswitch.control.SwitchMetrics;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.core.SwitchCounters;

/**
 * What {@code hosts} says the switch counted during its run, from two real scrapes of the switch's
 * {@link SwitchMetrics}: the differences per port in the switch's port order, lossless drops split
 * by whether the port's sender obeys PFC, and the plain line and exit status when an obeying
 * sender's frame was dropped. Counts before the run (and anything an operator cleared for
 * {@code show} meanwhile) do not enter: {@code /metrics} only grows.
 */
class SwitchRunSummaryTest {

    private final long[] rxMissed = new long[3];
    private final CoreSnapshot snap = new CoreSnapshot(3);
    private final SwitchMetrics metrics;

    SwitchRunSummaryTest() {
        snap.scheme = "dt";
        snap.senderIgnoresPfc[2] = true;                 // a clone port with pfc: ignore
        metrics = new SwitchMetrics(snap, List.of("h0", "h1", "c0"), new SwitchMetrics.Driver() {
            @Override
            public long txRefused(int port) {
                return 0;
            }

            @Override
            public long rxMissed(int port) {
                return rxMissed[port];
            }

            @Override
            public long stalls(int bucket) {
                return 0;
            }
        });
    }

    private void count(int port, int priority, long lossless, long pfcSent, long pfcReceived, long missed) {
        snap.counters.losslessDrops[port * SwitchCounters.PRIORITIES + priority] += lossless;
        snap.counters.pfcFramesTx[port] += pfcSent;
        snap.counters.pfcFramesRx[port] += pfcReceived;
        rxMissed[port] += missed;
    }

    @Test
    void theRunsDifferencesPerPortWithDropsBySender() {
        count(0, 3, 1000, 50, 7, 11);                     // before the run: not the run's
        count(2, 3, 400, 0, 0, 0);
        String before = metrics.scrape();
        count(0, 3, 12, 5, 1, 2);
        count(0, 4, 3, 0, 0, 0);
        count(1, 3, 0, 9, 0, 0);
        count(2, 3, 40, 0, 0, 0);
        SwitchRunSummary s = SwitchRunSummary.fromMetrics("a test", before, metrics.scrape());
        assertEquals(15, s.obeyingLosslessDrops());
        assertEquals(List.of("switch, during the run (a test):",
                "  lossless drops: 15 from senders that obey PFC (by ingress port: h0 15), 40 from senders that ignore it"
                        + " (by ingress port: c0 40)",
                "  PFC frames sent 14, received 1; frames its ports' rx rings had no room for 2",
                "  NOT LOSSLESS: the switch dropped 15 lossless frames from senders that obey PFC (exit status 4)"), s.lines());
    }

    @Test
    void aRunWithoutObeyingDropsSaysNothingIsWrong() {
        count(0, 3, 1000, 0, 0, 0);
        String before = metrics.scrape();
        count(2, 3, 5, 0, 0, 0);
        SwitchRunSummary s = SwitchRunSummary.fromMetrics("a test", before, metrics.scrape());
        assertEquals(0, s.obeyingLosslessDrops());
        assertEquals(3, s.lines().size(), String.join("\n", s.lines()));
    }
}

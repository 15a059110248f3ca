package org.pfcswitch.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.pfcswitch.testbed.DropAttribution.Drop;
import org.pfcswitch.testbed.DropAttribution.Kind;
import org.pfcswitch.testbed.DropAttribution.Result;

/**
 * Whose a drop is, from a sender's log built by hand: a host at 200 Mb/s sends 1000 B frames
 * (40 us each) of flow 7 with PSN 0, 1, 2, ... and the switch's queue has 10,000 B of headroom.
 */
class DropAttributionTest {

    static final long RATE = 200_000_000L;
    static final int FRAME = 1000;
    static final long FRAME_NANOS = FRAME * 8 * 1_000_000_000L / RATE;       // 40 us
    static final long HEADROOM = 10_000;
    /** The system clock runs 1 ms ahead of the host's clock: conversions must not mix them up. */
    static final long SYSTEM_OFFSET = 1_000_000;

    final long[] clock = {0};
    final HostSendLog log = new HostSendLog(1 << 10, 16, () -> clock[0]);
    final DropAttribution attribution = new DropAttribution(log, new long[] {RATE}, FRAME);

    /** Host 0 starts PSN 0..frames-1 back to back from host time 0, each reaching the log at its start. */
    void send(int frames) {
        for (int psn = 0; psn < frames; psn++) {
            long start = psn * FRAME_NANOS;
            clock[0] = start + SYSTEM_OFFSET;
            log.onTransmit(0, 7, psn, 3, FRAME, start);
        }
    }

    /** Host 0 takes a PFC XOFF of priority 3 at host time {@code at}. */
    void pause(long at) {
        clock[0] = at + SYSTEM_OFFSET;
        int[] quanta = new int[8];
        quanta[3] = 0xFFFF;
        log.onPfc(0, 1 << 3, quanta, at);
    }

    /** A drop of PSN {@code lost} at system time {@code at}; the headroom's first frame PSN {@code first}, full. */
    Drop drop(int lost, int first, long xoffSent, long at) {
        return new Drop(0, 3, 7, lost, at, xoffSent, 7, first, (first + 1) * FRAME_NANOS + SYSTEM_OFFSET, HEADROOM - 200,
                HEADROOM);
    }

    @Test
    void anObeyingSenderWhosePauseCameLateOverranTheHeadroomOnTheWire() {
        send(40);
        pause(30 * FRAME_NANOS);                                  // after it started PSN 29
        // headroom from PSN 5; PSN 20 (15 frames = 15,000 B later) no longer fits
        Result r = attribution.attribute(drop(20, 5, 10 * FRAME_NANOS + SYSTEM_OFFSET, 21 * FRAME_NANOS + SYSTEM_OFFSET));
        assertEquals(Kind.WIRE, r.kind(), r.why());
        assertEquals(20 * FRAME_NANOS, r.xoffDeliveryNanos());   // sent at 10 frames, taken at 30
        assertEquals(FRAME_NANOS, r.firstTripNanos());           // PSN 5 started at 5 frames, in headroom at 6
        assertTrue(r.why().contains("sent before its host took the XOFF"), r.why());
    }

    @Test
    void aFrameStartedAfterItsHostTookTheXoffIsTheHosts() {
        send(40);
        pause(12 * FRAME_NANOS);
        Result r = attribution.attribute(drop(20, 5, 11 * FRAME_NANOS + SYSTEM_OFFSET, 21 * FRAME_NANOS + SYSTEM_OFFSET));
        assertEquals(Kind.HOST, r.kind(), r.why());
        assertTrue(r.why().contains("0.320 ms after it took the XOFF"), r.why());   // PSN 20 at 20 frames, pause at 12
    }

    @Test
    void aHeadroomFullOfFewerFramesThanItsSenderSentIsTheSwitchs() {
        send(40);
        pause(30 * FRAME_NANOS);
        // 9,800 B in headroom but only 4 frames started between the first headroom frame and the lost one
        Result r = attribution.attribute(drop(9, 5, 6 * FRAME_NANOS + SYSTEM_OFFSET, 10 * FRAME_NANOS + SYSTEM_OFFSET));
        assertEquals(Kind.SWITCH, r.kind(), r.why());
        assertTrue(r.why().contains("started only 0.160 ms of frames"), r.why());
    }

    @Test
    void dropsBeforeAnyXoffOrWithHeadroomToSpareAreTheSwitchs() {
        send(40);
        assertEquals(Kind.SWITCH, attribution.attribute(drop(20, 5, -1, 21 * FRAME_NANOS)).kind());
        Drop roomLeft = new Drop(0, 3, 7, 20, 21 * FRAME_NANOS, 10 * FRAME_NANOS, 7, 5, 6 * FRAME_NANOS, HEADROOM - 2 * FRAME,
                HEADROOM);
        Result r = attribution.attribute(roomLeft);
        assertEquals(Kind.SWITCH, r.kind(), r.why());
        assertTrue(r.why().contains("8000 B of the queue's 10000 B headroom"), r.why());
    }

    @Test
    void aFrameTheSenderNeverLoggedCannotBeJudged() {
        send(10);
        assertEquals(Kind.UNMATCHED, attribution.attribute(drop(20, 5, 6 * FRAME_NANOS, 21 * FRAME_NANOS)).kind());
        Drop notRoce = new Drop(0, 3, -1, -1, 21 * FRAME_NANOS, 6 * FRAME_NANOS, 7, 5, 6 * FRAME_NANOS, HEADROOM - 200, HEADROOM);
        assertEquals(Kind.UNMATCHED, attribution.attribute(notRoce).kind());
    }

    @Test
    void theLogKeepsThreeQuartersOfItsSlotsAndCountsTheRest() {
        HostSendLog small = new HostSendLog(16, 2, () -> 0);
        for (int psn = 0; psn < 20; psn++) {
            small.onTransmit(1, 3, psn, 3, FRAME, psn);
        }
        assertEquals(8, small.sendsNotKept());
        assertTrue(small.sent(1, 3, 11) >= 0);
        assertEquals(11, small.sentHostAt(small.sent(1, 3, 11)));
        assertEquals(-1, small.sent(1, 3, 12));
        assertEquals(-1, small.sent(2, 3, 5), "another host's frame of the same flow and PSN is another frame");
        int[] quanta = new int[8];
        small.onPfc(1, 1 << 3, quanta, 5);                        // an XON: not a pause
        quanta[3] = 1;
        small.onPfc(1, 1 << 3, quanta, 6);
        small.onPfc(1, 1 << 3, quanta, 7);
        small.onPfc(1, 1 << 3, quanta, 8);
        assertEquals(1, small.pausesNotKept());
        assertEquals(0, small.firstPauseFrom(1, 3, 0));
        assertEquals(-1, small.firstPauseFrom(1, 2, 0), "priority 2 was never paused");
    }

    @Test
    void theFirstPauseAHostTookFromATimeIsFoundAmongOtherHostsPauses() {
        long[] clock = {0};
        HostSendLog log = new HostSendLog(16, 64, () -> clock[0]);
        int[] quanta = new int[8];
        quanta[3] = 1;
        for (int i = 0; i < 30; i++) {                           // hosts 0, 1, 2 take turns, 10 ns apart
            clock[0] = i * 10L;
            log.onPfc(i % 3, 1 << 3, quanta, i * 10L);
        }
        assertEquals(0, log.firstPauseFrom(0, 3, 0));
        assertEquals(3, log.firstPauseFrom(0, 3, 1), "after 0 ns: host 0's next, at 30 ns");
        assertEquals(16, log.firstPauseFrom(1, 3, 155), "host 1's at 160 ns");
        assertEquals(29, log.firstPauseFrom(2, 3, 290), "exactly at 290 ns counts");
        assertEquals(-1, log.firstPauseFrom(0, 3, 271), "host 0 took none after 270 ns");
        assertEquals(-1, log.firstPauseFrom(0, 2, 0), "nor any of priority 2");
        assertEquals(290, log.pauseSystemAt(29));
    }
}

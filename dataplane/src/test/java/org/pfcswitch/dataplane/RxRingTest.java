package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * The start-up line's receive ring: an af_packet device's framecnt (DPDK's default 512 when not
 * given), any other device's descriptors, and the worker stall that ring rides out at line rate;
 * rings grown to ride out a stall the config asks for ({@code poll.rxStall}).
 */
class RxRingTest {

    private static SwitchConfig.Port port(String device, long speedBps) {
        return new SwitchConfig.Port("h0", Device.parse(device), -1, speedBps, 0, 1024, 1024);
    }

    @Test
    void anAfPacketRingIsItsFramecntAndLastsItsFramesAtLineRate() {
        assertEquals(", rx ring 512 frames (af_packet default; framecnt= sets it): 30.7 ms of 1500 B frames at 200 Mbit/s",
                RxRing.describe(port("net_af_packet0,iface=veth0,qdisc_bypass=1", 200_000_000L)));
        assertEquals(", rx ring 4096 frames (af_packet framecnt): 4.9 ms of 1500 B frames at 10 Gbit/s",
                RxRing.describe(port("net_af_packet1,iface=veth1,framecnt=4096", 10_000_000_000L)));
    }

    @Test
    void anyOtherDeviceHasItsDescriptors() {
        assertEquals(", rx ring 1024 frames (descriptors): 0.5 ms of 1500 B frames at 25 Gbit/s",
                RxRing.describe(port("0000:3b:00.0", 25_000_000_000L)));
    }

    @Test
    void ringsGrowToRideOutTheStallAskedForAtEachPortsSpeed() {
        List<SwitchConfig.Port> sized = RxRing.sizedFor(List.of(
                port("net_af_packet0,iface=veth0,qdisc_bypass=1", 1_000_000_000L),
                port("net_af_packet1,iface=veth1", 100_000_000L)), 20_000_000L);
        // 20 ms at 1 Gb/s is 1,667 frames of 1500 B, rounded up to 1,696 (a multiple of 32)
        assertEquals("net_af_packet0,iface=veth0,qdisc_bypass=1,framecnt=1696", sized.get(0).device().toString());
        assertEquals(1696, RxRing.frames(sized.get(0)));
        assertTrue(RxRing.rideOutNanos(RxRing.frames(sized.get(0)), 1_000_000_000L) >= 20_000_000L);
        assertEquals(1024, sized.get(0).rxDescriptors(), "an af_packet ring is the kernel's: descriptors unchanged");
        // 20 ms at 25 Gb/s: 41,667 frames, more than any NIC gives
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RxRing.sizedFor(List.of(
                port("0000:3b:00.0", 25_000_000_000L)), 20_000_000L));
        assertEquals("port h0 needs a ring of 41696 frames to ride out 20.0 ms at 25 Gbit/s; at most 16384 rx descriptors"
                + " (7.9 ms at that speed)", e.getMessage());
        // 5 ms at 25 Gb/s fits in descriptors
        assertEquals(10432, RxRing.sizedFor(List.of(port("0000:3b:00.0", 25_000_000_000L)), 5_000_000L).getFirst()
                .rxDescriptors());
        // 20 ms at 100 Mb/s is 167 frames: the default ring of 512 already holds more, and stays
        assertEquals("net_af_packet1,iface=veth1", sized.get(1).device().toString());
    }

    @Test
    void aFramecntGivenTooSmallForTheStallIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> RxRing.sizedFor(List.of(
                port("net_af_packet0,iface=veth0,framecnt=256", 1_000_000_000L)), 20_000_000L));
        assertEquals("port h0: its device gives framecnt=256, 1696 frames are needed to ride out the stall: drop framecnt="
                + " or raise it", e.getMessage());
    }
}

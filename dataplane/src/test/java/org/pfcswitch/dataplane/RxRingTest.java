package org.pfcswitch.dataplane;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/**
 * The start-up line's receive ring: an af_packet device's framecnt (DPDK's default 512 when not
 * given), any other device's descriptors, and the worker stall that ring rides out at line rate.
 */
class RxRingTest {

    private static SwitchConfig.Port port(String device, long speedBps) {
        return new SwitchConfig.Port("h0", Device.parse(device), -1, speedBps, 0, 1024, 1024);
    }

    @Test
    void anAfPacketRingIsItsFramecntAndLastsItsFramesAtLineRate() {
        assertEquals(", rx ring 512 frames (af_packet default; framecnt= sets it): 30.7 ms of 1500 B frames at 200 Mbit/s",
                DpdkPorts.rxRing(port("net_af_packet0,iface=veth0,qdisc_bypass=1", 200_000_000L)));
        assertEquals(", rx ring 4096 frames (af_packet framecnt): 4.9 ms of 1500 B frames at 10 Gbit/s",
                DpdkPorts.rxRing(port("net_af_packet1,iface=veth1,framecnt=4096", 10_000_000_000L)));
    }

    @Test
    void anyOtherDeviceHasItsDescriptors() {
        assertEquals(", rx ring 1024 frames (descriptors): 0.5 ms of 1500 B frames at 25 Gbit/s",
                DpdkPorts.rxRing(port("0000:3b:00.0", 25_000_000_000L)));
    }
}

package org.pfcswitch.dataplane;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A port's receive ring as a stall budget: while the worker does not poll (the OS ran something
 * else on its CPU, a GC safepoint), frames arriving at line rate fill the ring, and once it is full
 * the kernel or NIC drops them before the switch sees them (rx missed), lossless ones too: no PFC
 * can stop a sender for frames the switch never saw. The ring is an af_packet device's kernel ring
 * ({@code framecnt}, DPDK's default 512) or any other device's rx descriptors. Either holds a number
 * of frames whatever their size: DPDK 22.11's af_packet PMD asks for a TPACKET_V2 ring of
 * {@code framecnt} 2 KiB slots (two to a 4 KiB block), one frame a slot, so a 64 B ACK takes as much
 * of it as a full frame. Its time is counted here in 1500 B frames, the longest a ring rides out at
 * line rate; smaller frames fill it sooner (frames of a 1024 B RoCE payload, 1082 B: 28 % sooner).
 */
public final class RxRing {

    /** DPDK's af_packet PMD gives a port a ring of this many frames unless {@code framecnt=} says otherwise. */
    static final int AF_PACKET_DEFAULT_FRAMES = 512;
    /** The frame the budget is counted in: an MTU-size Ethernet frame. */
    static final int FRAME_BYTES = 1500;
    /** The most descriptors a port may ask for (the config's rxDescriptors bound; NICs allow 4096 to 8192). */
    public static final int MAX_DESCRIPTORS = 16384;
    /**
     * The most frames an af_packet kernel ring is sized to here: with the PMD's 2 KiB frames, 32 MiB
     * per ring, for rx and tx each.
     */
    public static final int MAX_AF_PACKET_FRAMES = 16384;

    private RxRing() {}

    /** The frames port {@code port}'s receive ring holds. */
    public static long frames(SwitchConfig.Port port) {
        String framecnt = afPacket(port) ? ((Device.Vdev) port.device()).option("framecnt") : null;
        if (!afPacket(port)) {
            return port.rxDescriptors();
        }
        return framecnt != null && framecnt.matches("[0-9]+") ? Long.parseLong(framecnt) : AF_PACKET_DEFAULT_FRAMES;
    }

    /** How long a ring of {@code frames} rides out a stall when MTU-size frames arrive at {@code speedBps}. */
    public static long rideOutNanos(long frames, long speedBps) {
        return (long) (frames * FRAME_BYTES * 8 * 1e9 / speedBps);
    }

    /**
     * The frames a ring needs to ride out a stall of {@code stallNanos} at {@code speedBps}, rounded
     * up to a multiple of 32 (NICs take descriptors in multiples of 8 to 32; the af_packet PMD's
     * framecnt must fill its 4 KiB blocks of two frames).
     */
    static long framesFor(long stallNanos, long speedBps) {
        long frames = (long) Math.ceil(stallNanos * (double) speedBps / (FRAME_BYTES * 8 * 1e9));
        return (frames + 31) / 32 * 32;
    }

    /**
     * The ring in words for the start-up log and {@code run --check}: {@code , rx ring N frames
     * (what sets it): T ms of 1500 B frames at SPEED}.
     */
    public static String describe(SwitchConfig.Port port) {
        boolean afPacket = afPacket(port);
        String what = !afPacket ? "descriptors" : ((Device.Vdev) port.device()).option("framecnt") != null
                ? "af_packet framecnt" : "af_packet default; framecnt= sets it";
        long frames = frames(port);
        String ring = ", rx ring " + frames + " frames (" + what + ")";
        return port.speedBps() <= 0 ? ring : ring + String.format(Locale.ROOT, ": %.1f ms of %d B frames at %s",
                rideOutNanos(frames, port.speedBps()) / 1e6, FRAME_BYTES, Rates.format(port.speedBps()));
    }

    /**
     * The ports with every device port's ring grown to ride out a worker stall of {@code stallNanos}
     * at its speed (a ring already large enough is kept): an af_packet device gets {@code framecnt=},
     * any other device rx descriptors. Clone ports have no ring.
     *
     * @throws IllegalArgumentException a port would need more than {@link #MAX_DESCRIPTORS} or
     *                                  {@link #MAX_AF_PACKET_FRAMES}, naming it, its speed and the most
     *                                  stall it can be given
     */
    public static List<SwitchConfig.Port> sizedFor(List<SwitchConfig.Port> ports, long stallNanos) {
        List<SwitchConfig.Port> sized = new ArrayList<>();
        for (SwitchConfig.Port p : ports) {
            if (p.isClone() || frames(p) >= framesFor(stallNanos, p.speedBps())) {
                sized.add(p);
                continue;
            }
            long need = framesFor(stallNanos, p.speedBps());
            boolean afPacket = afPacket(p);
            long max = afPacket ? MAX_AF_PACKET_FRAMES : MAX_DESCRIPTORS;
            if (need > max) {
                throw new IllegalArgumentException(String.format(Locale.ROOT, "port %s needs a ring of %d frames to ride out"
                        + " %.1f ms at %s; at most %d %s (%.1f ms at that speed)", p.name(), need, stallNanos / 1e6,
                        Rates.format(p.speedBps()), max, afPacket ? "af_packet frames" : "rx descriptors",
                        rideOutNanos(max, p.speedBps()) / 1e6));
            }
            if (afPacket) {
                Device.Vdev v = (Device.Vdev) p.device();
                if (v.option("framecnt") != null) {
                    throw new IllegalArgumentException("port " + p.name() + ": its device gives framecnt=" + v.option("framecnt")
                            + ", " + need + " frames are needed to ride out the stall: drop framecnt= or raise it");
                }
                Device.Vdev grown = new Device.Vdev(v.name(), v.args().isEmpty() ? "framecnt=" + need
                        : v.args() + ",framecnt=" + need);
                sized.add(new SwitchConfig.Port(p.name(), grown, p.mac(), p.speedBps(), p.cableDelayNanos(),
                        p.rxDescriptors(), p.txDescriptors()));
            } else {
                sized.add(new SwitchConfig.Port(p.name(), p.device(), p.mac(), p.speedBps(), p.cableDelayNanos(),
                        (int) need, p.txDescriptors()));
            }
        }
        return sized;
    }

    private static boolean afPacket(SwitchConfig.Port port) {
        return port.device() instanceof Device.Vdev v && v.driver().equals("net_af_packet");
    }
}

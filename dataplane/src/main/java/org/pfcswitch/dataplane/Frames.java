package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.Udp;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mbuf;
import org.pfcswitch.dpdk.Mempool;

/**
 * Building test and benchmark frames and moving them in and out of DPDK ports from the control
 * plane (tests, {@code bench fwd}): these allocate and are not for the forwarding loop.
 */
public final class Frames {

    private Frames() {}

    /**
     * An Ethernet/IPv4/UDP frame of {@code length} bytes (at least 60) with the given DSCP; the
     * payload is a pattern seeded by {@code seed}, so frames differ byte by byte.
     */
    public static byte[] udp(long dst, long src, int dscp, int length, long seed) {
        if (length < Ethernet.MIN_FRAME_BYTES || length > 9000) {
            throw new IllegalArgumentException("frame length must be 60..9000, got " + length);
        }
        byte[] frame = new byte[length];
        MemorySegment s = MemorySegment.ofArray(frame);
        long ip = Ethernet.write(s, 0, dst, src, Ethernet.TYPE_IPV4);
        int ipPayload = length - Ethernet.HEADER_BYTES - Ipv4.MIN_HEADER_BYTES;
        long udp = Ipv4.write(s, ip, dscp, 0, ipPayload, (int) seed & 0xFFFF, 64, Ipv4.PROTO_UDP,
                0x0A63_0001, 0x0A63_0002);
        long payload = Udp.write(s, udp, 1024 + (int) (seed & 0x3FF), 9, ipPayload - Udp.HEADER_BYTES);
        long x = seed * 0x9E37_79B9_7F4A_7C15L + 1;
        for (long i = payload; i < length; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            frame[(int) i] = (byte) x;
        }
        return frame;
    }

    /** A tagged frame (802.1Q, {@code pcp}) carrying an opaque payload of {@code length - 18} bytes. */
    public static byte[] vlan(long dst, long src, int pcp, int vid, int length) {
        byte[] frame = new byte[Math.max(length, Ethernet.MIN_FRAME_BYTES)];
        MemorySegment s = MemorySegment.ofArray(frame);
        Ethernet.write(s, 0, dst, src, Ethernet.TYPE_VLAN);
        frame[14] = (byte) (pcp << 5 | (vid >>> 8 & 0xF));
        frame[15] = (byte) vid;
        frame[16] = (byte) 0x88;      // an EtherType the switch only forwards (local experimental)
        frame[17] = (byte) 0xB5;
        for (int i = 18; i < frame.length; i++) {
            frame[i] = (byte) i;
        }
        return frame;
    }

    /**
     * Copies each frame into a fresh mbuf from {@code pool} and transmits them on {@code port}.
     *
     * @return how many the port took (the rest are freed)
     */
    public static int send(Mempool pool, EthPort port, List<byte[]> frames) {
        int taken = 0;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment ptrs = Mbuf.pointerArray(call, 32);
            for (int from = 0; from < frames.size(); from += 32) {
                int n = Math.min(32, frames.size() - from);
                if (!pool.allocBulk(ptrs, n)) {
                    throw new IllegalStateException("packet pool " + pool.name() + " is empty");
                }
                for (int i = 0; i < n; i++) {
                    long m = ptrs.getAtIndex(JAVA_LONG, i);
                    byte[] f = frames.get(from + i);
                    MemorySegment.copy(f, 0, Mbuf.memory(), JAVA_BYTE, Mbuf.dataAddress(m), f.length);
                    Mbuf.setLengths(m, f.length);
                }
                int sent = port.txBurst(0, ptrs, n);
                if (sent < n) {
                    MemorySegment.copy(ptrs, (long) sent * 8, ptrs, 0, (long) (n - sent) * 8);
                    Mbuf.freeBulk(ptrs, n - sent);
                }
                taken += sent;
            }
        }
        return taken;
    }

    /**
     * Writes {@code frame} into every mbuf of {@code pool} (all of them taken, written and given
     * back), so that a port whose rx only allocates (net_null) hands out this frame.
     *
     * @return mbufs written
     */
    public static int fill(Mempool pool, byte[] frame) {
        int written = 0;
        try (Arena call = Arena.ofConfined()) {
            List<MemorySegment> taken = new ArrayList<>();
            for (int n = 32; n > 0; ) {
                MemorySegment ptrs = Mbuf.pointerArray(call, n);
                if (!pool.allocBulk(ptrs, n)) {
                    n >>= 1;
                    continue;
                }
                for (int i = 0; i < n; i++) {
                    long m = ptrs.getAtIndex(JAVA_LONG, i);
                    MemorySegment.copy(frame, 0, Mbuf.memory(), JAVA_BYTE, Mbuf.dataAddress(m), frame.length);
                    Mbuf.setLengths(m, frame.length);
                }
                taken.add(ptrs);
                written += n;
            }
            for (MemorySegment ptrs : taken) {
                Mbuf.freeBulk(ptrs, (int) (ptrs.byteSize() / Long.BYTES));
            }
        }
        return written;
    }

    /** Receives whatever {@code port} has now (up to {@code max}), copies the bytes out and frees the mbufs. */
    public static List<byte[]> receive(EthPort port, int max) {
        List<byte[]> out = new ArrayList<>();
        try (Arena call = Arena.ofConfined()) {
            MemorySegment ptrs = Mbuf.pointerArray(call, 32);
            while (out.size() < max) {
                int n = port.rxBurst(0, ptrs, Math.min(32, max - out.size()));
                if (n == 0) {
                    break;
                }
                for (int i = 0; i < n; i++) {
                    long m = ptrs.getAtIndex(JAVA_LONG, i);
                    byte[] f = new byte[Mbuf.dataLength(m)];
                    MemorySegment.copy(Mbuf.memory(), JAVA_BYTE, Mbuf.dataAddress(m), f, 0, f.length);
                    out.add(f);
                }
                Mbuf.freeBulk(ptrs, n);
            }
        }
        return out;
    }
}

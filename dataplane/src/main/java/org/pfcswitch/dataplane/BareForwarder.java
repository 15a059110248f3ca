package org.pfcswitch.dataplane;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.NetOrder;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.Mbuf;

/**
 * The reference that {@code bench fwd} measures beside the switch: DPDK's l2fwd (and testpmd's
 * mac mode) in Java. Each pass takes an rx burst from every port, writes each frame's MACs for
 * its egress port, and sends the burst out of the paired port ({@code p ^ 1}) through a
 * {@link TxBuffer}. No classification, no forwarding table, no buffer admission: what the Java
 * FFM poll loop itself costs, so the switch pipeline's figure can be read against it. Not a
 * switch: {@code pfcswitch run} is always the {@link CoreWorker}.
 *
 * <p>Ownership: a received mbuf goes straight to the paired port's TX buffer, which gives it to
 * the PMD or frees it; the loop holds nothing between passes.
 */
final class BareForwarder implements PollLoop {

    private final EthPort[] ports;
    /** The ports this forwarder polls, in order. */
    private final int[] polled;
    private final long[] egressMacs;
    private final MemorySegment[] rx;
    private final long[] rxAddress;
    private final TxBuffer[] tx;
    private final long[] burst = new long[CoreWorker.BURST];
    private final int[] lengths = new int[CoreWorker.BURST];
    private long received;

    /**
     * @param ports      an even number of ports, forwarded in pairs (0 to 1, 1 to 0, 2 to 3, ...)
     * @param egressMacs per port p: the destination ({@code [2p]}) and source ({@code [2p+1]}) MAC
     *                   written into every frame that leaves port p
     * @param arena      holds the burst arrays; closed by the caller after {@link #finish}
     */
    BareForwarder(EthPort[] ports, long[] egressMacs, Arena arena) {
        this(ports, egressMacs, arena, null);
    }

    /**
     * One of several forwarders over the same ports: it polls only the ports {@code polled} marks
     * (null: all) and sends on their pairs, so each port's tx queue has one writer when every port
     * is polled by exactly one forwarder.
     */
    BareForwarder(EthPort[] ports, long[] egressMacs, Arena arena, boolean[] polled) {
        if (ports.length % 2 != 0 || egressMacs.length != 2 * ports.length) {
            throw new IllegalArgumentException("the bare forwarder needs port pairs and two MACs per port");
        }
        this.ports = ports.clone();
        this.polled = java.util.stream.IntStream.range(0, ports.length).filter(p -> polled == null || polled[p]).toArray();
        this.egressMacs = egressMacs.clone();
        this.rx = new MemorySegment[ports.length];
        this.rxAddress = new long[ports.length];
        this.tx = new TxBuffer[ports.length];
        for (int p = 0; p < ports.length; p++) {
            rx[p] = NativeArrays.unscoped(Mbuf.pointerArray(arena, CoreWorker.BURST));
            rxAddress[p] = rx[p].address();
            tx[p] = new TxBuffer(arena, ports[p], p, CoreWorker.BURST);
        }
    }

    @Override
    public void poll() {
        MemorySegment memory = Mbuf.memory();
        for (int in : polled) {
            int n = ports[in].rxBurst(0, rx[in], CoreWorker.BURST);
            if (n == 0) {
                continue;
            }
            received += n;
            int out = in ^ 1;
            long dst = egressMacs[2 * out];
            long src = egressMacs[2 * out + 1];
            for (int i = 0; i < n; i++) {
                long m = memory.get(JAVA_LONG, rxAddress[in] + (long) i * Long.BYTES);
                long at = Mbuf.dataAddress(m);
                NetOrder.put64(memory, at, dst << 16 | src >>> 32);
                NetOrder.put32(memory, at + 8, (int) src);
                burst[i] = m;
                lengths[i] = Mbuf.dataLength(m);
            }
            tx[out].addAll(burst, lengths, n);
        }
        for (TxBuffer b : tx) {
            if (!b.isEmpty()) {
                b.flush();
            }
        }
    }

    @Override
    public int finish() {
        int n = 0;
        for (TxBuffer b : tx) {
            n += b.discard();
        }
        return n;
    }

    @Override
    public long framesReceived() {
        return received;
    }
}

package org.pfcswitch.dataplane;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.core.PacketMemory;
import org.pfcswitch.dpdk.Mbuf;

/**
 * DPDK's packet memory: a handle is an mbuf address and the frame is the mbuf's data
 * ({@code buf_addr + data_off}, {@code data_len} bytes). Frames are single-segment: the pool's
 * data room (2176 bytes) holds any standard frame, and no port here enables scatter.
 */
public final class DpdkPacketMemory implements PacketMemory {

    public static final DpdkPacketMemory INSTANCE = new DpdkPacketMemory();

    private DpdkPacketMemory() {}

    @Override
    public MemorySegment bytes() {
        return Mbuf.memory();
    }

    @Override
    public long offset(long handle) {
        return Mbuf.dataAddress(handle);
    }

    @Override
    public int length(long handle) {
        return Mbuf.dataLength(handle);
    }
}

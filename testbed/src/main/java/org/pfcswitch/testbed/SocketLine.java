package org.pfcswitch.testbed;

/**
 * A host's line in real time: a frame the host starts goes out through its {@link FramePort} at
 * that moment (the host has already paced it at its line rate), and its slab slot is free again
 * as soon as the kernel has the bytes.
 */
final class SocketLine implements Line {

    private final HeapSlab slab;
    private final FramePort port;
    private long framesLost;

    SocketLine(HeapSlab slab, FramePort port) {
        this.slab = slab;
        this.port = port;
    }

    @Override
    public void send(long handle, int length, long start) {
        if (!port.send(slab.bytes(), slab.offset(handle), length)) {
            framesLost++;
        }
        slab.free(handle);
    }

    /** Frames the kernel refused (no buffer): lost on the wire, as a NIC's tx drop. */
    long framesLost() {
        return framesLost;
    }
}

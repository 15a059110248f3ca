package org.pfcswitch.testbed;

import java.lang.foreign.MemorySegment;

/**
 * A host's real NIC port for the real-time driver: frames out and in, one at a time, never
 * blocking. The driver copies frames between its packet slab and the port; the port keeps no
 * reference to the segments it is given.
 */
public interface FramePort {

    /** What {@link #receive} returns when no frame waits. */
    int NONE = -1;

    /**
     * Sends {@code length} bytes at {@code offset} of {@code frame} as one Ethernet frame.
     *
     * @return false when the kernel had no room for it (the frame is lost; the port counts it)
     */
    boolean send(MemorySegment frame, long offset, int length);

    /**
     * Copies the next received frame to {@code offset} of {@code into}, at most {@code max} bytes.
     * A frame longer than {@code max} is counted and skipped, never truncated.
     *
     * @return its length, or {@link #NONE} when none waits
     */
    int receive(MemorySegment into, long offset, int max);

    /** Received frames the kernel dropped because the port's queue was full (0 where unknown). */
    default long kernelDrops() {
        return 0;
    }
}

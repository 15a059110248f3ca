package org.pfcswitch.testbed;

/**
 * Where the frames a host starts on its NIC's line go: the seam between an emulated host and its
 * driver. In virtual time it is a {@link Wire}, which delivers the frame to the far end after its
 * serialization and propagation delay; in real time it is a {@link SocketLine}, which writes the
 * frame to the host's packet socket at once. The host paces its own line ({@code lineFreeAt}), so a
 * line never sees two frames overlap, and whoever ends up with the handle frees it.
 */
interface Line {

    /** Frame {@code handle} of {@code length} bytes starts on the line at {@code start}. */
    void send(long handle, int length, long start);
}

package org.pfcswitch.codec;

import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes classic libpcap files (link type Ethernet) in microsecond or nanosecond precision,
 * little-endian as tcpdump writes them on x86. Frames are written without FCS.
 */
public final class PcapWriter implements Closeable {
    public enum Precision {
        MICROS(0xA1B2C3D4, 1_000L),
        NANOS(0xA1B23C4D, 1L);

        final int magic;
        final long nanosPerUnit;

        Precision(int magic, long nanosPerUnit) {
            this.magic = magic;
            this.nanosPerUnit = nanosPerUnit;
        }
    }

    static final int LINKTYPE_ETHERNET = 1;
    static final int SNAPLEN = 262_144;

    private final OutputStream out;
    private final Precision precision;
    private final ByteBuffer header = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
    private byte[] copy = new byte[2048];

    public PcapWriter(OutputStream out, Precision precision) throws IOException {
        this.out = out;
        this.precision = precision;
        ByteBuffer file = ByteBuffer.allocate(24).order(ByteOrder.LITTLE_ENDIAN);
        file.putInt(precision.magic).putShort((short) 2).putShort((short) 4)
                .putInt(0).putInt(0).putInt(SNAPLEN).putInt(LINKTYPE_ETHERNET);
        out.write(file.array());
    }

    public static PcapWriter create(Path path, Precision precision) throws IOException {
        return new PcapWriter(new BufferedOutputStream(Files.newOutputStream(path)), precision);
    }

    /** Appends one frame of {@code length} bytes at {@code offset} in {@code frame}, stamped {@code timestampNanos}. */
    public void write(long timestampNanos, MemorySegment frame, long offset, int length) throws IOException {
        if (length > SNAPLEN) {
            throw new IllegalArgumentException("frame of " + length + " bytes exceeds the pcap snap length " + SNAPLEN);
        }
        long seconds = Math.floorDiv(timestampNanos, 1_000_000_000L);
        long fraction = Math.floorMod(timestampNanos, 1_000_000_000L) / precision.nanosPerUnit;
        header.clear();
        header.putInt((int) seconds).putInt((int) fraction).putInt(length).putInt(length);
        out.write(header.array());
        if (copy.length < length) {
            copy = new byte[Math.max(length, copy.length * 2)];
        }
        MemorySegment.copy(frame, ValueLayout.JAVA_BYTE, offset, copy, 0, length);
        out.write(copy, 0, length);
    }

    public void write(long timestampNanos, MemorySegment frame) throws IOException {
        write(timestampNanos, frame, 0, (int) frame.byteSize());
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

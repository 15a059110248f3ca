package org.pfcswitch.codec;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Reads classic libpcap files in either byte order and either precision (microsecond magic
 * 0xA1B2C3D4, nanosecond magic 0xA1B23C4D). pcapng is recognised and refused with a message
 * saying how to convert it.
 *
 * <p>{@link #next()} reuses one buffer: the returned record's {@code data} is valid until the
 * next call.
 */
public final class PcapReader implements Closeable {
    /** One captured frame. {@code data} holds {@code capturedLength} bytes. */
    public record Record(long index, long timestampNanos, int capturedLength, int originalLength, MemorySegment data) {}

    private static final int MAGIC_MICROS = 0xA1B2C3D4;
    private static final int MAGIC_NANOS = 0xA1B23C4D;
    private static final int PCAPNG_SECTION = 0x0A0D0D0A;
    /** Larger records than this are a corrupt length field, not a frame. */
    private static final int MAX_RECORD_BYTES = 1 << 20;

    private final InputStream in;
    private final ByteOrder order;
    private final long nanosPerUnit;
    private final int linkType;
    private final byte[] recordHeader = new byte[16];
    private byte[] data = new byte[2048];
    private long index;

    public PcapReader(InputStream in) throws IOException {
        this.in = in;
        byte[] file = new byte[24];
        if (!readFully(file)) {
            throw new PcapFormatException("not a pcap file: shorter than the 24-byte file header");
        }
        ByteBuffer b = ByteBuffer.wrap(file).order(ByteOrder.LITTLE_ENDIAN);
        int magic = b.getInt(0);
        if (magic == PCAPNG_SECTION) {
            throw new PcapFormatException("pcapng is not supported; convert with: editcap -F pcap IN.pcapng OUT.pcap");
        }
        if (magic == MAGIC_MICROS || magic == MAGIC_NANOS) {
            order = ByteOrder.LITTLE_ENDIAN;
        } else if (Integer.reverseBytes(magic) == MAGIC_MICROS || Integer.reverseBytes(magic) == MAGIC_NANOS) {
            order = ByteOrder.BIG_ENDIAN;
            magic = Integer.reverseBytes(magic);
        } else {
            throw new PcapFormatException(String.format("not a pcap file: magic 0x%08x", magic));
        }
        nanosPerUnit = magic == MAGIC_NANOS ? 1 : 1_000;
        linkType = b.order(order).getInt(20);
    }

    public static PcapReader open(Path path) throws IOException {
        return new PcapReader(new BufferedInputStream(Files.newInputStream(path), 1 << 16));
    }

    /** 1 for Ethernet; anything else is a capture the codec cannot parse. */
    public int linkType() {
        return linkType;
    }

    public boolean nanosecondPrecision() {
        return nanosPerUnit == 1;
    }

    /** The next record, or null at the end of the file. Throws if the file ends inside a record. */
    public Record next() throws IOException {
        int first = in.read();
        if (first < 0) {
            return null;
        }
        recordHeader[0] = (byte) first;
        if (!readFully(recordHeader, 1, 15)) {
            throw new PcapFormatException("record " + (index + 1) + ": file ends inside the record header");
        }
        ByteBuffer h = ByteBuffer.wrap(recordHeader).order(order);
        long seconds = h.getInt(0) & 0xFFFF_FFFFL;
        long fraction = h.getInt(4) & 0xFFFF_FFFFL;
        int captured = h.getInt(8);
        int original = h.getInt(12);
        if (captured < 0 || captured > MAX_RECORD_BYTES) {
            throw new PcapFormatException("record " + (index + 1) + ": implausible captured length " + Integer.toUnsignedString(captured));
        }
        if (data.length < captured) {
            data = new byte[Math.max(captured, data.length * 2)];
        }
        if (!readFully(data, 0, captured)) {
            throw new PcapFormatException("record " + (index + 1) + ": file ends inside the frame (" + captured + " bytes announced)");
        }
        index++;
        return new Record(index, seconds * 1_000_000_000L + fraction * nanosPerUnit, captured, original,
                MemorySegment.ofArray(data).asSlice(0, captured));
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    private boolean readFully(byte[] b) throws IOException {
        return readFully(b, 0, b.length);
    }

    private boolean readFully(byte[] b, int off, int len) throws IOException {
        try {
            int done = 0;
            while (done < len) {
                int n = in.read(b, off + done, len - done);
                if (n < 0) {
                    return false;
                }
                done += n;
            }
            return true;
        } catch (EOFException e) {
            return false;
        }
    }
}

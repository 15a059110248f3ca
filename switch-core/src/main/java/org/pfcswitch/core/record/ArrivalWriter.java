package org.pfcswitch.core.record;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * Writes an arrival-record file ({@link ArrivalFormat}). One thread; no allocation per record. Times
 * must not decrease (the reader rejects such a file).
 */
public final class ArrivalWriter implements Closeable {

    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private final OutputStream out;
    /** The file written, or null for a writer over a stream. */
    private final Path path;
    private final int ports;
    private final int headerBytes;
    /** Records are put here in place and written out 12 800 at a time (no per-record stream call). */
    private final byte[] buf = new byte[ArrivalFormat.RECORD_BYTES * 12_800];
    private int pos;
    private long lastTime = Long.MIN_VALUE;
    private long written;

    public ArrivalWriter(OutputStream out, ArrivalHeader header) throws IOException {
        this(out, null, header);
    }

    private ArrivalWriter(OutputStream out, Path path, ArrivalHeader header) throws IOException {
        this.out = out;
        this.path = path;
        this.ports = header.ports();
        ByteBuffer h = ByteBuffer.allocate(ArrivalFormat.HEADER_FIXED_BYTES + 8 * ports
                + ArrivalFormat.MAC_ENTRY_BYTES * header.macPorts().size()).order(ByteOrder.LITTLE_ENDIAN);
        h.put(ArrivalFormat.MAGIC).putInt(ArrivalFormat.VERSION).putInt(ports).putInt(header.macPorts().size())
                .putInt(ArrivalFormat.HEADER_BYTES);
        for (int p = 0; p < ports; p++) {
            h.putLong(header.speedBps(p));
        }
        for (Map.Entry<Long, Integer> e : header.macPorts().entrySet()) {
            h.putLong(e.getKey() & 0xFFFF_FFFF_FFFFL).putInt(e.getValue()).putInt(0);
        }
        this.headerBytes = h.capacity();
        this.out.write(h.array());
    }

    public static ArrivalWriter create(Path path, ArrivalHeader header) throws IOException {
        return new ArrivalWriter(Files.newOutputStream(path), path, header);
    }

    /**
     * After a write failed (a full disk, an I/O error): closes the file, cuts it back to its last
     * whole record and flags that record {@link ArrivalFormat#STOPPED_AFTER}, so that what was
     * written is a readable prefix that says it stops early. Cutting frees space and the flag
     * overwrites a byte already on disk, so both work on a full disk.
     *
     * @return the records the file keeps, or -1 when not even its header was written whole
     */
    public long keepWholeRecords() throws IOException {
        if (path == null) {
            throw new IllegalStateException("a writer over a stream cannot cut its output back");
        }
        try {
            out.close();
        } catch (IOException e) {
            // what the stream still held cannot be written either: the file keeps what it has
        }
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.WRITE)) {
            long size = file.size();
            if (size < headerBytes) {
                return -1;
            }
            long records = (size - headerBytes) / ArrivalFormat.RECORD_BYTES;
            file.truncate(headerBytes + records * ArrivalFormat.RECORD_BYTES);
            if (records > 0) {
                ByteBuffer flags = ByteBuffer.allocate(2).order(ByteOrder.LITTLE_ENDIAN).putShort(0, (short) ArrivalFormat.STOPPED_AFTER);
                file.write(flags, headerBytes + (records - 1) * ArrivalFormat.RECORD_BYTES + ArrivalFormat.FLAGS_OFFSET);
            }
            return records;
        }
    }

    /** One arrival: its frame's first bytes are read from {@code frame} at {@code offset}. */
    public void write(long timeNanos, int port, int length, MemorySegment frame, long offset) throws IOException {
        check(timeNanos, port, length);
        int captured = Math.min(length, ArrivalFormat.HEADER_BYTES);
        captured = (int) Math.max(0, Math.min(captured, frame.byteSize() - offset));
        int at = begin(timeNanos, port, length, captured);
        MemorySegment.copy(frame, ValueLayout.JAVA_BYTE, offset, buf, at + 16, captured);
        java.util.Arrays.fill(buf, at + 16 + captured, at + ArrivalFormat.RECORD_BYTES, (byte) 0);
    }

    /**
     * One arrival whose 64 header bytes are eight little-endian longs (how the live ring holds them);
     * bytes past {@code captured} must be zero.
     */
    public void write(long timeNanos, int port, int length, int captured, long[] words, int from) throws IOException {
        check(timeNanos, port, length);
        if (captured < 0 || captured > Math.min(length, ArrivalFormat.HEADER_BYTES)) {
            throw new IllegalArgumentException("captured " + captured + " of a " + length + "-byte frame");
        }
        int at = begin(timeNanos, port, length, captured);
        for (int i = 0; i < ArrivalFormat.HEADER_BYTES / 8; i++) {
            LONG.set(buf, at + 16 + 8 * i, words[from + i]);
        }
    }

    /** Room for one record in the buffer, its first 16 bytes written; returns where it starts. */
    private int begin(long timeNanos, int port, int length, int captured) throws IOException {
        if (pos + ArrivalFormat.RECORD_BYTES > buf.length) {
            drainBuffer();
        }
        int at = pos;
        LONG.set(buf, at, timeNanos);
        SHORT.set(buf, at + 8, (short) port);
        SHORT.set(buf, at + 10, (short) length);
        SHORT.set(buf, at + 12, (short) captured);
        SHORT.set(buf, at + 14, (short) 0);
        pos = at + ArrivalFormat.RECORD_BYTES;
        written++;
        return at;
    }

    private void drainBuffer() throws IOException {
        out.write(buf, 0, pos);
        pos = 0;
    }

    private void check(long timeNanos, int port, int length) {
        if (port < 0 || port >= ports) {
            throw new IllegalArgumentException("port " + port + " outside 0.." + (ports - 1));
        }
        if (length < 1 || length > ArrivalFormat.MAX_LENGTH) {
            throw new IllegalArgumentException("frame length " + length + " outside 1.." + ArrivalFormat.MAX_LENGTH);
        }
        if (timeNanos < lastTime) {
            throw new IllegalArgumentException("time " + timeNanos + " ns before the previous record's " + lastTime);
        }
        lastTime = timeNanos;
    }

    public long written() {
        return written;
    }

    public void flush() throws IOException {
        drainBuffer();
        out.flush();
    }

    @Override
    public void close() throws IOException {
        try {
            drainBuffer();
        } finally {
            out.close();
        }
    }
}

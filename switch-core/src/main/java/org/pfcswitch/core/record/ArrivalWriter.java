package org.pfcswitch.core.record;

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
import java.util.Map;

/**
 * Writes an arrival-record file ({@link ArrivalFormat}). One thread; no allocation per record. Times
 * must not decrease (the reader rejects such a file).
 */
public final class ArrivalWriter implements Closeable {

    private final OutputStream out;
    private final int ports;
    private final ByteBuffer record = ByteBuffer.allocate(ArrivalFormat.RECORD_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    private long lastTime = Long.MIN_VALUE;
    private long written;

    public ArrivalWriter(OutputStream out, ArrivalHeader header) throws IOException {
        this.out = out instanceof BufferedOutputStream ? out : new BufferedOutputStream(out, 1 << 16);
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
        this.out.write(h.array());
    }

    public static ArrivalWriter create(Path path, ArrivalHeader header) throws IOException {
        return new ArrivalWriter(Files.newOutputStream(path), header);
    }

    /** One arrival: its frame's first bytes are read from {@code frame} at {@code offset}. */
    public void write(long timeNanos, int port, int length, MemorySegment frame, long offset) throws IOException {
        check(timeNanos, port, length);
        int captured = Math.min(length, ArrivalFormat.HEADER_BYTES);
        captured = (int) Math.min(captured, frame.byteSize() - offset);
        record.clear();
        record.putLong(timeNanos).putShort((short) port).putShort((short) length).putShort((short) captured).putShort((short) 0);
        for (int i = 0; i < captured; i++) {
            record.put(frame.get(ValueLayout.JAVA_BYTE, offset + i));
        }
        flushRecord();
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
        record.clear();
        record.putLong(timeNanos).putShort((short) port).putShort((short) length).putShort((short) captured).putShort((short) 0);
        for (int i = 0; i < ArrivalFormat.HEADER_BYTES / 8; i++) {
            record.putLong(words[from + i]);
        }
        record.position(ArrivalFormat.RECORD_BYTES);
        out.write(record.array(), 0, ArrivalFormat.RECORD_BYTES);
        written++;
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

    private void flushRecord() throws IOException {
        while (record.position() < ArrivalFormat.RECORD_BYTES) {
            record.put((byte) 0);
        }
        out.write(record.array(), 0, ArrivalFormat.RECORD_BYTES);
        written++;
    }

    public long written() {
        return written;
    }

    public void flush() throws IOException {
        out.flush();
    }

    @Override
    public void close() throws IOException {
        out.close();
    }
}

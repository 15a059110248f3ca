package org.pfcswitch.core.record;

import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads an arrival-record file ({@link ArrivalFormat}) and checks it as it goes: anything wrong
 * throws {@link ArrivalFormatException} with one line that says what and where (record number).
 * {@link #next} fills one reused {@link Arrival}: no allocation per record.
 */
public final class ArrivalReader implements Closeable {

    /** One arrival; reused by {@link #next}. {@code header} holds {@link ArrivalFormat#HEADER_BYTES} bytes, zero past {@code captured}. */
    public static final class Arrival {
        public long timeNanos;
        public int port;
        public int length;
        public int captured;
        public final byte[] header = new byte[ArrivalFormat.HEADER_BYTES];
    }

    private final InputStream in;
    private final ArrivalHeader header;
    private final byte[] raw = new byte[ArrivalFormat.RECORD_BYTES];
    private final ByteBuffer view = ByteBuffer.wrap(raw).order(ByteOrder.LITTLE_ENDIAN);
    private long index;
    private long lastTime = Long.MIN_VALUE;
    private boolean stoppedEarly;

    public ArrivalReader(InputStream input) throws IOException {
        this.in = input instanceof BufferedInputStream ? input : new BufferedInputStream(input, 1 << 16);
        byte[] fixed = readHeaderBytes(ArrivalFormat.HEADER_FIXED_BYTES, "header");
        ByteBuffer b = ByteBuffer.wrap(fixed).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(magic);
        if (!Arrays.equals(magic, ArrivalFormat.MAGIC)) {
            throw new ArrivalFormatException("not an arrival-record file (no PFCARR01 magic)");
        }
        int version = b.getInt();
        int ports = b.getInt();
        int macs = b.getInt();
        int headerBytes = b.getInt();
        if (version != ArrivalFormat.VERSION) {
            throw new ArrivalFormatException("version " + version + ", this reader knows " + ArrivalFormat.VERSION);
        }
        if (ports < 1 || ports > ArrivalFormat.MAX_PORTS) {
            throw new ArrivalFormatException("port count " + ports + " outside 1.." + ArrivalFormat.MAX_PORTS);
        }
        if (macs < 0 || macs > 1 << 20) {
            throw new ArrivalFormatException("MAC entry count " + macs + " outside 0.." + (1 << 20));
        }
        if (headerBytes != ArrivalFormat.HEADER_BYTES) {
            throw new ArrivalFormatException("header bytes per record " + headerBytes + ", expected " + ArrivalFormat.HEADER_BYTES);
        }
        ByteBuffer rest = ByteBuffer.wrap(readHeaderBytes(8 * ports + ArrivalFormat.MAC_ENTRY_BYTES * macs, "header"))
                .order(ByteOrder.LITTLE_ENDIAN);
        long[] speeds = new long[ports];
        for (int p = 0; p < ports; p++) {
            speeds[p] = rest.getLong();
        }
        Map<Long, Integer> macPorts = new LinkedHashMap<>();
        for (int i = 0; i < macs; i++) {
            long mac = rest.getLong();
            int port = rest.getInt();
            rest.getInt();
            macPorts.put(mac & 0xFFFF_FFFF_FFFFL, port);
        }
        try {
            this.header = new ArrivalHeader(speeds, macPorts);
        } catch (IllegalArgumentException e) {
            throw new ArrivalFormatException("header: " + e.getMessage());
        }
    }

    public static ArrivalReader open(Path path) throws IOException {
        return new ArrivalReader(Files.newInputStream(path));
    }

    public ArrivalHeader header() {
        return header;
    }

    /** Records read so far. */
    public long count() {
        return index;
    }

    /**
     * Whether a record read so far says the recording stopped after it on a write error
     * ({@link ArrivalFormat#STOPPED_AFTER}): the file is a prefix of what arrived.
     */
    public boolean stoppedEarly() {
        return stoppedEarly;
    }

    /** Reads the next arrival into {@code a}; false at the end of the file. */
    public boolean next(Arrival a) throws IOException {
        int n = in.readNBytes(raw, 0, raw.length);
        if (n == 0) {
            return false;
        }
        if (n < raw.length) {
            throw new ArrivalFormatException("record " + index + " is cut short (" + n + " of "
                    + ArrivalFormat.RECORD_BYTES + " bytes)");
        }
        long time = view.getLong(0);
        int port = Short.toUnsignedInt(view.getShort(8));
        int length = Short.toUnsignedInt(view.getShort(10));
        int captured = Short.toUnsignedInt(view.getShort(12));
        int flags = Short.toUnsignedInt(view.getShort(ArrivalFormat.FLAGS_OFFSET));
        if (port >= header.ports()) {
            throw new ArrivalFormatException("record " + index + ": port " + port + " outside 0.." + (header.ports() - 1));
        }
        if (length < 1) {
            throw new ArrivalFormatException("record " + index + ": frame length 0");
        }
        if (captured > Math.min(length, ArrivalFormat.HEADER_BYTES)) {
            throw new ArrivalFormatException("record " + index + ": " + captured + " header bytes of a " + length + "-byte frame");
        }
        if (time < lastTime) {
            throw new ArrivalFormatException("record " + index + ": time " + time + " ns before the previous record's "
                    + lastTime + " ns (records must be in time order)");
        }
        lastTime = time;
        stoppedEarly |= (flags & ArrivalFormat.STOPPED_AFTER) != 0;
        a.timeNanos = time;
        a.port = port;
        a.length = length;
        a.captured = captured;
        System.arraycopy(raw, 16, a.header, 0, ArrivalFormat.HEADER_BYTES);
        Arrays.fill(a.header, captured, ArrivalFormat.HEADER_BYTES, (byte) 0);
        index++;
        return true;
    }

    private byte[] readHeaderBytes(int n, String what) throws IOException {
        byte[] b = in.readNBytes(n);
        if (b.length < n) {
            throw new ArrivalFormatException(what + " is cut short (" + b.length + " of " + n + " bytes)");
        }
        return b;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }

    /** A file that is not a valid arrival record; the message is one line. */
    public static final class ArrivalFormatException extends IOException {
        public ArrivalFormatException(String message) {
            super(message);
        }
    }

}

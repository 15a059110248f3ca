package org.pfcswitch.core.trace;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/** Reads a trace file written by {@link TraceWriter} (format there) into columns. */
public final class TraceReader {

    private TraceReader() {}

    /** The file is not a trace, or not one this version reads; the message names the file and the line. */
    public static final class TraceFormatException extends IOException {
        public TraceFormatException(String message) {
            super(message);
        }
    }

    /** An ingress queue that has {@code queue} rows. */
    public record Queue(int port, int priority) {}

    public static Trace read(Path file) throws IOException {
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            return read(in, file.toString());
        } catch (java.nio.charset.MalformedInputException e) {
            throw new TraceFormatException(file + ": not a pfcswitch trace (not UTF-8 text)");
        }
    }

    /** Reads from {@code in}; {@code name} is what error messages call it. */
    public static Trace read(BufferedReader in, String name) throws IOException {
        String first = in.readLine();
        if (first == null || !first.startsWith(TraceHeader.MAGIC + " ")) {
            throw new TraceFormatException(name + ": not a pfcswitch trace (its first line does not start with '"
                    + TraceHeader.MAGIC + "')");
        }
        TraceHeader header = parseHeader(first, name);
        String columns = in.readLine();
        if (columns == null || !columns.equals(TraceWriter.COLUMNS)) {
            throw new TraceFormatException(name + ": line 2: expected the column line '" + TraceWriter.COLUMNS + "'");
        }
        Trace t = new Trace(header);
        String line;
        int number = 2;
        while ((line = in.readLine()) != null) {
            number++;
            if (line.isEmpty()) {
                continue;
            }
            if (line.startsWith("#")) {
                t.comment(line);
                continue;
            }
            t.add(line, name, number);
        }
        return t;
    }

    private static TraceHeader parseHeader(String line, String name) throws TraceFormatException {
        String[] words = line.substring(TraceHeader.MAGIC.length()).trim().split("\\s+");
        if (words.length == 0 || !words[0].matches("v[0-9]+")) {
            throw new TraceFormatException(name + ": line 1: no format version after '" + TraceHeader.MAGIC + "'");
        }
        int version = Integer.parseInt(words[0].substring(1));
        if (version != TraceHeader.VERSION) {
            throw new TraceFormatException(name + ": trace format v" + version + ", this build reads v" + TraceHeader.VERSION);
        }
        String scheme = null;
        String source = null;
        String sw = null;
        long every = 0;
        long origin = 0;
        List<String> ports = List.of();
        for (int i = 1; i < words.length; i++) {
            int eq = words[i].indexOf('=');
            if (eq <= 0) {
                continue;
            }
            String key = words[i].substring(0, eq);
            String value = words[i].substring(eq + 1);
            try {
                switch (key) {
                    case "scheme" -> scheme = value;
                    case "source" -> source = value;
                    case "switch" -> sw = value;
                    case "every_ns" -> every = Long.parseLong(value);
                    case "origin_ns" -> origin = Long.parseLong(value);
                    case "ports" -> ports = value.isEmpty() ? List.of() : Arrays.asList(value.split(",", -1));
                    default -> { }                 // a later minor addition: ignored
                }
            } catch (NumberFormatException e) {
                throw new TraceFormatException(name + ": line 1: " + key + " is not a number: '" + value + "'");
            }
        }
        return new TraceHeader(version, scheme, every, origin, source, sw, ports);
    }

    /** A trace in columns; row i's values are at index i of each. */
    public static final class Trace {
        private final TraceHeader header;
        private int size;
        private long[] time = new long[1024];
        private byte[] kind = new byte[1024];
        private byte[] event = new byte[1024];
        private int[] port = new int[1024];
        private byte[] priority = new byte[1024];
        private long[] a = new long[1024];
        private long[] b = new long[1024];
        private long[] c = new long[1024];
        private long endRecords = -1;
        private long dropped = -1;
        private final Set<Queue> queues = new LinkedHashSet<>();

        Trace(TraceHeader header) {
            this.header = header;
        }

        public TraceHeader header() { return header; }
        public int size() { return size; }
        public long time(int i) { return time[i]; }
        /** {@link TraceRecorder#QUEUE}, {@link TraceRecorder#PFC_TX}, {@link TraceRecorder#PFC_RX}, {@link TraceRecorder#PFCWD} or {@link TraceRecorder#BUFFER}. */
        public int kind(int i) { return kind[i]; }
        public int port(int i) { return port[i]; }
        public int priority(int i) { return priority[i]; }
        /** Queue rows. */
        public long ingressBytes(int i) { return a[i]; }
        /** Buffer rows: what the whole buffer holds (port and priority read as 0). */
        public long bufferBytes(int i) { return kind[i] == TraceRecorder.BUFFER ? a[i] : 0; }
        public long egressBytes(int i) { return b[i]; }
        public long thresholdBytes(int i) { return c[i]; }
        /** PFC rows: {@link TraceRecorder#XOFF} or {@link TraceRecorder#XON}, and how many frames. */
        public int event(int i) { return event[i]; }
        public long count(int i) { return kind[i] == TraceRecorder.QUEUE || kind[i] == TraceRecorder.BUFFER ? 0 : a[i]; }
        /** Whether the {@code # end} line was there (else the trace was cut short). */
        public boolean complete() { return endRecords >= 0; }
        /** Records the switch dropped (ring full), from the end line; -1 without one. */
        public long dropped() { return dropped; }
        /** The queues with rows, in order of first appearance. */
        public List<Queue> queues() { return new ArrayList<>(queues); }

        /** The sum of {@code count} over PFC rows of {@code kind} and {@code event} (any port when port &lt; 0). */
        public long pfcCount(int pfcKind, int pfcEvent, int onPort) {
            long n = 0;
            for (int i = 0; i < size; i++) {
                if (kind[i] == pfcKind && event[i] == pfcEvent && (onPort < 0 || port[i] == onPort)) {
                    n += a[i];
                }
            }
            return n;
        }

        private void comment(String line) {
            if (line.startsWith("# end ")) {
                for (String w : line.substring(6).trim().split("\\s+")) {
                    if (w.startsWith("records=")) {
                        endRecords = parseOr(w.substring(8), 0);
                    } else if (w.startsWith("dropped=")) {
                        dropped = parseOr(w.substring(8), 0);
                    }
                }
                endRecords = Math.max(0, endRecords);
                dropped = Math.max(0, dropped);
            }
        }

        private static long parseOr(String s, long orElse) {
            try {
                return Long.parseLong(s);
            } catch (NumberFormatException e) {
                return orElse;
            }
        }

        private void add(String line, String name, int number) throws TraceFormatException {
            String[] f = line.split(",", -1);
            if (f.length != 9) {
                throw new TraceFormatException(name + ": line " + number + ": expected 9 fields, got " + f.length + ": '"
                        + line + "'");
            }
            if (size == time.length) {
                grow();
            }
            try {
                int k = switch (f[1]) {
                    case "queue" -> TraceRecorder.QUEUE;
                    case "pfc_tx" -> TraceRecorder.PFC_TX;
                    case "pfc_rx" -> TraceRecorder.PFC_RX;
                    case "pfcwd" -> TraceRecorder.PFCWD;
                    case "buffer" -> TraceRecorder.BUFFER;
                    default -> throw new TraceFormatException(name + ": line " + number + ": unknown kind '" + f[1] + "'");
                };
                time[size] = Long.parseLong(f[0]);
                kind[size] = (byte) k;
                if (k == TraceRecorder.BUFFER) {
                    port[size] = 0;
                    priority[size] = 0;
                    event[size] = TraceRecorder.NONE;
                    a[size] = Long.parseLong(f[4]);
                    b[size] = 0;
                    c[size] = 0;
                    size++;
                    return;
                }
                port[size] = Integer.parseInt(f[2]);
                int prio = Integer.parseInt(f[3]);
                if (prio < 0 || prio > 7 || port[size] < 0) {
                    throw new TraceFormatException(name + ": line " + number + ": port or priority out of range");
                }
                priority[size] = (byte) prio;
                if (k == TraceRecorder.QUEUE) {
                    a[size] = Long.parseLong(f[4]);
                    b[size] = Long.parseLong(f[5]);
                    c[size] = Long.parseLong(f[6]);
                    event[size] = TraceRecorder.NONE;
                    queues.add(new Queue(port[size], prio));
                } else {
                    event[size] = (byte) switch (f[7]) {
                        case "xoff" -> TraceRecorder.XOFF;
                        case "xon" -> TraceRecorder.XON;
                        case "storm" -> TraceRecorder.STORM;
                        case "restore" -> TraceRecorder.RESTORE;
                        default -> throw new TraceFormatException(name + ": line " + number + ": unknown PFC event '"
                                + f[7] + "'");
                    };
                    a[size] = Long.parseLong(f[8]);
                    b[size] = 0;
                    c[size] = 0;
                }
            } catch (NumberFormatException e) {
                throw new TraceFormatException(name + ": line " + number + ": not a number where one belongs: '" + line + "'");
            }
            size++;
        }

        private void grow() {
            int n = time.length * 2;
            time = Arrays.copyOf(time, n);
            kind = Arrays.copyOf(kind, n);
            event = Arrays.copyOf(event, n);
            port = Arrays.copyOf(port, n);
            priority = Arrays.copyOf(priority, n);
            a = Arrays.copyOf(a, n);
            b = Arrays.copyOf(b, n);
            c = Arrays.copyOf(c, n);
        }
    }
}

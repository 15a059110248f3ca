package org.pfcswitch.core.trace;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * Writes a {@link TraceRing} filled by a {@link TraceRecorder} (or the {@link TraceMerge} of several
 * workers' rings) out as text, on the consumer side: either the caller loops on {@link #drain()} (from one thread: a trace thread, or the
 * producer's own thread when producer and consumer are one, as in the single-threaded virtual-time
 * driver), or {@link #start} runs a thread of its own that drains until {@link #close}.
 *
 * <h2>Format, version 1</h2>
 * A CSV file with comment lines:
 * <pre>
 * # pfcswitch-trace v1 scheme=dt every_ns=10000 origin_ns=0 source=sim switch=switch ports=H0,H1,R1
 * time_ns,kind,port,priority,ingress_bytes,egress_bytes,threshold_bytes,event,count
 * 10000,queue,0,3,2172,0,1040370,,
 * 460021,pfc_tx,0,3,,,,xoff,1
 * 1200007,pfc_rx,2,3,,,,xon,1
 * 1200007,buffer,,,4344,,,,
 * # end records=4 dropped=0
 * </pre>
 * <ul>
 *   <li>Line 1 ({@link TraceHeader#line()}): the format version, then {@code key=value} words: the
 *       scheme, the sample period, the time origin, the source, the switch and the name of every
 *       port, in port order (the {@code port} column is the index into it). Readers ignore keys
 *       they do not know.</li>
 *   <li>Line 2: the column names.</li>
 *   <li>{@code queue} rows: the state of ingress queue (port, priority) right after the first event
 *       the switch handled at or after each multiple of {@code every_ns} (and a last one when the
 *       run or recording ends, {@link TraceRecorder#sampleNow}): its bytes in the MMU's
 *       ingress view (private + shared + headroom), the egress view's bytes of queue (port,
 *       priority), and the scheme's current XOFF threshold in the same units as the ingress bytes
 *       (st, dt, spfc, capfc, dsh: the queue's private bytes plus its shared limit; sonic: Gamma_in;
 *       reverie: Gamma, which it compares with the low-pass-filtered length). {@code event} and
 *       {@code count} are empty.</li>
 *   <li>{@code pfc_tx} and {@code pfc_rx} rows: PFC frames the switch sent on, or received on, the
 *       port for the priority since the previous sample: {@code event} is {@code xoff} (pause quanta
 *       &gt; 0, refreshes included) or {@code xon} (quanta 0), {@code count} how many. The time is the
 *       sample's, so PFC timing is exact to one sample period (to the first event after it when the
 *       switch is idle); the byte columns are empty.</li>
 *   <li>{@code pfcwd} rows: the PFC watchdog declared egress queue (port, priority) stormed
 *       ({@code storm}) or restored it ({@code restore}) since the previous sample, {@code count}
 *       times; byte columns empty.</li>
 *   <li>{@code buffer} rows, one per sample, after its other rows: {@code ingress_bytes} is what the
 *       whole shared buffer holds (every ingress queue's bytes, of every priority); the other
 *       columns are empty. A switch split among workers adds up each worker's own part, taken at its
 *       own sample, so the figure never carries one worker's delayed view of another's.</li>
 *   <li>{@code # end records=N dropped=D}: written on {@link #close}; {@code dropped} counts records
 *       the switch's thread had to drop because the ring was full. A trace without it was cut
 *       short.</li>
 * </ul>
 */
public final class TraceWriter implements AutoCloseable {

    public static final String COLUMNS = "time_ns,kind,port,priority,ingress_bytes,egress_bytes,threshold_bytes,event,count";
    private static final int BATCH = 4096;

    private final TraceSource ring;
    private final Writer out;
    private final StringBuilder text = new StringBuilder(1 << 16);
    private char[] chars = new char[1 << 16];
    private final TraceSource.RecordConsumer format = this::format;
    private long records;
    private volatile boolean running;
    private Thread thread;
    private volatile IOException failure;
    private boolean closed;

    /** Writes records of {@code ring} to {@code out}; {@link #close} closes {@code out}. */
    public TraceWriter(TraceSource ring, Writer out) {
        this.ring = ring;
        this.out = out;
    }

    /** A writer to a new file {@code file} (replaced if it exists), its header already written. */
    public static TraceWriter open(TraceSource ring, Path file, TraceHeader header) throws IOException {
        TraceWriter w = new TraceWriter(ring, Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        w.writeHeader(header);
        return w;
    }

    /** Writes the two header lines; call once, first. */
    public void writeHeader(TraceHeader header) throws IOException {
        out.write(header.line());
        out.write('\n');
        out.write(COLUMNS);
        out.write('\n');
    }

    /** Writes a comment line ({@code # } and {@code text}, which must hold no line break). */
    public void writeComment(String comment) throws IOException {
        if (comment.indexOf('\n') >= 0 || comment.indexOf('\r') >= 0) {
            throw new IllegalArgumentException("a trace comment is one line");
        }
        out.write("# ");
        out.write(comment);
        out.write('\n');
    }

    /**
     * Writes every record the ring holds now (consumer side: one thread at a time, and not while
     * {@link #start}'s thread runs).
     *
     * @return records written
     */
    public long drain() throws IOException {
        long n = 0;
        int k;
        do {
            text.setLength(0);
            k = ring.drain(format, BATCH);
            flushText();
            n += k;
        } while (k >= BATCH);
        records += n;
        return n;
    }

    private void flushText() throws IOException {
        int len = text.length();
        if (len == 0) {
            return;
        }
        if (chars.length < len) {
            chars = new char[Math.max(len, 2 * chars.length)];
        }
        text.getChars(0, len, chars, 0);
        out.write(chars, 0, len);
    }

    private void format(long time, long header, long a, long b, long c) {
        StringBuilder s = text;
        int kind = TraceRecorder.kind(header);
        if (kind == TraceRecorder.BUFFER) {
            s.append(time).append(",buffer,,,").append(a).append(",,,,\n");
            return;
        }
        s.append(time).append(',').append(kind == TraceRecorder.QUEUE ? "queue" : kind == TraceRecorder.PFC_TX ? "pfc_tx"
                : kind == TraceRecorder.PFC_RX ? "pfc_rx" : kind == TraceRecorder.PFCWD ? "pfcwd" : "unknown");
        s.append(',').append(TraceRecorder.port(header)).append(',').append(TraceRecorder.priority(header)).append(',');
        if (kind == TraceRecorder.QUEUE) {
            s.append(a).append(',').append(b).append(',').append(c).append(",,\n");
        } else {
            int event = TraceRecorder.event(header);
            s.append(",,,").append(event == TraceRecorder.XOFF ? "xoff" : event == TraceRecorder.XON ? "xon"
                            : event == TraceRecorder.STORM ? "storm" : event == TraceRecorder.RESTORE ? "restore" : "")
                    .append(',').append(a).append('\n');
        }
    }

    /** Records written so far. */
    public long records() {
        return records;
    }

    /**
     * Starts a daemon thread that drains the ring until {@link #close}, sleeping {@code idleNanos}
     * whenever the ring is empty. An I/O error stops the thread; {@link #close} rethrows it.
     */
    public synchronized TraceWriter start(String threadName, long idleNanos) {
        if (thread != null) {
            throw new IllegalStateException("the trace writer's thread already runs");
        }
        running = true;
        thread = Thread.ofPlatform().name(threadName).daemon().start(() -> {
            try {
                while (running) {
                    if (drain() == 0) {
                        out.flush();
                        LockSupport.parkNanos(idleNanos);
                    }
                }
            } catch (IOException e) {
                failure = e;
            }
        });
        return this;
    }

    /**
     * Stops the thread (if any), writes what is left, the {@code # end} line, and closes the output.
     * Records the producer offers after this are never written (call it once the producer stopped).
     */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (Writer w = out) {
            if (thread != null) {
                running = false;
                LockSupport.unpark(thread);
                try {
                    thread.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while stopping the trace writer", e);
                }
            }
            if (failure != null) {
                throw failure;
            }
            drain();
            writeComment("end records=" + records + " dropped=" + ring.dropped());
        }
    }

    /** {@link #drain} for callers that cannot throw {@link IOException}. */
    public long drainUnchecked() {
        try {
            return drain();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

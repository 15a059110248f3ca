package org.pfcswitch.core.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * {@code run --record FILE}: the worker {@link #offer}s every arrival into an {@link ArrivalRing}
 * (allocation-free, never blocks); a writer thread ({@code pfcswitch-record}) drains it into an
 * {@link ArrivalWriter}, sleeping 200 µs when the ring is empty. {@link #close} stops the thread,
 * writes what is left and flushes the file.
 *
 * <p>A write that fails (a full disk, an I/O error) stops the recording at once, not at shutdown:
 * the ring takes nothing more (the worker goes on forwarding and counts the arrivals it could not
 * record), the file is cut back to its last whole record, which is flagged as the end of a
 * recording that stopped early ({@link ArrivalWriter#keepWholeRecords}), and {@code onFailure}
 * gets one line: which file, what error, how many arrivals were kept.
 */
public final class ArrivalRecorder {

    /** Ring size by default: 2<sup>16</sup> arrivals, 5 MiB; 13 ms of 64-byte frames at 5 Mpps before the writer must run. */
    public static final int DEFAULT_RING = 1 << 16;

    /**
     * What a recording did, for the shutdown log.
     *
     * @param written         arrivals in the file
     * @param failure         the line that said why the recording stopped early, or null when it did not
     * @param afterFailure    arrivals not recorded because the recording had stopped
     */
    public record Summary(Path file, long written, long droppedRingFull, long overMax, String failure, long afterFailure) {
        public boolean failed() {
            return failure != null;
        }
    }

    private final Path file;
    private final ArrivalRing ring;
    private final ArrivalWriter writer;
    private final Consumer<String> onFailure;
    private final Thread thread;
    private volatile boolean running = true;
    /** The line that said why the recording stopped, or null; written once, by whoever saw the failure. */
    private volatile String failure;
    /** Arrivals the file keeps after a failure. */
    private volatile long kept;
    private final ArrivalRing.Consumer toFile;

    public ArrivalRecorder(Path file, ArrivalHeader header, int ringCapacity, long max) throws IOException {
        this(file, header, ringCapacity, max, line -> { });
    }

    /** @param onFailure told once, from the writer thread, when a write fails and the recording stops */
    public ArrivalRecorder(Path file, ArrivalHeader header, int ringCapacity, long max, Consumer<String> onFailure)
            throws IOException {
        this.file = file;
        this.ring = new ArrivalRing(ringCapacity, max);
        this.writer = ArrivalWriter.create(file, header);
        this.onFailure = onFailure;
        this.toFile = (w, from) -> {
            long meta = w[from + 1];
            try {
                writer.write(w[from], (int) (meta & 0xFFFF), (int) (meta >>> 16 & 0xFFFF), (int) (meta >>> 32 & 0xFF),
                        w, from + 2);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
        this.thread = new Thread(this::drainLoop, "pfcswitch-record");
        thread.setDaemon(true);
        thread.start();
    }

    /** Worker thread only: one arrival (see {@link ArrivalRing#offer}). */
    public boolean offer(long timeNanos, int port, int length, MemorySegment bytes, long at) {
        return length > 0 && ring.offer(timeNanos, port, length, bytes, at);
    }

    private void drainLoop() {
        try {
            while (running) {
                if (ring.drain(toFile, 4096) < 1024) {      // let the ring fill: fewer wake-ups, bigger writes
                    LockSupport.parkNanos(200_000);
                }
            }
        } catch (UncheckedIOException e) {
            stop(e.getCause());
        } catch (RuntimeException e) {
            stop(new IOException(e.getMessage(), e));
        }
    }

    /** A write failed: no more recording, the file cut back to a readable prefix, one line to {@code onFailure}. */
    private void stop(IOException cause) {
        ring.stop();
        String what;
        try {
            long records = writer.keepWholeRecords();
            kept = Math.max(records, 0);
            what = records < 0 ? "not even the file's header was written: nothing to replay"
                    : "kept the first " + records + " arrivals, a readable prefix that 'sim --replay' takes with a warning";
        } catch (IOException e) {
            what = "and cutting it back to whole records failed too (" + e.getMessage() + "): 'sim --replay' may reject it";
        }
        String line = "recording to " + file + " stopped: a write failed (" + cause.getMessage() + "); " + what
                + "; forwarding goes on, arrivals from now on are not recorded";
        failure = line;
        onFailure.accept(line);
    }

    /** Writes that failed and stopped the recording: 0 or 1; any thread. */
    public long writeFailures() {
        return failure == null ? 0 : 1;
    }

    public long written() {
        return failure == null ? writer.written() : kept;
    }

    public ArrivalRing ring() {
        return ring;
    }

    /** Call after the worker stopped offering: stops the writer thread, writes the rest, closes the file. */
    public Summary close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure == null) {
            try {
                while (ring.drain(toFile, 4096) > 0) {
                    // the rest
                }
                writer.close();
            } catch (UncheckedIOException e) {
                stop(e.getCause());
            } catch (IOException e) {
                stop(e);
            }
        }
        return new Summary(file, written(), ring.dropped(), ring.overMax(), failure, ring.afterStop());
    }
}

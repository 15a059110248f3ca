package org.pfcswitch.core.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * {@code run --record FILE}: each worker offers every arrival on its ports into an
 * {@link ArrivalRing} of its own ({@link #ring}; allocation-free, never blocks) and moves the ring's
 * watermark once per pass; a writer thread ({@code pfcswitch-record}) merges the rings in time order
 * ({@link ArrivalMerge}: equal times in worker order) into an {@link ArrivalWriter}, sleeping 200 µs
 * when little was ready. {@link #close} stops the thread, writes what is left and flushes the file.
 * Memory is the rings' (each {@code ringCapacity} arrivals of 80 bytes) and the writer's buffer.
 *
 * <p>{@code max} bounds the file: each ring stores at most {@code max}, and once the file holds
 * {@code max} arrivals (the earliest, in merged order) every ring stops storing; what arrives after
 * is counted as over the maximum, as is what the rings held beyond it.
 *
 * <p>A write that fails (a full disk, an I/O error) stops the recording at once, not at shutdown:
 * the rings take nothing more (the workers go on forwarding and counts the arrivals it could not
 * record), the file is cut back to its last whole record, which is flagged as the end of a
 * recording that stopped early ({@link ArrivalWriter#keepWholeRecords}), and {@code onFailure}
 * gets one line: which file, what error, how many arrivals were kept.
 */
public final class ArrivalRecorder {

    /** Ring size by default, per worker: 2<sup>16</sup> arrivals, 5 MiB; 13 ms of 64-byte frames at 5 Mpps before the writer must run. */
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
    private final ArrivalRing[] rings;
    private final ArrivalMerge merge;
    /** Merged arrivals not written because the file held {@code max} already (writer thread; read after it ended). */
    private long overMaxMerged;
    private final ArrivalWriter writer;
    private final Consumer<String> onFailure;
    private final Thread thread;
    private volatile boolean running = true;
    /** The line that said why the recording stopped, or null; written once, by whoever saw the failure. */
    private volatile String failure;
    /** Arrivals the file keeps after a failure. */
    private volatile long kept;
    private final ArrivalRing.Consumer toFile;

    /** A recorder of one worker's arrivals. */
    public ArrivalRecorder(Path file, ArrivalHeader header, int ringCapacity, long max) throws IOException {
        this(file, header, 1, ringCapacity, max, line -> { });
    }

    /**
     * @param workers      workers that offer arrivals, each into {@link #ring}{@code (w)}
     * @param ringCapacity arrivals each worker's ring holds
     * @param onFailure    told once, from the writer thread, when a write fails and the recording stops
     */
    public ArrivalRecorder(Path file, ArrivalHeader header, int workers, int ringCapacity, long max,
                           Consumer<String> onFailure) throws IOException {
        if (workers < 1) {
            throw new IllegalArgumentException("a recording needs at least one worker, got " + workers);
        }
        this.file = file;
        this.rings = new ArrivalRing[workers];
        for (int w = 0; w < workers; w++) {
            rings[w] = new ArrivalRing(ringCapacity, max);
        }
        this.merge = new ArrivalMerge(rings);
        this.writer = ArrivalWriter.create(file, header);
        this.onFailure = onFailure;
        this.toFile = (w, from) -> {
            if (writer.written() >= max) {
                overMaxMerged++;
                return;
            }
            long meta = w[from + 1];
            try {
                writer.write(w[from], (int) (meta & 0xFFFF), (int) (meta >>> 16 & 0xFFFF), (int) (meta >>> 32 & 0xFF),
                        w, from + 2);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            if (writer.written() >= max) {
                for (ArrivalRing r : rings) {
                    r.stopAtMax();
                }
            }
        };
        this.thread = new Thread(this::drainLoop, "pfcswitch-record");
        thread.setDaemon(true);
        thread.start();
    }

    /** Worker {@code w}'s ring: it offers its arrivals there and moves its watermark once per pass. */
    public ArrivalRing ring(int w) {
        return rings[w];
    }

    public int workers() {
        return rings.length;
    }

    private void drainLoop() {
        try {
            while (running) {
                if (merge.drain(toFile, 4096, false) < 1024) {      // let the rings fill: fewer wake-ups, bigger writes
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
        for (ArrivalRing r : rings) {
            r.stop();
        }
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

    /** Arrivals not recorded because the recording had stopped on a failed write, from every worker; any thread. */
    public long afterStop() {
        long n = 0;
        for (ArrivalRing r : rings) {
            n += r.afterStop();
        }
        return n;
    }

    /** Call after every worker stopped offering: stops the writer thread, writes the rest, closes the file. */
    public Summary close() {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure == null) {
            try {
                while (merge.drain(toFile, 4096, true) > 0) {
                    // the rest
                }
                writer.close();
            } catch (UncheckedIOException e) {
                stop(e.getCause());
            } catch (IOException e) {
                stop(e);
            }
        }
        long dropped = 0;
        long overMax = overMaxMerged;
        for (ArrivalRing r : rings) {
            dropped += r.dropped();
            overMax += r.overMax();
        }
        return new Summary(file, written(), dropped, overMax, failure, afterStop());
    }
}

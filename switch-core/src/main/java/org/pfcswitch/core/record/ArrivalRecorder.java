package org.pfcswitch.core.record;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code run --record FILE}: the worker {@link #offer}s every arrival into an {@link ArrivalRing}
 * (allocation-free, never blocks); a writer thread ({@code pfcswitch-record}) drains it into an
 * {@link ArrivalWriter}, sleeping 200 µs when the ring is empty. {@link #close} stops the thread,
 * writes what is left and flushes the file.
 */
public final class ArrivalRecorder {

    /** Ring size by default: 2<sup>16</sup> arrivals, 5 MiB; 13 ms of 64-byte frames at 5 Mpps before the writer must run. */
    public static final int DEFAULT_RING = 1 << 16;

    /** What a recording did, for the shutdown log. */
    public record Summary(Path file, long written, long droppedRingFull, long overMax) {}

    private final Path file;
    private final ArrivalRing ring;
    private final ArrivalWriter writer;
    private final Thread thread;
    private volatile boolean running = true;
    private volatile IOException failure;
    private final ArrivalRing.Consumer toFile;

    public ArrivalRecorder(Path file, ArrivalHeader header, int ringCapacity, long max) throws IOException {
        this.file = file;
        this.ring = new ArrivalRing(ringCapacity, max);
        this.writer = ArrivalWriter.create(file, header);
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
            failure = e.getCause();
        } catch (RuntimeException e) {
            failure = new IOException(e.getMessage(), e);
        }
    }

    public long written() {
        return writer.written();
    }

    public ArrivalRing ring() {
        return ring;
    }

    /** Call after the worker stopped offering: stops the writer thread, writes the rest, closes the file. */
    public Summary close() throws IOException {
        running = false;
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            if (failure == null) {
                while (ring.drain(toFile, 4096) > 0) {
                    // the rest
                }
            }
        } catch (UncheckedIOException e) {
            failure = e.getCause();
        }
        writer.close();
        if (failure != null) {
            throw new IOException("recording to " + file + " failed: " + failure.getMessage(), failure);
        }
        return new Summary(file, writer.written(), ring.dropped(), ring.overMax());
    }
}

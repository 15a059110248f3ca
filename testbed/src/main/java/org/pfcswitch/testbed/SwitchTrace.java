package org.pfcswitch.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.trace.TraceHeader;
import org.pfcswitch.core.trace.TraceRecorder;
import org.pfcswitch.core.trace.TraceWriter;

/**
 * A trace of one emulated switch to a file: a {@link TraceRecorder} sampled after every event the
 * switch handles, and a {@link TraceWriter} drained on the same thread whenever the ring is half
 * full, so a virtual-time trace never drops a record. The trace only reads the switch: a run's
 * results are the same with and without it.
 */
public final class SwitchTrace implements SwitchObserver, AutoCloseable {

    private final SwitchCore core;
    private final TraceRecorder recorder;
    private final TraceWriter writer;
    private final Path file;
    private final int drainAt;
    private long samplesSeen;

    /** Starts tracing switch {@code sw} of {@code tb} into {@code file} (replaced), one sample per {@code everyNanos}. */
    public static SwitchTrace attach(Testbed tb, int sw, Path file, long everyNanos, TraceHeader header) throws IOException {
        SwitchTrace t = new SwitchTrace(tb.core(sw), file, everyNanos, header);
        tb.observeSwitch(sw, t);
        return t;
    }

    private SwitchTrace(SwitchCore core, Path file, long everyNanos, TraceHeader header) throws IOException {
        this.core = core;
        int perSample = TraceRecorder.maxRecordsPerSample(core.ports(), 8);
        int capacity = Integer.highestOneBit(Math.max(1 << 16, 4 * perSample) - 1) << 1;
        this.recorder = new TraceRecorder(everyNanos, null, null, capacity);
        recorder.bind(core);
        this.drainAt = capacity / 2;                 // a sample never writes more than a quarter: no drops
        this.file = file;
        this.writer = TraceWriter.open(recorder.ring(), file, header);
    }

    @Override
    public void afterEvent(SwitchCore core, long nowNanos) {
        recorder.sample(core, nowNanos);
        if (recorder.samples() != samplesSeen) {
            samplesSeen = recorder.samples();
            if (recorder.ring().size() >= drainAt) {
                writer.drainUnchecked();
            }
        }
    }

    public Path file() {
        return file;
    }

    /** Records written so far. */
    public long records() {
        return writer.records() + recorder.ring().size();
    }

    /**
     * Takes a last sample at {@code endNanos} (unless one was taken then), so the PFC rows add up to
     * the switch's counters, and closes the trace.
     */
    public void finish(long endNanos) {
        if (endNanos > recorder.lastSampleNanos()) {
            recorder.sampleNow(core, endNanos);
        }
        close();
    }

    /** Writes the rest and the end line, and closes the file. */
    @Override
    public void close() {
        try {
            writer.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trace " + file + ": " + e.getMessage(), e);
        }
        if (recorder.ring().dropped() != 0) {
            throw new IllegalStateException("the trace " + file + " dropped " + recorder.ring().dropped() + " records");
        }
    }
}

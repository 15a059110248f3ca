package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

import org.pfcswitch.core.LosslessDropLog;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchWorkers;
import org.pfcswitch.dataplane.DpdkSwitch;

/**
 * The live switch's log of lossless drops of senders that obey PFC ({@link LosslessDropLog}, one per
 * worker), read in time order with times on this machine's CLOCK_MONOTONIC, and {@code run
 * --drop-log}'s CSV of it. It knows nothing of hosts: {@code lab} and the live tests judge whose
 * each drop was ({@link LiveDropReport}), so {@code run} needs no simulator to write the file.
 */
final class DropLog {

    private DropLog() {}

    /** The CSV's header; its times are CLOCK_MONOTONIC ns, as {@link System#nanoTime()} reads it (-1: none). */
    static final String CSV_HEADER = "port,priority,qp,psn,dropped_ns,xoff_sent_ns,first_headroom_qp,first_headroom_psn,"
            + "first_headroom_ns,headroom_bytes,queue_headroom_bytes";

    /** One logged drop: its ingress port and priority, the frame, and the headroom episode it fell in. */
    record Row(int port, int priority, int qp, int psn, long at, long xoffSentAt, int firstHeadroomQp, int firstHeadroomPsn,
               long firstHeadroomAt, long headroomBytes, long queueHeadroomBytes) {}

    /** Every worker's logged drops (each logs its own ingress ports'), in time order. */
    static List<Row> rows(DpdkSwitch sw) {
        List<Row> rows = new ArrayList<>();
        for (int w = 0; w < sw.cores().workers(); w++) {
            SwitchCore core = sw.cores().core(w);
            LosslessDropLog log = core.losslessDropLog();
            for (int i = 0; i < log.size(); i++) {
                rows.add(new Row(log.port(i), log.priority(i), log.qp(i), log.psn(i), sw.systemNanos(log.at(i)),
                        log.xoffSentAt(i) < 0 ? -1 : sw.systemNanos(log.xoffSentAt(i)), log.firstHeadroomQp(i),
                        log.firstHeadroomPsn(i), log.firstHeadroomAt(i) < 0 ? -1 : sw.systemNanos(log.firstHeadroomAt(i)),
                        log.headroomBytes(i), core.mmu().config().headroomBytes(log.port(i))));
            }
        }
        rows.sort(Comparator.comparingLong(Row::at));
        return rows;
    }

    /** Lossless drops the switch's workers could not log for want of room, all together. */
    static long overflow(SwitchWorkers cores) {
        long n = 0;
        for (int w = 0; w < cores.workers(); w++) {
            n += cores.core(w).losslessDropLog().overflow();
        }
        return n;
    }

    /**
     * Writes the switch's drop log to {@code file} as CSV, ports by name, so a tool that logged its
     * senders with the same clock can tell whose each drop was.
     *
     * @return the rows written
     * @throws IOException the file could not be written whole (a full disk, an I/O error): it is cut
     *                     back to its last whole line, and the message says how many rows it keeps
     */
    static int write(DpdkSwitch sw, Path file) throws IOException {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        List<Row> rows = rows(sw);
        for (Row r : rows) {
            b.append(sw.config().ports().get(r.port()).name()).append(',').append(r.priority()).append(',')
                    .append(r.qp()).append(',').append(r.psn()).append(',').append(r.at()).append(',')
                    .append(r.xoffSentAt()).append(',').append(r.firstHeadroomQp()).append(',').append(r.firstHeadroomPsn())
                    .append(',').append(r.firstHeadroomAt()).append(',').append(r.headroomBytes()).append(',')
                    .append(r.queueHeadroomBytes()).append('\n');
        }
        try {
            Files.write(file, b.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            long kept = keepWholeLines(file) - 1;
            throw new IOException(e.getMessage() + "; " + (kept < 0 ? "not even its header was written"
                    : "it keeps its header and the first " + kept + " of " + rows.size() + " rows, whole lines"), e);
        }
        return rows.size();
    }

    /** Cuts a text file that a failed write left cut mid-line back to its last whole line; returns the lines it keeps. */
    private static long keepWholeLines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        byte[] written = Files.readAllBytes(file);
        int end = written.length;
        while (end > 0 && written[end - 1] != '\n') {
            end--;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            channel.truncate(end);
        }
        long lines = 0;
        for (int i = 0; i < end; i++) {
            lines += written[i] == '\n' ? 1 : 0;
        }
        return lines;
    }
}

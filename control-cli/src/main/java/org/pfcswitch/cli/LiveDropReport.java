package org.pfcswitch.cli;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.pfcswitch.core.LosslessDropLog;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.testbed.DropAttribution;
import org.pfcswitch.testbed.DropAttribution.Drop;
import org.pfcswitch.testbed.DropAttribution.Kind;
import org.pfcswitch.testbed.DropAttribution.Result;

/**
 * Whose the lossless drops of a live run were, in one line that {@code lab} prints and the live
 * tests read: {@code lossless drops of senders that obey PFC, by whose they are: wire W, switch S,
 * host H, unmatched U}, then what the wire's drops took and the first reason of every other kind
 * ({@link DropAttribution}).
 *
 * <p>The switch's count includes the frames its ports' own rx rings dropped (the af_packet kernel
 * ring or a NIC's descriptor ring, {@code rx missed}): those never reached the MMU, so no drop log
 * names them, but in a lab they are the switch's NIC rings, and a ring overflows only when the
 * worker falls behind its port. The kernel does not say which priority a dropped frame had, so all
 * of them count: a run whose rings dropped anything is not lossless.
 */
final class LiveDropReport {

    private LiveDropReport() {}

    /**
     * The drops the running core logged, times on {@link System#nanoTime()}, each with its sender as
     * {@code senderOfPort} names it for the drop's port (-1: no sender here, such as a clone port:
     * skipped).
     */
    static List<Drop> fromSwitch(DpdkSwitch sw, java.util.function.IntUnaryOperator senderOfPort) {
        List<Drop> drops = new ArrayList<>();
        for (int w = 0; w < sw.cores().workers(); w++) {
            drops.addAll(fromCore(sw, sw.cores().core(w), senderOfPort));     // each worker logs its own ingress ports' drops
        }
        drops.sort(java.util.Comparator.comparingLong(Drop::at));
        return drops;
    }

    /** Lossless drops the switch's workers could not log for want of room, all together. */
    static long overflow(org.pfcswitch.core.SwitchWorkers cores) {
        long n = 0;
        for (int w = 0; w < cores.workers(); w++) {
            n += cores.core(w).losslessDropLog().overflow();
        }
        return n;
    }

    private static List<Drop> fromCore(DpdkSwitch sw, SwitchCore core, java.util.function.IntUnaryOperator senderOfPort) {
        LosslessDropLog log = core.losslessDropLog();
        List<Drop> drops = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            int sender = senderOfPort.applyAsInt(log.port(i));
            if (sender < 0) {
                continue;
            }
            drops.add(new Drop(sender, log.priority(i), log.qp(i), log.psn(i), sw.systemNanos(log.at(i)),
                    log.xoffSentAt(i) < 0 ? -1 : sw.systemNanos(log.xoffSentAt(i)), log.firstHeadroomQp(i),
                    log.firstHeadroomPsn(i), log.firstHeadroomAt(i) < 0 ? -1 : sw.systemNanos(log.firstHeadroomAt(i)),
                    log.headroomBytes(i), core.mmu().config().headroomBytes(log.port(i))));
        }
        return drops;
    }

    /** The header of {@code run --drop-log}'s CSV; its times are CLOCK_MONOTONIC ns, as {@link System#nanoTime()} reads it. */
    static final String CSV_HEADER = "port,priority,qp,psn,dropped_ns,xoff_sent_ns,first_headroom_qp,first_headroom_psn,"
            + "first_headroom_ns,headroom_bytes,queue_headroom_bytes";

    /**
     * Writes the switch's drop log ({@link LosslessDropLog}: the lossless drops of senders that obey
     * PFC) to {@code file} as CSV, port by name, times on this machine's CLOCK_MONOTONIC (-1: none),
     * so a tool that logged its senders with the same clock can tell whose each drop was.
     *
     * @return the rows written
     * @throws java.io.IOException the file could not be written whole (a full disk, an I/O error):
     *                             it is cut back to its last whole line, and the message says how
     *                             many rows it keeps
     */
    static int writeCsv(DpdkSwitch sw, java.nio.file.Path file) throws java.io.IOException {
        StringBuilder b = new StringBuilder(CSV_HEADER).append('\n');
        List<Drop> drops = fromSwitch(sw, port -> port);       // the sender named by its port
        for (Drop d : drops) {
            b.append(sw.config().ports().get(d.host()).name()).append(',').append(d.priority()).append(',')
                    .append(d.qp()).append(',').append(d.psn()).append(',').append(d.at()).append(',')
                    .append(d.xoffSentAt()).append(',').append(d.firstQp()).append(',').append(d.firstPsn()).append(',')
                    .append(d.firstHeadroomAt()).append(',').append(d.headroomBytes()).append(',')
                    .append(d.queueHeadroomBytes()).append('\n');
        }
        byte[] csv = b.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
        try {
            java.nio.file.Files.write(file, csv);
        } catch (java.io.IOException e) {
            long rows = keepWholeLines(file) - 1;
            throw new java.io.IOException(e.getMessage() + "; " + (rows < 0 ? "not even its header was written"
                    : "it keeps its header and the first " + rows + " of " + drops.size() + " rows, whole lines"), e);
        }
        return drops.size();
    }

    /** Cuts a text file that a failed write left cut mid-line back to its last whole line; returns the lines it keeps. */
    private static long keepWholeLines(java.nio.file.Path file) throws java.io.IOException {
        if (!java.nio.file.Files.exists(file)) {
            return 0;
        }
        byte[] written = java.nio.file.Files.readAllBytes(file);
        int end = written.length;
        while (end > 0 && written[end - 1] != '\n') {
            end--;
        }
        try (var channel = java.nio.channels.FileChannel.open(file, java.nio.file.StandardOpenOption.WRITE)) {
            channel.truncate(end);
        }
        long lines = 0;
        for (int i = 0; i < end; i++) {
            lines += written[i] == '\n' ? 1 : 0;
        }
        return lines;
    }

    /**
     * Reads {@link #writeCsv}'s file back as drops of the senders that {@code hostOfPort} names by
     * switch port (-1: not a host here, skipped).
     *
     * @throws IllegalArgumentException a line that is not the format, naming the file and line
     */
    static List<Drop> readCsv(java.nio.file.Path file, java.util.function.ToIntFunction<String> hostOfPort)
            throws java.io.IOException {
        List<String> lines = java.nio.file.Files.readAllLines(file);
        if (lines.isEmpty() || !lines.getFirst().equals(CSV_HEADER)) {
            throw new IllegalArgumentException(file + ": line 1: not a drop log (expected the header " + CSV_HEADER + ")");
        }
        List<Drop> drops = new ArrayList<>();
        for (int n = 1; n < lines.size(); n++) {
            String[] f = lines.get(n).split(",");
            try {
                if (f.length != 11) {
                    throw new IllegalArgumentException("11 fields expected, got " + f.length);
                }
                int host = hostOfPort.applyAsInt(f[0]);
                if (host >= 0) {
                    drops.add(new Drop(host, Integer.parseInt(f[1]), Integer.parseInt(f[2]), Integer.parseInt(f[3]),
                            Long.parseLong(f[4]), Long.parseLong(f[5]), Integer.parseInt(f[6]), Integer.parseInt(f[7]),
                            Long.parseLong(f[8]), Long.parseLong(f[9]), Long.parseLong(f[10])));
                }
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(file + ": line " + (n + 1) + ": " + e.getMessage(), e);
            }
        }
        return drops;
    }

    /**
     * The line; {@code notLogged} drops past the switch's log are named, not judged;
     * {@code ringDrops} frames the switch ports' rx rings dropped in the run count as the switch's.
     */
    static String line(List<Drop> drops, DropAttribution attribution, long notLogged, long ringDrops) {
        Map<Kind, Integer> count = new EnumMap<>(Kind.class);
        Map<Kind, String> firstWhy = new EnumMap<>(Kind.class);
        long longestDelivery = -1;
        long longestTrip = -1;
        for (Drop d : drops) {
            Result r = attribution.attribute(d);
            count.merge(r.kind(), 1, Integer::sum);
            firstWhy.putIfAbsent(r.kind(), "QP " + d.qp() + " PSN " + d.psn() + ": " + r.why());
            if (r.kind() == Kind.WIRE) {
                longestDelivery = Math.max(longestDelivery, r.xoffDeliveryNanos());
                longestTrip = Math.max(longestTrip, r.firstTripNanos());
            }
        }
        if (ringDrops > 0) {
            count.merge(Kind.SWITCH, (int) Math.min(Integer.MAX_VALUE, ringDrops), Integer::sum);
        }
        StringBuilder b = new StringBuilder("lossless drops of senders that obey PFC, by whose they are:");
        for (Kind k : Kind.values()) {
            b.append(k == Kind.WIRE ? " " : ", ").append(k.name().toLowerCase(Locale.ROOT)).append(' ')
                    .append(count.getOrDefault(k, 0));
        }
        if (ringDrops > 0) {
            b.append("; ").append(ringDrops).append(" of the switch's in its ports' rx rings (frames of any priority the"
                    + " kernel or NIC dropped because the worker fell behind its ports)");
        }
        if (count.containsKey(Kind.WIRE)) {
            b.append(String.format(Locale.ROOT, "; the emulated wires' (the pause took longer than the headroom's line time"
                    + " to stop an obeying sender): XOFF delivery up to %s, first headroom frame's trip up to %.3f ms",
                    longestDelivery < 0 ? "beyond the drop" : String.format(Locale.ROOT, "%.3f ms", longestDelivery / 1e6),
                    longestTrip / 1e6));
        }
        for (Kind k : new Kind[] {Kind.SWITCH, Kind.HOST, Kind.UNMATCHED}) {
            if (firstWhy.containsKey(k)) {
                b.append("; the first ").append(k.name().toLowerCase(Locale.ROOT)).append(" one: ").append(firstWhy.get(k));
            }
        }
        if (notLogged > 0) {
            b.append("; ").append(notLogged).append(" more past the switch's drop log, not judged");
        }
        return b.toString();
    }
}

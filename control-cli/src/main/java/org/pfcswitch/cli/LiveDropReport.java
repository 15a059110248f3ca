package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.IntUnaryOperator;
import java.util.function.ToIntFunction;

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
     * The drops the running switch logged ({@link DropLog#rows}), each with its sender as
     * {@code senderOfPort} names it for the drop's port (-1: no sender here, such as a clone port:
     * skipped).
     */
    static List<Drop> fromSwitch(DpdkSwitch sw, IntUnaryOperator senderOfPort) {
        List<Drop> drops = new ArrayList<>();
        for (DropLog.Row r : DropLog.rows(sw)) {
            int sender = senderOfPort.applyAsInt(r.port());
            if (sender >= 0) {
                drops.add(new Drop(sender, r.priority(), r.qp(), r.psn(), r.at(), r.xoffSentAt(), r.firstHeadroomQp(),
                        r.firstHeadroomPsn(), r.firstHeadroomAt(), r.headroomBytes(), r.queueHeadroomBytes()));
            }
        }
        return drops;
    }

    /**
     * Reads {@link DropLog#write}'s file back as drops of the senders that {@code hostOfPort} names by
     * switch port (-1: not a host here, skipped).
     *
     * @throws IllegalArgumentException a line that is not the format, naming the file and line
     */
    static List<Drop> readCsv(Path file, ToIntFunction<String> hostOfPort)
            throws IOException {
        List<String> lines = Files.readAllLines(file);
        if (lines.isEmpty() || !lines.getFirst().equals(DropLog.CSV_HEADER)) {
            throw new IllegalArgumentException(file + ": line 1: not a drop log (expected the header " + DropLog.CSV_HEADER
                    + ")");
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

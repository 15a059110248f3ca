package org.pfcswitch.cli.flows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.util.Locale;

import org.pfcswitch.testbed.config.FlowListReader;

/**
 * Flow completion times written by the HPCC-family ns-3 simulators, turned into the columns of
 * {@code sim --out}'s {@code flows-SCHEME.csv} ({@code flow,src,dst,size_bytes,start_ns,end_ns,
 * fct_ns,ideal_ns,slowdown}), so that both simulators' FCTs go through the same plots and scripts.
 * Two layouts exist:
 * <ul>
 *   <li>HPCC / PowerTCP ({@code qp_finish} writing {@code .fct}): one completed flow a line,
 *       {@code sip dip sport dport size start fct standalone_fct}, the IPv4 addresses in hex
 *       (node id n has {@code 11.0.0.1 + (n / 256) << 16 + (n % 256) << 8}, so
 *       {@code n = (ip >> 8) & 0xffff}), times in nanoseconds. src and dst become host indices (node
 *       ids; see {@link Ns3FlowFile} for why they coincide), or their names in a scenario.</li>
 *   <li>Reverie: a header line starting {@code timestamp flowsize fctus ...}, then
 *       {@code end_seconds size fct standalone_fct slowdown base_rtt priority incast}; the header
 *       says microseconds but the values are nanoseconds. It names no endpoints (src and dst are
 *       left empty), and the end time is printed with six significant digits, so the start
 *       (end - fct) is only that exact.</li>
 * </ul>
 * Rows keep the file's order (completion order); {@code flow} is the row number.
 */
public final class Ns3FctFile {

    private Ns3FctFile() {}

    public static final String HEADER = "flow,src,dst,size_bytes,start_ns,end_ns,fct_ns,ideal_ns,slowdown";

    /**
     * Converts {@code in} to CSV on {@code out}; returns the flows written. {@code hostNames}: write
     * src and dst as these names (a scenario's, as {@code sim --out} does), or null for node ids.
     * Errors name the file and line.
     */
    public static long convert(String name, BufferedReader in, Writer out, java.util.List<String> hostNames)
            throws IOException {
        out.write(HEADER + "\n");
        String[] cols = new String[9];
        StringBuilder b = new StringBuilder(96);
        long rows = 0;
        int lineNo = 0;
        Boolean reverie = null;
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            lineNo++;
            int n = FlowListReader.split(line, cols);
            if (n == 0) {
                continue;
            }
            try {
                if (reverie == null) {
                    reverie = cols[0].equals("timestamp");
                    if (reverie) {
                        continue;
                    }
                }
                if (n != 8) {
                    throw new IllegalArgumentException("expected 8 columns ("
                            + (reverie ? "timestamp size fct standalone_fct slowdown base_rtt priority incast"
                                    : "sip dip sport dport size start fct standalone_fct") + "), got " + (n > 8 ? "more than 8" : n));
                }
                b.setLength(0);
                b.append(rows).append(',');
                long size;
                long start;
                long fct;
                long ideal;
                if (reverie) {
                    size = number(cols[1], "size");
                    fct = number(cols[2], "fct");
                    ideal = number(cols[3], "standalone fct");
                    long end = seconds(cols[0]);
                    start = end - fct;
                    b.append(",,");
                } else {
                    b.append(host(node(cols[0], "sip"), hostNames)).append(',')
                            .append(host(node(cols[1], "dip"), hostNames)).append(',');
                    size = number(cols[4], "size");
                    start = number(cols[5], "start");
                    fct = number(cols[6], "fct");
                    ideal = number(cols[7], "standalone fct");
                }
                b.append(size).append(',').append(start).append(',').append(start + fct).append(',').append(fct).append(',')
                        .append(ideal).append(',')
                        .append(ideal > 0 ? String.format(Locale.ROOT, "%.4f", (double) fct / ideal) : "").append('\n');
                out.append(b);
                rows++;
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ":" + lineNo + ": " + e.getMessage(), e);
            }
        }
        return rows;
    }

    private static String host(int node, java.util.List<String> names) {
        if (names == null) {
            return Integer.toString(node);
        }
        if (node >= names.size()) {
            throw new IllegalArgumentException("node " + node + " is not a host of the scenario (hosts 0.."
                    + (names.size() - 1) + ")");
        }
        return names.get(node);
    }

    /** The node id inside an ns-3 host address written as 8 hex digits. */
    static int node(String hex, String what) {
        long ip;
        try {
            ip = Long.parseLong(hex, 16);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(what + ": expected an IPv4 address in hex (0b000101), got '" + hex + "'");
        }
        if (ip < 0 || ip > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException(what + ": not an IPv4 address: '" + hex + "'");
        }
        return (int) ((ip >> 8) & 0xFFFF);
    }

    private static long number(String s, String what) {
        try {
            long v = s.indexOf('.') < 0 && s.indexOf('e') < 0 ? Long.parseLong(s)
                    : new BigDecimal(s).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
            if (v < 0) {
                throw new IllegalArgumentException(what + " is negative: '" + s + "'");
            }
            return v;
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException(what + ": expected a number, got '" + s + "'");
        }
    }

    private static long seconds(String s) {
        try {
            return new BigDecimal(s).movePointRight(9).setScale(0, java.math.RoundingMode.HALF_UP).longValueExact();
        } catch (NumberFormatException | ArithmeticException e) {
            throw new IllegalArgumentException("timestamp: expected seconds, got '" + s + "'");
        }
    }
}

package org.pfcswitch.cli.flows;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;

import org.pfcswitch.testbed.FlowList;
import org.pfcswitch.testbed.config.FlowListReader;
import org.pfcswitch.testbed.config.FlowListWriter;

/**
 * The flow file of the HPCC-family ns-3 simulators (HPCC, PowerTCP, Reverie: ns3-datacenter's
 * examples): the number of flows on the first line, then one flow a line,
 * {@code src dst pg dport size start}: source and destination node ids, the priority group (the
 * queue, i.e. our priority), the destination port, the size in bytes and the start in seconds.
 *
 * <p>Node ids count switches too, but the topologies these simulators ship number the servers
 * first (0 .. servers-1, server j of ToR i being i x serversPerTor + j) and the switches after
 * them; that is also our leaf-spine's host order (L{i}H{j}), so a node id is taken as our host
 * index, and {@code hosts} (when > 0) rejects ids at or beyond it as switches.
 */
public final class Ns3FlowFile {

    private Ns3FlowFile() {}

    /** The flows of an ns-3 file, and the flow lines after the declared count, which ns-3 never reads. */
    public record Read(FlowList flows, long ignoredLines) {}

    /**
     * Reads an ns-3 flow file as ns-3 does: the declared number of flows, lines after them ignored
     * (and counted: Reverie's own flow-test.txt declares 8 flows and has 32 lines); fewer is an
     * error. {@code rebase}: subtract the earliest start (ns-3 runs often start their flows after a
     * warm-up, e.g. at 2 s). Errors name the file and line.
     */
    public static Read read(String name, BufferedReader in, int hosts, boolean rebase) throws IOException {
        FlowList.Builder out = new FlowList.Builder();
        String[] cols = new String[7];
        long declared = -1;
        long earliest = Long.MAX_VALUE;
        long ignored = 0;
        int lineNo = 0;
        FlowListReader.HostResolver nodes = FlowListReader.byIndex(hosts);
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            lineNo++;
            int n = FlowListReader.split(line, cols);
            if (n == 0) {
                continue;
            }
            if (declared >= 0 && out.size() == declared) {
                ignored++;                 // ns-3 reads the declared count and never looks further
                continue;
            }
            try {
                if (declared < 0) {
                    if (n != 1 || !FlowListReader.digits(cols[0])) {
                        throw new IllegalArgumentException("expected the number of flows alone on the first line");
                    }
                    declared = Long.parseLong(cols[0]);
                    continue;
                }
                if (n != 6) {
                    throw new IllegalArgumentException("expected 6 columns (src dst pg dport size start), got "
                            + (n > 6 ? "more than 6" : n));
                }
                int src = node(nodes, cols[0], hosts);
                int dst = node(nodes, cols[1], hosts);
                if (src == dst) {
                    throw new IllegalArgumentException("source and destination are the same node (" + src + ")");
                }
                int pg = FlowListReader.priority(cols[2]);
                long bytes = FlowListReader.bytes(cols[4]);
                long start = FlowListReader.startNanos(cols[5]);
                earliest = Math.min(earliest, start);
                out.add(src, dst, bytes, start, pg);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(name + ":" + lineNo + ": " + e.getMessage(), e);
            }
        }
        if (declared < 0) {
            throw new IllegalArgumentException(name + ": empty: expected the number of flows on the first line");
        }
        if (declared > out.size()) {
            throw new IllegalArgumentException(name + ": the first line says " + declared + " flows, the file has only "
                    + out.size());
        }
        FlowList list = out.build();
        if (!rebase || list.size() == 0 || list.startNanos(0) == 0) {
            return new Read(list, ignored);
        }
        FlowList.Builder shifted = new FlowList.Builder();     // sorted already: the earliest is the first
        for (int i = 0; i < list.size(); i++) {
            shifted.add(list.src(i), list.dst(i), list.bytes(i), list.startNanos(i) - earliest, list.priority(i));
        }
        return new Read(shifted.build(), ignored);
    }

    private static int node(FlowListReader.HostResolver nodes, String token, int hosts) {
        try {
            return nodes.resolve(token);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(FlowListReader.digits(token) && hosts > 0
                    ? "node " + token + " is not a host (--hosts " + hosts + ": hosts are nodes 0.." + (hosts - 1) + ")"
                    : "expected a node id, got '" + token + "'");
        }
    }

    /**
     * Writes {@code list} as an ns-3 flow file: the count, then {@code src dst pg dport size start}
     * with the priority as pg, destination ports {@code dportBase}, + {@code dportStep}, ... (wrapping
     * below 65536; step 0: all the same, which ns-3 accepts, as it keys no queue pair by the port),
     * and the start in seconds, exact to the nanosecond.
     */
    public static void write(FlowList list, Writer out, int dportBase, int dportStep) throws IOException {
        out.write(list.size() + "\n");
        StringBuilder b = new StringBuilder(64);
        long span = 65536 - dportBase;
        for (int i = 0; i < list.size(); i++) {
            b.setLength(0);
            b.append(list.src(i)).append(' ').append(list.dst(i)).append(' ').append(list.priority(i)).append(' ')
                    .append(dportBase + (long) i * dportStep % span).append(' ').append(list.bytes(i)).append(' ');
            FlowListWriter.seconds(b, list.startNanos(i)).append('\n');
            out.append(b);
        }
    }
}

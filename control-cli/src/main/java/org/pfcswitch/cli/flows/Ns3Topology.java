package org.pfcswitch.cli.flows;

import java.io.IOException;
import java.io.Writer;

import org.pfcswitch.testbed.Scenario;

/**
 * A scenario's leaf-spine as the topology file of the HPCC-family ns-3 simulators, so that ns-3
 * runs a flow list from {@code flows to-ns3} on the same fabric: nodes 0..H-1 are the hosts in our
 * order (host j of leaf i is node i x hostsPerLeaf + j), then the leaves, then the spines. The
 * file: a header, the switch node ids on one line, then one link a line, {@code a b rate_bps
 * delay error_rate}. The header differs between the examples: PowerTCP/HPCC read
 * {@code nodes switches tors links}; Reverie also reads the server and fabric link rates after it.
 */
public final class Ns3Topology {

    /** Which example's header to write. */
    public enum Format { HPCC, REVERIE }

    private Ns3Topology() {}

    /** Writes {@code s}'s leaf-spine; throws IllegalArgumentException for any other topology or uneven host links. */
    public static void write(Scenario s, Format format, Writer out) throws IOException {
        Scenario.Topology t = s.topology();
        if (!t.isLeafSpine()) {
            throw new IllegalArgumentException("an ns-3 topology is written for a leaf-spine scenario only"
                    + " (topology: {kind: leafSpine, ...}); " + s.name() + " has none");
        }
        if (!t.plan().failedLinks().isEmpty()) {
            throw new IllegalArgumentException("an ns-3 topology file lists every leaf-spine cable; " + s.name()
                    + " has failed links " + String.join(", ", t.plan().failedLinks()));
        }
        int hosts = s.hosts().size();
        Scenario.Host first = s.hosts().getFirst();
        for (Scenario.Host h : s.hosts()) {
            if (h.rateBps() != first.rateBps() || h.delayNanos() != first.delayNanos()) {
                throw new IllegalArgumentException("host " + h.name() + "'s link differs from " + first.name() + "'s");
            }
        }
        int leaves = t.leaves();
        int spines = t.spines();
        int links = hosts + leaves * spines;
        StringBuilder b = new StringBuilder();
        b.append(hosts + leaves + spines).append(' ').append(leaves + spines).append(' ').append(leaves).append(' ')
                .append(links);
        if (format == Format.REVERIE) {
            b.append(' ').append(first.rateBps()).append(' ').append(t.fabricBps());
        }
        b.append('\n');
        for (int sw = 0; sw < leaves + spines; sw++) {
            b.append(sw == 0 ? "" : " ").append(hosts + sw);
        }
        b.append('\n');
        for (int h = 0; h < hosts; h++) {
            link(b, h, hosts + h / t.hostsPerLeaf(), first.rateBps(), first.delayNanos());
        }
        for (int l = 0; l < leaves; l++) {
            for (int sp = 0; sp < spines; sp++) {
                link(b, hosts + l, hosts + leaves + sp, t.fabricBps(), t.fabricDelayNanos());
            }
        }
        out.append(b);
    }

    private static void link(StringBuilder b, int a, int z, long bps, long delayNanos) {
        b.append(a).append(' ').append(z).append(' ').append(bps).append(' ').append(delayNanos).append("ns 0\n");
    }
}

package org.pfcswitch.testbed.topology;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The cabling and routes of a multi-switch fabric: which host sits on which switch port, which
 * switch ports are cabled to each other (each cable with its own rate and delay), which cables
 * have failed, and for every switch and host the ports a frame to that host may leave by.
 *
 * <p>Routes are shortest paths over the working cables, with every equal-cost next hop in the
 * switch's ECMP group: in an intact leaf-spine or Clos that is up to the lowest common tier and
 * down again; with failed cables a path may go down and up again (a leaf bouncing a spine's frames
 * to another spine), which is how failures create the cyclic buffer dependencies of PFC deadlocks.
 * A failed cable stays in the port list (its port exists, nothing is routed over it); a host that
 * some switch can no longer reach is an error.
 *
 * <p>Switches have a long name ({@code leaf0}, reports) and a short one ({@code L0}, failed-link
 * lists); hosts are numbered in the order they are attached and named by {@link #hostName}.
 */
public final class FabricPlan {

    private final String kind;
    private final String summary;
    private final List<String> names;
    private final List<String> shortNames;
    /** Per switch: 0 for leaves and ToRs, 1 for aggregation switches, 2 for spines. */
    private final int[] tiers;
    /** Per switch and port: the host there, or -1 for a cable to another switch. */
    private final int[][] portHost;
    private final int[][] peerSwitch;
    private final int[][] peerPort;
    private final long[][] linkBps;
    private final long[][] linkDelayNanos;
    private final boolean[][] failed;
    private final int[] hostSwitch;
    private final int[] hostPort;
    private final List<String> hostNames;
    /** Per switch and host: the ports towards it (one: a static entry; several: an ECMP group). */
    private final int[][][] routes;
    private final List<String> failedLinks;
    /** Every cable in the order it was laid: switch, port, switch, port. */
    private final List<int[]> cables;

    private FabricPlan(Builder b, List<String> failedLinks) {
        kind = b.kind;
        names = List.copyOf(b.names);
        shortNames = List.copyOf(b.shortNames);
        tiers = b.tiers.stream().mapToInt(Integer::intValue).toArray();
        int n = names.size();
        portHost = new int[n][];
        peerSwitch = new int[n][];
        peerPort = new int[n][];
        linkBps = new long[n][];
        linkDelayNanos = new long[n][];
        failed = new boolean[n][];
        for (int s = 0; s < n; s++) {
            List<Port> ports = b.ports.get(s);
            int p = ports.size();
            portHost[s] = new int[p];
            peerSwitch[s] = new int[p];
            peerPort[s] = new int[p];
            linkBps[s] = new long[p];
            linkDelayNanos[s] = new long[p];
            failed[s] = new boolean[p];
            for (int i = 0; i < p; i++) {
                Port port = ports.get(i);
                portHost[s][i] = port.host();
                peerSwitch[s][i] = port.peerSwitch();
                peerPort[s][i] = port.peerPort();
                linkBps[s][i] = port.bps();
                linkDelayNanos[s][i] = port.delayNanos();
                failed[s][i] = port.failed();
            }
        }
        hostSwitch = b.hostSwitch.stream().mapToInt(Integer::intValue).toArray();
        hostPort = b.hostPort.stream().mapToInt(Integer::intValue).toArray();
        hostNames = List.copyOf(b.hostNames);
        this.failedLinks = List.copyOf(failedLinks);
        cables = List.copyOf(b.cables);
        routes = shortestPathRoutes();
        summary = b.summary;
    }

    /**
     * {@code leaves} leaves of {@code hostsPerLeaf} hosts (LlHj), each cabled to every one of
     * {@code spines} spines at {@code fabricBps} and {@code fabricDelayNanos}; leaf l's port
     * {@code hostsPerLeaf + s} goes to spine s, whose port l comes back. {@code failedLinks} as
     * {@code L0-S1} (either order).
     */
    public static FabricPlan leafSpine(int leaves, int spines, int hostsPerLeaf, long fabricBps, long fabricDelayNanos,
                                       List<String> failedLinks) {
        if (leaves < 1 || spines < 1 || hostsPerLeaf < 1 || fabricBps <= 0 || fabricDelayNanos < 0) {
            throw new IllegalArgumentException("a leaf-spine needs >= 1 leaf, spine and host per leaf and fabric links of"
                    + " rate > 0 and delay >= 0");
        }
        Builder b = new Builder("leafSpine");
        int[] leaf = new int[leaves];
        int[] spine = new int[spines];
        for (int l = 0; l < leaves; l++) {
            leaf[l] = b.addSwitch("leaf" + l, "L" + l, 0);
        }
        for (int s = 0; s < spines; s++) {
            spine[s] = b.addSwitch("spine" + s, "S" + s, 2);
        }
        for (int l = 0; l < leaves; l++) {
            for (int j = 0; j < hostsPerLeaf; j++) {
                b.attachHost(leaf[l], "L" + l + "H" + j);
            }
            for (int s = 0; s < spines; s++) {
                b.cable(leaf[l], spine[s], fabricBps, fabricDelayNanos);
            }
        }
        return b.build(failedLinks);
    }

    /**
     * A three-tier Clos: {@code pods} pods, each of {@code torsPerPod} ToRs (T0.., numbered across
     * pods) with {@code hostsPerTor} hosts each (TtHj) and {@code aggsPerPod} aggregation switches
     * (A0..); every ToR cabled to every aggregation switch of its pod at {@code torBps}/{@code torDelayNanos},
     * every aggregation switch to every one of {@code spines} spines (S0..) at {@code spineBps}/{@code spineDelayNanos}.
     * Switch order: ToRs, then aggregation switches, then spines. A ToR's ports: its hosts, then its
     * pod's aggregation switches; an aggregation switch's: its pod's ToRs, then the spines; a
     * spine's: every aggregation switch.
     */
    public static FabricPlan clos(int pods, int torsPerPod, int aggsPerPod, int spines, int hostsPerTor, long torBps,
                                  long torDelayNanos, long spineBps, long spineDelayNanos, List<String> failedLinks) {
        if (pods < 1 || torsPerPod < 1 || aggsPerPod < 1 || spines < 0 || hostsPerTor < 1 || torBps <= 0 || spineBps <= 0
                || torDelayNanos < 0 || spineDelayNanos < 0) {
            throw new IllegalArgumentException("a Clos needs >= 1 pod, ToR, aggregation switch and host per ToR, and links"
                    + " of rate > 0 and delay >= 0");
        }
        if (pods > 1 && spines < 1) {
            throw new IllegalArgumentException("a Clos of " + pods + " pods needs spines to join them");
        }
        Builder b = new Builder("clos");
        int tors = pods * torsPerPod;
        int aggs = pods * aggsPerPod;
        for (int t = 0; t < tors; t++) {
            b.addSwitch("tor" + t, "T" + t, 0);
        }
        for (int a = 0; a < aggs; a++) {
            b.addSwitch("agg" + a, "A" + a, 1);
        }
        for (int s = 0; s < spines; s++) {
            b.addSwitch("spine" + s, "S" + s, 2);
        }
        for (int t = 0; t < tors; t++) {
            for (int j = 0; j < hostsPerTor; j++) {
                b.attachHost(t, "T" + t + "H" + j);
            }
            int pod = t / torsPerPod;
            for (int a = 0; a < aggsPerPod; a++) {
                b.cable(t, tors + pod * aggsPerPod + a, torBps, torDelayNanos);
            }
        }
        for (int a = 0; a < aggs; a++) {
            for (int s = 0; s < spines; s++) {
                b.cable(tors + a, tors + aggs + s, spineBps, spineDelayNanos);
            }
        }
        b.summary = String.format(Locale.ROOT, "clos: %d pods x (%d ToRs of %d hosts, %d aggregation switches), %d spines;"
                + " ToR-aggregation links %.0f Gb/s %.3f us, aggregation-spine links %.0f Gb/s %.3f us", pods, torsPerPod,
                hostsPerTor, aggsPerPod, spines, torBps / 1e9, torDelayNanos / 1e3, spineBps / 1e9, spineDelayNanos / 1e3);
        return b.build(failedLinks);
    }

    /** leafSpine or clos. */
    public String kind() { return kind; }
    public int switches() { return names.size(); }
    /** Long name of switch {@code s} ({@code leaf0}, {@code tor3}, {@code spine1}). */
    public String switchName(int s) { return names.get(s); }
    /** Short name of switch {@code s} ({@code L0}, {@code T3}, {@code S1}): how failed links are written. */
    public String shortName(int s) { return shortNames.get(s); }
    public int ports(int s) { return portHost[s].length; }
    public int hosts() { return hostSwitch.length; }
    public String hostName(int h) { return hostNames.get(h); }
    public int hostSwitch(int h) { return hostSwitch[h]; }
    public int hostPort(int h) { return hostPort[h]; }
    /** The host on switch {@code s}'s {@code port}, or -1 when the port is cabled to a switch. */
    public int hostAt(int s, int port) { return portHost[s][port]; }
    /** The switch at the far end of {@code port}, or -1 for a host port. */
    public int peerSwitch(int s, int port) { return peerSwitch[s][port]; }
    /** The far end's port number, or -1 for a host port. */
    public int peerPort(int s, int port) { return peerPort[s][port]; }
    /** Rate of a switch-to-switch cable (host ports take their host's link). */
    public long linkBps(int s, int port) { return linkBps[s][port]; }
    public long linkDelayNanos(int s, int port) { return linkDelayNanos[s][port]; }
    /** The first of {@link #route}'s ports: the path an idle fabric's ideal FCT is reckoned along. */
    public int firstHop(int s, int h) { return routes[s][h][0]; }
    /** Ports of switch {@code s} towards host {@code h}, ascending; never empty. */
    public int[] route(int s, int h) { return routes[s][h].clone(); }
    /** Every cable (failed ones too) as {switch, port, switch, port}, in the order the plan laid them. */
    public List<int[]> cables() { return cables.stream().map(int[]::clone).toList(); }
    /** The failed cables as given ({@code L0-S1}). */
    public List<String> failedLinks() { return failedLinks; }

    /**
     * For a run's header: the oversubscription of the leaves (ToRs) and of the aggregation switches
     * (capacity down over working capacity up, hosts at {@code hostBps}; the highest of the tier's
     * switches, which failed cables make differ) and the failed cables; a Clos's shape before them.
     */
    public String describe(long hostBps) {
        StringBuilder line = new StringBuilder(summary.isEmpty() ? "" : summary + "; ");
        line.append("oversubscription ").append(ratio(0, hostBps)).append(kind.equals("clos") ? " at the ToRs" : " at the leaves");
        String aggregation = ratio(1, hostBps);
        if (!aggregation.isEmpty()) {
            line.append(", ").append(aggregation).append(" at the aggregation switches");
        }
        if (!failedLinks.isEmpty()) {
            line.append("; failed links ").append(String.join(", ", failedLinks));
        }
        return line.toString();
    }

    /**
     * The highest oversubscription among the switches of {@code tier} as "x:1": capacity of their
     * ports down (hosts, or switches of a lower tier) over that of their working cables up; empty
     * when the tier has no switch with a cable up.
     */
    private String ratio(int tier, long hostBps) {
        double worst = -1;
        for (int s = 0; s < names.size(); s++) {
            if (tiers[s] != tier) {
                continue;
            }
            double down = 0;
            double up = 0;
            for (int p = 0; p < ports(s); p++) {
                if (portHost[s][p] >= 0) {
                    down += hostBps;
                } else if (tiers[peerSwitch[s][p]] < tier) {
                    down += linkBps[s][p];
                } else if (!failed[s][p]) {
                    up += linkBps[s][p];
                }
            }
            if (up > 0 || down > 0 && tier == 0) {
                worst = Math.max(worst, up == 0 ? Double.POSITIVE_INFINITY : down / up);
            }
        }
        if (worst < 0) {
            return "";
        }
        return Double.isInfinite(worst) ? "no uplink" : String.format(Locale.ROOT, "%.2f:1", worst).replace(".00:", ":");
    }

    /** Breadth-first from each host's switch over working cables: every port one hop nearer is a next hop. */
    private int[][][] shortestPathRoutes() {
        int n = names.size();
        int[][][] out = new int[n][hosts()][];
        int[][] distance = new int[n][];
        for (int h = 0; h < hosts(); h++) {
            int target = hostSwitch[h];
            if (distance[target] == null) {
                distance[target] = distancesTo(target);
            }
            int[] d = distance[target];
            for (int s = 0; s < n; s++) {
                if (s == target) {
                    out[s][h] = new int[] {hostPort[h]};
                    continue;
                }
                if (d[s] < 0) {
                    throw new IllegalArgumentException("with failed links " + String.join(", ", failedLinks) + " switch "
                            + shortNames.get(s) + " has no path to " + shortNames.get(target) + " (host " + hostNames.get(h)
                            + ")");
                }
                int[] hops = new int[ports(s)];
                int k = 0;
                for (int p = 0; p < ports(s); p++) {
                    if (portHost[s][p] < 0 && !failed[s][p] && d[peerSwitch[s][p]] == d[s] - 1) {
                        hops[k++] = p;
                    }
                }
                out[s][h] = Arrays.copyOf(hops, k);
            }
        }
        return out;
    }

    private int[] distancesTo(int target) {
        int[] d = new int[names.size()];
        Arrays.fill(d, -1);
        d[target] = 0;
        ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(target));
        while (!queue.isEmpty()) {
            int s = queue.poll();
            for (int p = 0; p < ports(s); p++) {
                int peer = peerSwitch[s][p];
                if (portHost[s][p] < 0 && !failed[s][p] && d[peer] < 0) {
                    d[peer] = d[s] + 1;
                    queue.add(peer);
                }
            }
        }
        return d;
    }

    /** A port while the plan is laid: a host's ({@code host >= 0}) or one end of a cable. */
    private record Port(int host, int peerSwitch, int peerPort, long bps, long delayNanos, boolean failed) {
        static Port ofHost(int host) {
            return new Port(host, -1, -1, 0, 0, false);
        }

        Port failedOne() {
            return new Port(host, peerSwitch, peerPort, bps, delayNanos, true);
        }
    }

    /** Collects switches, hosts and cables in port order. */
    private static final class Builder {
        private final String kind;
        private String summary = "";
        private final List<String> names = new ArrayList<>();
        private final List<String> shortNames = new ArrayList<>();
        private final List<Integer> tiers = new ArrayList<>();
        private final List<List<Port>> ports = new ArrayList<>();
        private final List<Integer> hostSwitch = new ArrayList<>();
        private final List<Integer> hostPort = new ArrayList<>();
        private final List<String> hostNames = new ArrayList<>();
        private final List<int[]> cables = new ArrayList<>();

        Builder(String kind) {
            this.kind = kind;
        }

        int addSwitch(String name, String shortName, int tier) {
            names.add(name);
            shortNames.add(shortName);
            tiers.add(tier);
            ports.add(new ArrayList<>());
            return names.size() - 1;
        }

        void attachHost(int s, String name) {
            hostSwitch.add(s);
            hostPort.add(ports.get(s).size());
            ports.get(s).add(Port.ofHost(hostNames.size()));
            hostNames.add(name);
        }

        void cable(int a, int b, long bps, long delayNanos) {
            int pa = ports.get(a).size();
            int pb = ports.get(b).size();
            ports.get(a).add(new Port(-1, b, pb, bps, delayNanos, false));
            ports.get(b).add(new Port(-1, a, pa, bps, delayNanos, false));
            cables.add(new int[] {a, pa, b, pb});
        }

        /** Marks the cable {@code X-Y} failed at both ends. */
        void fail(String link) {
            String[] ends = link.split("-", -1);
            if (ends.length != 2) {
                throw new IllegalArgumentException("failed link '" + link + "': expected two switches as X-Y (e.g. "
                        + shortNames.get(0) + "-" + shortNames.getLast() + ")");
            }
            int a = shortNames.indexOf(ends[0].strip());
            int b = shortNames.indexOf(ends[1].strip());
            if (a < 0 || b < 0) {
                throw new IllegalArgumentException("failed link '" + link + "': no switch named '" + ends[a < 0 ? 0 : 1].strip()
                        + "' (switches " + shortNames.getFirst() + " .. " + shortNames.getLast() + ")");
            }
            boolean found = false;
            List<Port> ofA = ports.get(a);
            for (int p = 0; p < ofA.size(); p++) {
                Port port = ofA.get(p);
                if (port.host() < 0 && port.peerSwitch() == b) {
                    ofA.set(p, port.failedOne());
                    List<Port> ofB = ports.get(b);
                    ofB.set(port.peerPort(), ofB.get(port.peerPort()).failedOne());
                    found = true;
                }
            }
            if (!found) {
                throw new IllegalArgumentException("failed link '" + link + "': " + ends[0].strip() + " and "
                        + ends[1].strip() + " are not cabled to each other");
            }
        }

        FabricPlan build(List<String> failedLinks) {
            for (String link : failedLinks) {
                fail(link);
            }
            return new FabricPlan(this, failedLinks);
        }
    }
}

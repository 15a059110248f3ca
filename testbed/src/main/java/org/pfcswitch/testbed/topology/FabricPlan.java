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
        int n = names.size();
        portHost = new int[n][];
        peerSwitch = new int[n][];
        peerPort = new int[n][];
        linkBps = new long[n][];
        linkDelayNanos = new long[n][];
        failed = new boolean[n][];
        for (int s = 0; s < n; s++) {
            List<long[]> ports = b.ports.get(s);
            int p = ports.size();
            portHost[s] = new int[p];
            peerSwitch[s] = new int[p];
            peerPort[s] = new int[p];
            linkBps[s] = new long[p];
            linkDelayNanos[s] = new long[p];
            failed[s] = new boolean[p];
            for (int i = 0; i < p; i++) {
                long[] port = ports.get(i);
                portHost[s][i] = (int) port[0];
                peerSwitch[s][i] = (int) port[1];
                peerPort[s][i] = (int) port[2];
                linkBps[s][i] = port[3];
                linkDelayNanos[s][i] = port[4];
                failed[s][i] = port[5] != 0;
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
            leaf[l] = b.addSwitch("leaf" + l, "L" + l);
        }
        for (int s = 0; s < spines; s++) {
            spine[s] = b.addSwitch("spine" + s, "S" + s);
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
            b.addSwitch("tor" + t, "T" + t);
        }
        for (int a = 0; a < aggs; a++) {
            b.addSwitch("agg" + a, "A" + a);
        }
        for (int s = 0; s < spines; s++) {
            b.addSwitch("spine" + s, "S" + s);
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
     * For a run's header: the oversubscription of each tier (capacity down over working capacity
     * up, with hosts at {@code hostBps}) and the failed cables; a Clos's shape before them.
     */
    public String describe(long hostBps) {
        StringBuilder line = new StringBuilder(summary.isEmpty() ? "" : summary + "; ");
        line.append("oversubscription ").append(ratio(0, hostBps)).append(kind.equals("clos") ? " at the ToRs" : " at the leaves");
        int agg = firstOf("A");
        if (agg >= 0) {
            line.append(", ").append(ratio(agg, hostBps)).append(" at the aggregation switches");
        }
        if (!failedLinks.isEmpty()) {
            line.append("; failed links ").append(String.join(", ", failedLinks));
        }
        return line.toString();
    }

    private int firstOf(String prefix) {
        for (int s = 0; s < names.size(); s++) {
            if (shortNames.get(s).startsWith(prefix)) {
                return s;
            }
        }
        return -1;
    }

    /**
     * Switch {@code s}'s oversubscription as "x:1": capacity of its downward ports (hosts, or
     * switches of a lower tier) over that of its working upward cables. A tier's switches are
     * alike, so the first one speaks for them.
     */
    private String ratio(int s, long hostBps) {
        double down = 0;
        double up = 0;
        int tier = tier(s);
        for (int p = 0; p < ports(s); p++) {
            if (portHost[s][p] >= 0) {
                down += hostBps;
            } else if (tier(peerSwitch[s][p]) < tier) {
                down += linkBps[s][p];
            } else if (!failed[s][p]) {
                up += linkBps[s][p];
            }
        }
        return up == 0 ? "no uplink" : String.format(Locale.ROOT, "%.2f:1", down / up).replace(".00:", ":");
    }

    private int tier(int s) {
        return switch (shortNames.get(s).charAt(0)) {
            case 'L', 'T' -> 0;
            case 'A' -> 1;
            default -> 2;
        };
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

    /** Collects switches, hosts and cables in port order. */
    private static final class Builder {
        private final String kind;
        private String summary = "";
        private final List<String> names = new ArrayList<>();
        private final List<String> shortNames = new ArrayList<>();
        /** Per switch, per port: host, peer switch, peer port, bps, delay, failed. */
        private final List<List<long[]>> ports = new ArrayList<>();
        private final List<Integer> hostSwitch = new ArrayList<>();
        private final List<Integer> hostPort = new ArrayList<>();
        private final List<String> hostNames = new ArrayList<>();
        private final List<int[]> cables = new ArrayList<>();

        Builder(String kind) {
            this.kind = kind;
        }

        int addSwitch(String name, String shortName) {
            names.add(name);
            shortNames.add(shortName);
            ports.add(new ArrayList<>());
            return names.size() - 1;
        }

        void attachHost(int s, String name) {
            hostSwitch.add(s);
            hostPort.add(ports.get(s).size());
            ports.get(s).add(new long[] {hostNames.size(), -1, -1, 0, 0, 0});
            hostNames.add(name);
        }

        void cable(int a, int b, long bps, long delayNanos) {
            int pa = ports.get(a).size();
            int pb = ports.get(b).size();
            ports.get(a).add(new long[] {-1, b, pb, bps, delayNanos, 0});
            ports.get(b).add(new long[] {-1, a, pa, bps, delayNanos, 0});
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
            for (long[] port : ports.get(a)) {
                if (port[0] < 0 && port[1] == b) {
                    port[5] = 1;
                    ports.get(b).get((int) port[2])[5] = 1;
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

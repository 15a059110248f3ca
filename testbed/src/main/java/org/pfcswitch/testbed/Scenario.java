package org.pfcswitch.testbed;

import java.util.List;

import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.PfcWatchdogConfig;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.testbed.topology.FabricPlan;

/**
 * One experiment on one switch or a leaf-spine ({@link Topology}), independent of the scheme:
 * hosts and their links (host i on switch port i; in a leaf-spine, host {@code l × H + j} on
 * leaf l's port j), the switch's buffer and PFC settings, congestion control, traffic, how long to run and
 * what to measure. {@link ScenarioRunner} runs it once per scheme with the same seed.
 *
 * @param name            shown in reports
 * @param mmu             buffer, lossless priorities, headroom, ECN, scheme parameters; its ports are
 *                        replaced by the host links and its scheme by the one run
 * @param pauseQuanta     quanta each PFC XOFF carries (refreshed at half its duration)
 * @param hosts           in port order
 * @param dcqcn           congestion control of every host ({@link DcqcnConfig#none()} = line rate)
 * @param payloadMtu      RDMA payload bytes per packet
 * @param traffic         the generators, each with a name results are reported under
 * @param durationNanos   simulated time
 * @param measureFromNanos start of the throughput window
 * @param measureToNanos  end of the throughput window
 * @param sampleNanos     period of the time series (queue lengths, pause state, throughput)
 * @param reportPorts     ports whose queues and pause state the time series and table show
 * @param fctBinEdges     flow-size bin edges in bytes for FCT statistics, ascending
 * @param seed            the run's seed (traffic draws, ECN marking)
 * @param topology        one switch ({@link Topology#SINGLE_SWITCH}) or a leaf-spine; every switch gets
 *                        the {@code mmu} settings
 * @param fctByTraffic    whether reports also show the FCT bins of each traffic on its own (e.g. per host group)
 * @param pfcwd           the switches' PFC watchdog, or null (off)
 * @param deadlock        deadlock detection over all the switches, or null (off)
 * @param model           model choices of the switches and hosts ({@link SimModel#DEFAULT}: pfcswitch's own)
 */
public record Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn,
                       int payloadMtu, List<TrafficSpec> traffic, long durationNanos, long measureFromNanos,
                       long measureToNanos, long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges,
                       long seed, Topology topology, boolean fctByTraffic, PfcWatchdogConfig pfcwd,
                       Deadlock deadlock, SimModel model) {

    /** Under pfcswitch's own model choices. */
    public Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn,
                    int payloadMtu, List<TrafficSpec> traffic, long durationNanos, long measureFromNanos,
                    long measureToNanos, long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges,
                    long seed, Topology topology, boolean fctByTraffic, PfcWatchdogConfig pfcwd, Deadlock deadlock) {
        this(name, mmu, pauseQuanta, hosts, dcqcn, payloadMtu, traffic, durationNanos, measureFromNanos, measureToNanos,
                sampleNanos, reportPorts, fctBinEdges, seed, topology, fctByTraffic, pfcwd, deadlock, SimModel.DEFAULT);
    }

    /** Deadlock detection ({@link DeadlockDetector}): a check every {@code checkNanos}, a cycle reported after {@code persistNanos}. */
    public record Deadlock(long checkNanos, long persistNanos) {
        public Deadlock {
            if (checkNanos <= 0 || persistNanos < 0) {
                throw new IllegalArgumentException("deadlock: check must be > 0 and persist >= 0");
            }
        }
    }

    /** Without deadlock detection. */
    public Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn,
                    int payloadMtu, List<TrafficSpec> traffic, long durationNanos, long measureFromNanos,
                    long measureToNanos, long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges,
                    long seed, Topology topology, boolean fctByTraffic, PfcWatchdogConfig pfcwd) {
        this(name, mmu, pauseQuanta, hosts, dcqcn, payloadMtu, traffic, durationNanos, measureFromNanos, measureToNanos,
                sampleNanos, reportPorts, fctBinEdges, seed, topology, fctByTraffic, pfcwd, null);
    }

    /** Without a PFC watchdog. */
    public Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn,
                    int payloadMtu, List<TrafficSpec> traffic, long durationNanos, long measureFromNanos,
                    long measureToNanos, long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges,
                    long seed, Topology topology, boolean fctByTraffic) {
        this(name, mmu, pauseQuanta, hosts, dcqcn, payloadMtu, traffic, durationNanos, measureFromNanos, measureToNanos,
                sampleNanos, reportPorts, fctBinEdges, seed, topology, fctByTraffic, null);
    }

    /**
     * One host and its link to the switch; with {@code cloneOf >= 0} a clone port that replays host
     * {@code cloneOf}'s data frames and treats a PAUSE per {@code clonePfc} ({@link Testbed.Builder#cloneOf}); with
     * {@code ignoresPfc} a host whose NIC ignores the PFC and PAUSE frames the switch sends it (counted, never obeyed).
     */
    public record Host(String name, long rateBps, long delayNanos, int cloneOf, ClonePfc clonePfc, boolean ignoresPfc) {
        public Host(String name, long rateBps, long delayNanos) {
            this(name, rateBps, delayNanos, -1, ClonePfc.IGNORE, false);
        }

        public Host(String name, long rateBps, long delayNanos, int cloneOf, ClonePfc clonePfc) {
            this(name, rateBps, delayNanos, cloneOf, clonePfc, false);
        }
    }

    /**
     * The switches: {@code hostsPerLeaf == 0}, {@code ringSwitches == 0} and no {@code plan} is one
     * switch with every host on it; {@code hostsPerLeaf > 0} is {@code leaves} leaves with
     * {@code hostsPerLeaf} hosts each, every leaf cabled to each of {@code spines} spines by a link of
     * {@code fabricBps} and {@code fabricDelayNanos} (less any failed links); {@code ringSwitches > 0}
     * is a ring of that many switches with one host each ({@link Testbed#ring}), routed one way round
     * ({@code ringOneWay}) or the short way. A leaf-spine or Clos has its {@code plan}: cabling and routes.
     */
    public record Topology(int leaves, int spines, int hostsPerLeaf, long fabricBps, long fabricDelayNanos,
                           int ringSwitches, boolean ringOneWay, FabricPlan plan) {
        public static final Topology SINGLE_SWITCH = new Topology(0, 0, 0, 0, 0, 0, false, null);

        public Topology(int leaves, int spines, int hostsPerLeaf, long fabricBps, long fabricDelayNanos) {
            this(leaves, spines, hostsPerLeaf, fabricBps, fabricDelayNanos, 0, false,
                    hostsPerLeaf == 0 ? null : FabricPlan.leafSpine(leaves, spines, hostsPerLeaf, fabricBps, fabricDelayNanos,
                            List.of()));
        }

        public Topology {
            if (hostsPerLeaf != 0 && (leaves < 1 || spines < 1 || hostsPerLeaf < 1 || fabricBps <= 0
                    || fabricDelayNanos < 0)) {
                throw new IllegalArgumentException("a leaf-spine needs >= 1 leaf, spine and host per leaf and fabric "
                        + "links of rate > 0 and delay >= 0");
            }
            if (hostsPerLeaf != 0 && plan == null) {
                throw new IllegalArgumentException("a leaf-spine needs its plan");
            }
            if (ringSwitches != 0 && (ringSwitches < 3 || hostsPerLeaf != 0 || fabricBps <= 0 || fabricDelayNanos < 0)) {
                throw new IllegalArgumentException("a ring needs >= 3 switches and ring links of rate > 0 and delay >= 0");
            }
        }

        public static Topology ring(int switches, boolean oneWay, long linkBps, long linkDelayNanos) {
            return new Topology(0, 0, 0, linkBps, linkDelayNanos, switches, oneWay, null);
        }

        public boolean isRing() {
            return ringSwitches > 0;
        }

        public static Topology leafSpine(int leaves, int spines, int hostsPerLeaf, long fabricBps, long fabricDelayNanos) {
            return new Topology(leaves, spines, hostsPerLeaf, fabricBps, fabricDelayNanos);
        }

        /** A leaf-spine with the cables {@code failedLinks} ({@code L0-S1}) failed. */
        public static Topology leafSpine(int leaves, int spines, int hostsPerLeaf, long fabricBps, long fabricDelayNanos,
                                         List<String> failedLinks) {
            return new Topology(leaves, spines, hostsPerLeaf, fabricBps, fabricDelayNanos, 0, false,
                    FabricPlan.leafSpine(leaves, spines, hostsPerLeaf, fabricBps, fabricDelayNanos, failedLinks));
        }

        /** A three-tier Clos ({@link FabricPlan#clos}). */
        public static Topology clos(FabricPlan plan) {
            return new Topology(0, 0, 0, 0, 0, 0, false, plan);
        }

        public boolean isLeafSpine() {
            return hostsPerLeaf > 0;
        }

        /** A leaf-spine or Clos: switches cabled and routed by {@link #plan}. */
        public boolean isFabric() {
            return plan != null;
        }
    }

    /** Reports without per-traffic FCT bins. */
    public Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn, int payloadMtu,
                    List<TrafficSpec> traffic, long durationNanos, long measureFromNanos, long measureToNanos,
                    long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges, long seed, Topology topology) {
        this(name, mmu, pauseQuanta, hosts, dcqcn, payloadMtu, traffic, durationNanos, measureFromNanos, measureToNanos,
                sampleNanos, reportPorts, fctBinEdges, seed, topology, false);
    }

    /** A single-switch scenario. */
    public Scenario(String name, MmuConfig mmu, int pauseQuanta, List<Host> hosts, DcqcnConfig dcqcn, int payloadMtu,
                    List<TrafficSpec> traffic, long durationNanos, long measureFromNanos, long measureToNanos,
                    long sampleNanos, List<Integer> reportPorts, List<Long> fctBinEdges, long seed) {
        this(name, mmu, pauseQuanta, hosts, dcqcn, payloadMtu, traffic, durationNanos, measureFromNanos, measureToNanos,
                sampleNanos, reportPorts, fctBinEdges, seed, Topology.SINGLE_SWITCH);
    }

    /** Makes a fresh generator for each run (generators keep the ids of the flows they made). */
    public interface TrafficSpec {
        String name();

        Traffic create();

        /** Whether its traffic adds flows from a node's event as the run goes (which needs one partition). */
        default boolean addsFlowsAsItRuns() {
            return false;
        }
    }

    public Scenario {
        java.util.Objects.requireNonNull(model, "model");
        hosts = List.copyOf(hosts);
        traffic = List.copyOf(traffic);
        reportPorts = List.copyOf(reportPorts);
        fctBinEdges = List.copyOf(fctBinEdges);
        if (hosts.size() < 2) {
            throw new IllegalArgumentException("a scenario needs at least 2 hosts, got " + hosts.size());
        }
        if (topology.isFabric() && hosts.size() != topology.plan().hosts()) {
            throw new IllegalArgumentException("the fabric has " + topology.plan().hosts() + " hosts, the scenario "
                    + hosts.size());
        }
        if (topology.isRing() && hosts.size() != topology.ringSwitches()) {
            throw new IllegalArgumentException("a ring of " + topology.ringSwitches() + " switches has as many hosts, got "
                    + hosts.size());
        }
        if (durationNanos <= 0 || sampleNanos <= 0) {
            throw new IllegalArgumentException("duration and sample interval must be > 0");
        }
        if (measureFromNanos < 0 || measureToNanos <= measureFromNanos || measureToNanos > durationNanos) {
            throw new IllegalArgumentException("measure window must satisfy 0 <= from < to <= duration, got "
                    + measureFromNanos + ".." + measureToNanos + " ns of " + durationNanos);
        }
        for (int i = 0; i < hosts.size(); i++) {
            int src = hosts.get(i).cloneOf();
            if (src < 0) {
                continue;
            }
            if (topology.isFabric() || topology.isRing() || src == i || src >= hosts.size() || hosts.get(src).cloneOf() >= 0
                    || hosts.get(i).clonePfc() == null) {
                throw new IllegalArgumentException("host " + hosts.get(i).name() + ": a clone port replays another host"
                        + " of the same single switch that is itself no clone");
            }
        }
        for (int p : reportPorts) {
            if (p < 0 || p >= hosts.size()) {
                throw new IllegalArgumentException("report port " + p + " is not a host port 0.." + (hosts.size() - 1));
            }
        }
    }

    /** The index of the host called {@code name}, or -1. */
    public int hostIndex(String hostName) {
        for (int i = 0; i < hosts.size(); i++) {
            if (hosts.get(i).name().equals(hostName)) {
                return i;
            }
        }
        return -1;
    }
}

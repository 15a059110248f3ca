package org.pfcswitch.testbed.config;

import org.pfcswitch.config.ConfigException;
import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.config.MmuConfigLoader;
import org.pfcswitch.config.PfcWatchdogLoader;
import org.pfcswitch.config.Units;
import org.pfcswitch.config.YamlLoader;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.core.EcmpHash;
import org.pfcswitch.core.EcnPoint;
import org.pfcswitch.core.FrameCost;
import org.pfcswitch.core.PfcPauseMode;
import org.pfcswitch.core.Scheduling;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.core.YamlNamed;
import org.pfcswitch.testbed.AckPolicy;
import org.pfcswitch.testbed.CnpPolicy;
import org.pfcswitch.testbed.DcqcnConfig;
import org.pfcswitch.testbed.FlowList;
import org.pfcswitch.testbed.FlowListTraffic;
import org.pfcswitch.testbed.FctEnd;
import org.pfcswitch.testbed.HeadroomQueues;
import org.pfcswitch.testbed.HostAddresses;
import org.pfcswitch.testbed.HostModel;
import org.pfcswitch.testbed.SchemeDefaults;
import org.pfcswitch.testbed.SimModel;
import org.pfcswitch.testbed.FlowSizeCdf;
import org.pfcswitch.testbed.Incast;
import org.pfcswitch.testbed.IncastLoad;
import org.pfcswitch.testbed.InterArrivals;
import org.pfcswitch.testbed.PfcStorm;
import org.pfcswitch.testbed.LongLivedFlow;
import org.pfcswitch.testbed.PoissonFlows;
import org.pfcswitch.testbed.Replay;
import org.pfcswitch.testbed.Scenario;
import org.pfcswitch.testbed.SynchronizedPoissonFlows;
import org.pfcswitch.testbed.Traffic;
import org.pfcswitch.testbed.topology.FabricPlan;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;

/**
 * Reads a scenario file ({@code testbed-configs/scenarios/*.yaml}) into a {@link Scenario}, after
 * applying {@code --set key.path=value} overrides to the YAML tree. Every mistake is one
 * {@link ConfigException} line naming the file and the key.
 *
 * <pre>
 * name: spfc-victim
 * duration: 12ms                 # simulated time
 * seed: 1
 * schemes: [dt, spfc]            # what sim runs without --scheme
 * sample: 20us                   # time-series period
 * measure: {from: 1ms, to: 12ms} # throughput window
 * payloadMtu: 1000               # RDMA payload per packet
 * model: pfcswitch               # pfcswitch (default) | ns3-datacenter: the ns-3.39 datacenter simulators'
 *                                #   choices of every option below at once; an option given explicitly wins
 * cc: {mode: dcqcn}              # dcqcn | none; dcqcn keys override DcqcnConfig defaults:
 *                                #   g, alphaInterval, timer, byteCounter, fastRecovery, ai, hai, minRate, cnpInterval
 *                                # model options: cnp: perInterval (one per QP per cnpInterval, default) |
 *                                #   perMarkedPacket | onAck (per marked packet, as the BECN bit of its ACK);
 *                                #   rateDecreaseInterval: 0 (a cut per CNP, default) | 4us
 *                                #   (a CNP arms a check run every 4 us); ackEvery: message (default) | packet;
 *                                #   controlPriority: 6 (default; ACKs and CNPs, strict above data) | 0..7
 * pfc: {pauseQuanta: 65535, mode: quanta}   # quanta (default: pauses expire, XOFF refreshed at half the
 *                                #   time) | untilResume (a pause lasts until its XON; one XOFF per episode)
 *                                # headroomQueues: lossless (default) | losslessAndQueue0 (one more queue's
 *                                #   headroom per port set aside, unused, as ns-3 does for its queue 0)
 * ecn: {at: dequeue}             # dequeue (default: as the frame leaves, on the queue still holding it) |
 *                                #   afterDequeue (on the queue after its removal) | enqueue (on admission)
 * scheduler: strict              # strict (default: strict priority on every port) | roundRobin (the ACK/CNP
 *                                #   priority strict, every other queue one frame per turn, as ns-3)
 * frameCost: ethernet            # ethernet (default: a frame's bytes in the buffer, + 24 B of FCS, preamble and
 *                                #   gap on the line) | ns3Packet (what ns-3 charges the same packet: 10 B less,
 *                                #   at least 60 B, in the buffer and on the line, no gap)
 * schemeDefaults: paper          # paper (default: each scheme's own defaults) | artifact (the ns-3 artifact's
 *                                #   code: Reverie's filter moves on departures, no pool guard in sonic and
 *                                #   reverie); parameters given under mmu.schemes win
 * hosts:                         # in switch-port order; count: n makes name0..name(n-1)
 *   - {name: H, count: 30, speed: 100G, delay: 9us}
 *   - {name: R1, speed: 100G, delay: 1us}
 * topology:                      # optional; instead of hosts:, a leaf-spine whose hosts are named
 *   kind: leafSpine              #   L0H0 .. L(leaves-1)H(hostsPerLeaf-1) (kind: single = the hosts: switch)
 *   leaves: 2
 *   spines: 2
 *   hostsPerLeaf: 4
 *   hostSpeed: 100G              # every host link
 *   hostDelay: 1us
 *   fabricSpeed: 100G            # every leaf-spine link (default: hostSpeed, hostDelay)
 *   fabricDelay: 1us
 *   ecmp: {hash: flow, seed: 0} # model option: flow (default: 5-tuple + QP, unseeded) | fiveTuple (murmur3 of
 *                                #   IPs and UDP ports, as ns-3); seed: a number or perSwitch (the switch's node id
 *                                #   as ns-3 numbers nodes: the hosts first, then leaves, then spines)
 *   addresses: pfcswitch         # model option: pfcswitch (host i is 10.0.0.1 + i) | ns3 (ns-3's 11.0.i.1)
 *   failedLinks: [S0-L3, L0-S1]  # cables out of service (either end first): no route uses them; routes are
 *                                #   the shortest paths left, every equal-cost next hop in the ECMP group; a
 *                                #   switch left without a path to some host is an error
 * (topology: {kind: clos, pods: 8, torsPerPod: 4, aggsPerPod: 2, spines: 4, hostsPerTor: 16, hostSpeed: 100G,
 *  hostDelay: 2us, torSpeed: 400G, torDelay, spineSpeed, spineDelay, ecmp, addresses, failedLinks}: a three-tier
 *  Clos, hosts T0H0 .. (ToRs numbered across pods), switches T0.. (ToRs), A0.. (aggregation), S0.. (spines);
 *  every ToR cabled to every aggregation switch of its pod (torSpeed/torDelay, default the host link's), every
 *  aggregation switch to every spine (spineSpeed/spineDelay, default the ToR link's); spines: 0 with pods: 1.
 *  The run's header gives each tier's oversubscription: hosts' capacity down over working cables up.)
 * mmu: {...}                     # the mmu: section of MmuConfigLoader, without ports (the hosts are the ports)
 * traffic:                       # by name; kinds: flow, flows, incast, incastLoad, poisson, replay, pfcStorm
 *   F1: {kind: flow, from: H0, to: R1, bytes: forever, start: 0us, priority: 3}
 *   list: {kind: flows, file: flows/mix.txt, priority: 3}   # one flow a line: src dst bytes start [priority]
 *                                #   (FlowListReader; the file relative to the scenario's folder)
 *   bursts: {kind: incast, from: H1, count: 8, to: R2, bytes: 64KiB, start: 1ms, repeatUntil: 12ms}
 *   web: {kind: poisson, from: all, to: all, cdf: ../workloads/websearch.cdf, load: 0.5, start: 0us, stop: 10ms}
 *                                # arrivals: poisson (default) | logNormal, with sigma: 2 (default): burstier
 *                                #   gaps of the same mean (BFC's), so the same load
 *   fanin: {kind: incastLoad, from: all, to: all, fanIn: 16, bytes: 64KB, load: 0.2, start: 0us, stop: 10ms}
 *                                # incast events: fanIn distinct senders from 'from', bytes each, to one
 *                                #   receiver from 'to' (never a sender of its own event), at the rate that
 *                                #   offers load x the senders' combined line rate; arrivals and sigma as poisson
 *   clones: {kind: replay, of: H1, from: C0, count: 5, pfc: ignore}
 *   (a host: {name: X, speed: 10G, delay: 1us, pfc: ignore} has a NIC that ignores PFC and PAUSE; default obey)
 *   storm: {kind: pfcStorm, from: R2, priority: 3, quanta: 65535, every: 10us, start: 5ms, stop: 25ms}
 *                                # R2 pauses the switch's priority 3 towards it every 10 us (a stuck NIC)
 * pfcwd: {detection: 200ms, restoration: 400ms, action: drop}    # PFC watchdog (off when absent)
 * deadlock: {check: 100us, persist: 1ms}   # deadlock detection: a check every 100 us, a cycle of paused
 *                                # queues reported once it lasts 1 ms (off when absent)
 * (topology: {kind: ring, switches: 3, routes: oneWay | shortest, hostSpeed, hostDelay, fabricSpeed,
 *  fabricDelay}: a ring of switches with one host each, H0..H(n-1); oneWay routes every remote host
 *  clockwise, shortest the short way round)
 *                                # C0..C4 become clone ports: the switch replays H1's data frames on
 *                                # them at the same instants (their links must equal H1's); a PAUSE to
 *                                # them is ignored (default) or makes them skip copies while paused
 *                                # (skip); count: 0 = none. Reported as the copies' throughput.
 *   webBursts: {kind: poisson, synchronized: true, from: H1, count: 29, to: R2, cdf: ../workloads/websearch.cdf,
 *            load: 0.2, start: 0us, stop: 10ms}
 * report: {ports: [H0, R1, R2], fctBins: [10KB, 100KB, 1MB], fctByTraffic: false}
 * </pre>
 * A {@code poisson} traffic gives each sender its own Poisson process; each flow goes to a receiver
 * drawn uniformly from {@code to} (never the sender itself), and {@code load} is the fraction of
 * each <em>sender's</em> line rate it offers (payload bits). With {@code synchronized: true} the
 * senders share one Poisson process instead: every arrival starts one flow from each sender at the
 * same instant, all of one size (drawn once per arrival) to one receiver (drawn once per arrival
 * from {@code to}, which must not include a sender), and {@code load} is what the whole group
 * offers as a fraction of the <em>receivers'</em> combined line rate; with one receiver, the
 * fraction of that receiver's link (the group's bottleneck). {@code report.fctByTraffic: true}
 * adds FCT size bins per traffic (each generator's flows on their own) to the table and JSON.
 * Host selectors ({@code from}, {@code to}) are a host name, a list of names, or {@code all} (every
 * host but clone ports; a clone port is never a flow's endpoint);
 * {@code count: n} with one name takes n consecutive hosts from it. A {@code cdf} path is relative
 * to the scenario file's folder. In a leaf-spine or Clos every switch gets the {@code mmu:}
 * settings; a switch reaches remote hosts through an ECMP group over its next hops on the shortest
 * paths ({@link FabricPlan}); report ports are host ports on their leaves (ToRs), and the pause
 * totals count every switch's ports, fabric links included.
 */
public final class ScenarioLoader {

    /**
     * What a file defines besides the scenario itself; {@code flowFiles}: the flow lists its traffic
     * read (kind: flows), whose content is as much the scenario's as its own text.
     */
    public record Loaded(Scenario scenario, List<String> schemes, List<Path> flowFiles) {
        public Loaded(Scenario scenario, List<String> schemes) {
            this(scenario, schemes, List.of());
        }
    }

    private static final String[] TOP = {"name", "description", "duration", "seed", "schemes", "sample", "measure",
            "payloadMtu", "cc", "pfc", "hosts", "topology", "mmu", "traffic", "report", "pfcwd", "deadlock", "model", "ecn",
            "scheduler", "schemeDefaults", "frameCost"};
    private static final long FOREVER = 1L << 50;
    /** Most points of a scenario's time series (duration / sample): each is kept in memory and written out. */
    static final long MAX_SAMPLES = 1_000_000;

    private ScenarioLoader() {}

    /** Loads {@code file} with {@code overrides} ("a.b.c=value", value in YAML syntax) applied in order. */
    public static Loaded load(Path file, List<String> overrides) {
        String name = file.toString();
        Map<String, Object> tree = parseTree(name, ConfigNode.readText(file));
        for (String o : overrides) {
            applyOverride(name, tree, o);
        }
        Object mmu = tree.get("mmu");
        if (mmu instanceof Map<?, ?> m) {
            if (m.containsKey("ports")) {
                throw new ConfigException(name + ": mmu.ports: a scenario's ports are its hosts; give each link's speed and delay under hosts:");
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> mm = (Map<String, Object>) m;
            mm.put("ports", Map.of("count", 2, "speed", "100G"));    // placeholder: the testbed sets one port per host
        }
        String dumped = new Dump(DumpSettings.builder().build()).dumpToString(tree);
        ConfigNode root = ConfigNode.parse(name, dumped);
        Path dir = file.toAbsolutePath().getParent();
        return read(root, dir);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> parseTree(String name, String text) {
        Object root = YamlLoader.load(name, text);
        if (!(root instanceof Map<?, ?> m)) {
            throw new ConfigException(name + ": expected a mapping of keys at the top level");
        }
        return new LinkedHashMap<>((Map<String, Object>) m);
    }

    /** Replaces (or adds) the value at a dotted path of existing mappings. */
    @SuppressWarnings("unchecked")
    static void applyOverride(String file, Map<String, Object> tree, String override) {
        int eq = override.indexOf('=');
        if (eq <= 0) {
            throw new ConfigException("--set expects key.path=value, got '" + override + "'");
        }
        String path = override.substring(0, eq).strip();
        String raw = override.substring(eq + 1).strip();
        Object value;
        try {
            value = YamlLoader.load("--set " + path, raw.isEmpty() ? "''" : raw);
        } catch (ConfigException e) {
            throw new ConfigException("--set " + path + ": not a YAML value: '" + raw + "'");
        }
        String[] keys = path.split("\\.");
        Map<String, Object> node = tree;
        for (int i = 0; i < keys.length - 1; i++) {
            Object next = node.get(keys[i]);
            if (!(next instanceof Map<?, ?>)) {
                throw new ConfigException(file + ": --set " + path + ": " + String.join(".", List.of(keys).subList(0, i + 1))
                        + (next == null ? " does not exist" : " is not a mapping"));
            }
            Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) next);
            node.put(keys[i], copy);
            node = copy;
        }
        node.put(keys[keys.length - 1], value);
    }

    private static Loaded read(ConfigNode root, Path dir) {
        root.allowOnly(TOP);
        String name = root.string("name");
        Scenario.Topology topology = readTopology(root);
        List<Scenario.Host> hosts = topology.isFabric() ? fabricHosts(root.child("topology"), topology.plan())
                : topology.isRing() ? ringHosts(root.child("topology"), topology)
                : readHosts(root);
        if (!topology.isFabric() && !topology.isRing()) {
            readClones(root, hosts);
        }
        MmuConfig mmu = MmuConfigLoader.load(root);
        long duration = root.nanos("duration");
        List<String> schemes = root.has("schemes") ? root.strings("schemes") : List.of("dt");
        if (duration <= 0) {
            throw root.error("duration", "must be above 0, got " + duration + " ns");
        }
        long sample = root.nanos("sample", Math.max(1_000, duration / 500));
        if (sample <= 0 || duration / sample > MAX_SAMPLES) {
            throw root.error("sample", "a sample every " + sample + " ns over " + duration + " ns is too many time-series"
                    + " points (at most " + MAX_SAMPLES + "): give at least " + Math.max(1, duration / MAX_SAMPLES) + " ns");
        }
        long from = 0;
        long to = duration;
        if (root.has("measure")) {
            ConfigNode m = root.child("measure").allowOnly("from", "to");
            from = m.nanos("from", 0);
            to = m.nanos("to", duration);
        }
        int mtu = root.integer("payloadMtu", 1000, 256, 4096);
        DcqcnConfig cc = readCc(root);
        int quanta = 65535;
        if (root.has("pfc")) {
            quanta = root.child("pfc").allowOnly("pauseQuanta", "mode", "headroomQueues").integer("pauseQuanta", 65535, 1,
                    65535);
        }
        List<Path> flowFiles = new ArrayList<>();
        List<Scenario.TrafficSpec> traffic = readTraffic(root, hosts, dir, duration, flowFiles);
        List<Integer> report = new ArrayList<>();
        List<Long> bins = List.of(10_000L, 100_000L, 1_000_000L);
        boolean fctByTraffic = false;
        if (root.has("report")) {
            ConfigNode r = root.child("report").allowOnly("ports", "fctBins", "fctByTraffic", "fctEnd");
            fctByTraffic = r.bool("fctByTraffic", false);
            for (String h : r.strings("ports")) {
                report.add(hostIndex(r, "ports", hosts, h));
            }
            if (r.has("fctBins")) {
                bins = new ArrayList<>();
                for (String b : r.strings("fctBins")) {
                    try {
                        bins.add(org.pfcswitch.config.Units.bytes(b));
                    } catch (IllegalArgumentException e) {
                        throw r.error("fctBins", e.getMessage());
                    }
                }
            }
        }
        try {
            return new Loaded(new Scenario(name, mmu, quanta, hosts, cc, mtu, traffic, duration, from, to, sample,
                    report, bins, root.integer("seed", 1), topology, fctByTraffic, PfcWatchdogLoader.read(root),
                    readDeadlock(root), readModel(root)), schemes, List.copyOf(flowFiles));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(root.file() + ": " + e.getMessage());
        }
    }

    /** The optional {@code topology:} section; without it (or with kind: single) the one switch of {@code hosts:}. */
    private static Scenario.Topology readTopology(ConfigNode root) {
        if (!root.has("topology")) {
            return Scenario.Topology.SINGLE_SWITCH;
        }
        ConfigNode t = root.child("topology");
        String kind = t.string("kind");
        if (kind.equals("single")) {
            t.allowOnly("kind");
            return Scenario.Topology.SINGLE_SWITCH;
        }
        if (kind.equals("ring")) {
            t.allowOnly("kind", "switches", "routes", "hostSpeed", "hostDelay", "fabricSpeed", "fabricDelay");
            if (root.has("hosts")) {
                throw root.error("hosts", "a ring topology makes its own hosts (H0, H1, ...); remove hosts:");
            }
            int n = t.integer("switches", 3, 3, 64);
            String routes = t.string("routes", "shortest");
            if (!routes.equals("oneWay") && !routes.equals("shortest")) {
                throw t.error("routes", "expected oneWay or shortest, got '" + routes + "'");
            }
            long hostSpeed = t.lineRate("hostSpeed");
            long hostDelay = t.nanos("hostDelay");
            return Scenario.Topology.ring(n, routes.equals("oneWay"), t.lineRate("fabricSpeed", hostSpeed),
                    t.nanos("fabricDelay", hostDelay));
        }
        if (!kind.equals("leafSpine") && !kind.equals("clos")) {
            throw t.error("kind", "expected leafSpine, clos, ring or single, got '" + kind + "'");
        }
        if (root.has("hosts")) {
            throw root.error("hosts", "a " + kind + " topology makes its own hosts ("
                    + (kind.equals("clos") ? "T0H0, T0H1" : "L0H0, L0H1") + ", ...); remove hosts:");
        }
        return kind.equals("clos") ? readClos(t) : readLeafSpine(t);
    }

    /** Leaves and spines: hosts L0H0.., every leaf cabled to every spine. */
    private static Scenario.Topology readLeafSpine(ConfigNode t) {
        t.allowOnly("kind", "leaves", "spines", "hostsPerLeaf", "hostSpeed", "hostDelay", "fabricSpeed", "fabricDelay",
                "ecmp", "addresses", "failedLinks");
        int leaves = t.integer("leaves", 2, 1, 64);
        int spines = t.integer("spines", 2, 1, 64);
        int perLeaf = t.integer("hostsPerLeaf", 4, 1, 1024);
        if (leaves * perLeaf < 2) {
            throw t.error("hostsPerLeaf", "a scenario needs at least 2 hosts, got " + leaves * perLeaf);
        }
        long hostSpeed = t.lineRate("hostSpeed");
        long hostDelay = t.nanos("hostDelay");
        long fabricBps = t.lineRate("fabricSpeed", hostSpeed);
        long fabricDelay = t.nanos("fabricDelay", hostDelay);
        List<String> failed = failedLinks(t);
        try {
            return Scenario.Topology.leafSpine(leaves, spines, perLeaf, fabricBps, fabricDelay, failed);
        } catch (IllegalArgumentException e) {
            throw t.error("failedLinks", e.getMessage());
        }
    }

    /** Pods of ToRs and aggregation switches under spines: hosts T0H0.. ({@link FabricPlan#clos}). */
    private static Scenario.Topology readClos(ConfigNode t) {
        t.allowOnly("kind", "pods", "torsPerPod", "aggsPerPod", "spines", "hostsPerTor", "hostSpeed", "hostDelay",
                "torSpeed", "torDelay", "spineSpeed", "spineDelay", "ecmp", "addresses", "failedLinks");
        int pods = t.integer("pods", 2, 1, 64);
        int tors = t.integer("torsPerPod", 2, 1, 64);
        int aggs = t.integer("aggsPerPod", 2, 1, 64);
        int spines = t.integer("spines", pods > 1 ? 2 : 0, pods > 1 ? 1 : 0, 64);
        int perTor = t.integer("hostsPerTor", 4, 1, 1024);
        if (pods * tors * perTor < 2) {
            throw t.error("hostsPerTor", "a scenario needs at least 2 hosts, got " + pods * tors * perTor);
        }
        long hostSpeed = t.lineRate("hostSpeed");
        long hostDelay = t.nanos("hostDelay");
        long torBps = t.lineRate("torSpeed", hostSpeed);
        long torDelay = t.nanos("torDelay", hostDelay);
        List<String> failed = failedLinks(t);
        try {
            return Scenario.Topology.clos(FabricPlan.clos(pods, tors, aggs, spines, perTor, torBps, torDelay,
                    t.lineRate("spineSpeed", torBps), t.nanos("spineDelay", torDelay), failed));
        } catch (IllegalArgumentException e) {
            throw t.error("failedLinks", e.getMessage());
        }
    }

    /** {@code failedLinks: [L0-S1, ...]}: cables by their ends' short names, or none. */
    private static List<String> failedLinks(ConfigNode t) {
        return t.has("failedLinks") ? t.strings("failedLinks") : List.of();
    }

    /** Each host of the fabric by the plan's name, on a link of {@code hostSpeed} and {@code hostDelay}. */
    private static List<Scenario.Host> fabricHosts(ConfigNode t, FabricPlan plan) {
        long speed = t.lineRate("hostSpeed");
        long delay = t.nanos("hostDelay");
        List<Scenario.Host> hosts = new ArrayList<>();
        for (int h = 0; h < plan.hosts(); h++) {
            hosts.add(new Scenario.Host(plan.hostName(h), speed, delay));
        }
        return hosts;
    }

    /** Host i is Hi, on switch i of the ring. */
    private static List<Scenario.Host> ringHosts(ConfigNode t, Scenario.Topology topo) {
        long speed = t.lineRate("hostSpeed");
        long delay = t.nanos("hostDelay");
        List<Scenario.Host> hosts = new ArrayList<>();
        for (int i = 0; i < topo.ringSwitches(); i++) {
            hosts.add(new Scenario.Host("H" + i, speed, delay));
        }
        return hosts;
    }

    /** The optional {@code deadlock: {check: 100us, persist: 1ms}} section, or null (off). */
    private static Scenario.Deadlock readDeadlock(ConfigNode root) {
        if (!root.has("deadlock")) {
            return null;
        }
        ConfigNode d = root.child("deadlock").allowOnly("check", "persist");
        long check = d.nanos("check", 100_000);
        if (check <= 0) {
            throw d.error("check", "must be > 0, got " + check + " ns");
        }
        long persist = d.nanos("persist", 1_000_000);
        if (persist < 0) {
            throw d.error("persist", "must be >= 0, got " + persist + " ns");
        }
        return new Scenario.Deadlock(check, persist);
    }

    private static List<Scenario.Host> readHosts(ConfigNode root) {
        List<Scenario.Host> hosts = new ArrayList<>();
        for (ConfigNode h : root.children("hosts")) {
            h.allowOnly("name", "count", "speed", "delay", "pfc");
            String n = h.string("name");
            long speed = h.lineRate("speed");
            long delay = h.nanos("delay");
            String pfc = h.string("pfc", "obey");
            if (!pfc.equals("obey") && !pfc.equals("ignore")) {
                throw h.error("pfc", "expected obey or ignore, got '" + pfc + "'");
            }
            boolean ignores = pfc.equals("ignore");
            if (h.has("count")) {
                int count = h.integer("count", 1, 1, 4096);
                for (int i = 0; i < count; i++) {
                    hosts.add(new Scenario.Host(n + i, speed, delay, -1, ClonePfc.IGNORE, ignores));
                }
            } else {
                hosts.add(new Scenario.Host(n, speed, delay, -1, ClonePfc.IGNORE, ignores));
            }
        }
        if (hosts.size() < 2) {
            throw root.error("hosts", "needs at least 2 hosts, got " + hosts.size());
        }
        for (int i = 0; i < hosts.size(); i++) {
            for (int j = 0; j < i; j++) {
                if (hosts.get(i).name().equals(hosts.get(j).name())) {
                    throw root.error("hosts", "host name '" + hosts.get(i).name() + "' appears twice");
                }
            }
        }
        return hosts;
    }

    /**
     * The {@code kind: replay} entries first: each makes {@code count} hosts from {@code from} clone
     * ports of host {@code of} (the switch replays its data frames on them, SPFC §VII-B), with a
     * PAUSE to them handled per {@code pfc}. Marks them in {@code hosts}, so that no other traffic
     * can use them as endpoints.
     */
    private static void readClones(ConfigNode root, List<Scenario.Host> hosts) {
        if (!root.has("traffic")) {
            return;
        }
        ConfigNode all = root.child("traffic");
        for (String name : all.keys()) {
            ConfigNode t = all.child(name);
            if (!t.has("kind") || !"replay".equals(t.string("kind"))) {
                continue;
            }
            t.allowOnly("kind", "of", "from", "count", "pfc");
            int src = hostIndex(t, "of", hosts, t.string("of"));
            int first = hostIndex(t, "from", hosts, t.string("from"));
            int count = t.integer("count", 1, 0, 4096);
            if (first + count > hosts.size()) {
                throw t.error("count", count + " clone ports from " + t.string("from") + " run past the last host ("
                        + hosts.getLast().name() + ")");
            }
            String pfc = t.string("pfc", "ignore");
            ClonePfc mode = switch (pfc) {
                case "ignore" -> ClonePfc.IGNORE;
                case "skip" -> ClonePfc.SKIP;
                default -> throw t.error("pfc", "expected ignore or skip, got '" + pfc + "'");
            };
            Scenario.Host source = hosts.get(src);
            if (source.cloneOf() >= 0) {
                throw t.error("of", source.name() + " is itself a clone port; a clone replays a host that sends");
            }
            for (int c = first; c < first + count; c++) {
                Scenario.Host h = hosts.get(c);
                if (c == src) {
                    throw t.error("from", "host " + h.name() + " cannot be a clone port of itself");
                }
                if (h.cloneOf() >= 0) {
                    throw t.error("from", "host " + h.name() + " is already a clone port of "
                            + hosts.get(h.cloneOf()).name());
                }
                if (h.rateBps() != source.rateBps() || h.delayNanos() != source.delayNanos()) {
                    throw t.error("from", "clone port " + h.name() + " needs the link of " + source.name() + " ("
                            + source.rateBps() + " b/s, " + source.delayNanos() + " ns) so that its copies arrive at the"
                            + " same instants; its hosts: entry gives " + h.rateBps() + " b/s, " + h.delayNanos() + " ns");
                }
                hosts.set(c, new Scenario.Host(h.name(), h.rateBps(), h.delayNanos(), src, mode, h.ignoresPfc()));
            }
        }
    }

    /**
     * Model option {@code key} of {@code node}, by the name scenario files give its constants; any
     * other name is an error naming the key and listing {@code expected}.
     */
    private static <E extends Enum<E> & YamlNamed> E option(ConfigNode node, String key, Class<E> type, String expected) {
        E e = YamlNamed.byYamlName(type, node.string(key));
        if (e == null) {
            throw node.error(key, "expected " + expected + ", got '" + node.string(key) + "'");
        }
        return e;
    }

    /**
     * The model choices: the {@code model:} profile, then each option the scenario gives explicitly
     * ({@code pfc.mode}, {@code ecn.at}, {@code cc.cnp}, {@code cc.rateDecreaseInterval}, {@code cc.ackEvery},
     * {@code schemeDefaults}, ...).
     */
    static SimModel readModel(ConfigNode root) {
        String profile = root.string("model", SimModel.PFCSWITCH);
        SwitchModel sw;
        HostModel host;
        HeadroomQueues headroom;
        SchemeDefaults schemeDefaults;
        HostAddresses addresses;
        switch (profile) {
            case SimModel.PFCSWITCH -> {
                addresses = HostAddresses.PFCSWITCH;
                sw = SwitchModel.DEFAULT;
                host = HostModel.DEFAULT;
                headroom = HeadroomQueues.LOSSLESS;
                schemeDefaults = SchemeDefaults.PAPER;
            }
            case SimModel.NS3_DATACENTER -> {
                addresses = HostAddresses.NS3;
                sw = new SwitchModel(PfcPauseMode.UNTIL_RESUME, EcnPoint.AFTER_DEQUEUE, EcmpHash.FIVE_TUPLE, 0, true,
                        Scheduling.ROUND_ROBIN, FrameCost.NS3_PACKET);
                host = new HostModel(PfcPauseMode.UNTIL_RESUME, CnpPolicy.ON_ACK, NS3_RATE_DECREASE_INTERVAL,
                        AckPolicy.PACKET, NS3_ACK_PRIORITY, FctEnd.LAST_ACK);
                headroom = HeadroomQueues.LOSSLESS_AND_QUEUE0;
                schemeDefaults = SchemeDefaults.ARTIFACT;
            }
            default -> throw root.error("model", "expected " + SimModel.PFCSWITCH + " or " + SimModel.NS3_DATACENTER
                    + ", got '" + profile + "'");
        }
        if (root.has("pfc") && root.child("pfc").has("mode")) {
            ConfigNode pfc = root.child("pfc");
            PfcPauseMode mode = option(pfc, "mode", PfcPauseMode.class, "quanta or untilResume");
            sw = sw.withPfc(mode);
            host = host.withPfc(mode);
        }
        if (root.has("pfc") && root.child("pfc").has("headroomQueues")) {
            ConfigNode pfc = root.child("pfc");
            headroom = option(pfc, "headroomQueues", HeadroomQueues.class, "lossless or losslessAndQueue0");
        }
        if (root.has("frameCost")) {
            sw = sw.withFrameCost(option(root, "frameCost", FrameCost.class, "ethernet or ns3Packet"));
        }
        if (root.has("schemeDefaults")) {
            schemeDefaults = option(root, "schemeDefaults", SchemeDefaults.class, "paper or artifact");
        }
        if (root.has("ecn")) {
            ConfigNode ecn = root.child("ecn").allowOnly("at");
            sw = sw.withEcnAt(option(ecn, "at", EcnPoint.class, "enqueue, dequeue or afterDequeue"));
        }
        if (root.has("scheduler")) {
            sw = sw.withScheduling(option(root, "scheduler", Scheduling.class, "strict or roundRobin"));
        }
        if (root.has("topology") && root.child("topology").has("ecmp")) {
            ConfigNode e = root.child("topology").child("ecmp").allowOnly("hash", "seed");
            EcmpHash hash = sw.ecmpHash();
            if (e.has("hash")) {
                hash = option(e, "hash", EcmpHash.class, "flow or fiveTuple");
            }
            int seed = sw.ecmpSeed();
            boolean perSwitch = sw.seedPerSwitch();
            if (e.has("seed")) {
                perSwitch = "perSwitch".equals(e.string("seed"));
                seed = perSwitch ? 0 : e.integer("seed", 0, Integer.MIN_VALUE, Integer.MAX_VALUE);
            }
            sw = sw.withEcmp(hash, seed, perSwitch);
        }
        if (root.has("topology") && root.child("topology").has("addresses")) {
            addresses = option(root.child("topology"), "addresses", HostAddresses.class,
                    "pfcswitch (10.0.0.1 + i) or ns3 (ns-3's 11.0.i.1)");
        }
        if (root.has("cc")) {
            ConfigNode cc = root.child("cc");
            if (cc.has("cnp")) {
                host = host.withCnp(option(cc, "cnp", CnpPolicy.class, "perInterval, perMarkedPacket or onAck"));
            }
            if (cc.has("rateDecreaseInterval")) {
                long ns = cc.nanos("rateDecreaseInterval");
                if (ns < 0) {
                    throw cc.error("rateDecreaseInterval", "must be >= 0 (0 = a rate cut per CNP), got " + ns + " ns");
                }
                host = host.withRateDecreaseInterval(ns);
            }
            if (cc.has("ackEvery")) {
                host = host.withAck(option(cc, "ackEvery", AckPolicy.class, "message or packet"));
            }
            if (cc.has("controlPriority")) {
                host = host.withControlPriority(cc.integer("controlPriority", HostModel.CONTROL_PRIORITY, 0, 7));
            }
        }
        if (root.has("report") && root.child("report").has("fctEnd")) {
            host = host.withFctEnd(option(root.child("report"), "fctEnd", FctEnd.class,
                    "lastByte (at the receiver) or lastAck (at the sender, as ns-3)"));
        }
        return new SimModel(profile, sw, host, headroom, schemeDefaults, addresses);
    }

    /** The queue ns-3's hosts and switches put ACKs in without ACK_HIGH_PRIO (the Reverie configs): the data's, 3. */
    private static final int NS3_ACK_PRIORITY = 3;

    /** ns-3.39 rdma-hw's RateDecreaseInterval default (4 us), which the Reverie configs keep. */
    private static final long NS3_RATE_DECREASE_INTERVAL = 4_000;

    private static DcqcnConfig readCc(ConfigNode root) {
        if (!root.has("cc")) {
            return DcqcnConfig.defaults();
        }
        ConfigNode cc = root.child("cc").allowOnly("mode", "g", "alphaInterval", "timer", "byteCounter",
                "fastRecovery", "ai", "hai", "minRate", "cnpInterval", "initialAlpha", "cnp", "rateDecreaseInterval",
                "ackEvery", "controlPriority");
        String mode = cc.string("mode", "dcqcn");
        if (mode.equals("none")) {
            return DcqcnConfig.none();
        }
        if (!mode.equals("dcqcn")) {
            throw cc.error("mode", "expected dcqcn or none, got '" + mode + "'");
        }
        DcqcnConfig d = DcqcnConfig.defaults();
        try {
            return new DcqcnConfig(true, cc.number("g", d.g()), cc.nanos("alphaInterval", d.alphaIntervalNanos()),
                    cc.nanos("timer", d.timerNanos()), cc.bytes("byteCounter", d.byteCounterBytes()),
                    cc.integer("fastRecovery", d.fastRecoverySteps(), 0, 1000),
                    cc.bitsPerSecond("ai", d.aiBpsPer25G()), cc.bitsPerSecond("hai", d.haiBpsPer25G()),
                    cc.bitsPerSecond("minRate", d.minRateBps()), cc.number("initialAlpha", d.initialAlpha()),
                    cc.nanos("cnpInterval", d.cnpIntervalNanos()));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(root.file() + ": cc: " + e.getMessage());
        }
    }

    private static List<Scenario.TrafficSpec> readTraffic(ConfigNode root, List<Scenario.Host> hosts, Path dir,
                                                          long duration, List<Path> flowFiles) {
        List<Scenario.TrafficSpec> out = new ArrayList<>();
        ConfigNode all = root.child("traffic");
        for (String name : all.keys()) {
            ConfigNode t = all.child(name);
            String kind = t.string("kind");
            int priority = t.integer("priority", 3, 0, 7);
            switch (kind) {
                case "flow" -> {
                    t.allowOnly("kind", "from", "to", "bytes", "start", "priority");
                    int src = hostIndex(t, "from", hosts, t.string("from"));
                    int dst = hostIndex(t, "to", hosts, t.string("to"));
                    long bytes = "forever".equals(t.string("bytes")) ? FOREVER : t.bytes("bytes");
                    long start = t.nanos("start", 0);
                    distinct(t, src, dst);
                    notClone(t, "from", hosts, src);
                    notClone(t, "to", hosts, dst);
                    out.add(spec(name, () -> new LongLivedFlow(name, src, dst, priority, bytes, start)));
                }
                case "flows" -> {
                    t.allowOnly("kind", "file", "priority");
                    Path file = dir.resolve(t.string("file")).normalize();
                    FlowList list;
                    try {
                        list = FlowListReader.read(file, endpoints(hosts), priority);
                    } catch (IllegalArgumentException e) {
                        throw t.error("file", e.getMessage());
                    }
                    flowFiles.add(file);
                    out.add(spec(name, () -> new FlowListTraffic(name, list)));
                }
                case "incast" -> {
                    t.allowOnly("kind", "from", "count", "to", "bytes", "start", "repeatUntil", "priority");
                    int[] senders = hosts(t, "from", hosts);
                    int dst = hostIndex(t, "to", hosts, t.string("to"));
                    for (int s : senders) {
                        distinct(t, s, dst);
                        notClone(t, "from", hosts, s);
                    }
                    notClone(t, "to", hosts, dst);
                    long bytes = t.bytes("bytes");
                    long start = t.nanos("start", 0);
                    long until = t.nanos("repeatUntil", 0);
                    out.add(spec(name, () -> new Incast(name, senders, dst, priority, bytes, start, until), until > start));
                }
                case "poisson" -> {
                    t.allowOnly("kind", "from", "count", "to", "cdf", "load", "start", "stop", "priority", "synchronized",
                            "arrivals", "sigma");
                    boolean sync = t.bool("synchronized", false);
                    InterArrivals gaps = interArrivals(t);
                    if (sync && gaps != InterArrivals.POISSON) {
                        throw t.error("arrivals", "a synchronized group's arrivals are poisson only");
                    }
                    int[] senders = hosts(t, "from", hosts);
                    int[] receivers = hostList(t, "to", hosts);
                    for (int h : senders) {
                        notClone(t, "from", hosts, h);
                    }
                    for (int h : receivers) {
                        notClone(t, "to", hosts, h);
                    }
                    if (sync) {
                        for (int r : receivers) {
                            for (int s : senders) {
                                if (r == s) {
                                    throw t.error("to", "a synchronized group's receivers must not be among its senders, got "
                                            + hosts.get(r).name() + " in both");
                                }
                            }
                        }
                    }
                    FlowSizeCdf cdf;
                    try {
                        cdf = FlowSizeCdf.load(dir.resolve(t.string("cdf")).normalize());
                    } catch (IllegalArgumentException e) {
                        throw t.error("cdf", e.getMessage());
                    }
                    double load = t.number("load");
                    if (!(load > 0 && load <= 1)) {
                        throw t.error("load", sync
                                ? "expected a fraction of the receivers' combined line rate in (0, 1], got " + load
                                : "expected a fraction of the line rate in (0, 1], got " + load);
                    }
                    long start = t.nanos("start", 0);
                    long stop = t.nanos("stop", duration);
                    if (stop <= start) {
                        throw t.error("stop", "must be after start");
                    }
                    out.add(spec(name, sync
                            ? () -> new SynchronizedPoissonFlows(name, senders, receivers, priority, cdf, load, start, stop)
                            : () -> new PoissonFlows(name, senders, receivers, priority, cdf, load, start, stop, gaps)));
                }
                case "incastLoad" -> {
                    t.allowOnly("kind", "from", "count", "to", "fanIn", "bytes", "load", "start", "stop", "priority",
                            "arrivals", "sigma");
                    int[] senders = hosts(t, "from", hosts);
                    int[] receivers = hostList(t, "to", hosts);
                    for (int h : senders) {
                        notClone(t, "from", hosts, h);
                    }
                    for (int h : receivers) {
                        notClone(t, "to", hosts, h);
                    }
                    int fanIn = t.integer("fanIn", 16, 1, 4096);
                    long bytes = t.bytes("bytes");
                    double load = t.number("load");
                    if (!(load > 0 && load <= 1)) {
                        throw t.error("load", "expected a fraction of the senders' combined line rate in (0, 1], got " + load);
                    }
                    long start = t.nanos("start", 0);
                    long stop = t.nanos("stop", duration);
                    if (stop <= start) {
                        throw t.error("stop", "must be after start");
                    }
                    InterArrivals gaps = interArrivals(t);
                    for (int r : receivers) {
                        long others = java.util.Arrays.stream(senders).filter(x -> x != r).count();
                        if (others < fanIn) {
                            throw t.error("fanIn", fanIn + " senders per incast, but only " + others + " of from: are"
                                    + " not receiver " + hosts.get(r).name());
                        }
                    }
                    out.add(spec(name, () -> new IncastLoad(name, senders, receivers, fanIn, priority, bytes, load, start,
                            stop, gaps)));
                }
                case "replay" -> {                      // the clone ports were set up by readClones
                    int first = hostIndex(t, "from", hosts, t.string("from"));
                    int[] clones = new int[t.integer("count", 1, 0, 4096)];
                    for (int i = 0; i < clones.length; i++) {
                        clones[i] = first + i;
                        if (first + i >= hosts.size() || hosts.get(first + i).cloneOf() < 0) {
                            throw t.error("kind", "clone ports (kind: replay) exist on a single switch only");
                        }
                    }
                    out.add(spec(name, () -> new Replay(name, clones)));
                }
                case "pfcStorm" -> {
                    t.allowOnly("kind", "from", "priority", "priorities", "quanta", "start", "stop", "every");
                    int src = hostIndex(t, "from", hosts, t.string("from"));
                    notClone(t, "from", hosts, src);
                    int mask = 0;
                    if (t.has("priorities")) {
                        for (int p : t.integers("priorities", 0, 7)) {
                            mask |= 1 << p;
                        }
                    } else {
                        mask = 1 << priority;
                    }
                    int quanta = t.integer("quanta", 65535, 1, 65535);
                    long start = t.nanos("start", 0);
                    long stop = t.nanos("stop", duration);
                    long every = t.nanos("every", 10_000);
                    if (every <= 0) {
                        throw t.error("every", "must be > 0");
                    }
                    if (stop <= start) {
                        throw t.error("stop", "must be after start");
                    }
                    int classEnable = mask;
                    out.add(spec(name, () -> new PfcStorm(name, src, classEnable, quanta, start, stop, every)));
                }
                default -> throw t.error("kind", "expected flow, flows, incast, incastLoad, poisson, replay or pfcStorm, got '"
                        + kind + "'");
            }
        }
        if (out.isEmpty()) {
            throw root.error("traffic", "defines no traffic");
        }
        return out;
    }

    /** {@code arrivals: poisson} (the default) or {@code logNormal} with {@code sigma} (default 2, BFC's). */
    private static InterArrivals interArrivals(ConfigNode t) {
        String arrivals = t.string("arrivals", "poisson");
        switch (arrivals) {
            case "poisson" -> {
                if (t.has("sigma")) {
                    throw t.error("sigma", "applies to arrivals: logNormal only");
                }
                return InterArrivals.POISSON;
            }
            case "logNormal" -> {
                double sigma = t.number("sigma", 2);
                if (!(sigma > 0 && sigma <= 10)) {
                    throw t.error("sigma", "expected a log-normal shape in (0, 10], got " + sigma);
                }
                return InterArrivals.logNormal(sigma);
            }
            default -> throw t.error("arrivals", "expected poisson or logNormal, got '" + arrivals + "'");
        }
    }

    /** Host tokens of a flow list: names or indices of hosts that may send and receive flows (no clone ports). */
    public static FlowListReader.HostResolver endpoints(List<Scenario.Host> hosts) {
        return FlowListReader.byName(hosts.stream().map(Scenario.Host::name).toList(), h -> hosts.get(h).cloneOf() < 0,
                h -> "host " + hosts.get(h).name() + " is a clone port of " + hosts.get(hosts.get(h).cloneOf()).name()
                        + "; it sends only copies of that host's frames and receives no flows");
    }

    private static void notClone(ConfigNode t, String key, List<Scenario.Host> hosts, int h) {
        Scenario.Host host = hosts.get(h);
        if (host.cloneOf() >= 0) {
            throw t.error(key, "host " + host.name() + " is a clone port of " + hosts.get(host.cloneOf()).name()
                    + "; it sends only copies of that host's frames and receives no flows (use kind: replay to report them)");
        }
    }

    private static void distinct(ConfigNode t, int src, int dst) {
        if (src == dst) {
            throw t.error("to", "a flow's receiver must differ from its sender");
        }
    }

    private interface Maker {
        Traffic make();
    }

    private static Scenario.TrafficSpec spec(String name, Maker maker) {
        return spec(name, maker, false);
    }

    private static Scenario.TrafficSpec spec(String name, Maker maker, boolean addsFlowsAsItRuns) {
        return new Scenario.TrafficSpec() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public Traffic create() {
                return maker.make();
            }

            @Override
            public boolean addsFlowsAsItRuns() {
                return addsFlowsAsItRuns;
            }
        };
    }

    /** {@code key} as a selector with an optional {@code count} (consecutive hosts from one name). */
    private static int[] hosts(ConfigNode t, String key, List<Scenario.Host> hosts) {
        if (!t.has("count")) {
            return hostList(t, key, hosts);
        }
        int first = hostIndex(t, key, hosts, t.string(key));
        int count = t.integer("count", 1, 1, 4096);
        if (first + count > hosts.size()) {
            throw t.error("count", count + " hosts from " + t.string(key) + " run past the last host ("
                    + hosts.getLast().name() + ")");
        }
        int[] out = new int[count];
        for (int i = 0; i < count; i++) {
            out[i] = first + i;
        }
        return out;
    }

    private static int[] hostList(ConfigNode t, String key, List<Scenario.Host> hosts) {
        List<String> names = t.isList(key) ? t.strings(key) : List.of(t.string(key));
        if (names.equals(List.of("all"))) {            // every host but clone ports
            return java.util.stream.IntStream.range(0, hosts.size()).filter(i -> hosts.get(i).cloneOf() < 0).toArray();
        }
        int[] out = new int[names.size()];
        for (int i = 0; i < out.length; i++) {
            out[i] = hostIndex(t, key, hosts, names.get(i));
        }
        return out;
    }

    private static int hostIndex(ConfigNode t, String key, List<Scenario.Host> hosts, String name) {
        for (int i = 0; i < hosts.size(); i++) {
            if (hosts.get(i).name().equals(name)) {
                return i;
            }
        }
        throw t.error(key, "no host named '" + name + "' (hosts: " + hosts.getFirst().name() + " .. "
                + hosts.getLast().name() + ")");
    }
}

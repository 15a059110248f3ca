package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.LineRate;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchModel;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;
import org.pfcswitch.mmu.UpstreamPausing;
import org.pfcswitch.testbed.topology.FabricPlan;

/**
 * A virtual-time testbed: one switch with N emulated RoCEv2 hosts, host i on switch port i over
 * a full-duplex link of its own rate and propagation delay (which is also the MMU's cable delay
 * for that port, so headroom formulas see the real cable); or a leaf-spine fabric of such
 * switches ({@link #leafSpine}). Flows are added, then the run
 * advances with {@link #runUntil}. Everything random comes from one seeded generator, so a
 * testbed built and run twice the same way produces the same events in the same order.
 *
 * <pre>
 *   Testbed tb = Testbed.singleSwitch(4).links(100_000_000_000L, 1_000).seed(1).build();
 *   int f = tb.addFlow(0, 3, 3, 1 << 20, 0);      // 1 MiB WRITE from host 0 to host 3 on priority 3
 *   tb.runUntil(1_000_000);
 *   tb.records().completed(f);
 * </pre>
 *
 * <p>A leaf-spine has L leaves and S spines, every leaf cabled to every spine; host
 * {@code l × H + j} sits on leaf l's port j (H hosts per leaf), and leaf l's port {@code H + s}
 * goes to spine s, whose port l comes back. Forwarding is static (no learning, no flooding):
 * a leaf has a static entry for each of its hosts and, for each remote host, an ECMP group
 * over its S uplinks, so flows spread over the spines by flow hash while each flow keeps one
 * path; a spine has a static entry per host towards its leaf. Switch i is leaf i for
 * i &lt; L, then spine i - L. Every switch gets the same MMU settings, each with its own ports.
 * A leaf-spine is one case of {@link #fabric}: any {@link FabricPlan} (a three-tier Clos, failed
 * cables), each switch with a static entry per host it has one next hop to and an ECMP group
 * where the plan's shortest paths give several.
 *
 * <p>On one switch a host may be a clone port of another ({@link Builder#cloneOf}): it replays
 * the other's data frames at the same instants, as the SPFC testbed's virtual ports do.
 */
public final class Testbed implements Hosts, AutoCloseable {

    private final EventLoop loop;
    /** Frame memory, one slab per partition of the event loop. */
    private final HeapSlab[] slabs;
    /** The FCT ends when the last ACK is back at the sender ({@link FctEnd#LAST_ACK}): the ideal adds its way back. */
    private final boolean ackReturns;
    private final FlowRecords records;
    private final SwitchNode[] switches;
    /** Per host: the switch it is cabled to and the port there. */
    private final int[] hostSwitch;
    private final int[] hostPort;
    private final Fabric fabric;
    /** The cabling and routes of a leaf-spine or Clos, else null. */
    private FabricPlan plan;
    private final RoceHost[] hosts;
    private final int[] hostNode;
    private final SplittableRandom random;
    private final int payloadMtu;
    private final FlowTable table;
    private final FlowListeners listeners;
    private final DcqcnConfig dcqcn;
    private final long[] delayNanos;
    /** {@link HostModel#rateDecreaseIntervalNanos} of every sender's reaction point. */
    private final long rateDecreaseIntervalNanos;
    /** Per switch and port: the switch at the far end and its port there, or -1 for a host. */
    private int[][] peerSwitch;
    private int[][] peerPort;

    /**
     * The switches: one ({@link #SINGLE}), a ring, a leaf-spine of {@code leaves × spines} (its
     * cabling made into a {@link FabricPlan} at build time, when the fabric links are known), or a
     * given {@code plan}.
     */
    private record Fabric(int leaves, int spines, int hostsPerLeaf, long bps, long delayNanos, int ring,
                          boolean ringOneWay, FabricPlan plan) {
        static final Fabric SINGLE = new Fabric(0, 0, 0, 0, 0, 0, false, null);

        boolean isRing() {
            return ring > 0;
        }

        boolean isLeafSpine() {
            return hostsPerLeaf > 0;
        }
    }

    private Testbed(EventLoop loop, HeapSlab[] slabs, FlowRecords records, SwitchNode[] switches, int[] hostSwitch,
                    int[] hostPort, Fabric fabric, RoceHost[] hosts,
                    int[] hostNode, SplittableRandom random, int payloadMtu, FlowTable table, FlowListeners listeners,
                    DcqcnConfig dcqcn, long[] delayNanos, HostModel hostModel) {
        this.loop = loop;
        this.rateDecreaseIntervalNanos = hostModel.rateDecreaseIntervalNanos();
        this.slabs = slabs;
        this.records = records;
        records.fctEnd(hostModel.fctEnd());
        this.ackReturns = hostModel.fctEnd() == FctEnd.LAST_ACK;
        this.switches = switches;
        this.hostSwitch = hostSwitch;
        this.hostPort = hostPort;
        this.fabric = fabric;
        this.hosts = hosts;
        this.hostNode = hostNode;
        this.random = random;
        this.payloadMtu = payloadMtu;
        this.table = table;
        this.listeners = listeners;
        this.dcqcn = dcqcn;
        this.delayNanos = delayNanos;
    }

    public static Builder singleSwitch(int hosts) {
        return new Builder(hosts, Fabric.SINGLE);
    }

    /**
     * A leaf-spine of {@code leaves} leaves and {@code spines} spines with {@code hostsPerLeaf}
     * hosts on each leaf; fabric links default to 100 Gb/s, 1 µs ({@link Builder#fabricLinks}).
     */
    public static Builder leafSpine(int leaves, int spines, int hostsPerLeaf) {
        if (leaves < 1 || spines < 1 || hostsPerLeaf < 1) {
            throw new IllegalArgumentException("a leaf-spine needs >= 1 leaf, spine and host per leaf, got " + leaves
                    + " leaves, " + spines + " spines, " + hostsPerLeaf + " hosts per leaf");
        }
        return new Builder(leaves * hostsPerLeaf, new Fabric(leaves, spines, hostsPerLeaf, 100_000_000_000L, 1_000, 0,
                false, null));
    }

    /**
     * The switches, cables and routes of {@code plan} (a leaf-spine or Clos with failed links, see
     * {@link FabricPlan}); host i is the plan's host i, its link set by {@link Builder#link}.
     */
    public static Builder fabric(FabricPlan plan) {
        return new Builder(plan.hosts(), new Fabric(0, 0, 0, 0, 0, 0, false, plan));
    }

    /**
     * A ring of {@code switches} switches (>= 3), one host each: host i on switch i's port 0; switch
     * i's port 1 goes clockwise to switch i + 1's port 2 (mod n). With {@code oneWay} every switch
     * forwards every remote host clockwise (port 1), so a flow to the host two switches on crosses
     * a transit switch and lossless loads around the ring form a cyclic buffer dependency (the
     * classic PFC deadlock); without it each host is reached the shorter way (ties clockwise).
     * Ring links default to 100 Gb/s, 1 µs ({@link Builder#fabricLinks}).
     */
    public static Builder ring(int switches, boolean oneWay) {
        if (switches < 3) {
            throw new IllegalArgumentException("a ring needs >= 3 switches, got " + switches);
        }
        return new Builder(switches, new Fabric(0, 0, 0, 100_000_000_000L, 1_000, switches, oneWay, null));
    }

    /**
     * Adds an RDMA WRITE flow of {@code bytes} from host {@code src} to host {@code dst} on
     * {@code priority} (carried as DSCP {@code 8 × priority}, which the default class-selector map
     * classifies back to it), starting at {@code startNanos} (not before now: generators may add
     * flows while the run is under way); returns its id (also its QP number).
     */
    @Override
    public int addFlow(int src, int dst, int priority, long bytes, long startNanos, int udpSrcPort) {
        if (src == dst || bytes <= 0) {
            throw new IllegalArgumentException("a flow needs two different hosts and > 0 bytes, got " + src + " -> "
                    + dst + ", " + bytes + " B");
        }
        if (loop.inParallelWindow()) {
            throw new IllegalStateException("a traffic that adds flows as the run goes (an incast with repeatUntil)"
                    + " runs on one thread only; this run has " + loop.partitions() + " partitions (sim --threads)");
        }
        RoceHost from = hosts[src];
        RoceHost to = hosts[dst];
        if (from.cloneSource() >= 0 || to.cloneSource() >= 0) {
            throw new IllegalArgumentException("flow " + src + " -> " + dst + ": host " + (from.cloneSource() >= 0 ? src : dst)
                    + " is a clone port; it only replays host " + Math.max(from.cloneSource(), to.cloneSource()));
        }
        Dcqcn cc = dcqcn.enabled() ? Dcqcn.create(dcqcn, rateDecreaseIntervalNanos, from.rateBps()) : null;
        Flow f = newFlow(from, to, priority, bytes, cc, udpSrcPort);
        long ideal;
        long propagation;
        if (plan != null) {
            propagation = pathDelayNanos(src, dst);
            ideal = idealNanos(f, pathRates(src, dst), propagation);
        } else if (hostSwitch[src] == hostSwitch[dst]) {
            propagation = delayNanos[src] + delayNanos[dst];
            ideal = idealNanos(f, from.rateBps(), to.rateBps(), propagation);
        } else {                           // a ring: counted as two ring links, whatever the hops
            propagation = delayNanos[src] + delayNanos[dst] + 2 * fabric.delayNanos();
            ideal = idealNanos(f, new long[] {from.rateBps(), to.rateBps(), fabric.bps(), fabric.bps()}, propagation);
        }
        if (ackReturns) {
            ideal += propagation;          // the FCT ends at the sender: the last ACK's way back (its serialization aside)
        }
        int id = records.add(bytes, startNanos, src, dst, ideal);
        table.add(f);
        listeners.onFlowAdded(id);
        int clones = from.cloneCount();
        if (clones > 0) {                  // its copies: ids right after it, no start event (the source drives them)
            f.shadows = new Flow[clones];
            for (int k = 0; k < clones; k++) {
                RoceHost c = from.clone(k);
                Flow shadow = newFlow(c, to, priority, bytes, null, udpSrcPort);
                shadow.start();
                f.shadows[k] = shadow;
                records.add(bytes, startNanos, c.index(), dst, ideal);
                table.add(shadow);
                listeners.onFlowAdded(shadow.id);
            }
        }
        loop.schedule(startNanos, hostNode[src], EventLoop.FLOW_START, 0, id);
        return id;
    }

    /** A flow with the next id (also its QP number) from {@code from} to {@code to}. */
    private Flow newFlow(RoceHost from, RoceHost to, int priority, long bytes, Dcqcn cc, int udpSrcPort) {
        return newFlow(records.count(), from, to, priority, bytes, payloadMtu, cc, udpSrcPort);
    }

    /**
     * Flow {@code id} from {@code from} to {@code to}: its frame template (MACs, IPs, DSCP 8 × priority,
     * QP, UDP source port {@code udpSrcPort} or, for {@link FlowList#DEFAULT_PORT}, 49152 + id mod 16384).
     */
    static Flow newFlow(int id, RoceHost from, RoceHost to, int priority, long bytes, int payloadMtu, Dcqcn cc,
                        int udpSrcPort) {
        int sport = udpSrcPort != FlowList.DEFAULT_PORT ? udpSrcPort : 49152 + (id & 0x3FFF);
        RoceFrameBuilder template = new RoceFrameBuilder().macs(to.mac(), from.mac()).ips(from.ip(), to.ip())
                .dscp(priority * 8).udpSrcPort(sport);
        if (from.bfcNic()) {
            template.bfcUpstreamQueue(RoceHost.nicQueue(id));
        }
        return new Flow(id, from.index(), to.index(), priority, bytes, payloadMtu, template.destQp(id), cc, sport);
    }

    /** The flow alone on the idle network through one switch: see {@link #idealNanos(Flow, long[], long)}. */
    static long idealNanos(Flow f, long srcBps, long dstBps, long propagation) {
        return idealNanos(f, new long[] {srcBps, dstBps}, propagation);
    }

    /**
     * The flow alone on the idle network along links of {@code rates}: every frame through the
     * slowest link, plus the propagation delays, plus the last frame's store-and-forward time on
     * every other link.
     */
    static long idealNanos(Flow f, long[] rates, long propagation) {
        long frames = f.packets();
        int fullFrame = f.payloadMtu + FRAME_OVERHEAD_BYTES;
        long wireBytes = f.sizeBytes + frames * (FRAME_OVERHEAD_BYTES + LineRate.WIRE_OVERHEAD_BYTES);
        long bottleneck = Long.MAX_VALUE;
        long storeAndForward = 0;
        for (long r : rates) {
            bottleneck = Math.min(bottleneck, r);
            storeAndForward += LineRate.nanos(fullFrame, r);
        }
        long serialization = (wireBytes * 8 * 1_000_000_000L + bottleneck - 1) / bottleneck;
        return serialization + propagation + storeAndForward - LineRate.nanos(fullFrame, bottleneck);
    }

    /** The line rates from host {@code src} to host {@code dst} along the first of the plan's routes. */
    private long[] pathRates(int src, int dst) {
        long[] rates = new long[2 + pathSwitchLinks(src, dst)];
        rates[0] = hosts[src].rateBps();
        rates[1] = hosts[dst].rateBps();
        int sw = hostSwitch[src];
        for (int i = 2; i < rates.length; i++) {
            int port = plan.firstHop(sw, dst);
            rates[i] = plan.linkBps(sw, port);
            sw = plan.peerSwitch(sw, port);
        }
        return rates;
    }

    private int pathSwitchLinks(int src, int dst) {
        int hops = 0;
        for (int sw = hostSwitch[src]; sw != hostSwitch[dst]; hops++) {
            sw = plan.peerSwitch(sw, plan.firstHop(sw, dst));
        }
        return hops;
    }

    private long pathDelayNanos(int src, int dst) {
        long delay = delayNanos[src] + delayNanos[dst];
        for (int sw = hostSwitch[src]; sw != hostSwitch[dst]; ) {
            int port = plan.firstHop(sw, dst);
            delay += plan.linkDelayNanos(sw, port);
            sw = plan.peerSwitch(sw, port);
        }
        return delay;
    }

    /** Ethernet, IPv4, UDP, BTH and ICRC around each RDMA WRITE payload (RETH on a message's first packet not counted). */
    private static final int FRAME_OVERHEAD_BYTES = 14 + 20 + 8 + 12 + 4;

    @Override
    public void addListener(FlowListener l) {
        listeners.add(l);
    }

    public void runUntil(long nanos) {
        loop.runUntil(nanos);
    }

    public long now() { return loop.now(); }
    public EventLoop loop() { return loop; }
    /** Switch 0: the only one of a single-switch testbed, leaf 0 of a leaf-spine. */
    public SwitchCore core() { return switches[0].core(); }
    /** Switch {@code i}: leaves first, then spines. */
    public SwitchCore core(int i) { return switches[i].core(); }
    public int switches() { return switches.length; }
    /**
     * Tells {@code observer} after every event switch {@code sw} handles from now on (null: stop);
     * for traces ({@link SwitchObserver}).
     */
    /**
     * Records every frame arriving at switch {@code sw} from now on into {@code writer} (the format
     * of {@code run --record}, so {@code sim --replay} can run it open-loop through any scheme); the
     * caller closes the writer. An I/O error ends the run with an {@link java.io.UncheckedIOException}.
     */
    public void recordArrivals(int sw, org.pfcswitch.core.record.ArrivalWriter writer) {
        switches[sw].tap((port, handle, now) -> {
            try {
                HeapSlab slab = slabs[0];                 // one switch: one partition
                writer.write(now, port, slab.length(handle), slab.bytes(), slab.offset(handle));
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException("cannot write the arrival record: " + e.getMessage(), e);
            }
        });
    }

    /**
     * The arrival-record header of switch {@code sw}: its ports' line rates and the MACs of the hosts
     * cabled to it (a replay's forwarding table).
     */
    public org.pfcswitch.core.record.ArrivalHeader arrivalHeader(int sw) {
        SwitchCore core = switches[sw].core();
        long[] speeds = new long[core.ports()];
        for (int p = 0; p < speeds.length; p++) {
            speeds[p] = core.speedBps(p);
        }
        java.util.Map<Long, Integer> macs = new java.util.LinkedHashMap<>();
        for (int h = 0; h < hosts.length; h++) {
            if (hostSwitch[h] == sw) {
                macs.put(hosts[h].mac(), hostPort[h]);
            }
        }
        return new org.pfcswitch.core.record.ArrivalHeader(speeds, macs);
    }

    public void observeSwitch(int sw, SwitchObserver observer) {
        switches[sw].observe(observer);
    }
    /** The switch at the far end of switch {@code sw}'s {@code port}, or -1 when a host is there. */
    public int peerSwitch(int sw, int port) {
        return peerSwitch == null ? -1 : peerSwitch[sw][port];
    }
    /** The port of {@link #peerSwitch} that switch {@code sw}'s {@code port} is cabled to, or -1. */
    public int peerPort(int sw, int port) {
        return peerPort == null ? -1 : peerPort[sw][port];
    }
    /** Registers a node of the caller's with the event loop (periodic observers such as {@link DeadlockDetector}). */
    int register(Node n) {
        return loop.register(n);
    }

    /** The switch host {@code h} is cabled to. */
    public SwitchCore coreOf(int host) { return switches[hostSwitch[host]].core(); }
    /** The port of {@link #coreOf} host {@code h} is cabled to. */
    public int portOf(int host) { return hostPort[host]; }
    /** Whether {@code port} of switch {@code sw} goes to a host (else to another switch). */
    public boolean isHostPort(int sw, int port) {
        if (fabric.isRing()) {
            return port == 0;
        }
        return plan == null || plan.hostAt(sw, port) >= 0;
    }
    @Override
    public RoceHost host(int i) { return hosts[i]; }

    /**
     * Fault injection: the wire from host {@code host}'s switch to the host loses every frame
     * {@code loss} picks from now on (the frame leaves the switch and never arrives).
     *
     * @return the wire, whose {@link Wire#framesLost} counts them
     */
    public Wire loseFramesTowards(int host, FrameLoss loss) {
        Wire w = switches[hostSwitch[host]].wire(hostPort[host]);
        w.loseFrames(loss, slabs[loop.threadOf(partitionOf(hostSwitch[host], loop.partitions()))]);
        return w;
    }
    /** The event-loop node of host {@code i} (tests deliver frames to it directly). */
    int nodeOf(int host) { return hostNode[host]; }
    @Override
    public int hosts() { return hosts.length; }
    @Override
    public FlowRecords records() { return records; }
    /** The frame slab of the first partition: the only one on one thread. */
    public HeapSlab slab() { return slabs[0]; }

    /** Frames held now, in every partition's slab. */
    public int framesInUse() {
        int n = 0;
        for (HeapSlab s : slabs) {
            n += s.inUse();
        }
        return n;
    }

    /** The frame memory taken so far: every partition's {@link HeapSlab#peakFrameBytes}. */
    public long peakFrameBytes() {
        long bytes = 0;
        for (HeapSlab s : slabs) {
            bytes += s.peakFrameBytes();
        }
        return bytes;
    }

    /** Gives the frames' memory back now and stops the partitions' threads; the testbed must not run afterwards. */
    @Override
    public void close() {
        loop.close();
        for (HeapSlab s : slabs) {
            s.close();
        }
    }

    /**
     * The shortest link between switches for a partition per switch: a window lasts less than it,
     * and shorter windows would hold too few events to pay for their barrier and hand-over.
     */
    static final long MIN_PARTITION_LOOKAHEAD_NANOS = 100;

    /** The partition of switch {@code sw} among {@code partitions}: switches dealt out in turn, each with its hosts. */
    static int partitionOf(int sw, int partitions) {
        return sw % partitions;
    }

    /** The slab's slot for frames of {@code payloadMtu}: headers, RETH, ICRC, a VLAN tag and a BFC shim at most. */
    static int slotBytes(int payloadMtu) {
        return payloadMtu + 96;
    }
    /** The run's seeded generator, for traffic generators: draw from it, never from a clock. */
    public SplittableRandom random() { return random; }
    public DcqcnConfig dcqcn() { return dcqcn; }
    public int payloadMtu() { return payloadMtu; }
    public long linkDelayNanos(int host) { return delayNanos[host]; }

    public static final class Builder {
        private final int hostCount;
        private Fabric fabric;
        private final long[] rateBps;
        private final long[] delayNanos;
        private MmuConfig.Builder mmu = MmuConfig.builder();
        private Consumer<CoreConfig.Builder> coreSettings = b -> {};
        private HostAddresses hostAddresses = HostAddresses.PFCSWITCH;
        private long seed = 1;
        private int payloadMtu = 1024;
        private int slabSlots;
        private int threads = 1;
        private boolean partitionPerSwitch;
        private DcqcnConfig dcqcn = DcqcnConfig.none();
        private int controlPriority = 6;
        private SwitchModel switchModel = SwitchModel.DEFAULT;
        private HostModel hostModel = HostModel.DEFAULT;
        private HeadroomQueues headroomQueues = HeadroomQueues.LOSSLESS;
        private final int[] cloneSource;
        private final boolean[] ignoresPfc;
        private final ClonePfc[] clonePfc;

        private Builder(int hosts, Fabric fabric) {
            if (hosts < 2) {
                throw new IllegalArgumentException("a testbed needs at least 2 hosts, got " + hosts);
            }
            hostCount = hosts;
            this.fabric = fabric;
            rateBps = new long[hosts];
            delayNanos = new long[hosts];
            cloneSource = new int[hosts];
            Arrays.fill(cloneSource, -1);
            ignoresPfc = new boolean[hosts];
            clonePfc = new ClonePfc[hosts];
            links(100_000_000_000L, 1_000);
        }

        /** Every host link at this rate and one-way propagation delay. */
        public Builder links(long bps, long delayNs) {
            for (int i = 0; i < hostCount; i++) {
                link(i, bps, delayNs);
            }
            return this;
        }

        public Builder link(int host, long bps, long delayNs) {
            rateBps[host] = bps;
            delayNanos[host] = delayNs;
            return this;
        }

        /**
         * Makes host {@code clone} a clone port of host {@code source} (one switch only): the SPFC
         * testbed's virtual ports, on which the switch replays a physical port's ingress (SPFC §VII-B).
         * Every data frame the source starts on its line, the clone starts on its own line at the same
         * instant, so the switch receives both at the same nanosecond (the clone's link must have the
         * source's rate and delay). The copy is the frame of a shadow flow: same length, opcode, PSN,
         * priority and receiver, but the clone's source MAC and IP and its own QP, so the switch's
         * per-port accounting, the receiver's PSN check, ACKs and CNPs all stay per port. The receiver
         * ACKs and CNPs the shadow flows as usual; those go back to the clone port, where nothing
         * reacts (no rate limiter: the source's DCQCN hears only about its own frames). A PAUSE sent
         * to the clone port is handled per {@code pfc}. A clone sends no flows of its own and receives
         * none; control frames the source sends (ACKs, CNPs) are not replayed.
         */
        /** Host {@code host}'s NIC ignores the PFC and PAUSE frames the switch sends it (a sender that does not obey PFC). */
        public Builder ignoresPfc(int host, boolean ignores) {
            ignoresPfc[host] = ignores;
            return this;
        }

        public Builder cloneOf(int clone, int source, ClonePfc pfc) {
            if (clone < 0 || clone >= hostCount || source < 0 || source >= hostCount || clone == source) {
                throw new IllegalArgumentException("cloneOf: hosts must be two different indexes 0.." + (hostCount - 1)
                        + ", got " + clone + " of " + source);
            }
            cloneSource[clone] = source;
            clonePfc[clone] = java.util.Objects.requireNonNull(pfc, "cloneOf: pfc");
            return this;
        }

        /** Every leaf-spine link at this rate and one-way propagation delay (leaf-spine only). */
        public Builder fabricLinks(long bps, long delayNs) {
            if (!fabric.isLeafSpine() && !fabric.isRing()) {
                throw new IllegalStateException("fabricLinks: only a leaf-spine or ring made here has fabric links to set");
            }
            if (bps <= 0 || delayNs < 0) {
                throw new IllegalArgumentException("fabric links need a rate > 0 and a delay >= 0");
            }
            fabric = new Fabric(fabric.leaves(), fabric.spines(), fabric.hostsPerLeaf(), bps, delayNs, fabric.ring(),
                    fabric.ringOneWay(), null);
            return this;
        }

        /** Buffer, scheme, lossless priorities, headroom; its ports are replaced by the host links. */
        public Builder mmu(MmuConfig.Builder b) { mmu = b; return this; }
        /** Classifier, pause quanta, schedulers... applied to the core's configuration builder. */
        public Builder core(Consumer<CoreConfig.Builder> settings) { coreSettings = settings; return this; }
        public Builder seed(long s) { seed = s; return this; }
        /** RDMA payload per packet (the path MTU: 256..4096). */
        public Builder payloadMtu(int bytes) { payloadMtu = bytes; return this; }
        public Builder slabSlots(int slots) { slabSlots = slots; return this; }
        /**
         * Threads of the event loop (1 by default): at most one per switch, each running a partition
         * of its own, or its share of a partition per switch ({@link #partitionPerSwitch}). The run
         * is the same for any number.
         */
        public Builder threads(int n) { threads = n; return this; }

        /**
         * A partition per switch (with its hosts), its thread's share run one after another in each
         * window, where the links between switches are long enough for windows of many events:
         * a switch's events of a window then run together and find its state in the cache. The run is
         * the same, but a traffic must not add flows as the run goes, as on several threads.
         */
        public Builder partitionPerSwitch(boolean on) { partitionPerSwitch = on; return this; }

        private void checkThreads(int switches) {
            if (threads < 1 || threads > switches) {
                throw new IllegalArgumentException("threads must be 1.." + switches + " (one partition per switch at most: the"
                        + " topology has " + switches + (switches == 1 ? " switch" : " switches") + "), got " + threads);
            }
        }

        /** Partitions of the event loop: one per thread, or one per switch ({@link #partitionPerSwitch}). */
        private int partitions(int switches, long shortestSwitchLinkNanos) {
            return partitionPerSwitch && shortestSwitchLinkNanos >= MIN_PARTITION_LOOKAHEAD_NANOS ? switches : threads;
        }

        private static long shortestSwitchLink(FabricPlan plan) {
            long shortest = Long.MAX_VALUE;
            for (int sw = 0; sw < plan.switches(); sw++) {
                for (int p = 0; p < plan.ports(sw); p++) {
                    if (plan.hostAt(sw, p) < 0) {
                        shortest = Math.min(shortest, plan.linkDelayNanos(sw, p));
                    }
                }
            }
            return shortest;
        }

        /** By partition, the slab of the thread that runs it. */
        private static HeapSlab[] byPartition(HeapSlab[] perThread, EventLoop loop) {
            HeapSlab[] byPartition = new HeapSlab[loop.partitions()];
            for (int p = 0; p < byPartition.length; p++) {
                byPartition[p] = perThread[loop.threadOf(p)];
            }
            return byPartition;
        }

        /** A slab per thread, each as large as one slab for all would be: memory is taken only for frames held. */
        private HeapSlab[] slabs(int slots, int frameBytes) {
            HeapSlab[] slabs = new HeapSlab[threads];
            for (int p = 0; p < threads; p++) {
                slabs[p] = new HeapSlab(slots, frameBytes);
            }
            return slabs;
        }
        /** Congestion control of every host: {@link DcqcnConfig#defaults()} or {@link DcqcnConfig#none()} (the default). */
        public Builder dcqcn(DcqcnConfig c) { dcqcn = c; return this; }
        /** Priority of CNPs and ACKs (DSCP 8 × priority); 6 by default, above data, as NICs send CNPs. */
        public Builder controlPriority(int p) { controlPriority = p; return this; }
        /** Model choices of every switch ({@link SwitchModel#DEFAULT}: pfcswitch's own). */
        public Builder switchModel(SwitchModel m) { switchModel = java.util.Objects.requireNonNull(m); return this; }
        /**
         * Model choices of every host's NIC ({@link HostModel#DEFAULT}: pfcswitch's own); sets the
         * {@link #controlPriority} to the model's too (a later {@code controlPriority} call wins).
         */
        public Builder hostModel(HostModel m) {
            hostModel = java.util.Objects.requireNonNull(m);
            controlPriority = m.controlPriority();
            return this;
        }
        /** Which queues of every switch have headroom set aside ({@link HeadroomQueues#LOSSLESS} by default). */
        public Builder headroomQueues(HeadroomQueues h) { headroomQueues = java.util.Objects.requireNonNull(h); return this; }
        /** How the hosts' IPv4 addresses are numbered ({@link HostAddresses#PFCSWITCH} by default). */
        public Builder hostAddresses(HostAddresses a) { hostAddresses = java.util.Objects.requireNonNull(a); return this; }

        public Testbed build() {
            if (payloadMtu < 256 || payloadMtu > 4096) {
                throw new IllegalArgumentException("payloadMtu must be 256..4096, got " + payloadMtu);
            }
            for (int i = 0; i < hostCount; i++) {
                int src = cloneSource[i];
                if (src < 0) {
                    continue;
                }
                if (fabric.isLeafSpine() || fabric.isRing() || fabric.plan() != null) {
                    throw new IllegalStateException("clone ports exist on a single switch only");
                }
                if (cloneSource[src] >= 0) {
                    throw new IllegalArgumentException("host " + i + " clones host " + src + ", which is itself a clone port");
                }
                if (rateBps[i] != rateBps[src] || delayNanos[i] != delayNanos[src]) {
                    throw new IllegalArgumentException("clone port " + i + " needs the link of host " + src + " ("
                            + rateBps[src] + " b/s, " + delayNanos[src] + " ns), got " + rateBps[i] + " b/s, "
                            + delayNanos[i] + " ns");
                }
            }
            if (fabric.isLeafSpine()) {
                return buildPlan(FabricPlan.leafSpine(fabric.leaves(), fabric.spines(), fabric.hostsPerLeaf(), fabric.bps(),
                        fabric.delayNanos(), List.of()));
            }
            if (fabric.plan() != null) {
                return buildPlan(fabric.plan());
            }
            if (fabric.isRing()) {
                return buildRing();
            }
            mmu.ports(1, rateBps[0], delayNanos[0]);
            for (int i = 1; i < hostCount; i++) {
                mmu.port(rateBps[i], delayNanos[i]);
            }
            MmuConfig mmuConfig = headroomQueues.apply(mmu.build());
            CoreConfig.Builder cb = CoreConfig.builder(mmuConfig).learning(false);
            List<Long> macs = new ArrayList<>();
            for (int i = 0; i < hostCount; i++) {
                long mac = hostMac(i);
                macs.add(mac);
                cb.staticMac(mac, i);
                // a clone with pfc: ignore has no sender behind it that a PAUSE could stop
                cb.senderIgnoresPfc(i, ignoresPfc[i] || cloneSource[i] >= 0 && clonePfc[i] == ClonePfc.IGNORE);
            }
            cb.allSchedulers(switchModel.scheduling().portPolicy(controlPriority));   // the model's, unless core() says otherwise
            coreSettings.accept(cb);
            CoreConfig coreConfig = cb.build();

            int frameBytes = slotBytes(payloadMtu);
            int slots = slabSlots > 0 ? slabSlots
                    : (int) Math.min(1 << 22, mmuConfig.totalBytes() / 256 + 256L * hostCount + 1024);
            SplittableRandom random = new SplittableRandom(seed);
            checkThreads(1);
            EventLoop loop = new EventLoop();
            HeapSlab slab = new HeapSlab(slots, frameBytes);
            FlowRecords records = new FlowRecords();
            FlowTable table = new FlowTable();
            FlowListeners listeners = new FlowListeners();
            SwitchNode sw = new SwitchNode(loop, hostCount);
            SwitchCore core = new SwitchCore(coreConfig, switchModel.forSwitch(hostCount), slab, slab, sw, RandomSource.seeded(random.nextLong()));
            int switchId = loop.register(sw, 0);
            sw.attach(core, switchId);
            RoceHost[] hosts = new RoceHost[hostCount];
            int[] hostNode = new int[hostCount];
            for (int i = 0; i < hostCount; i++) {
                hosts[i] = new RoceHost(i, loop, slab, records, table, listeners, dcqcn, hostModel, macs.get(i), hostAddresses.of(i),
                        rateBps[i], controlPriority, speaksBfc(mmuConfig));
                hostNode[i] = loop.register(hosts[i], 0);
                hosts[i].frameCost(switchModel.frameCost()).attach(hostNode[i], new Wire(loop, switchModel.frameCost(), hostNode[i], switchId, i, rateBps[i], delayNanos[i]));
                sw.connect(i, new Wire(loop, switchModel.frameCost(), switchId, hostNode[i], 0, rateBps[i], delayNanos[i]));
            }
            for (RoceHost h : hosts) {
                h.peers(hosts);
            }
            for (int i = 0; i < hostCount; i++) {
                if (cloneSource[i] >= 0) {
                    hosts[i].cloneOf(hosts[cloneSource[i]], clonePfc[i]);
                }
                hosts[i].ignorePfc(ignoresPfc[i]);
            }
            int[] hostPort = new int[hostCount];
            for (int i = 0; i < hostCount; i++) {
                hostPort[i] = i;
            }
            return new Testbed(loop, new HeapSlab[] {slab}, records, new SwitchNode[] {sw}, new int[hostCount], hostPort, fabric, hosts,
                    hostNode, random, payloadMtu, table, listeners, dcqcn, delayNanos.clone(), hostModel);
        }

        /** Hosts have BFC NICs exactly when their switch runs BFC (a BFC port runs no PFC). */
        private static boolean speaksBfc(MmuConfig switchMmu) {
            return switchMmu.upstreamPausing() == UpstreamPausing.PER_QUEUE;
        }

        private static long hostMac(int host) {
            return 0x0200_0A00_0000L + host;
        }

        /**
         * The switches of {@code plan} in its order, each port's link from the plan (a host port: its
         * host's link), a static entry per host on the switch and per remote host with one next hop,
         * an ECMP group where the plan gives several.
         */
        private Testbed buildPlan(FabricPlan plan) {
            if (plan.hosts() != hostCount) {
                throw new IllegalArgumentException("the fabric has " + plan.hosts() + " hosts, the testbed " + hostCount);
            }
            int n = plan.switches();
            CoreConfig[] configs = new CoreConfig[n];
            long bufferBytes = 0;
            for (int sw = 0; sw < n; sw++) {
                for (int p = 0; p < plan.ports(sw); p++) {
                    int h = plan.hostAt(sw, p);
                    long bps = h >= 0 ? rateBps[h] : plan.linkBps(sw, p);
                    long delay = h >= 0 ? delayNanos[h] : plan.linkDelayNanos(sw, p);
                    if (p == 0) {
                        mmu.ports(1, bps, delay);
                    } else {
                        mmu.port(bps, delay);
                    }
                }
                MmuConfig m = headroomQueues.apply(mmu.build());
                bufferBytes += m.totalBytes();
                CoreConfig.Builder cb = CoreConfig.builder(m).learning(false);
                for (int h = 0; h < hostCount; h++) {
                    int[] ports = plan.route(sw, h);
                    if (plan.hostSwitch(h) == sw) {
                        cb.staticMac(hostMac(h), ports[0]);
                        cb.senderIgnoresPfc(ports[0], ignoresPfc[h]);
                    } else if (ports.length == 1) {
                        cb.staticMac(hostMac(h), ports[0]);
                    } else {
                        cb.ecmpGroup(hostMac(h), ports);
                    }
                }
                cb.allSchedulers(switchModel.scheduling().portPolicy(controlPriority));   // the model's, unless core() says otherwise
                coreSettings.accept(cb);
                configs[sw] = cb.build();
            }

            int frameBytes = slotBytes(payloadMtu);
            int slots = slabSlots > 0 ? slabSlots
                    : (int) Math.min(1 << 22, bufferBytes / 256 + 256L * hostCount + 1024L * configs.length);
            SplittableRandom random = new SplittableRandom(seed);
            checkThreads(n);
            int parts = partitions(n, shortestSwitchLink(plan));
            EventLoop loop = new EventLoop(parts, threads);
            HeapSlab[] slabs = slabs(slots, frameBytes);
            loop.frames(byPartition(slabs, loop));
            FlowRecords records = new FlowRecords();
            FlowTable table = new FlowTable();
            FlowListeners listeners = new FlowListeners();
            SwitchNode[] nodes = new SwitchNode[n];
            int[] nodeId = new int[n];
            for (int i = 0; i < n; i++) {           // all switches first: wires need their ids
                HeapSlab slab = slabs[loop.threadOf(partitionOf(i, parts))];
                nodes[i] = new SwitchNode(loop, configs[i].ports());
                SwitchCore core = new SwitchCore(configs[i], switchModel.forSwitch(hostCount + i), slab, slab, nodes[i], RandomSource.seeded(random.nextLong()));
                nodeId[i] = loop.register(nodes[i], partitionOf(i, parts));
                nodes[i].attach(core, nodeId[i]);
            }
            for (int[] c : plan.cables()) {       // both ends of each cable in turn: the order lanes open in
                nodes[c[0]].connect(c[1], new Wire(loop, switchModel.frameCost(), nodeId[c[0]], nodeId[c[2]], c[3],
                        plan.linkBps(c[0], c[1]), plan.linkDelayNanos(c[0], c[1])));
                nodes[c[2]].connect(c[3], new Wire(loop, switchModel.frameCost(), nodeId[c[2]], nodeId[c[0]], c[1],
                        plan.linkBps(c[2], c[3]), plan.linkDelayNanos(c[2], c[3])));
            }
            int[][] ps = new int[n][];
            int[][] pp = new int[n][];
            for (int sw = 0; sw < n; sw++) {
                ps[sw] = new int[plan.ports(sw)];
                pp[sw] = new int[plan.ports(sw)];
                for (int p = 0; p < plan.ports(sw); p++) {
                    ps[sw][p] = plan.peerSwitch(sw, p);
                    pp[sw][p] = plan.peerPort(sw, p);
                }
            }
            RoceHost[] hosts = new RoceHost[hostCount];
            int[] hostNode = new int[hostCount];
            int[] hostSwitch = new int[hostCount];
            int[] hostPort = new int[hostCount];
            for (int i = 0; i < hostCount; i++) {
                hostSwitch[i] = plan.hostSwitch(i);
                hostPort[i] = plan.hostPort(i);
                int partition = partitionOf(hostSwitch[i], parts);
                hosts[i] = new RoceHost(i, loop, slabs[loop.threadOf(partition)], records, table, listeners, dcqcn, hostModel, hostMac(i), hostAddresses.of(i),
                        rateBps[i], controlPriority, speaksBfc(configs[hostSwitch[i]].mmu()));
                hostNode[i] = loop.register(hosts[i], partition);
                hosts[i].frameCost(switchModel.frameCost()).attach(hostNode[i], new Wire(loop, switchModel.frameCost(), hostNode[i], nodeId[hostSwitch[i]], hostPort[i], rateBps[i], delayNanos[i]));
                nodes[hostSwitch[i]].connect(hostPort[i], new Wire(loop, switchModel.frameCost(), nodeId[hostSwitch[i]], hostNode[i], 0, rateBps[i], delayNanos[i]));
            }
            for (int i = 0; i < hostCount; i++) {
                hosts[i].peers(hosts);
                hosts[i].ignorePfc(ignoresPfc[i]);
            }
            Testbed tb = new Testbed(loop, slabs, records, nodes, hostSwitch, hostPort, fabric, hosts, hostNode, random,
                    payloadMtu, table, listeners, dcqcn, delayNanos.clone(), hostModel);
            tb.plan = plan;
            tb.peerSwitch = ps;
            tb.peerPort = pp;
            return tb;
        }

        /** See {@link Testbed#ring}: port 0 the host, port 1 clockwise, port 2 counter-clockwise. */
        private Testbed buildRing() {
            int n = fabric.ring();
            CoreConfig[] configs = new CoreConfig[n];
            long bufferBytes = 0;
            for (int i = 0; i < n; i++) {
                mmu.ports(1, rateBps[i], delayNanos[i]);
                mmu.port(fabric.bps(), fabric.delayNanos());
                mmu.port(fabric.bps(), fabric.delayNanos());
                MmuConfig m = headroomQueues.apply(mmu.build());
                bufferBytes += m.totalBytes();
                CoreConfig.Builder cb = CoreConfig.builder(m).learning(false);
                for (int h = 0; h < n; h++) {
                    int ahead = Math.floorMod(h - i, n);            // hops clockwise from switch i to host h's switch
                    int port = h == i ? 0 : fabric.ringOneWay() || ahead <= n - ahead ? 1 : 2;
                    cb.staticMac(hostMac(h), port);
                }
                cb.senderIgnoresPfc(0, ignoresPfc[i]);
                cb.allSchedulers(switchModel.scheduling().portPolicy(controlPriority));   // the model's, unless core() says otherwise
                coreSettings.accept(cb);
                configs[i] = cb.build();
            }
            int frameBytes = slotBytes(payloadMtu);
            int slots = slabSlots > 0 ? slabSlots
                    : (int) Math.min(1 << 22, bufferBytes / 256 + 256L * hostCount + 1024L * n);
            SplittableRandom random = new SplittableRandom(seed);
            checkThreads(n);
            int parts = partitions(n, fabric.delayNanos());
            EventLoop loop = new EventLoop(parts, threads);
            HeapSlab[] slabs = slabs(slots, frameBytes);
            loop.frames(byPartition(slabs, loop));
            FlowRecords records = new FlowRecords();
            FlowTable table = new FlowTable();
            FlowListeners listeners = new FlowListeners();
            SwitchNode[] nodes = new SwitchNode[n];
            int[] nodeId = new int[n];
            for (int i = 0; i < n; i++) {
                HeapSlab slab = slabs[loop.threadOf(partitionOf(i, parts))];
                nodes[i] = new SwitchNode(loop, configs[i].ports());
                SwitchCore core = new SwitchCore(configs[i], switchModel.forSwitch(hostCount + i), slab, slab, nodes[i], RandomSource.seeded(random.nextLong()));
                nodeId[i] = loop.register(nodes[i], partitionOf(i, parts));
                nodes[i].attach(core, nodeId[i]);
            }
            int[][] ps = new int[n][];
            int[][] pp = new int[n][];
            for (int i = 0; i < n; i++) {
                int next = (i + 1) % n;
                nodes[i].connect(1, new Wire(loop, switchModel.frameCost(), nodeId[i], nodeId[next], 2, fabric.bps(), fabric.delayNanos()));
                nodes[next].connect(2, new Wire(loop, switchModel.frameCost(), nodeId[next], nodeId[i], 1, fabric.bps(), fabric.delayNanos()));
                ps[i] = new int[] {-1, next, (i + n - 1) % n};
                pp[i] = new int[] {-1, 2, 1};
            }
            RoceHost[] hosts = new RoceHost[hostCount];
            int[] hostNode = new int[hostCount];
            int[] hostSwitch = new int[hostCount];
            int[] hostPort = new int[hostCount];
            for (int i = 0; i < hostCount; i++) {
                hostSwitch[i] = i;
                int partition = partitionOf(i, parts);
                hosts[i] = new RoceHost(i, loop, slabs[loop.threadOf(partition)], records, table, listeners, dcqcn, hostModel, hostMac(i), hostAddresses.of(i),
                        rateBps[i], controlPriority, speaksBfc(configs[i].mmu()));
                hostNode[i] = loop.register(hosts[i], partition);
                hosts[i].frameCost(switchModel.frameCost()).attach(hostNode[i], new Wire(loop, switchModel.frameCost(), hostNode[i], nodeId[i], 0, rateBps[i], delayNanos[i]));
                nodes[i].connect(0, new Wire(loop, switchModel.frameCost(), nodeId[i], hostNode[i], 0, rateBps[i], delayNanos[i]));
            }
            for (int i = 0; i < hostCount; i++) {
                hosts[i].peers(hosts);
                hosts[i].ignorePfc(ignoresPfc[i]);
            }
            Testbed tb = new Testbed(loop, slabs, records, nodes, hostSwitch, hostPort, fabric, hosts, hostNode, random,
                    payloadMtu, table, listeners, dcqcn, delayNanos.clone(), hostModel);
            tb.peerSwitch = ps;
            tb.peerPort = pp;
            return tb;
        }
    }
}

package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;

import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.dataplane.core.CoreConfig;
import org.pfcswitch.dataplane.core.LineRate;
import org.pfcswitch.dataplane.core.SwitchCore;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;

/**
 * A virtual-time testbed: one switch with N emulated RoCEv2 hosts, host i on switch port i over
 * a full-duplex link of its own rate and propagation delay (which is also the MMU's cable delay
 * for that port, so headroom formulas see the real cable). Flows are added, then the run
 * advances with {@link #runUntil}. Everything random comes from one seeded generator, so a
 * testbed built and run twice the same way produces the same events in the same order.
 *
 * <pre>
 *   Testbed tb = Testbed.singleSwitch(4).links(100_000_000_000L, 1_000).seed(1).build();
 *   int f = tb.addFlow(0, 3, 3, 1 << 20, 0);      // 1 MiB WRITE from host 0 to host 3 on priority 3
 *   tb.runUntil(1_000_000);
 *   tb.records().completed(f);
 * </pre>
 */
public final class Testbed {

    private final EventLoop loop;
    private final HeapSlab slab;
    private final FlowRecords records;
    private final SwitchNode switchNode;
    private final RoceHost[] hosts;
    private final int[] hostNode;
    private final SplittableRandom random;
    private final int payloadMtu;
    private final FlowTable table;
    private final Listeners listeners;
    private final DcqcnConfig dcqcn;
    private final long[] delayNanos;

    private Testbed(EventLoop loop, HeapSlab slab, FlowRecords records, SwitchNode switchNode, RoceHost[] hosts,
                    int[] hostNode, SplittableRandom random, int payloadMtu, FlowTable table, Listeners listeners,
                    DcqcnConfig dcqcn, long[] delayNanos) {
        this.loop = loop;
        this.slab = slab;
        this.records = records;
        this.switchNode = switchNode;
        this.hosts = hosts;
        this.hostNode = hostNode;
        this.random = random;
        this.payloadMtu = payloadMtu;
        this.table = table;
        this.listeners = listeners;
        this.dcqcn = dcqcn;
        this.delayNanos = delayNanos;
    }

    /** Forwards the hosts' flow events to every registered listener, in registration order. */
    private static final class Listeners implements FlowListener {
        private FlowListener[] all = new FlowListener[0];

        void add(FlowListener l) {
            all = Arrays.copyOf(all, all.length + 1);
            all[all.length - 1] = l;
        }

        @Override
        public void onFlowSent(int flow, long now) {
            for (FlowListener l : all) {
                l.onFlowSent(flow, now);
            }
        }

        @Override
        public void onFlowReceived(int flow, long now) {
            for (FlowListener l : all) {
                l.onFlowReceived(flow, now);
            }
        }
    }

    public static Builder singleSwitch(int hosts) {
        return new Builder(hosts);
    }

    /**
     * Adds an RDMA WRITE flow of {@code bytes} from host {@code src} to host {@code dst} on
     * {@code priority} (carried as DSCP {@code 8 × priority}, which the default class-selector map
     * classifies back to it), starting at {@code startNanos} (not before now: generators may add
     * flows while the run is under way); returns its id (also its QP number).
     */
    public int addFlow(int src, int dst, int priority, long bytes, long startNanos) {
        if (src == dst || bytes <= 0) {
            throw new IllegalArgumentException("a flow needs two different hosts and > 0 bytes, got " + src + " -> "
                    + dst + ", " + bytes + " B");
        }
        RoceHost from = hosts[src];
        RoceHost to = hosts[dst];
        RoceFrameBuilder template = new RoceFrameBuilder().macs(to.mac(), from.mac()).ips(from.ip(), to.ip())
                .dscp(priority * 8).udpSrcPort(49152 + (records.count() & 0x3FFF));
        Dcqcn cc = dcqcn.enabled() ? new Dcqcn(dcqcn, from.rateBps()) : null;
        Flow f = new Flow(records.count(), src, dst, priority, bytes, payloadMtu, template.destQp(records.count()), cc);
        int id = records.add(bytes, startNanos, src, dst, idealNanos(f, from.rateBps(), to.rateBps(),
                delayNanos[src] + delayNanos[dst]));
        table.add(f);
        loop.schedule(startNanos, hostNode[src], EventLoop.FLOW_START, 0, id);
        return id;
    }

    /**
     * The flow alone on the idle network: every frame through the slower link, plus the two
     * propagation delays, plus the last frame's store-and-forward time on the faster link.
     */
    private static long idealNanos(Flow f, long srcBps, long dstBps, long propagation) {
        long frames = f.packets();
        int fullFrame = f.payloadMtu + FRAME_OVERHEAD_BYTES;
        long wireBytes = f.sizeBytes + frames * (FRAME_OVERHEAD_BYTES + LineRate.WIRE_OVERHEAD_BYTES);
        long bottleneck = Math.min(srcBps, dstBps);
        long serialization = (wireBytes * 8 * 1_000_000_000L + bottleneck - 1) / bottleneck;
        return serialization + propagation + LineRate.nanos(fullFrame, Math.max(srcBps, dstBps));
    }

    /** Ethernet, IPv4, UDP, BTH and ICRC around each RDMA WRITE payload (RETH on a message's first packet not counted). */
    private static final int FRAME_OVERHEAD_BYTES = 14 + 20 + 8 + 12 + 4;

    /** Calls {@code l} on every flow sent and received from now on. */
    public void addListener(FlowListener l) {
        listeners.add(l);
    }

    public void runUntil(long nanos) {
        loop.runUntil(nanos);
    }

    public long now() { return loop.now(); }
    public EventLoop loop() { return loop; }
    public SwitchCore core() { return switchNode.core(); }
    public RoceHost host(int i) { return hosts[i]; }
    public int hosts() { return hosts.length; }
    public FlowRecords records() { return records; }
    public HeapSlab slab() { return slab; }
    /** The run's seeded generator, for traffic generators: draw from it, never from a clock. */
    public SplittableRandom random() { return random; }
    public DcqcnConfig dcqcn() { return dcqcn; }
    public int payloadMtu() { return payloadMtu; }
    public long linkDelayNanos(int host) { return delayNanos[host]; }

    public static final class Builder {
        private final int hostCount;
        private final long[] rateBps;
        private final long[] delayNanos;
        private MmuConfig.Builder mmu = MmuConfig.builder();
        private Consumer<CoreConfig.Builder> coreSettings = b -> {};
        private long seed = 1;
        private int payloadMtu = 1024;
        private int slabSlots;
        private DcqcnConfig dcqcn = DcqcnConfig.none();
        private int controlPriority = 6;

        private Builder(int hosts) {
            if (hosts < 2) {
                throw new IllegalArgumentException("a testbed needs at least 2 hosts, got " + hosts);
            }
            hostCount = hosts;
            rateBps = new long[hosts];
            delayNanos = new long[hosts];
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

        /** Buffer, scheme, lossless priorities, headroom; its ports are replaced by the host links. */
        public Builder mmu(MmuConfig.Builder b) { mmu = b; return this; }
        /** Classifier, pause quanta, schedulers... applied to the core's configuration builder. */
        public Builder core(Consumer<CoreConfig.Builder> settings) { coreSettings = settings; return this; }
        public Builder seed(long s) { seed = s; return this; }
        /** RDMA payload per packet (the path MTU: 256..4096). */
        public Builder payloadMtu(int bytes) { payloadMtu = bytes; return this; }
        public Builder slabSlots(int slots) { slabSlots = slots; return this; }
        /** Congestion control of every host: {@link DcqcnConfig#defaults()} or {@link DcqcnConfig#none()} (the default). */
        public Builder dcqcn(DcqcnConfig c) { dcqcn = c; return this; }
        /** Priority of CNPs and ACKs (DSCP 8 × priority); 6 by default, above data, as NICs send CNPs. */
        public Builder controlPriority(int p) { controlPriority = p; return this; }

        public Testbed build() {
            if (payloadMtu < 256 || payloadMtu > 4096) {
                throw new IllegalArgumentException("payloadMtu must be 256..4096, got " + payloadMtu);
            }
            mmu.ports(1, rateBps[0], delayNanos[0]);
            for (int i = 1; i < hostCount; i++) {
                mmu.port(rateBps[i], delayNanos[i]);
            }
            MmuConfig mmuConfig = mmu.build();
            CoreConfig.Builder cb = CoreConfig.builder(mmuConfig).learning(false);
            List<Long> macs = new ArrayList<>();
            for (int i = 0; i < hostCount; i++) {
                long mac = 0x0200_0A00_0000L + i;
                macs.add(mac);
                cb.staticMac(mac, i);
            }
            coreSettings.accept(cb);
            CoreConfig coreConfig = cb.build();

            int frameBytes = payloadMtu + 96;              // headers, RETH, ICRC and a VLAN tag at most
            int slots = slabSlots > 0 ? slabSlots
                    : (int) Math.min(1 << 22, mmuConfig.totalBytes() / 256 + 256L * hostCount + 1024);
            SplittableRandom random = new SplittableRandom(seed);
            EventLoop loop = new EventLoop();
            HeapSlab slab = new HeapSlab(slots, frameBytes);
            FlowRecords records = new FlowRecords();
            FlowTable table = new FlowTable();
            Listeners listeners = new Listeners();
            SwitchNode sw = new SwitchNode(loop, hostCount);
            SwitchCore core = new SwitchCore(coreConfig, slab, slab, sw, RandomSource.seeded(random.nextLong()));
            int switchId = loop.register(sw);
            sw.attach(core, switchId);
            RoceHost[] hosts = new RoceHost[hostCount];
            int[] hostNode = new int[hostCount];
            for (int i = 0; i < hostCount; i++) {
                hosts[i] = new RoceHost(i, loop, slab, records, table, listeners, dcqcn, macs.get(i), 0x0A00_0001 + i,
                        rateBps[i], controlPriority);
                hostNode[i] = loop.register(hosts[i]);
                hosts[i].attach(hostNode[i], new Wire(loop, switchId, i, rateBps[i], delayNanos[i]));
                sw.connect(i, new Wire(loop, hostNode[i], 0, rateBps[i], delayNanos[i]));
            }
            for (RoceHost h : hosts) {
                h.peers(hosts);
            }
            return new Testbed(loop, slab, records, sw, hosts, hostNode, random, payloadMtu, table, listeners, dcqcn,
                    delayNanos.clone());
        }
    }
}

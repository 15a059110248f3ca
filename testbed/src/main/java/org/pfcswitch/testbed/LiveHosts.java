package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.core.FrameAllocator;

/**
 * The real-time driver of emulated RoCEv2 hosts: the same {@link RoceHost}s as the virtual-time
 * {@link Testbed}, each on a real NIC port ({@link FramePort}, in practice a packet socket on the
 * host side of a veth pair in its network namespace), all driven by one thread.
 *
 * <p>Time is an {@link EventLoop} whose clock follows {@link System#nanoTime()} from {@link #start}.
 * Each {@link #poll pass} takes the frames every port has received (at most {@link #RX_BURST} per
 * port, so one busy port cannot hold up the others' timers) and schedules each as a FRAME event for
 * its host at the current time, then runs every event due up to that time: received frames,
 * line-free and pause-over wake-ups, flow starts (the clock moves at most {@link #MAX_STEP_NANOS} a
 * pass and otherwise slips, see there). A frame a host starts on its line goes out
 * through its port at once ({@link SocketLine}); the host's own line-rate serialization spaces its
 * frames, so a host sends at its configured speed whatever the veth could take. When a pass runs
 * late, the events it catches up on keep their own times, so the average rate holds.
 *
 * <p>PFC is honoured by the hosts, as a ConnectX NIC would (a veth ignores it): a received
 * 802.1Qbb frame pauses exactly its priorities for {@code quanta × 512} bit times at the host's
 * speed, an 802.3x PAUSE pauses all of them. A malformed frame is counted by its host and dropped.
 *
 * <p>After warm-up a pass allocates nothing: frames move between the ports and one preallocated
 * slab, events are primitive tuples, and the hosts reuse their buffers as in virtual time.
 */
public final class LiveHosts implements Hosts {

    /** Bytes a frame may have besides its RDMA payload (headers, ICRC): the slab's slots hold payloadMtu plus this. */
    public static final int HEADER_ALLOWANCE_BYTES = 96;

    /** Frames taken from one port per pass at most. */
    public static final int RX_BURST = 32;

    /**
     * The clock advances at most this much per pass. A pass that comes late (JIT warm-up, a GC
     * pause, the thread descheduled) would otherwise let every host catch up on its line at once,
     * sending in one burst what its line rate spreads over the gap, and overflow the receivers'
     * socket queues, which a paced NIC never does. Instead the hosts' clock slips behind real time
     * by the excess ({@link #slipNanos}); a run that keeps up never slips.
     */
    public static final long MAX_STEP_NANOS = 20_000;

    private final EventLoop loop;
    private final HeapSlab slab;
    private final FlowRecords records;
    private final FlowTable table;
    private final FlowListeners listeners;
    private final DcqcnConfig dcqcn;
    private final int payloadMtu;
    private final String[] names;
    private final RoceHost[] hosts;
    private final int[] hostNode;
    private final FramePort[] ports;
    private final SocketLine[] lines;
    private long origin = -1;
    private long passes;
    private long slabFull;
    private long slipNanos;

    private LiveHosts(EventLoop loop, HeapSlab slab, FlowRecords records, FlowTable table, FlowListeners listeners,
                      DcqcnConfig dcqcn, int payloadMtu, String[] names, RoceHost[] hosts, int[] hostNode,
                      FramePort[] ports, SocketLine[] lines) {
        this.loop = loop;
        this.slab = slab;
        this.records = records;
        this.table = table;
        this.listeners = listeners;
        this.dcqcn = dcqcn;
        this.payloadMtu = payloadMtu;
        this.names = names;
        this.hosts = hosts;
        this.hostNode = hostNode;
        this.ports = ports;
        this.lines = lines;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Adds an RDMA WRITE flow as {@link Testbed#addFlow} does; {@code startNanos} counts from
     * {@link #start} (flows added before it start that long after it). Its ideal FCT (for the
     * slowdown) is its frames at the slower host's rate, with no propagation delay: a real
     * testbed's cables and switch are not known here.
     */
    @Override
    public int addFlow(int src, int dst, int priority, long bytes, long startNanos, int udpSrcPort) {
        if (src < 0 || src >= hosts.length || dst < 0 || dst >= hosts.length || src == dst || bytes <= 0
                || priority < 0 || priority > 7) {
            throw new IllegalArgumentException("a flow needs two different hosts of 0.." + (hosts.length - 1)
                    + ", priority 0..7 and > 0 bytes, got " + src + " -> " + dst + ", priority " + priority + ", " + bytes + " B");
        }
        RoceHost from = hosts[src];
        RoceHost to = hosts[dst];
        Dcqcn cc = dcqcn.enabled() ? new Dcqcn(dcqcn, from.rateBps()) : null;
        int id = records.count();
        Flow f = Testbed.newFlow(id, from, to, priority, bytes, payloadMtu, cc, udpSrcPort);
        records.add(bytes, startNanos, src, dst, Testbed.idealNanos(f, from.rateBps(), to.rateBps(), 0));
        table.add(f);
        listeners.onFlowAdded(id);
        loop.schedule(startNanos, hostNode[src], EventLoop.FLOW_START, 0, id);
        return id;
    }

    @Override
    public void addListener(FlowListener l) {
        listeners.add(l);
    }

    /** Sets the clock's zero to now, unless it was set already. */
    public void start() {
        if (origin < 0) {
            origin = System.nanoTime();
        }
    }

    /**
     * The hosts' clock: nanoseconds from {@link #start} to the last pass, less the {@link #slipNanos
     * slip}. It moves only in passes, so what a caller timestamps between two passes orders exactly
     * with what the hosts did.
     */
    public long now() {
        return loop.now();
    }

    /**
     * One pass: hands every waiting frame (up to {@link #RX_BURST} per port) to its host as
     * received now, and runs everything due by now. Starts the clock if needed.
     *
     * @return frames received in this pass
     */
    public int poll() {
        start();
        long real = System.nanoTime() - origin;
        long now = Math.min(real, loop.now() + MAX_STEP_NANOS);
        if (now < real) {
            origin += real - now;                  // the clock slips: see MAX_STEP_NANOS
            slipNanos += real - now;
        }
        int received = 0;
        int slot = slab.slotBytes();
        for (int i = 0; i < ports.length; i++) {
            for (int k = 0; k < RX_BURST; k++) {
                long h = slab.allocate(slot);
                if (h == FrameAllocator.NO_HANDLE) {
                    slabFull++;                    // the frame waits in the kernel until a slot is free
                    break;
                }
                int n = ports[i].receive(slab.bytes(), slab.offset(h), slot);
                if (n == FramePort.NONE) {
                    slab.free(h);
                    break;
                }
                slab.trim(h, n);
                loop.schedule(now, hostNode[i], EventLoop.FRAME, 0, h);
                received++;
            }
        }
        loop.runUntil(now);
        passes++;
        return received;
    }

    /** Polls (busy, as a NIC's poll-mode driver does) until the clock reads {@code until}. */
    public void runUntil(long until) {
        start();
        while (loop.now() < until) {
            if (poll() == 0) {
                Thread.onSpinWait();
            }
        }
    }

    /** Polls for {@code nanos} from now. */
    public void runFor(long nanos) {
        start();
        runUntil(now() + nanos);
    }

    @Override
    public FlowRecords records() { return records; }
    @Override
    public RoceHost host(int i) { return hosts[i]; }
    @Override
    public int hosts() { return hosts.length; }
    public String name(int host) { return names[host]; }
    public FramePort port(int host) { return ports[host]; }
    /** Frames host {@code h} started that its port refused (no kernel buffer): lost. */
    public long framesLost(int host) { return lines[host].framesLost(); }
    /** Passes run so far. */
    public long passes() { return passes; }
    /** Times a pass found the slab full and left frames waiting in the kernel. */
    public long slabFull() { return slabFull; }
    public EventLoop loop() { return loop; }
    /**
     * How far the hosts' clock has fallen behind real time because passes came later than
     * {@link #MAX_STEP_NANOS}: 0 when the driver kept up; a real-time run should report it.
     */
    public long slipNanos() { return slipNanos; }

    /** Hosts in index order; each on its own port. */
    public static final class Builder {
        private record Spec(String name, FramePort port, long mac, int ip, long rateBps) {}

        private final List<Spec> specs = new ArrayList<>();
        private DcqcnConfig dcqcn = DcqcnConfig.none();
        private int payloadMtu = 1024;
        private int controlPriority = 6;
        private int slabSlots = 1 << 14;
        private boolean bfcNics;

        private Builder() {}

        /** The next host: its name (for reports), port, MAC and IPv4 address its frames carry, and line rate. */
        public Builder host(String name, FramePort port, long mac, int ip, long rateBps) {
            if (rateBps <= 0) {
                throw new IllegalArgumentException("host " + name + ": rate must be > 0 b/s, got " + rateBps);
            }
            specs.add(new Spec(name, java.util.Objects.requireNonNull(port, "port"), mac, ip, rateBps));
            return this;
        }

        public Builder dcqcn(DcqcnConfig c) { dcqcn = c; return this; }
        /** RDMA payload per packet; the frame (payload + up to 96 B of headers) must fit the ports' MTU. */
        public Builder payloadMtu(int bytes) { payloadMtu = bytes; return this; }
        public Builder controlPriority(int p) { controlPriority = p; return this; }
        /** Frame buffers: received frames until their host has read them, ACKs and CNPs until sent. */
        public Builder slabSlots(int slots) { slabSlots = slots; return this; }
        /** Hosts that are BFC NICs (for a switch that runs bfc): a shim on every data frame, BFC pauses obeyed. */
        public Builder bfcNics(boolean on) { bfcNics = on; return this; }

        public LiveHosts build() {
            if (specs.size() < 2) {
                throw new IllegalArgumentException("live hosts need at least 2 hosts, got " + specs.size());
            }
            if (payloadMtu < 256 || payloadMtu > 4096) {
                throw new IllegalArgumentException("payloadMtu must be 256..4096, got " + payloadMtu);
            }
            int n = specs.size();
            EventLoop loop = new EventLoop();
            HeapSlab slab = new HeapSlab(slabSlots, payloadMtu + HEADER_ALLOWANCE_BYTES);
            FlowRecords records = new FlowRecords();
            FlowTable table = new FlowTable();
            FlowListeners listeners = new FlowListeners();
            String[] names = new String[n];
            RoceHost[] hosts = new RoceHost[n];
            int[] hostNode = new int[n];
            FramePort[] ports = new FramePort[n];
            SocketLine[] lines = new SocketLine[n];
            for (int i = 0; i < n; i++) {
                Spec s = specs.get(i);
                names[i] = s.name();
                ports[i] = s.port();
                lines[i] = new SocketLine(slab, s.port());
                hosts[i] = new RoceHost(i, loop, slab, records, table, listeners, dcqcn, s.mac(), s.ip(), s.rateBps(),
                        controlPriority, bfcNics);
                hostNode[i] = loop.register(hosts[i]);
                hosts[i].attach(hostNode[i], lines[i]);
            }
            for (RoceHost h : hosts) {
                h.peers(hosts);
            }
            return new LiveHosts(loop, slab, records, table, listeners, dcqcn, payloadMtu, names, hosts, hostNode, ports,
                    lines);
        }
    }
}

package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.dpdk.Eal;
import org.pfcswitch.dpdk.MbufLayout;
import org.pfcswitch.dpdk.Mempool;

/**
 * A running switch on DPDK, from a {@link SwitchConfig}: EAL, one packet pool, the ports, the
 * forwarding table and the forwarder. Until the switch core (MMU, queues, PFC) is wired in, it
 * forwards as a plain L2 learning switch. {@link #stop} takes it apart in order and checks that
 * every mbuf went back to the pool.
 */
public final class DpdkSwitch {

    /** What {@link #stop} found. {@code mbufsInUse} is 0 when nothing leaked. */
    public record Shutdown(long drainedFrames, int mbufsInUse, int poolSize) {}

    private final SwitchConfig config;
    private final Arena poolArena;
    private final Mempool pool;
    private final DpdkPorts ports;
    private final ForwardingTable table;
    private final Forwarder forwarder;
    private final boolean hugepages;

    private DpdkSwitch(SwitchConfig config, Arena poolArena, Mempool pool, DpdkPorts ports, ForwardingTable table,
                       Forwarder forwarder, boolean hugepages) {
        this.config = config;
        this.poolArena = poolArena;
        this.pool = pool;
        this.ports = ports;
        this.table = table;
        this.forwarder = forwarder;
        this.hugepages = hugepages;
    }

    /**
     * Starts EAL (once per JVM), the ports and the workers, logging each step to {@code log}.
     *
     * @throws DpdkPorts.PortException   a port failed (the message names it)
     * @throws IllegalArgumentException  the configuration cannot work here (e.g. hugepages required)
     * @throws org.pfcswitch.dpdk.DpdkException EAL itself failed
     */
    public static DpdkSwitch start(SwitchConfig config, Consumer<String> log) {
        List<Device.Pci> pci = new ArrayList<>();
        for (SwitchConfig.Port p : config.ports()) {
            if (p.device() instanceof Device.Pci d) {
                pci.add(d);
            }
        }
        EalArguments eal = EalArguments.of(config.eal(), pci, Hugepages.freeMb());
        log.accept("EAL " + String.join(" ", eal.args()));
        log.accept("memory: " + (eal.hugepages() ? "hugepages (--in-memory), " + Hugepages.freeMb() + " MiB free before start"
                : "4 KiB pages (--no-huge): no hugepages reserved" + (config.eal().hugepages() == SwitchConfig.Hugepages.OFF ? " (eal.hugepages: off)" : "")));
        Eal.init(eal.args().toArray(String[]::new));

        int mbufs = config.eal().mbufs() > 0 ? config.eal().mbufs() : poolSizeFor(config);
        Arena poolArena = Arena.ofShared();
        DpdkPorts ports = null;
        try {
            Mempool pool = Mempool.create(poolArena, "pfcswitch_pkts", mbufs, 0, 0, MbufLayout.DEFAULT_DATA_ROOM, Mempool.ANY_SOCKET);
            log.accept("packet pool: " + mbufs + " mbufs of " + MbufLayout.DEFAULT_DATA_ROOM + " bytes");
            ports = DpdkPorts.open(config.ports(), pool);
            for (int i = 0; i < ports.ports().size(); i++) {
                log.accept(DpdkPorts.describe(i, ports.ports().get(i)));
            }
            ForwardingTable table = new ForwardingTable(config.ports().size(), config.forwarding().tableSize(),
                    config.forwarding().learning());
            for (SwitchConfig.StaticMac s : config.forwarding().staticMacs()) {
                table.addStatic(s.mac(), config.portIndex(s.port()));
                log.accept("static mac " + MacAddress.format(s.mac()) + " -> port " + s.port());
            }
            log.accept("forwarding: L2, learning " + (table.learning() ? "on" : "off") + ", table of " + config.forwarding().tableSize()
                    + " stations, unknown and broadcast destinations flooded; classification: " + describe(config));
            Forwarder forwarder = Forwarder.start(plan(config, ports, table), DpdkPacketMemory.INSTANCE);
            for (int w = 0; w < config.workers().size(); w++) {
                SwitchConfig.Worker wc = config.workers().get(w);
                log.accept("worker " + w + ": ports " + String.join(", ", wc.ports())
                        + (wc.cpus() == null ? ", not pinned" : ", pinned to CPUs " + wc.cpus()));
            }
            return new DpdkSwitch(config, poolArena, pool, ports, table, forwarder, eal.hugepages());
        } catch (RuntimeException e) {
            if (ports != null) {
                ports.close();
            }
            poolArena.close();
            Eal.cleanup();
            throw e;
        }
    }

    private static String describe(SwitchConfig config) {
        var c = config.classifier();
        return "trust " + c.trust().name().toLowerCase(java.util.Locale.ROOT) + ", default priority " + c.defaultPriority();
    }

    /** Enough mbufs for full rx and tx rings on every port, the workers' buffers, and slack. */
    static int poolSizeFor(SwitchConfig config) {
        long need = 4096;
        for (SwitchConfig.Port p : config.ports()) {
            need += p.rxDescriptors() + p.txDescriptors();
        }
        int w = config.workers().size();
        need += (long) w * config.ports().size() * Worker.BURST * 2 + (long) w * (w - 1) * 4096;
        long pow = Long.highestOneBit(need - 1) << 1;
        return (int) Math.min(pow - 1, (1 << 22) - 1);
    }

    static Forwarder.Plan plan(SwitchConfig config, DpdkPorts ports, ForwardingTable table) {
        List<Forwarder.WorkerPlan> workers = new ArrayList<>();
        for (SwitchConfig.Worker w : config.workers()) {
            workers.add(new Forwarder.WorkerPlan(w.ports().stream().map(config::portIndex).toList(), w.cpus()));
        }
        return new Forwarder.Plan(ports.ethPorts(), workers, table, config.classifier(), config.drainNanos(), false);
    }

    public Forwarder forwarder() {
        return forwarder;
    }

    public DpdkPorts ports() {
        return ports;
    }

    public ForwardingTable table() {
        return table;
    }

    public Mempool pool() {
        return pool;
    }

    public SwitchConfig config() {
        return config;
    }

    public boolean hugepages() {
        return hugepages;
    }

    /**
     * Stops the workers (their TX buffers are sent or freed), frees frames still waiting in rx
     * queues, stops and closes the ports, reads the pool's in-use count, frees the pool and
     * cleans EAL up. Counters stay readable through {@link #forwarder()}.
     */
    public Shutdown stop() {
        forwarder.stop();
        long drained = ports.drainRx();
        ports.close();
        int inUse = pool.inUseCount();
        int size = pool.size();
        if (inUse == 0) {
            poolArena.close();     // freeing a pool whose mbufs are still out would corrupt them
            Eal.cleanup();
        }
        return new Shutdown(drained, inUse, size);
    }
}

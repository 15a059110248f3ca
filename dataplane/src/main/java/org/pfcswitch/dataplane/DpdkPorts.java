package org.pfcswitch.dataplane;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.dpdk.DpdkException;
import org.pfcswitch.dpdk.EthPort;
import org.pfcswitch.dpdk.LinkStatus;
import org.pfcswitch.dpdk.Mbuf;
import org.pfcswitch.dpdk.Mempool;

/**
 * The switch's DPDK ports, from configuration to closed: hot-plugs virtual devices, finds PCI
 * ports EAL probed, sets up one rx and one tx queue each from the packet pool, turns on
 * promiscuous mode and MAC-control forwarding, starts them, and at the end stops and closes them.
 */
public final class DpdkPorts implements AutoCloseable {

    /**
     * A started port.
     *
     * @param macControlRx whether PFC/PAUSE frames reach rx_burst on this port, for the start-up log
     * @param hardwarePfc  the NIC's own PFC backstop in words, or null (none configured)
     * @param discardedAtOpen frames freed unread when the port opened ({@link #discardForeign})
     */
    public record OpenPort(SwitchConfig.Port config, EthPort ethPort, long deviceMac, LinkStatus link, String macControlRx,
                           String hardwarePfc, long discardedAtOpen) {

        /** The MAC the switch uses as this port's own: the configured one, else the device's. */
        public long mac() {
            return config.mac() >= 0 ? config.mac() : deviceMac;
        }
    }

    private static final int DRAIN_LIMIT = 65_536;

    private final Arena vdevs = Arena.ofShared();   // closing it removes the hot-plugged devices
    private final List<OpenPort> ports = new ArrayList<>();
    private boolean closed;

    private DpdkPorts() {}

    /**
     * Opens and starts every port, in order. On failure, ports opened so far are closed again.
     *
     * @throws PortException naming the port and what DPDK said
     */
    public static DpdkPorts open(List<SwitchConfig.Port> configs, Mempool pool) {
        return open(configs, pool, null);
    }

    /**
     * As {@link #open(List, Mempool)}, and each NIC gets {@code hardwarePfc} (null: none).
     *
     * @throws PortException also for a NIC that cannot pause in hardware, naming it and the key
     */
    public static DpdkPorts open(List<SwitchConfig.Port> configs, Mempool pool, SwitchConfig.HardwarePfc hardwarePfc) {
        DpdkPorts opened = new DpdkPorts();
        try {
            for (SwitchConfig.Port config : configs) {
                opened.ports.add(opened.openOne(config, pool, hardwarePfc));
            }
            return opened;
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    private OpenPort openOne(SwitchConfig.Port config, Mempool pool, SwitchConfig.HardwarePfc hardwarePfc) {
        EthPort port = attach(config);
        try {
            port.configure(1, 1);
            port.rxQueueSetup(0, config.rxDescriptors(), pool);
            port.txQueueSetup(0, config.txDescriptors());
            port.start();
        } catch (DpdkException e) {
            throw new PortException("port " + config.name() + " (" + config.device() + "): " + e.getMessage());
        }
        try {
            port.promiscuous(true);    // a switch port takes every frame, not only its own MAC's
        } catch (DpdkException e) {
            // some PMDs (net_ring) have no such mode and receive everything anyway
        }
        String backstop = null;
        try {
            backstop = hardwarePfc == null ? null : hardwarePfc(config, port, hardwarePfc);
        } catch (PortException e) {
            port.stop();                       // started but not listed yet: close() would not stop it
            if (config.device() instanceof Device.Pci) {
                port.close();                  // a vdev closes with the vdevs arena
            }
            throw e;
        }
        return new OpenPort(config, port, port.macAddress(), port.link(), macControlRx(config, port), backstop,
                discardForeign(config, port));
    }

    /**
     * Frees what an af_packet port's ring took in before it was this port's, and returns how many.
     * DPDK 22.11's af_packet PMD opens its socket for every protocol, maps the ring, and binds the
     * socket to its interface last; until then the kernel hands it every frame of every interface in
     * the namespace (a management NIC's, another lab's veths). Read as if they arrived on this port,
     * they would teach the forwarding table foreign stations (moving a host's entry) and be flooded
     * into the lab. A frame of the port's own that came in between the bind and this call is freed
     * too: the switch was not yet forwarding, as if the link had come up a moment later.
     */
    private static long discardForeign(SwitchConfig.Port config, EthPort port) {
        if (!(config.device() instanceof Device.Vdev v) || !v.driver().equals("net_af_packet")) {
            return 0;
        }
        try (Arena call = Arena.ofConfined()) {
            return drain(port, Mbuf.pointerArray(call, CoreWorker.BURST));
        }
    }

    /** Frees up to {@value #DRAIN_LIMIT} frames waiting in {@code port}'s rx queue 0; returns how many. */
    private static long drain(EthPort port, MemorySegment burst) {
        long taken = 0;
        while (taken < DRAIN_LIMIT) {
            int n = port.rxBurst(0, burst, CoreWorker.BURST);
            if (n == 0) {
                break;
            }
            Mbuf.freeBulk(burst, n);
            taken += n;
        }
        return taken;
    }

    /**
     * Gives the NIC its PFC backstop, one call per lossless priority; a NIC that cannot pause from
     * its own receive buffer is refused (the configuration asked for something it does not have).
     */
    private static String hardwarePfc(SwitchConfig.Port config, EthPort port, SwitchConfig.HardwarePfc pfc) {
        List<String> priorities = new ArrayList<>();
        for (SwitchConfig.HardwarePfc.Call c : pfc.calls()) {
            boolean done;
            try {
                done = port.hardwarePriorityPause(c.priority(), c.highWaterKib(), c.lowWaterKib(), c.pauseQuanta());
            } catch (DpdkException e) {
                throw new PortException("port " + config.name() + " (" + config.device() + "): pfc.hardwareBackstop: the NIC"
                        + " refused priority " + c.priority() + " XOFF at " + c.highWaterKib() + " KiB, XON at "
                        + c.lowWaterKib() + " KiB: " + e.getMessage());
            }
            if (!done) {
                throw new PortException("port " + config.name() + " (" + config.device() + "): pfc.hardwareBackstop: "
                        + port.name() + "'s driver cannot send PFC from the NIC's receive buffer"
                        + " (rte_eth_dev_priority_flow_ctrl_set: not supported); drop pfc.hardwareBackstop for this switch");
            }
            priorities.add(Integer.toString(c.priority()));
        }
        SwitchConfig.HardwarePfc.Call any = pfc.calls().getFirst();
        return "NIC PFC backstop on priority " + String.join(",", priorities) + ": XOFF at " + any.highWaterKib()
                + " KiB of its receive buffer, XON below " + any.lowWaterKib() + " KiB";
    }

    private EthPort attach(SwitchConfig.Port config) {
        if (config.device() instanceof Device.Vdev v && v.option("iface") != null
                && !java.nio.file.Files.exists(java.nio.file.Path.of("/sys/class/net", v.option("iface")))) {
            throw new PortException("port " + config.name() + ": network interface " + v.option("iface") + " of device "
                    + v.name() + " does not exist (for the netns testbed: pfcswitch testbed up -c CONFIG)");
        }
        try {
            return switch (config.device()) {
                case Device.Vdev v -> EthPort.createVdev(vdevs, v.name(), v.args());
                case Device.Pci p -> EthPort.byName(p.ethdevName());
                case Device.Clone c -> throw new IllegalArgumentException("port " + config.name() + " is a clone port: it has no device");
            };
        } catch (DpdkException e) {
            String why = switch (config.device()) {
                case Device.Vdev v when e.rteErrno() == 19 && !v.knownDriver() -> "no DPDK driver takes '" + v.name() + "' (unknown vdev '"
                        + v.driver() + "'; known here: net_ring, net_null, net_af_packet, net_af_xdp, net_tap, net_memif, net_pcap, ...)";
                case Device.Vdev v when e.rteErrno() == 17 -> "device name '" + v.name() + "' is already in use";
                case Device.Vdev v -> "DPDK could not create '" + v + "'"
                        + (v.option("iface") != null ? " (does interface " + v.option("iface") + " exist? 'pfcswitch testbed up' creates testbed veths)" : "");
                case Device.Pci p -> "EAL found no ethdev at PCI address " + p.address()
                        + " (is the NIC bound to a DPDK-capable driver, e.g. vfio-pci or mlx5?)";
                case Device.Clone c -> "a clone port has no device";
            };
            throw new PortException("port " + config.name() + ": " + why + ": " + e.getMessage());
        }
    }

    /** Asks the PMD to pass MAC-control frames up, and says in words whether they will arrive. */
    private static String macControlRx(SwitchConfig.Port config, EthPort port) {
        try {
            if (port.macControlFrameForwarding(true)) {
                return "yes (PMD told to forward MAC-control frames)";
            }
            return config.device() instanceof Device.Vdev
                    ? "yes (virtual device without flow control: frames pass as they arrive)"
                    : "UNKNOWN (PMD has no flow-control API; send a PFC frame and watch the pfc counters)";
        } catch (DpdkException e) {
            return "NO? (could not enable MAC-control forwarding: " + e.getMessage() + ")";
        }
    }

    public List<OpenPort> ports() {
        return List.copyOf(ports);
    }

    public List<EthPort> ethPorts() {
        return ports.stream().map(OpenPort::ethPort).toList();
    }

    /**
     * Frees the frames waiting in the rx queues (a looped-back port holds what was sent to it).
     * Call with the forwarder stopped. At most {@value #DRAIN_LIMIT} per port: net_null never
     * runs dry, and anything a NIC still holds goes back to the pool when the port closes.
     * Returns how many were freed.
     */
    public long drainRx() {
        long freed = 0;
        try (Arena call = Arena.ofConfined()) {
            MemorySegment burst = Mbuf.pointerArray(call, CoreWorker.BURST);
            for (OpenPort p : ports) {
                freed += drain(p.ethPort(), burst);
            }
        }
        return freed;
    }

    /** Stops and closes every port (hot-plugged devices are removed). Idempotent; quiet on errors. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (OpenPort p : ports) {
            try {
                p.ethPort().stop();
            } catch (RuntimeException e) {
                // closing anyway
            }
            if (p.config().device() instanceof Device.Pci) {
                try {
                    p.ethPort().close();
                } catch (RuntimeException e) {
                    // nothing more to do
                }
            }
        }
        vdevs.close();     // rte_vdev_uninit closes each virtual device's port
    }

    /** A port could not be opened; the message names it and is meant for the user as is. */
    public static final class PortException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        public PortException(String message) {
            super(message);
        }
    }

    /** A one-line description for the start-up log. */
    public static String describe(int index, OpenPort p) {
        LinkStatus l = p.link();
        return String.format("port %d %-8s %-40s dpdk port %d (%s), mac %s%s, link %s%s, speed %s, MAC-control rx: %s",
                index, p.config().name(), p.config().device(), p.ethPort().id(), p.ethPort().name(),
                MacAddress.format(p.mac()), p.config().mac() >= 0 ? " (configured; device " + MacAddress.format(p.deviceMac()) + ")" : "",
                l.up() ? "up" : "down", l.up() ? " " + l.speedMbps() + " Mbit/s" + (l.fullDuplex() ? " full duplex" : "") : "",
                Rates.format(p.config().speedBps()), p.macControlRx()) + RxRing.describe(p.config())
                + (p.hardwarePfc() == null ? "" : "; " + p.hardwarePfc())
                + (p.discardedAtOpen() == 0 ? "" : "; " + p.discardedAtOpen()
                        + " frames taken in before the port was open discarded (an af_packet socket takes every"
                        + " interface's frames until it is bound to its own)");
    }
}

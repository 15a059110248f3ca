package org.pfcswitch.dataplane;

import java.util.List;

import org.pfcswitch.core.CoreConfig;

/**
 * Everything {@link DpdkSwitch} needs to start, already validated by whoever read it (the CLI
 * reads it from YAML): how to start DPDK, which device each switch port is, where the worker runs,
 * and the {@link CoreConfig} of the switch it drives. Ports are numbered by their position in
 * {@link #ports}, which is also the core's port numbering.
 *
 * <p>A port with {@code mac = -1} takes its device's MAC: {@link DpdkSwitch} writes it into the
 * core's configuration once the device is open.
 *
 * @param eal            how to start DPDK
 * @param ports          the switch ports, in switch-port order
 * @param workers        the poll-mode worker threads: each owns some device ports (and their clone
 *                       ports) end to end; one worker owns them all by default
 * @param core           the switch: MMU (buffer, scheme, one MMU port per switch port), classifier,
 *                       forwarding entries, PFC pause quanta
 * @param idleSleepNanos 0: the worker polls without pause (a core of its own); otherwise, after a pass
 *                       with nothing to do, it sleeps up to this long (never past its next timer)
 */
public record SwitchConfig(Eal eal, List<Port> ports, List<Worker> workers, CoreConfig core, long idleSleepNanos,
                           HardwarePfc hardwarePfc) {

    /** Without a hardware PFC backstop. */
    public SwitchConfig(Eal eal, List<Port> ports, List<Worker> workers, CoreConfig core, long idleSleepNanos) {
        this(eal, ports, workers, core, idleSleepNanos, null);
    }

    /**
     * A backstop behind the switch's software PFC on NICs that can pause in hardware: each device
     * port's NIC sends PFC XOFF for each lossless priority once its own receive buffer holds
     * {@code highWaterKib}, XON below {@code lowWaterKib}, {@code pauseQuanta} per XOFF
     * ({@code pfc.hardwareBackstop}; {@code rte_eth_dev_priority_flow_ctrl_set}).
     *
     * @param priorities bit i: priority i is lossless
     */
    public record HardwarePfc(int priorities, int highWaterKib, int lowWaterKib, int pauseQuanta) {

        /** One call of the NIC's priority flow control: its priority and what it is given. */
        public record Call(int priority, int highWaterKib, int lowWaterKib, int pauseQuanta) {}

        /** The calls every device port's NIC gets, one per lossless priority. */
        public List<Call> calls() {
            List<Call> calls = new java.util.ArrayList<>();
            for (int p = 0; p < 8; p++) {
                if ((priorities >> p & 1) != 0) {
                    calls.add(new Call(p, highWaterKib, lowWaterKib, pauseQuanta));
                }
            }
            return calls;
        }
    }

    public SwitchConfig {
        ports = List.copyOf(ports);
        workers = List.copyOf(workers);
        if (core.ports() != ports.size()) {
            throw new IllegalArgumentException("the switch core has " + core.ports() + " ports, the switch " + ports.size());
        }
        int[] owner = new int[ports.size()];
        java.util.Arrays.fill(owner, -1);
        for (int w = 0; w < workers.size(); w++) {
            for (int p : workers.get(w).ports()) {
                if (p < 0 || p >= ports.size() || ports.get(p).isClone()) {
                    throw new IllegalArgumentException("worker " + w + " names port " + p + ", which is no port with a device");
                }
                if (owner[p] >= 0) {
                    throw new IllegalArgumentException("port " + ports.get(p).name() + " is owned by workers " + owner[p]
                            + " and " + w);
                }
                owner[p] = w;
            }
        }
        for (int p = 0; p < ports.size(); p++) {
            if (!ports.get(p).isClone() && owner[p] < 0) {
                throw new IllegalArgumentException("port " + ports.get(p).name() + " is owned by no worker");
            }
        }
        if (workers.isEmpty()) {
            throw new IllegalArgumentException("a switch needs at least one worker");
        }
    }

    /**
     * A poll-mode worker thread.
     *
     * @param cpus  CPU list it is pinned to, or null (not pinned)
     * @param ports the switch ports with a device it owns (polls, admits for and sends on); the clone
     *              ports of those ports are its too
     */
    public record Worker(String cpus, List<Integer> ports) {
        public Worker {
            ports = List.copyOf(ports);
        }
    }

    /** One worker, not pinned, that owns every port with a device of {@code ports}. */
    public static List<Worker> oneWorker(List<Port> ports) {
        List<Integer> devices = new java.util.ArrayList<>();
        for (int p = 0; p < ports.size(); p++) {
            if (!ports.get(p).isClone()) {
                devices.add(p);
            }
        }
        return List.of(new Worker(null, devices));
    }

    /**
     * By switch port, the index of the worker that owns it; a clone port belongs to its source's
     * worker (its copies arrive where the source's frames do).
     */
    public int[] workerOf() {
        int[] owner = new int[ports.size()];
        for (int w = 0; w < workers.size(); w++) {
            for (int p : workers.get(w).ports()) {
                owner[p] = w;
            }
        }
        for (int p = 0; p < ports.size(); p++) {
            if (ports.get(p).device() instanceof Device.Clone c) {
                owner[p] = owner[portIndex(c.source())];
            }
        }
        return owner;
    }

    public enum Hugepages { AUTO, ON, OFF }

    /**
     * @param lcores    EAL's {@code --lcores} value, or null for {@code 0@(every CPU this process may use)}
     * @param memoryMb  EAL memory ({@code -m})
     * @param hugepages use hugepages when reserved (AUTO), require them (ON) or never (OFF)
     * @param mbufs     packet buffers in the pool, 0 to size it from the ports
     * @param logLevel  EAL's {@code --log-level} value
     * @param extraArgs more EAL arguments, appended as given
     */
    public record Eal(String lcores, int memoryMb, Hugepages hugepages, int mbufs, String logLevel, List<String> extraArgs) {
        public Eal {
            extraArgs = List.copyOf(extraArgs);
        }

        public static Eal defaults() {
            return new Eal(null, 256, Hugepages.AUTO, 0, "*:warning", List.of());
        }
    }

    /**
     * @param name          how logs, counters and the configuration call the port
     * @param device        PCI address or vdev
     * @param mac           the switch port's own MAC (source of the PFC frames it will send), or -1 for the device's
     * @param speedBps      line rate: the shaper holds the port to it and PFC pause times are in its bit times
     * @param cableDelayNanos one-way delay to the neighbour (enters the headroom)
     * @param rxDescriptors rx ring size (0 for a clone port)
     * @param txDescriptors tx ring size (0 for a clone port)
     */
    public record Port(String name, Device device, long mac, long speedBps, long cableDelayNanos, int rxDescriptors,
                       int txDescriptors) {

        public boolean isClone() {
            return device instanceof Device.Clone;
        }
    }

    /** The same switch under another buffer-admission scheme. */
    public SwitchConfig withScheme(String scheme) {
        return new SwitchConfig(eal, ports, workers, core.withScheme(scheme), idleSleepNanos, hardwarePfc);
    }

    /** The same switch with shadow schemes beside the active one ({@link CoreConfig#shadows}; empty: none). */
    public SwitchConfig withShadows(List<String> shadows) {
        return new SwitchConfig(eal, ports, workers, core.withShadows(shadows), idleSleepNanos, hardwarePfc);
    }

    /** The ports with a device (DPDK opens these), in switch-port order. */
    public List<Port> devicePorts() {
        return ports.stream().filter(p -> !p.isClone()).toList();
    }

    /** Index of the port called {@code name}, or -1. */
    public int portIndex(String name) {
        for (int i = 0; i < ports.size(); i++) {
            if (ports.get(i).name().equals(name)) {
                return i;
            }
        }
        return -1;
    }
}

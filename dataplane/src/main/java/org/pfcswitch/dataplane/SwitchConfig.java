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
 * @param workerCpus     CPU list the one worker thread is pinned to, or null (not pinned)
 * @param core           the switch: MMU (buffer, scheme, one MMU port per switch port), classifier,
 *                       forwarding entries, PFC pause quanta
 * @param idleSleepNanos 0: the worker polls without pause (a core of its own); otherwise, after a pass
 *                       with nothing to do, it sleeps up to this long (never past its next timer)
 */
public record SwitchConfig(Eal eal, List<Port> ports, String workerCpus, CoreConfig core, long idleSleepNanos) {

    public SwitchConfig {
        ports = List.copyOf(ports);
        if (core.ports() != ports.size()) {
            throw new IllegalArgumentException("the switch core has " + core.ports() + " ports, the switch " + ports.size());
        }
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
        return new SwitchConfig(eal, ports, workerCpus, core.withScheme(scheme), idleSleepNanos);
    }

    /** The same switch with shadow schemes beside the active one ({@link CoreConfig#shadows}; empty: none). */
    public SwitchConfig withShadows(List<String> shadows) {
        return new SwitchConfig(eal, ports, workerCpus, core.withShadows(shadows), idleSleepNanos);
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

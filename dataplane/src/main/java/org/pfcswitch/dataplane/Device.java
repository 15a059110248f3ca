package org.pfcswitch.dataplane;

import java.util.regex.Pattern;

import org.pfcswitch.core.ClonePfc;

/**
 * Where a switch port's packets come from: a PCI network device, given to EAL with {@code -a},
 * or a DPDK virtual device ({@code net_ring0}, {@code net_null0}, {@code net_af_packet0,iface=veth0},
 * {@code net_af_xdp0,iface=veth1}, {@code net_tap0}, {@code net_memif0,role=server,socket=/tmp/m.sock}, ...),
 * hot-plugged after EAL started so that a failure names its port.
 */
public sealed interface Device {

    /** The ethdev name DPDK gives the port: the full PCI address, or the vdev name. */
    String ethdevName();

    /** {@code DDDD:BB:DD.F} or {@code BB:DD.F}, optionally followed by {@code ,devargs}. */
    record Pci(String address, String devargs) implements Device {
        @Override
        public String ethdevName() {
            return address;
        }

        /** The EAL allow-list argument value. */
        public String ealAllow() {
            return devargs.isEmpty() ? address : address + "," + devargs;
        }

        @Override
        public String toString() {
            return ealAllow();
        }
    }

    /** A virtual device: {@code name} as in {@code net_af_packet0}, and its comma-separated options. */
    record Vdev(String name, String args) implements Device {
        @Override
        public String ethdevName() {
            return name;
        }

        /** The driver part of the name, e.g. {@code net_af_packet} for {@code net_af_packet0}. */
        public String driver() {
            return name.replaceAll("[0-9_]+$", "");
        }

        /** Whether the driver is one DPDK's Debian build ships as a virtual device PMD. */
        public boolean knownDriver() {
            return KNOWN_VDEV_DRIVERS.contains(driver());
        }

        /** The value of option {@code key} (e.g. {@code iface}), or null. */
        public String option(String key) {
            return org.pfcswitch.dpdk.EthPort.deviceOption(args, key);
        }

        @Override
        public String toString() {
            return args.isEmpty() ? name : name + "," + args;
        }
    }

    /**
     * No device: a clone port. The switch replays every data frame that arrives on port
     * {@code source} as if it had also arrived on this port (with this port's station MAC as
     * source), as the SPFC testbed's virtual ports copy H1's traffic. Frames the switch sends out
     * of a clone port go nowhere; a PFC frame it sends there is ignored or stops the copies of its
     * priorities for its pause time, as {@code pfc} says.
     *
     * @param source  name of the port whose ingress is copied (a real port)
     * @param pfc     what a PAUSE sent to this port does
     */
    record Clone(String source, ClonePfc pfc) implements Device {
        @Override
        public String ethdevName() {
            return "clone of " + source;
        }

        @Override
        public String toString() {
            return "clone of " + source + " (pfc: " + pfc.name().toLowerCase(java.util.Locale.ROOT) + ")";
        }
    }

    /** Virtual-device PMDs in DPDK 22.11's Debian build (for error messages; DPDK decides). */
    java.util.Set<String> KNOWN_VDEV_DRIVERS = java.util.Set.of("net_ring", "net_null", "net_af_packet", "net_af_xdp",
            "net_tap", "net_tun", "net_memif", "net_pcap", "net_vhost", "net_virtio_user", "net_bonding", "net_failsafe",
            "net_softnic", "net_vdev_netvsc");

    Pattern PCI = Pattern.compile("(?:([0-9a-fA-F]{4}):)?([0-9a-fA-F]{2}):([0-9a-fA-F]{2})\\.([0-7])");
    Pattern PCI_LIKE = Pattern.compile("[0-9a-fA-F]{2}[:.].*");
    Pattern VDEV_NAME = Pattern.compile("net_[a-z][a-z0-9_]*");

    /**
     * Parses a device string.
     *
     * @throws IllegalArgumentException saying what was wrong: a malformed PCI address, or
     *                                  something that is neither PCI nor {@code net_<driver><N>}
     */
    static Device parse(String text) {
        String s = text.trim();
        int comma = s.indexOf(',');
        String head = comma < 0 ? s : s.substring(0, comma).trim();
        String rest = comma < 0 ? "" : s.substring(comma + 1).trim();
        if (head.isEmpty()) {
            throw new IllegalArgumentException("empty device (want a PCI address like 0000:3b:00.0 or a vdev like net_af_packet0,iface=eth1)");
        }
        if (!head.startsWith("net_") && (head.contains(":") || PCI_LIKE.matcher(head).matches())) {
            var m = PCI.matcher(head);
            if (!m.matches()) {
                throw new IllegalArgumentException("malformed PCI address '" + head
                        + "' (want DDDD:BB:DD.F or BB:DD.F with hex digits and function 0-7, e.g. 0000:3b:00.0)");
            }
            String domain = m.group(1) == null ? "0000" : m.group(1);
            return new Pci((domain + ":" + m.group(2) + ":" + m.group(3) + "." + m.group(4)).toLowerCase(java.util.Locale.ROOT), rest);
        }
        if (!VDEV_NAME.matcher(head).matches()) {
            throw new IllegalArgumentException("'" + head + "' is neither a PCI address (0000:3b:00.0) nor a DPDK"
                    + " virtual device name (net_ring0, net_null0, net_af_packet0, net_af_xdp0, net_tap0, net_memif0, ...)");
        }
        return new Vdev(head, rest);
    }
}

package org.pfcswitch.cli.switchconfig;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.dataplane.Device;
import org.pfcswitch.dataplane.SwitchConfig;

/**
 * The {@code testbed:} part of a configuration: hosts as network namespaces, each joined to the
 * switch by a veth pair. Host {@code h0} with prefix {@code pfcsw-} is namespace {@code pfcsw-h0}
 * with {@code eth0} inside, and its switch-side end is interface {@code pfcsw-h0} in the root
 * namespace, which the switch port {@code switchPort} must use ({@code iface=pfcsw-h0}).
 *
 * <pre>
 * testbed:
 *   namespacePrefix: pfcsw-
 *   hosts:
 *     - {name: h0, ip: 10.99.0.1/24, mac: 02:00:00:00:00:01, switchPort: h0}
 * </pre>
 *
 * @param namespacePrefix prepended to host names for namespaces and switch-side interfaces
 */
public record TestbedConfig(String namespacePrefix, List<Host> hosts) {

    /**
     * @param mac the host's eth0 MAC, or -1 to keep the kernel's random one
     */
    public record Host(String name, String namespace, String switchInterface, String ipCidr, long mac, String switchPort) {}

    public static TestbedConfig read(ConfigNode root, SwitchConfig switchConfig) {
        ConfigNode t = root.child("testbed");
        t.allowOnly("namespacePrefix", "hosts");
        String prefix = t.string("namespacePrefix", "pfcsw-");
        if (!prefix.matches("[A-Za-z0-9_.-]{0,12}")) {
            throw t.error("namespacePrefix", "use up to 12 letters, digits, '_', '.' or '-', got '" + prefix + "'");
        }
        List<ConfigNode> nodes = t.children("hosts");
        if (nodes.isEmpty()) {
            throw t.error("hosts", "missing: a testbed needs at least one host");
        }
        List<Host> hosts = new ArrayList<>();
        Set<String> names = new HashSet<>();
        Set<String> ips = new HashSet<>();
        for (ConfigNode h : nodes) {
            h.allowOnly("name", "ip", "mac", "switchPort");
            String name = h.string("name");
            String iface = prefix + name;
            if (!name.matches("[A-Za-z0-9_-]+") || iface.length() > 15) {
                throw h.error("name", "'" + iface + "' (prefix + name) must be a valid interface name of at most 15 characters");
            }
            if (!names.add(name)) {
                throw h.error("name", "duplicate host '" + name + "'");
            }
            String ip = h.string("ip");
            if (!ip.matches("(\\d{1,3}\\.){3}\\d{1,3}/\\d{1,2}")) {
                throw h.error("ip", "expected an IPv4 address with prefix length like 10.99.0.1/24, got '" + ip + "'");
            }
            if (!ips.add(ip.substring(0, ip.indexOf('/')))) {
                throw h.error("ip", "duplicate address " + ip);
            }
            long mac = h.has("mac") ? SwitchConfigReader.mac(h, "mac") : -1;
            if (mac >= 0 && MacAddress.isMulticast(mac)) {
                throw h.error("mac", "a host needs a unicast MAC, got " + MacAddress.format(mac));
            }
            String port = h.string("switchPort");
            int index = switchConfig.portIndex(port);
            if (index < 0) {
                throw h.error("switchPort", "no port is called '" + port + "'");
            }
            Device device = switchConfig.ports().get(index).device();
            String portIface = device instanceof Device.Vdev v ? v.option("iface") : null;
            if (!iface.equals(portIface)) {
                throw h.error("switchPort", "port " + port + " must attach to the host's veth: device \"net_af_packetN,iface=" + iface
                        + "\" or \"net_af_xdpN,iface=" + iface + "\" (it has " + device + ")");
            }
            hosts.add(new Host(name, prefix + name, iface, ip, mac, port));
        }
        return new TestbedConfig(prefix, hosts);
    }
}

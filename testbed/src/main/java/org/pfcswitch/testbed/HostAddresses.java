package org.pfcswitch.testbed;

import org.pfcswitch.core.YamlNamed;

/**
 * How a testbed numbers its hosts' IPv4 addresses. The address is in every frame's 5-tuple, so it
 * decides which uplink a hashed ECMP group picks: to send a flow down the path ns-3 sends it, a
 * host needs ns-3's address as well as its ports and the switch's seed.
 */
public enum HostAddresses implements YamlNamed {

    /** Host i is 10.0.0.(1 + i), counting on into the third byte past 255 (pfcswitch's default). */
    PFCSWITCH("pfcswitch") {
        @Override
        public int of(int host) {
            return 0x0A00_0001 + host;
        }
    },

    /** Host i is ns-3 node i's address in its datacenter examples ({@code node_id_to_ip}): 11.0.(i mod 256).1, plus i / 256 in the second byte. */
    NS3("ns3") {
        @Override
        public int of(int host) {
            return 0x0B00_0001 + (host / 256) * 0x0001_0000 + (host % 256) * 0x0000_0100;
        }
    };

    private final String yamlName;

    HostAddresses(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The IPv4 address of host {@code host}, as an int in network byte order read big-endian (10.0.0.1 = 0x0A000001). */
    public abstract int of(int host);

    @Override
    public String yamlName() {
        return yamlName;
    }
}

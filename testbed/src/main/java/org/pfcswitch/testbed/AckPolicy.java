package org.pfcswitch.testbed;

import org.pfcswitch.core.YamlNamed;

/**
 * Which data packets the receiving NIC acknowledges with an RC ACK. Each constant is its own
 * policy, chosen once per host. The sender only acts on the ACK of a flow's last packet (its
 * completion time); other ACKs are reverse traffic that queues and pauses like any control frame.
 */
public enum AckPolicy implements YamlNamed {

    /** The packets that ask for one: the last of each message (the default). */
    MESSAGE("message") {
        @Override
        boolean acks(boolean ackRequested) {
            return ackRequested;
        }
    },

    /** Every data packet (the ns-3 datacenter simulators with an ACK interval of one packet). */
    PACKET("packet") {
        @Override
        boolean acks(boolean ackRequested) {
            return true;
        }
    };

    private final String yamlName;

    AckPolicy(String yamlName) {
        this.yamlName = yamlName;
    }

    /** Whether a data packet (that asks for an ACK or not) is acknowledged. */
    abstract boolean acks(boolean ackRequested);

    @Override
    public String yamlName() {
        return yamlName;
    }
}

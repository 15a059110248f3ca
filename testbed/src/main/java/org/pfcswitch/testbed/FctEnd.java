package org.pfcswitch.testbed;

import org.pfcswitch.core.YamlNamed;

/**
 * Where a flow's completion time ends (a measurement choice, not a behaviour): when its last byte
 * reaches the receiver (pfcswitch's default), or when the ACK of its last packet reaches the sender
 * (ns-3's datacenter examples record the FCT in the sender's QP-finish callback, so their FCT adds the
 * ACK's way back, queueing included).
 */
public enum FctEnd implements YamlNamed {
    LAST_BYTE("lastByte"),
    LAST_ACK("lastAck");

    private final String yamlName;

    FctEnd(String yamlName) {
        this.yamlName = yamlName;
    }

    @Override
    public String yamlName() {
        return yamlName;
    }
}

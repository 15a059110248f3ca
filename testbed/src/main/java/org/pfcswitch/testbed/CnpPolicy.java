package org.pfcswitch.testbed;

import org.pfcswitch.core.YamlNamed;

/**
 * When the DCQCN notification point (the receiving NIC) answers a CE-marked data packet with a
 * CNP. Each constant is its own policy, chosen once per host.
 */
public enum CnpPolicy implements YamlNamed {

    /** At most one CNP per QP per {@link DcqcnConfig#cnpIntervalNanos()} (NICs, and the default). */
    PER_INTERVAL("perInterval") {
        @Override
        boolean sendFor(Flow f, long now, long intervalNanos) {
            if (f.lastCnpAt != Long.MIN_VALUE && now - f.lastCnpAt < intervalNanos) {
                return false;
            }
            f.lastCnpAt = now;
            return true;
        }
    },

    /**
     * One per marked packet (the ns-3 datacenter simulators: every ACK of a marked packet carries
     * the CNP flag); the sender limits its reaction instead (its rate-decrease interval).
     */
    PER_MARKED_PACKET("perMarkedPacket") {
        @Override
        boolean sendFor(Flow f, long now, long intervalNanos) {
            f.lastCnpAt = now;
            return true;
        }
    },

    /**
     * One per marked packet, carried by that packet's ACK as its BTH BECN bit instead of a CNP frame
     * of its own (the ns-3 datacenter simulators: {@code rdma-hw.cc} sets a CNP flag on the ACK of a
     * CE-marked packet and has no CNP packet). So a marked packet costs the reverse path one control
     * frame, not two, in the queue the ACKs share with data. A marked packet that gets no ACK
     * ({@code ackEvery: message}) still gets a CNP frame, so no notification is lost.
     */
    ON_ACK("onAck") {
        @Override
        boolean sendFor(Flow f, long now, long intervalNanos) {
            f.lastCnpAt = now;
            return true;
        }

        @Override
        boolean ridesOnAck() {
            return true;
        }
    };

    private final String yamlName;

    CnpPolicy(String yamlName) {
        this.yamlName = yamlName;
    }

    /** Whether a CE-marked packet of {@code f} arriving at {@code now} gets a CNP (and notes it). */
    abstract boolean sendFor(Flow f, long now, long intervalNanos);

    /** Whether the CNP is the BECN bit of the marked packet's own ACK when it gets one (else a CNP frame). */
    boolean ridesOnAck() {
        return false;
    }

    @Override
    public String yamlName() {
        return yamlName;
    }
}

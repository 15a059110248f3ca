package org.pfcswitch.codec;

/**
 * A flow's identity as a value, for control-plane users (flow tables shown in the CLI,
 * per-flow records). The hot path uses {@link ParsedFrame#flowHash()} and never builds one.
 * {@code destQp} is -1 for traffic that is not RoCEv2.
 */
public record FlowKey(int srcIp, int dstIp, int protocol, int srcPort, int dstPort, int destQp) {

    /** The key of a parsed IPv4 frame. */
    public static FlowKey of(ParsedFrame f) {
        return new FlowKey(f.srcIp(), f.dstIp(), f.ipProtocol(), f.udpSrcPort(), f.udpDstPort(), f.destQp());
    }

    public long hash() {
        return FlowHash.hash(srcIp, dstIp, protocol, srcPort, dstPort, destQp);
    }

    @Override
    public String toString() {
        String base = Ipv4.format(srcIp) + ":" + srcPort + " -> " + Ipv4.format(dstIp) + ":" + dstPort + " proto " + protocol;
        return destQp >= 0 ? base + " qp " + destQp : base;
    }
}

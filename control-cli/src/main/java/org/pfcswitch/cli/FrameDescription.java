package org.pfcswitch.cli;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.FrameKind;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.Roce;

/**
 * One parsed frame as a line for people or as a JSON object for programs. A malformed frame
 * is reported with its reason and with every field parsed before the error. Whether a frame is
 * malformed, and why, is the parser's {@link org.pfcswitch.codec.ParseError} alone: the
 * classification the switch counts by, so {@code decode} of a capture and the switch that
 * received it count the same frames under the same reasons.
 */
final class FrameDescription {
    static final String IPV4_CHECKSUM_MISMATCH = "IPv4 header checksum mismatch";

    private FrameDescription() {}

    /**
     * A bad IPv4 header checksum, which decode checks and the switch does not (it forwards such a
     * frame, as an L2 switch does): a remark, not a malformed frame.
     */
    static boolean ipv4ChecksumMismatch(ParsedFrame f) {
        return f.hasIpv4() && !f.ipv4ChecksumValid();
    }

    static String type(ParsedFrame f) {
        return f.isMalformed() ? "malformed" : f.kind().label();
    }

    static String json(long index, ParsedFrame f) {
        JsonOutput j = new JsonOutput().beginObject().field("index", index).field("type", type(f)).field("length", f.length());
        if (f.isMalformed()) {
            j.field("error", f.error().reason()).field("reason", f.error().label());
        }
        if (f.length() < 14) {
            return j.endObject().toString();
        }
        j.field("dst", MacAddress.format(f.dstMac())).field("src", MacAddress.format(f.srcMac()))
                .field("etherType", f.etherType());
        if (f.isTagged()) {
            j.field("vlan", f.vid()).field("pcp", f.pcp()).field("dei", f.dei());
        }
        if (f.hasBfcShim()) {
            j.field("bfcUpstreamQ", f.upstreamQueue()).field("bfcSenderIsBfc", f.bfcSenderIsBfc());
        }
        if (f.kind() == FrameKind.PFC) {
            j.field("classEnable", f.classEnable()).field("quanta", quanta(f));
        } else if (f.kind() == FrameKind.PAUSE) {
            j.field("pauseQuanta", f.pauseQuanta());
        } else if (f.isBfcControl()) {
            j.field("bfcOp", Bfc.opName(f.bfcOp())).field("bfcSeq", f.bfcSeq());
            if (f.bfcOp() == Bfc.OP_BITMAP) {
                j.field("bfcQueues", f.bfcBitmapQueues()).field("bfcPaused", pausedQueues(f));
            } else {
                j.field("bfcQueue", f.bfcQueue());
            }
        }
        if (f.hasIpv4()) {
            j.field("srcIp", Ipv4.format(f.srcIp())).field("dstIp", Ipv4.format(f.dstIp()))
                    .field("dscp", f.dscp()).field("ecn", f.ecn()).field("ipProtocol", f.ipProtocol())
                    .field("ipv4ChecksumOk", f.ipv4ChecksumValid());
        }
        if (f.udpDstPort() >= 0) {
            j.field("udpSrcPort", f.udpSrcPort()).field("udpDstPort", f.udpDstPort());
        }
        if (f.isRoce()) {
            j.field("bthOpcode", f.bthOpcode()).field("destQp", f.destQp()).field("psn", f.psn())
                    .field("ackReq", f.ackRequested());
            if (f.hasAeth()) {
                j.field("aethSyndrome", f.aethSyndrome()).field("msn", f.aethMsn());
            }
        }
        return j.endObject().toString();
    }

    static String text(long index, ParsedFrame f) {
        StringBuilder sb = new StringBuilder(96).append('#').append(index).append(' ').append(type(f))
                .append(" len ").append(f.length());
        if (f.isMalformed()) {
            sb.append(" (").append(f.error().label()).append(": ").append(f.error().reason()).append(')');
        }
        if (f.length() < 14) {
            return sb.toString();
        }
        sb.append(' ').append(MacAddress.format(f.srcMac())).append(" > ").append(MacAddress.format(f.dstMac()));
        if (f.isTagged()) {
            sb.append(" vlan ").append(f.vid()).append(" pcp ").append(f.pcp());
        }
        if (f.hasBfcShim()) {
            sb.append(" bfc upstream-q ").append(f.upstreamQueue() == Bfc.NO_UPSTREAM_QUEUE ? "none" : f.upstreamQueue());
            if (!f.bfcSenderIsBfc()) {
                sb.append(" (sender not bfc)");
            }
        }
        switch (f.kind()) {
            case PFC -> sb.append(String.format(" class-enable 0x%02x quanta %s", f.classEnable(),
                    java.util.Arrays.toString(quanta(f))));
            case PAUSE -> sb.append(" pause quanta ").append(f.pauseQuanta());
            case BFC_CONTROL -> {
                sb.append(' ').append(Bfc.opName(f.bfcOp())).append(" seq ").append(f.bfcSeq());
                if (f.bfcOp() == Bfc.OP_BITMAP) {
                    sb.append(" queues ").append(f.bfcBitmapQueues()).append(" paused ")
                            .append(java.util.Arrays.toString(pausedQueues(f)));
                } else {
                    sb.append(" queue ").append(f.bfcQueue());
                }
            }
            default -> { }
        }
        if (f.hasIpv4()) {
            sb.append(' ').append(Ipv4.format(f.srcIp())).append(" > ").append(Ipv4.format(f.dstIp()))
                    .append(" dscp ").append(f.dscp()).append(" ecn ").append(f.ecn());
            if (ipv4ChecksumMismatch(f)) {
                sb.append(" (").append(IPV4_CHECKSUM_MISMATCH).append(')');
            }
        }
        if (f.udpDstPort() >= 0) {
            sb.append(" udp ").append(f.udpSrcPort()).append(" > ").append(f.udpDstPort());
        }
        if (f.isRoce()) {
            sb.append(' ').append(Roce.opcodeName(f.bthOpcode())).append(" qp ").append(f.destQp())
                    .append(" psn ").append(f.psn());
            if (f.hasAeth()) {
                sb.append(" syndrome 0x").append(Integer.toHexString(f.aethSyndrome())).append(" msn ").append(f.aethMsn());
            }
        }
        return sb.toString();
    }

    /** The queues a BFC BITMAP marks paused, ascending. */
    private static int[] pausedQueues(ParsedFrame f) {
        int[] q = new int[Long.bitCount(f.bfcBitmapLow()) + Long.bitCount(f.bfcBitmapHigh())];
        int n = 0;
        for (int i = 0; i < f.bfcBitmapQueues(); i++) {
            if (f.bfcQueuePausedInBitmap(i)) {
                q[n++] = i;
            }
        }
        return q;
    }

    private static int[] quanta(ParsedFrame f) {
        int[] q = new int[MacControl.PRIORITIES];
        for (int p = 0; p < q.length; p++) {
            q[p] = f.quanta(p);
        }
        return q;
    }
}

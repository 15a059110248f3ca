package org.pfcswitch.testbed;

import java.util.Locale;

/**
 * Whose a live lossless drop is, from the facts on both ends: the switch's record of the drop and
 * of its queue's headroom ({@link Drop}) against the sender's own log ({@link HostSendLog}).
 *
 * <p>A queue's headroom holds {@code hd} bytes when a frame is dropped; every one of them arrived
 * after the first frame into that headroom since it was last empty, and so was sent after it. A
 * host paced at rate {@code r} needs at least {@code (hd - one frame) / r} between starting that
 * first frame and starting the dropped one. Hence, in order:
 * <ol>
 *   <li>{@link Kind#SWITCH}: no XOFF frame had gone out in the episode, the headroom had room for
 *       another frame (the scheme dropped below what it promised the queue), or the sender's send
 *       times span less than {@code (hd - one frame) / r} (the switch charged the headroom with more
 *       than that sender sent);</li>
 *   <li>{@link Kind#HOST}: the sender started the frame after it took the XOFF (on its own clock);</li>
 *   <li>{@link Kind#WIRE}: otherwise. The sender obeyed and the headroom held all it could: the pause
 *       took longer than the headroom's line time to stop the sender, the time of the emulated
 *       wires (kernel queues, a descheduled switch or host thread). The XOFF's delivery time and the
 *       first headroom frame's trip are given: on a real cable both are microseconds.</li>
 *   <li>{@link Kind#UNMATCHED}: a frame is not in the sender's log (not RoCE, or past its capacity).</li>
 * </ol>
 */
public final class DropAttribution {

    public enum Kind { WIRE, SWITCH, HOST, UNMATCHED }

    /**
     * One lossless drop as the switch saw it, times on {@link System#nanoTime()}; -1 for a time that
     * does not exist (no XOFF frame yet, no frame into the headroom).
     *
     * @param host               the sender's index in the {@link HostSendLog}
     * @param headroomBytes      bytes in the queue's headroom at the drop
     * @param queueHeadroomBytes the headroom the scheme gives the queue
     */
    public record Drop(int host, int priority, int qp, int psn, long at, long xoffSentAt, int firstQp, int firstPsn,
                       long firstHeadroomAt, long headroomBytes, long queueHeadroomBytes) {}

    /** The verdict and the facts it rests on, in words. */
    public record Result(Kind kind, String why, long xoffDeliveryNanos, long firstTripNanos) {}

    private final HostSendLog log;
    private final long[] rateBps;
    private final int maxFrameBytes;

    /**
     * @param rateBps       by host: its line rate (its pacing)
     * @param maxFrameBytes the largest frame a sender sends
     */
    public DropAttribution(HostSendLog log, long[] rateBps, int maxFrameBytes) {
        this.log = log;
        this.rateBps = rateBps.clone();
        this.maxFrameBytes = maxFrameBytes;
    }

    public Result attribute(Drop d) {
        long queueHeadroomBytes = d.queueHeadroomBytes();
        if (d.xoffSentAt() < 0) {
            return new Result(Kind.SWITCH, "dropped before any XOFF frame went out to its sender", -1, -1);
        }
        if (d.headroomBytes() + maxFrameBytes <= queueHeadroomBytes) {
            return new Result(Kind.SWITCH, "dropped with " + d.headroomBytes() + " B of the queue's " + queueHeadroomBytes
                    + " B headroom used", -1, -1);
        }
        int lost = d.qp() < 0 ? -1 : log.sent(d.host(), d.qp(), d.psn());
        int first = d.firstHeadroomAt() < 0 || d.firstQp() < 0 ? -1 : log.sent(d.host(), d.firstQp(), d.firstPsn());
        if (lost < 0 || first < 0) {
            return new Result(Kind.UNMATCHED, "QP " + d.qp() + " PSN " + d.psn() + (lost < 0 ? " is" : " is in, its first"
                    + " headroom frame is") + " not in the sender's log", -1, -1);
        }
        long span = log.sentHostAt(lost) - log.sentHostAt(first);
        long needed = (d.headroomBytes() - maxFrameBytes) * 8 * 1_000_000_000L / rateBps[d.host()];
        long firstTrip = d.firstHeadroomAt() - log.sentSystemAt(first);
        int pause = log.firstPauseFrom(d.host(), d.priority(), d.xoffSentAt());
        long delivery = pause < 0 ? -1 : log.pauseSystemAt(pause) - d.xoffSentAt();
        if (span < needed) {
            return new Result(Kind.SWITCH, String.format(Locale.ROOT, "the headroom held %d B, but its sender started only"
                    + " %.3f ms of frames since the first of them (%.3f ms at its rate)", d.headroomBytes(), span / 1e6,
                    needed / 1e6), delivery, firstTrip);
        }
        if (pause >= 0 && log.sentHostAt(lost) > log.pauseHostAt(pause)) {
            return new Result(Kind.HOST, String.format(Locale.ROOT, "its sender started it %.3f ms after it took the XOFF",
                    (log.sentHostAt(lost) - log.pauseHostAt(pause)) / 1e6), delivery, firstTrip);
        }
        return new Result(Kind.WIRE, String.format(Locale.ROOT, "sent before its host took the XOFF; the headroom's %d B"
                        + " were %.3f ms of its frames; the XOFF took %s to reach the host, the first headroom frame %.3f ms"
                        + " to reach the switch", d.headroomBytes(), span / 1e6,
                delivery < 0 ? "longer than until the drop" : String.format(Locale.ROOT, "%.3f ms", delivery / 1e6),
                firstTrip / 1e6), delivery, firstTrip);
    }
}

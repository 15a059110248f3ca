package org.pfcswitch.core;

/**
 * The switch's own account of the lossless drops of senders that obey PFC, frame by frame, so each
 * can be traced back to its sender: which RoCE frame was lost (destination QP, PSN), when, and, for the pause episode it fell
 * in, when the first XOFF frame went out and which frame was the first into the headroom since it
 * was last empty.
 *
 * <p>Why the first headroom frame: a queue's headroom overflows only once the sender has put more
 * than the headroom's worth of bytes on the wire between that frame and the one lost. A sender
 * that obeys PFC sends both before it takes the XOFF, so matching the two frames against the
 * sender's own send log tells whether the headroom was overrun by frames honestly in flight (the
 * pause took longer than the headroom's line time to take effect) or by accounting that charged
 * the headroom with more than that sender sent.
 *
 * <p>Under bfc nothing is logged: its pauses are not PFC XOFF frames, so there is no XOFF to
 * judge a drop against. Written by the switch's thread only, off the fast path (on a drop, and on the first headroom
 * admission of an episode); nothing is allocated. Holds the first {@link #CAPACITY} drops; later
 * ones are counted in {@link #overflow}.
 */
public final class LosslessDropLog {

    /** Drops recorded in full; enough to judge a run, small enough to scan. */
    public static final int CAPACITY = 4096;
    /** QP or PSN of a frame that is not RoCE. */
    public static final int NOT_ROCE = -1;

    private final int[] key = new int[CAPACITY];
    private final int[] qp = new int[CAPACITY];
    private final int[] psn = new int[CAPACITY];
    private final long[] at = new long[CAPACITY];
    private final long[] xoffSentAt = new long[CAPACITY];
    private final int[] firstHeadroomQp = new int[CAPACITY];
    private final int[] firstHeadroomPsn = new int[CAPACITY];
    private final long[] firstHeadroomAt = new long[CAPACITY];
    private final long[] headroomBytes = new long[CAPACITY];
    private int size;
    private long overflow;

    // By (ingress port, priority): the first frame admitted into headroom since it was last empty, or -1 (at).
    private final int[] episodeQp;
    private final int[] episodePsn;
    private final long[] episodeAt;

    LosslessDropLog(int keys) {
        episodeQp = new int[keys];
        episodePsn = new int[keys];
        episodeAt = new long[keys];
        java.util.Arrays.fill(episodeAt, -1);
    }

    /**
     * Queue {@code k}'s headroom was empty and took a frame at {@code now}: every byte in that
     * headroom from now until it is empty again was sent at or after this frame.
     */
    void headroomAdmitted(int k, int destQp, int framePsn, long now) {
        episodeQp[k] = destQp;
        episodePsn[k] = framePsn;
        episodeAt[k] = now;
    }

    /**
     * A lossless frame of queue {@code k} was dropped at {@code now} with {@code headroom} bytes in
     * the queue's headroom; {@code xoffSent} is the episode's first XOFF frame, or -1.
     */
    void dropped(int k, int destQp, int framePsn, long now, long xoffSent, long headroom) {
        if (size == CAPACITY) {
            overflow++;
            return;
        }
        int i = size++;
        key[i] = k;
        qp[i] = destQp;
        psn[i] = framePsn;
        at[i] = now;
        xoffSentAt[i] = xoffSent;
        firstHeadroomQp[i] = episodeQp[k];
        firstHeadroomPsn[i] = episodePsn[k];
        firstHeadroomAt[i] = episodeAt[k];
        headroomBytes[i] = headroom;
    }

    /** Drops recorded. */
    public int size() { return size; }
    /** Drops past {@link #CAPACITY}, counted only. */
    public long overflow() { return overflow; }
    public int port(int i) { return key[i] / SwitchCounters.PRIORITIES; }
    public int priority(int i) { return key[i] % SwitchCounters.PRIORITIES; }
    /** The lost frame's destination QP, or {@link #NOT_ROCE}. */
    public int qp(int i) { return qp[i]; }
    public int psn(int i) { return psn[i]; }
    /** When it was dropped, on the core's clock. */
    public long at(int i) { return at[i]; }
    /** When the episode's first XOFF frame went out, on the core's clock, or -1 if none had. */
    public long xoffSentAt(int i) { return xoffSentAt[i]; }
    /** The first frame into the queue's headroom since it was last empty: its QP, PSN and time, or -1 (time) if none. */
    public int firstHeadroomQp(int i) { return firstHeadroomQp[i]; }
    public int firstHeadroomPsn(int i) { return firstHeadroomPsn[i]; }
    public long firstHeadroomAt(int i) { return firstHeadroomAt[i]; }
    /** Bytes in the queue's headroom when the frame was dropped. */
    public long headroomBytes(int i) { return headroomBytes[i]; }
}

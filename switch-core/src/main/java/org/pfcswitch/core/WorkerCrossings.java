package org.pfcswitch.core;

import org.pfcswitch.core.ring.SpscLongRing;
import org.pfcswitch.mmu.scheme.BfcBackpressure;

/**
 * One worker's hand-offs to and from the other workers of a switch whose ports are split among
 * threads ({@link SwitchWorkers}). A port's ingress and egress belong to one worker. A frame that
 * arrives on one worker's port and leaves by another's crosses twice:
 * <ol>
 *   <li>the ingress worker admits it (its MMU charges its ledger) and sends it to the egress
 *       worker's <em>frame ring</em>: handle, metadata and the link control's flow word
 *       ({@link LinkControl#flowWord}), {@value #FRAME_LONGS} longs; the egress worker picks its queue;</li>
 *   <li>when it leaves, the egress worker sends a <em>release</em> back to the ingress worker's
 *       release ring ({@value #RELEASE_LONGS} long), which frees it from the ledger that charged it,
 *       so per-ingress-queue bytes and headroom keep one writer.</li>
 * </ol>
 * A third ring per pair carries the stations a worker learns on its ports (MAC and port), so every
 * worker's forwarding table knows them; a station lost to a full learn ring is only flooded to
 * until it is learned again. Under a scheme that pauses per queue (bfc) a fourth, the <em>pause
 * ring</em> ({@value #PAUSE_LONGS} long), carries each 0→1 and 1→0 of an egress worker's count of
 * marked frames from an upstream queue of another worker's port to that port's worker, which sends
 * the pause or resume upstream; it is published at once (transitions are rare, and each waits for
 * the ingress worker's next pass anyway).
 * Each ordered pair of workers has one ring of each kind ({@link SpscLongRing}: single producer,
 * single consumer; the producer's release store of its index publishes the records, the consumer's
 * acquire load sees them, and the frame's bytes written before, an ECN mark included). Records are
 * written in place and published in bursts ({@link #flush}, and at the latest every
 * {@value #PUBLISH_BURST} records), so a ring's producer index moves once per burst, not per frame.
 *
 * <p>The caller sizes the rings to hold every frame that can be in the switch at once (the packet
 * pool, or the buffer over the smallest frame), and the pause ring twice that (a frame makes at
 * most one transition when it joins a queue and one when it leaves), so they never fill in a
 * correct run; if one does, nothing is lost silently: a frame is dropped, released and counted, a
 * pause or resume counted.
 */
final class WorkerCrossings {

    static final int FRAME_LONGS = 4;
    static final int RELEASE_LONGS = 1;
    static final int PAUSE_LONGS = 1;
    static final int LEARNED_LONGS = 1;
    /** Stations a learn ring holds: learning is rare once a network is known, and a lost one only floods a while. */
    static final int LEARNED_CAPACITY = 1024;
    /** Records written before a ring's producer index is published without waiting for {@link #flush}. */
    static final int PUBLISH_BURST = 32;
    /** Records taken from one ring per drain, so one busy peer cannot hold a worker off its own ports. */
    private static final int DRAIN_BURST = 256;

    private final int me;
    private final int[] workerOf;
    private final SpscLongRing[] framesTo;       // by worker; null for me
    private final SpscLongRing[] releasesTo;
    private final SpscLongRing[] framesFrom;
    private final SpscLongRing[] releasesFrom;
    private final SpscLongRing[] learnedTo;
    private final SpscLongRing[] learnedFrom;
    private final SpscLongRing[] pausesTo;       // by worker; null when the scheme pauses with PFC
    private final SpscLongRing[] pausesFrom;
    private final int[] pendingFrames;           // by worker: written, not yet published
    private final int[] pendingReleases;

    /** The rings of worker {@code me}; {@code pausesTo} and {@code pausesFrom} null unless the scheme pauses per queue. */
    WorkerCrossings(int me, int[] workerOf, SpscLongRing[] framesTo, SpscLongRing[] releasesTo,
                    SpscLongRing[] learnedTo, SpscLongRing[] pausesTo, SpscLongRing[] framesFrom,
                    SpscLongRing[] releasesFrom, SpscLongRing[] learnedFrom, SpscLongRing[] pausesFrom) {
        this.me = me;
        this.workerOf = workerOf;
        this.framesTo = framesTo;
        this.releasesTo = releasesTo;
        this.learnedTo = learnedTo;
        this.framesFrom = framesFrom;
        this.releasesFrom = releasesFrom;
        this.learnedFrom = learnedFrom;
        this.pausesTo = pausesTo;
        this.pausesFrom = pausesFrom;
        this.pendingFrames = new int[framesTo.length];
        this.pendingReleases = new int[releasesTo.length];
    }

    /** Whether {@code port} belongs to this worker. */
    boolean owns(int port) {
        return workerOf[port] == me;
    }

    // ------------------------------------------------------------------ producer side

    /**
     * Sends an admitted frame to the worker that owns {@code outPort}.
     *
     * @return false when that ring is full (the caller drops and releases the frame)
     */
    boolean sendFrame(long handle, int inPort, int priority, int outPort, int length, short ipv4Offset,
                      int shadowsHeld, long flowWord) {
        int to = workerOf[outPort];
        SpscLongRing ring = framesTo[to];
        int k = pendingFrames[to];
        if (ring.claim(k + 1) <= k) {
            ring.countDropped();
            return false;
        }
        long[] b = ring.buffer();
        int i = ring.writeIndex(k);
        b[i] = handle;
        b[i + 1] = (length & 0xFFFFL) | (ipv4Offset & 0xFFFFL) << 16 | (long) inPort << 32 | (long) outPort << 48;
        b[i + 2] = priority | (shadowsHeld & 0xFF) << 8;
        b[i + 3] = flowWord;
        if (++pendingFrames[to] >= PUBLISH_BURST) {
            ring.publish(pendingFrames[to]);
            pendingFrames[to] = 0;
        }
        return true;
    }

    /**
     * Sends the release of a frame that {@code inPort}'s worker admitted and this worker sent.
     *
     * @return false when that ring is full (cannot happen while it holds as many records as the
     *         switch holds frames; the caller counts it)
     */
    boolean sendRelease(int inPort, int priority, int outPort, int length, int shadowsHeld) {
        int to = workerOf[inPort];
        SpscLongRing ring = releasesTo[to];
        int k = pendingReleases[to];
        if (ring.claim(k + 1) <= k) {
            ring.countDropped();
            return false;
        }
        ring.buffer()[ring.writeIndex(k)] = (long) inPort | (long) outPort << 16 | (length & 0xFFFFL) << 32
                | (long) (priority & 0xFF) << 48 | (long) (shadowsHeld & 0xFF) << 56;
        if (++pendingReleases[to] >= PUBLISH_BURST) {
            ring.publish(pendingReleases[to]);
            pendingReleases[to] = 0;
        }
        return true;
    }

    /** Tells every other worker that {@code mac} is behind {@code port} (published at once: it is rare). */
    void sendLearned(long mac, int port) {
        for (SpscLongRing ring : learnedTo) {
            if (ring == null) {
                continue;
            }
            if (ring.claim(1) < 1) {
                ring.countDropped();
                continue;
            }
            ring.buffer()[ring.writeIndex(0)] = mac << 16 | port;
            ring.publish(1);
        }
    }

    /**
     * Tells the worker that owns {@code inPort} that this worker's queues came to hold a marked
     * frame from its upstream queue {@code upstreamQueue} ({@code pause}) or no longer do.
     *
     * @return false when that ring is full (cannot happen with the ring sized as above; the caller counts it)
     */
    boolean sendUpstreamPause(int inPort, int upstreamQueue, boolean pause) {
        SpscLongRing ring = pausesTo[workerOf[inPort]];
        if (ring.claim(1) < 1) {
            ring.countDropped();
            return false;
        }
        ring.buffer()[ring.writeIndex(0)] = (inPort & 0xFFFFL) | (upstreamQueue & 0xFFFFL) << 16 | (pause ? 1L << 32 : 0);
        ring.publish(1);
        return true;
    }

    /** Publishes every record written since the last flush (once per pass of the driver). */
    void flush() {
        for (int w = 0; w < pendingFrames.length; w++) {
            if (pendingFrames[w] > 0) {
                framesTo[w].publish(pendingFrames[w]);
                pendingFrames[w] = 0;
            }
            if (pendingReleases[w] > 0) {
                releasesTo[w].publish(pendingReleases[w]);
                pendingReleases[w] = 0;
            }
        }
    }

    // ------------------------------------------------------------------ consumer side

    /**
     * Takes the pauses and resumes the other workers asked for upstream queues of this worker's
     * ports, in the order each sent them, into {@code link} (the ingress side of this worker's
     * link control). They come first in a pass: a pause goes upstream as soon as the pass's owed
     * control frames are sent.
     *
     * @return requests taken
     */
    int takeUpstreamPauses(BfcBackpressure.Listener link, long now) {
        if (pausesFrom == null) {
            return 0;
        }
        int taken = 0;
        for (SpscLongRing ring : pausesFrom) {
            if (ring == null) {
                continue;
            }
            int n = ring.available(DRAIN_BURST);
            long[] b = ring.buffer();
            for (int k = 0; k < n; k++) {
                long r = b[ring.readIndex(k)];
                int inPort = (int) (r & 0xFFFF);
                int upstreamQueue = (int) (r >>> 16 & 0xFFFF);
                if ((r >>> 32 & 1) != 0) {
                    link.onPauseUpstream(inPort, upstreamQueue, now);
                } else {
                    link.onResumeUpstream(inPort, upstreamQueue, now);
                }
            }
            ring.consume(n);
            taken += n;
        }
        return taken;
    }

    /**
     * Takes the releases the other workers sent and frees those frames from this worker's ledger.
     * Releases come first in a pass: they can only make room.
     *
     * @return releases taken
     */
    int takeReleases(AdmissionStage admission, long now) {
        int taken = 0;
        for (SpscLongRing ring : releasesFrom) {
            if (ring == null) {
                continue;
            }
            int n = ring.available(DRAIN_BURST);
            long[] b = ring.buffer();
            for (int k = 0; k < n; k++) {
                long r = b[ring.readIndex(k)];
                admission.release((int) (r & 0xFFFF), (int) (r >>> 48 & 0xFF), (int) (r >>> 16 & 0xFFFF),
                        (int) (r >>> 32 & 0xFFFF), (int) (r >>> 56 & 0xFF), now);
            }
            ring.consume(n);
            taken += n;
        }
        return taken;
    }

    /**
     * Takes every frame the other workers handed this one, until their rings are empty (the others
     * stopped producing: {@link WorkersMmuChange}), and publishes the releases that sent.
     */
    void takeAllFrames(EgressStage egress, long now) {
        while (takeFrames(egress, now) > 0) {
            // a ring gives at most DRAIN_BURST records per take
        }
        flush();
    }

    /** Takes every release the other workers sent, until their rings are empty (the others stopped producing). */
    void takeAllReleases(AdmissionStage admission, long now) {
        while (takeReleases(admission, now) > 0) {
            // a ring gives at most DRAIN_BURST records per take
        }
    }

    /**
     * Takes the stations the other workers learned into this worker's forwarding table.
     *
     * @return stations taken
     */
    int takeLearned(ReceiveStage receive) {
        int taken = 0;
        for (SpscLongRing ring : learnedFrom) {
            if (ring == null) {
                continue;
            }
            int n = ring.available(DRAIN_BURST);
            long[] b = ring.buffer();
            for (int k = 0; k < n; k++) {
                long r = b[ring.readIndex(k)];
                receive.learnedElsewhere(r >>> 16, (int) (r & 0xFFFF));
            }
            ring.consume(n);
            taken += n;
        }
        return taken;
    }

    /**
     * Takes the frames the other workers admitted for this worker's ports into its egress queues,
     * and serves each port that got one.
     *
     * @return frames taken
     */
    int takeFrames(EgressStage egress, long now) {
        int taken = 0;
        for (SpscLongRing ring : framesFrom) {
            if (ring == null) {
                continue;
            }
            int n = ring.available(DRAIN_BURST);
            long[] b = ring.buffer();
            for (int k = 0; k < n; k++) {
                int i = ring.readIndex(k);
                long handle = b[i];
                long w1 = b[i + 1];
                long w2 = b[i + 2];
                egress.crossedIn(b[i + 3], (int) (w1 >>> 32 & 0xFFFF), (int) (w2 & 0xFF), (int) (w1 >>> 48 & 0xFFFF),
                        handle, (int) (w1 & 0xFFFF), (short) (w1 >>> 16), (int) (w2 >>> 8 & 0xFF), now);
            }
            ring.consume(n);
            taken += n;
        }
        return taken;
    }
}

package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.ParsedFrame;

/**
 * Hop-by-hop flow control as the switch core sees it: which egress queue a frame joins, which
 * egress queues the downstream neighbour has paused, and the control frames this switch owes its
 * upstream neighbours. {@link SwitchCore} runs the same pipeline for every scheme and asks this
 * interface at those points only. Two implementations:
 * <ul>
 *   <li>{@link PfcLink}: IEEE 802.1Qbb. One queue per priority; received PFC frames pause a
 *       priority for a time; the MMU's XOFF/XON become PFC frames, refreshed while XOFF lasts.</li>
 *   <li>{@link BfcLink}: Backpressure Flow Control. A physical queue per active flow; the
 *       downstream pauses and resumes single queues; over-threshold arrivals pause the upstream
 *       queue they came from.</li>
 * </ul>
 * Implementations may call back into nothing: they record what is owed, and the core drains
 * {@link #nextOwingPort} after each event.
 */
interface LinkControl {

    /** What {@link #receive} made of a frame. */
    int NOT_CONTROL = 0;
    /** A control frame, applied; no queue was released. */
    int CONSUMED = 1;
    /** A control frame that may have let a paused queue send again: serve the port. */
    int RESUMED = 2;

    /** Egress queues per port, at most 32 (the core keeps one bit per queue). */
    int queuesPerPort();

    /**
     * What this link control keeps of a frame's parse to pick its queue and track it there (0 when
     * it keeps nothing); a frame handed to another worker's egress carries it instead of the parse.
     */
    long flowWord(ParsedFrame frame);

    /** The egress queue of {@code outPort} the frame of {@code flowWord} joins; only the egress port's worker asks. */
    int queueFor(long flowWord, int priority, int outPort, long now);

    /**
     * Whether {@link #onEnqueued} and {@link #onDequeued} keep state per frame; when they do not, a
     * frame may go to an idle port's line without being queued ({@link EgressStage#admitted}).
     */
    boolean tracksQueuedFrames();

    /** Records the frame of {@code flowWord} just admitted into {@code (outPort, queue)}, held in {@code slot}. */
    void onEnqueued(PacketSlots slots, int slot, long flowWord, int inPort, int outPort, int queue, long now);

    /**
     * The frame in {@code slot} is leaving {@code (outPort, queue)}; its bytes at
     * {@code frameOffset} of {@code bytes} may still be rewritten.
     */
    void onDequeued(PacketSlots slots, int slot, int outPort, int queue, MemorySegment bytes, long frameOffset, long now);

    /**
     * Consumes {@code frame} received on {@code port} if it is a link control frame (never
     * forwarded): {@link #NOT_CONTROL}, {@link #CONSUMED} or {@link #RESUMED}.
     */
    int receive(int port, ParsedFrame frame, long now);

    /** The queues among {@code candidates} (a bit mask) the downstream neighbour has paused now. */
    int pausedMask(int port, int candidates, long now);

    /** When the first of the paused {@code queues} may send again without news from downstream, or NEVER. */
    long earliestResume(int port, int queues);

    /** Whether {@code port} owes its upstream neighbour a control frame. */
    boolean owesFrame(int port);

    /** A port that started owing a frame since the last call, or -1. */
    int nextOwingPort();

    /**
     * Writes the control frame {@code port} owes at {@code offset} (room for
     * {@link org.pfcswitch.codec.Ethernet#MIN_FRAME_BYTES}) and settles that debt.
     *
     * @return the frame's length, or 0 when there is nothing left to say (the debt is dropped)
     */
    int writeOwedFrame(int port, MemorySegment bytes, long offset, long srcMac, long now);

    /** The port's link timer (a refresh, a periodic state frame) went off. */
    void onTimer(int port, long now);

    /** Time {@code (port, queue)} has spent paused by its downstream neighbour, up to {@code now}. */
    long pausedNanos(int port, int queue, long now);

    /** Control frames {@code port} sent that paused something (PFC XOFF frames, BFC PAUSE frames). */
    long pauseFramesSent(int port);
}

package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameKind;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.mmu.FlowControl;
import org.pfcswitch.mmu.FlowControlListener;

/**
 * IEEE 802.1Qbb priority flow control on every port: a frame's queue is its priority; received PFC
 * (and 802.3x PAUSE) frames pause a priority for their quanta at the port's speed ({@link PauseTimers});
 * the MMU's XOFF/XON transitions become PFC frames out of the ingress port ({@link PfcEmitter}),
 * refreshed at half the pause time while the priority stays XOFF. Under
 * {@link PfcPauseMode#UNTIL_RESUME} a received pause lasts until its resume and the XOFF is never
 * refreshed: one XOFF frame per pause episode, one XON at its end.
 */
final class PfcLink implements LinkControl {

    private static final int PRIORITIES = MacControl.PRIORITIES;
    /** {@link #refreshNanos} of a port whose XOFF is never repeated ({@link PfcPauseMode#UNTIL_RESUME}). */
    private static final long NO_REFRESH = -1;

    private final int ports;
    private final PauseTimers pauses;
    private final PfcEmitter emitter;
    private final SwitchCounters counters;
    private final DeadlineHeap timers;
    private final int timerBase;
    private final long[] refreshNanos;
    private final int[] quantaScratch = new int[PRIORITIES];
    private FlowControl flowControl;
    /** The PFC watchdog, or null: its stormed queues ignore the neighbour's pauses. */
    private PfcWatchdog watchdog;
    /**
     * By port: the source MAC of the last PFC or PAUSE frame received there (0: none yet). A pause
     * frame's source is the MAC of the neighbour's port, so this names who pauses the port's egress
     * queues: the deadlock detection follows wait-for edges through it.
     */
    private final long[] senderMac;

    PfcLink(long[] speedBps, int pauseQuanta, SwitchCounters counters, DeadlineHeap timers, int timerBase) {
        this(speedBps, pauseQuanta, PfcPauseMode.QUANTA, counters, timers, timerBase);
    }

    PfcLink(long[] speedBps, int pauseQuanta, PfcPauseMode mode, SwitchCounters counters, DeadlineHeap timers,
            int timerBase) {
        this.ports = speedBps.length;
        this.pauses = new PauseTimers(speedBps, mode);
        this.emitter = new PfcEmitter(ports, pauseQuanta);
        this.counters = counters;
        this.timers = timers;
        this.timerBase = timerBase;
        this.refreshNanos = new long[ports];
        this.senderMac = new long[ports];
        for (int p = 0; p < ports; p++) {
            refreshNanos[p] = mode.refreshes()
                    ? Math.max(1, MacControl.quantaToNanos(pauseQuanta, speedBps[p]) / 2) : NO_REFRESH;
        }
    }

    /** The pause state received PFC frames set (the watchdog reads it). */
    PauseTimers pauses() {
        return pauses;
    }

    /** The source MAC of the last PFC or PAUSE frame received on {@code port}, 0 if none. */
    long senderMac(int port) {
        return senderMac[port];
    }

    void watchdog(PfcWatchdog w) {
        this.watchdog = w;
    }

    /** Where the MMU reports XOFF/XON transitions. */
    FlowControlListener mmuListener() {
        return emitter;
    }

    /** The MMU's flow control, whose advertised vectors the PFC frames carry. */
    PfcLink attach(FlowControl mmuFlowControl) {
        this.flowControl = mmuFlowControl;
        return this;
    }

    @Override
    public int queuesPerPort() {
        return PRIORITIES;
    }

    @Override
    public long flowWord(ParsedFrame frame) {
        return 0;                                   // a frame's queue is its priority
    }

    @Override
    public int queueFor(long flowWord, int priority, int outPort, long now) {
        return priority;
    }

    /** Nothing per frame: a frame's queue is its priority, and pauses are per priority. */
    @Override
    public boolean tracksQueuedFrames() {
        return false;
    }

    @Override
    public void onEnqueued(PacketSlots slots, int slot, long flowWord, int inPort, int outPort, int queue, long now) {}

    @Override
    public void onDequeued(PacketSlots slots, int slot, int outPort, int queue, MemorySegment bytes, long frameOffset,
                           long now) {}

    /**
     * Every received frame comes here, nearly all of them data: the test that lets data through is
     * kept apart from the control frames' handling so that it inlines into the receive path (the
     * whole method is over the JIT's hot-method inlining limit of 325 bytecodes).
     */
    @Override
    public int receive(int port, ParsedFrame frame, long now) {
        int type = frame.etherType();
        if (type != Ethernet.TYPE_MAC_CONTROL && type != Bfc.TYPE_CONTROL) {
            return NOT_CONTROL;
        }
        return receiveControl(port, frame, type, now);
    }

    /** A MAC-control frame (PFC, PAUSE, another opcode) or a BFC control frame received on {@code port}. */
    private int receiveControl(int port, ParsedFrame frame, int type, long now) {
        if (type == Bfc.TYPE_CONTROL) {
            counters.foreignControl[port]++;            // BFC on a PFC port: link-local, never forwarded, not obeyed
            return CONSUMED;
        }
        if (frame.isPfc()) {
            counters.pfcFramesRx[port]++;
            senderMac[port] = frame.srcMac();
            int classEnable = frame.classEnable();
            for (int v = classEnable; v != 0; v &= v - 1) {
                int p = Integer.numberOfTrailingZeros(v);
                int quanta = frame.quanta(p);
                quantaScratch[p] = quanta;
                (quanta == 0 ? counters.pfcXonRx : counters.pfcXoffRx)[port * PRIORITIES + p]++;
            }
            int resumed = pauses.applyPfc(port, classEnable, quantaScratch, now);
            if (watchdog != null) {
                for (int v = classEnable; v != 0; v &= v - 1) {
                    int p = Integer.numberOfTrailingZeros(v);
                    if (quantaScratch[p] != 0) {
                        watchdog.onPauseFrame(port, p, now);
                    }
                }
            }
            return resumed != 0 ? RESUMED : CONSUMED;
        }
        if (frame.kind() == FrameKind.PAUSE) {
            counters.pauseFramesRx[port]++;
            senderMac[port] = frame.srcMac();
            boolean resumed = false;
            for (int p = 0; p < PRIORITIES; p++) {
                resumed |= pauses.apply(port, p, frame.pauseQuanta(), now);
                if (watchdog != null && frame.pauseQuanta() != 0) {
                    watchdog.onPauseFrame(port, p, now);
                }
            }
            return resumed ? RESUMED : CONSUMED;
        }
        counters.malformedDropped[port]++;                 // another MAC-control opcode: never forwarded
        return CONSUMED;
    }

    @Override
    public int pausedMask(int port, int candidates, long now) {
        int paused = pauses.pausedMask(port, candidates, now);
        if (paused != 0 && watchdog != null) {
            paused &= ~watchdog.ignoringMask[port];         // a stormed queue no longer obeys its neighbour (unless alert)
        }
        return paused;
    }

    @Override
    public long earliestResume(int port, int queues) {
        return pauses.earliestResume(port, queues);
    }

    @Override
    public boolean owesFrame(int port) {
        return emitter.owesFrame(port);
    }

    @Override
    public int nextOwingPort() {
        return emitter.nextOwingPort();
    }

    @Override
    public int writeOwedFrame(int port, MemorySegment bytes, long offset, long srcMac, long now) {
        int advertised = flowControl.advertisedVector(port);
        int resumed = emitter.resumedMask(port) & ~advertised;
        if ((advertised | resumed) == 0) {
            emitter.forgive(port);                      // XOFF and XON cancelled out: nothing to say
            return 0;
        }
        int length = emitter.write(port, advertised, bytes, offset, srcMac);
        counters.pfcFramesTx[port]++;
        for (int v = advertised; v != 0; v &= v - 1) {
            int k = port * PRIORITIES + Integer.numberOfTrailingZeros(v);
            counters.pfcXoffTx[k]++;
            if (counters.xoffSentSince[k] < 0) {
                counters.xoffSentSince[k] = now;
            }
        }
        for (int v = resumed; v != 0; v &= v - 1) {
            int k = port * PRIORITIES + Integer.numberOfTrailingZeros(v);
            counters.pfcXonTx[k]++;
            counters.xoffSentSince[k] = -1;
        }
        if (advertised != 0 && refreshNanos[port] != NO_REFRESH) {
            timers.set(timerBase + port, now + refreshNanos[port]);
        } else {
            timers.cancel(timerBase + port);
        }
        return length;
    }

    @Override
    public void onTimer(int port, long now) {
        if (flowControl.advertisedVector(port) != 0) {
            emitter.requestFrame(port);                 // refresh before the upstream's pause runs out
        }
    }

    @Override
    public long pausedNanos(int port, int queue, long now) {
        return pauses.pausedNanos(port, queue, now);
    }

    @Override
    public long pauseFramesSent(int port) {
        long n = 0;
        for (int prio = 0; prio < PRIORITIES; prio++) {
            n += counters.pfcXoffTx[port * PRIORITIES + prio];
        }
        return Math.min(n, counters.pfcFramesTx[port]);   // one frame may pause several priorities: counted once
    }
}

package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.MacControl;
import org.pfcswitch.mmu.FlowControlListener;

/**
 * Turns the MMU's XOFF/XON transitions into PFC frames to send out of the ingress port they
 * concern. A transition only marks the port as owing a frame; the frame is built when the port's
 * line is next free, from the advertised vector at that moment, so the transitions of one busy
 * period coalesce into one frame. That frame pauses every advertised priority for the configured
 * quanta and resumes (quanta 0) every priority that went XON since the previous frame.
 *
 * <p>Called back by the MMU in the middle of an admission or release, so it only records: the
 * core drains {@link #nextOwingPort} after the MMU call returns.
 */
final class PfcEmitter implements FlowControlListener {

    private final int pauseQuanta;
    private final boolean[] owing;     // by port: a PFC frame is due
    private final int[] resumed;       // by port: priorities that went XON since the last frame
    private final int[] work;          // ports that became owing since the core last looked
    private final boolean[] kept;      // by port: scratch of dropRepeats
    private final int[] quanta = new int[MacControl.PRIORITIES];
    private int workCount;

    PfcEmitter(int ports, int pauseQuanta) {
        this.pauseQuanta = pauseQuanta;
        owing = new boolean[ports];
        resumed = new int[ports];
        work = new int[ports];
        kept = new boolean[ports];
    }

    @Override
    public void onXoff(int port, int priority, long nowNanos) {
        resumed[port] &= ~(1 << priority);
        requestFrame(port);
    }

    @Override
    public void onXon(int port, int priority, long nowNanos) {
        resumed[port] |= 1 << priority;
        requestFrame(port);
    }

    /** Marks {@code port} as owing a PFC frame (also used for refreshes). */
    void requestFrame(int port) {
        if (!owing[port]) {
            owing[port] = true;
            if (workCount == work.length) {
                dropRepeats(port);
            }
            work[workCount++] = port;
        }
    }

    /**
     * The work list is full: a port can be in it more than once (its frame went out before the
     * core drained the list, then it came to owe another), which is the only way it fills when
     * the core drains it seldom, as after a whole rx burst. Keeps each port's last entry, the one
     * the core takes first, in order, and none of {@code port}'s, which is about to be added.
     */
    private void dropRepeats(int port) {
        java.util.Arrays.fill(kept, false);
        kept[port] = true;
        int n = 0;
        for (int i = workCount - 1; i >= 0; i--) {          // from the top: a port's last entry first
            int p = work[i];
            if (!kept[p]) {
                kept[p] = true;
                work[n++] = p;
            }
        }
        for (int i = 0, j = n - 1; i < j; i++, j--) {          // back into the list's order
            int p = work[i];
            work[i] = work[j];
            work[j] = p;
        }
        workCount = n;
    }

    boolean owesFrame(int port) {
        return owing[port];
    }

    /** A port that became owing since the last call, or -1. */
    int nextOwingPort() {
        return workCount == 0 ? -1 : work[--workCount];
    }

    /** Priorities the next frame of {@code port} resumes. */
    int resumedMask(int port) {
        return resumed[port];
    }

    /** Drops the debt of {@code port} without a frame (its transitions cancelled out). */
    void forgive(int port) {
        owing[port] = false;
        resumed[port] = 0;
    }

    /**
     * Writes the frame {@code port} owes, pausing {@code advertised} and resuming what went XON,
     * and clears the debt.
     *
     * @return the frame's length
     */
    int write(int port, int advertised, MemorySegment bytes, long offset, long srcMac) {
        int classEnable = advertised | resumed[port];
        for (int p = 0; p < MacControl.PRIORITIES; p++) {
            quanta[p] = (advertised >>> p & 1) != 0 ? pauseQuanta : 0;
        }
        owing[port] = false;
        resumed[port] = 0;
        return MacControl.writePfc(bytes, offset, srcMac, classEnable, quanta);
    }
}

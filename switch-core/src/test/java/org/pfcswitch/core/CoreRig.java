package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.mmu.RandomSource;

/**
 * A test driver for {@link SwitchCore}: a heap slab of 2 KiB frame buffers ({@link SlotSlab}), a clock the test
 * moves, and a record of every frame the core transmits (or, for the allocation test, a counter).
 */
final class CoreRig extends SlotSlab implements FrameSink {

    /** One transmitted frame, with a copy of its bytes taken at transmit time. */
    record Sent(int port, long start, int length, byte[] bytes) {}

    final SwitchCore core;
    final List<Sent> sent = new ArrayList<>();
    long transmitted;
    private final boolean record;
    private final RoceFrameBuilder roce = new RoceFrameBuilder();

    CoreRig(CoreConfig config, int slots, boolean record) {
        this(config, SwitchModel.DEFAULT, slots, record);
    }

    CoreRig(CoreConfig config, SwitchModel model) {
        this(config, model, 1 << 14, true);
    }

    CoreRig(CoreConfig config, SwitchModel model, int slots, boolean record) {
        super(slots);
        this.record = record;
        core = new SwitchCore(config, model, this, this, this, RandomSource.seeded(7));
    }

    CoreRig(CoreConfig config) {
        this(config, 1 << 14, true);
    }

    // FrameSink
    @Override
    public void transmit(int port, long handle, int len, long start) {
        transmitted++;
        if (record) {
            sent.add(new Sent(port, start, len, frame(handle).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
        }
        free(handle);
    }

    /** Runs the core's timers up to and including {@code until}. */
    void runUntil(long until) {
        for (long due = core.nextTimerDue(); due <= until; due = core.nextTimerDue()) {
            core.onTimer(due);
        }
    }

    /** A RoCEv2 WRITE frame with {@code payload} bytes, DSCP {@code dscp}, ECT(0) unless told otherwise. */
    long roceFrame(long dstMac, long srcMac, int dscp, int ecn, int payload, int psn) {
        roce.macs(dstMac, srcMac).ips(0x0A00_0001, 0x0A00_0002).dscp(dscp).ecn(ecn).destQp(17).psn(psn)
                .payloadBytes(payload);
        long h = allocate(roce.frameLength());
        roce.write(slab, offset(h));
        return h;
    }

    /**
     * RoCEv2 WRITE frames of 1000 payload bytes, DSCP 26 (priority 3), one per sender: from host
     * {@code i} (queue pair i) to host {@code out}, for tests that copy them into buffers in a loop.
     */
    static MemorySegment[] roceTemplates(int out, int senders) {
        MemorySegment[] templates = new MemorySegment[senders];
        RoceFrameBuilder b = new RoceFrameBuilder().ips(1, 2).dscp(26).payloadBytes(1000);
        for (int in = 0; in < senders; in++) {
            b.macs(Configs.host(out), Configs.host(in)).destQp(in);
            templates[in] = MemorySegment.ofArray(new byte[b.frameLength()]);
            b.write(templates[in], 0);
        }
        return templates;
    }

    void receiveRoce(int port, long dstMac, long srcMac, int dscp, int payload, long now) {
        core.onFrame(port, roceFrame(dstMac, srcMac, dscp, Ipv4.ECN_ECT0, payload, 0), now);
    }

    /** A PFC frame arriving on {@code port}: every priority in {@code classEnable} gets {@code quanta}. */
    void receivePfc(int port, int classEnable, int quanta, long now) {
        long h = allocate(60);
        MacControl.writePfc(slab, offset(h), 0x0200_0000_00EEL, classEnable, quanta);
        core.onFrame(port, h, now);
    }

    List<Sent> sentOn(int port) {
        return sent.stream().filter(s -> s.port() == port).toList();
    }
}

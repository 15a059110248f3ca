package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.PriorityQueue;

import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.mmu.RandomSource;

/**
 * A test driver for one {@link SwitchCore} with cables between its own ports, in virtual time: a
 * frame the core sends out of a cabled port arrives on the other end one line time plus the cable
 * delay after it started; what it sends out of an uncabled port (a host) is counted and freed. A
 * heap slab of 2 KiB buffers ({@link SlotSlab}), as {@link CoreRig}. Or the same switch split among
 * workers ({@link SwitchWorkers}), all on the test's thread: each arrival and timer goes to the
 * worker that owns the port, and after each every worker takes what crossed to it and publishes.
 */
final class CabledRig extends SlotSlab implements FrameSink {

    static final long CABLE_NANOS = 1_000;

    private record Arrival(long at, long seq, int port, long handle) {}

    /** The switch's core, or with several workers worker 0's. */
    final SwitchCore core;
    final SwitchWorkers workers;
    private final int[] peer;
    private final long[] speed;
    private final PriorityQueue<Arrival> wire = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long seq;
    final long[] toHost;
    private long now;

    /** {@code peer[p]}: the port cabled to p, or -1 (a host); {@code workerOf[p]}: its worker (two workers). */
    CabledRig(CoreConfig config, int[] peer, int[] workerOf, int slots) {
        super(slots);
        this.peer = peer.clone();
        this.speed = new long[peer.length];
        for (int p = 0; p < peer.length; p++) {
            speed[p] = config.speedBps(p);
        }
        this.toHost = new long[peer.length];
        workers = SwitchWorkers.create(config, SwitchModel.DEFAULT, workerOf, this, new FrameAllocator[] {this, this},
                new FrameSink[] {this, this}, new RandomSource[] {RandomSource.seeded(7), RandomSource.seeded(8)},
                slots, SwitchWorkers.BUSY_PASS_NANOS);
        core = workers.core(0);
    }

    /** {@code peer[p]}: the port cabled to p, or -1 (a host); the switch on one core. */
    CabledRig(CoreConfig config, int[] peer, int slots) {
        super(slots);
        this.peer = peer.clone();
        this.speed = new long[peer.length];
        for (int p = 0; p < peer.length; p++) {
            speed[p] = config.speedBps(p);
        }
        this.toHost = new long[peer.length];
        core = new SwitchCore(config, this, this, this, RandomSource.seeded(7));
        workers = null;
    }

    /** The core that owns {@code port}. */
    SwitchCore ownerOf(int port) {
        return workers == null ? core : workers.ownerOf(port);
    }

    @Override
    public void transmit(int port, long handle, int len, long start) {
        if (peer[port] < 0) {
            toHost[port]++;
            free(handle);
            return;
        }
        wire.add(new Arrival(start + LineRate.nanos(len, speed[port]) + CABLE_NANOS, seq++, peer[port], handle));
    }

    long now() {
        return now;
    }

    /** Frames on the cables now. */
    int onTheWire() {
        return wire.size();
    }

    /** Runs cable arrivals and the core's timers in time order up to and including {@code until}. */
    void runUntil(long until) {
        int n = workers == null ? 1 : workers.workers();
        while (true) {
            SwitchCore timed = core;
            for (int w = 1; w < n; w++) {
                if (workers.core(w).nextTimerDue() < timed.nextTimerDue()) {
                    timed = workers.core(w);
                }
            }
            long timer = timed.nextTimerDue();
            long arrival = wire.isEmpty() ? Long.MAX_VALUE : wire.peek().at;
            long next = Math.min(timer, arrival);
            if (next > until) {
                break;
            }
            now = Math.max(now, next);
            if (arrival <= timer) {
                Arrival a = wire.poll();
                ownerOf(a.port).onFrame(a.port, a.handle, now);
            } else {
                timed.onTimer(now);
            }
            passes();
        }
        now = Math.max(now, until);
    }

    /** A RoCEv2 WRITE frame of {@code payload} bytes at DSCP 26 (priority 3) arriving on {@code port} now. */
    void receiveRoce(int port, long dstMac, long srcMac, int payload) {
        RoceFrameBuilder b = new RoceFrameBuilder().macs(dstMac, srcMac).ips(1, 2).dscp(26).ecn(Ipv4.ECN_ECT0)
                .destQp(17).payloadBytes(payload);
        long h = allocate(b.frameLength());
        b.write(slab, offset(h));
        ownerOf(port).onFrame(port, h, now);
        passes();
    }

    /** With several workers: each takes what crossed to it and publishes what it handed on. */
    void passes() {
        for (int w = 0; workers != null && workers.workers() > 1 && w < workers.workers(); w++) {
            workers.core(w).publishToPeers(now);
        }
        for (int w = 0; workers != null && workers.workers() > 1 && w < workers.workers(); w++) {
            workers.core(w).onCrossings(now);
        }
    }
}

package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;
import java.util.PriorityQueue;
import java.util.SplittableRandom;

import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.mmu.RandomSource;

/**
 * A switch split among workers ({@link SwitchWorkers}), hosts that obey PFC on every port, and
 * virtual time, all on the test's thread. Each worker's core handles its own ports' arrivals and
 * timers at their exact times (as one worker would); what crosses between workers (frames, releases,
 * the ledgers' published counts) moves only when the receiving worker runs a <em>pass</em>, every
 * {@code passNanos} plus a random jitter and now and then a long stall, as a real worker's loop
 * would. So the test sees what splitting the switch adds: frames that wait in a ring, releases that
 * come back late, and stale views of the shared buffer.
 *
 * <p>Host h (behind port h) sends {@code framesPerHost} RoCE frames of priority 3 back to back at
 * line rate to destinations the test draws, and pauses when the switch's PFC frames reach it (a
 * frame on the line finishes); cables take {@link #CABLE_NANOS} each way, as the MMU's headroom
 * formula assumes. Under bfc the hosts are BFC NICs instead: one upstream queue per destination
 * (its id the destination's), named in each frame's shim; a host sends its frames in order except
 * that it skips those of a paused queue, and obeys the switch's PAUSE, RESUME and BITMAP frames.
 */
final class WorkersRig extends SlotSlab {

    static final long CABLE_NANOS = 1_000;

    private record Event(long at, long seq, int kind, int port, long handle) {}

    private static final int TO_SWITCH = 0;
    private static final int TO_HOST = 1;
    private static final int HOST_SEND = 2;

    final SwitchWorkers workers;
    private final int ports;
    private final long[] speed;
    private final PriorityQueue<Event> events = new PriorityQueue<>((a, b) -> a.at != b.at
            ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private long seq;
    private final SplittableRandom random;
    private final long passNanos;
    /** Whether a pass now and then stalls (the OS takes the core away); off: every pass ends within two periods. */
    boolean stalls = true;
    /** By port: the time its line spent sending, from the start of its first frame to the end of its last. */
    final long[] lineBusyNanos;
    private final long[] firstSentAt;
    private final long[] lastSentEnd;
    private final long[] nextPass;
    private final RoceFrameBuilder roce = new RoceFrameBuilder();
    private final ParsedFrame parsed = new ParsedFrame();
    private final int[] destinations;          // by host: the destination of each frame it sends, in order
    private final int[] framesLeft;
    private final int[] payload;
    private final long[] pausedUntil;          // by host: its priority 3 is paused until then
    private final boolean[] sending;           // by host: a HOST_SEND event is pending
    final long[] sent;
    final long[] delivered;
    long pfcFramesToHosts;
    /** BFC PAUSE frames that reached a host (under bfc). */
    long bfcPausesToHosts;
    /** Under bfc: by host * 64 + upstream queue, the PAUSE frames for it that reached the host. */
    final long[] bfcPausesOfQueue;
    /** Under bfc: by host, its upstream queues the switch holds paused (bit q = the queue of destination q). */
    final long[] pausedQueues;
    private final boolean bfc;
    private final boolean[] taken;             // under bfc, by frame (as destinations): sent already
    private final int[] firstUnsent;           // under bfc, by host: its first frame not yet sent
    /** Under bfc: the most bytes the buffer held (every worker's own part added up), seen after each event. */
    long maxBufferBytes;
    private long now;

    /**
     * @param workerOf   by port, its worker
     * @param incastTo   the host most frames go to
     * @param incastShare the share of frames that go to {@code incastTo}; the rest to any other host
     */
    WorkersRig(CoreConfig config, int[] workerOf, long seed, int framesPerHost, int incastTo, double incastShare,
               long passNanos) {
        super(1 << 15);
        this.ports = config.ports();
        this.random = new SplittableRandom(seed);
        this.passNanos = passNanos;
        int n = Math.max(1, java.util.Arrays.stream(workerOf).max().orElse(0) + 1);
        FrameAllocator[] allocators = new FrameAllocator[n];
        FrameSink[] sinks = new FrameSink[n];
        RandomSource[] randoms = new RandomSource[n];
        for (int w = 0; w < n; w++) {
            allocators[w] = this;
            sinks[w] = this::transmit;
            randoms[w] = RandomSource.seeded(seed * 31 + w);
        }
        // A pass ends within two pass periods of the previous one unless it stalls (pass below).
        this.workers = SwitchWorkers.create(config, SwitchModel.DEFAULT, workerOf, this, allocators, sinks, randoms,
                1 << 15, 2 * passNanos);
        this.speed = new long[ports];
        this.nextPass = new long[n];
        this.destinations = new int[ports * framesPerHost];
        this.framesLeft = new int[ports];
        this.payload = new int[ports * framesPerHost];
        this.pausedUntil = new long[ports];
        this.sending = new boolean[ports];
        this.sent = new long[ports];
        this.delivered = new long[ports];
        this.bfc = config.mmu().upstreamPausing() == org.pfcswitch.mmu.UpstreamPausing.PER_QUEUE;
        this.pausedQueues = new long[ports];
        this.taken = new boolean[ports * framesPerHost];
        this.firstUnsent = new int[ports];
        this.bfcPausesOfQueue = new long[ports * 64];
        this.lineBusyNanos = new long[ports];
        this.firstSentAt = new long[ports];
        this.lastSentEnd = new long[ports];
        for (int p = 0; p < ports; p++) {
            speed[p] = config.speedBps(p);
            framesLeft[p] = framesPerHost;
            for (int i = 0; i < framesPerHost; i++) {
                int d = random.nextDouble() < incastShare ? incastTo : random.nextInt(ports);
                destinations[p * framesPerHost + i] = d == p ? (p + 1) % ports : d;
                payload[p * framesPerHost + i] = 64 + random.nextInt(1400 - 64);
            }
            schedule(random.nextLong(2_000), HOST_SEND, p, 0);
            sending[p] = true;
        }
        for (int w = 0; w < n; w++) {
            nextPass[w] = random.nextLong(passNanos);
        }
    }

    // Synchronized: during a live change (changeMmu, runParts) every worker's part transmits on its own
    // thread into this one event queue; the rig's own loop runs alone otherwise.
    private synchronized void schedule(long at, int kind, int port, long handle) {
        events.add(new Event(at, seq++, kind, port, handle));
    }

    private void transmit(int port, long handle, int len, long start) {
        long lineNanos = LineRate.nanos(len, speed[port]);
        if (lineBusyNanos[port] == 0) {
            firstSentAt[port] = start;
        }
        lineBusyNanos[port] += lineNanos;
        lastSentEnd[port] = start + lineNanos;
        schedule(start + LineRate.nanos(len, speed[port]) + CABLE_NANOS, TO_HOST, port, handle);
    }

    /** Runs until nothing is left to happen (every frame delivered or dropped) or {@code until}. */
    void run(long until) {
        while (true) {
            long next = events.isEmpty() ? Long.MAX_VALUE : events.peek().at;
            int kind = 0;          // 0 = event, 1 = timer of worker w, 2 = pass of worker w
            int worker = -1;
            for (int w = 0; w < workers.workers(); w++) {
                long due = workers.core(w).nextTimerDue();
                if (due < next) {
                    next = due;
                    kind = 1;
                    worker = w;
                }
            }
            boolean busy = next != Long.MAX_VALUE || framesInSwitch() > 0;
            for (int w = 0; w < workers.workers() && workers.workers() > 1 && busy; w++) {
                if (nextPass[w] < next) {
                    next = nextPass[w];
                    kind = 2;
                    worker = w;
                }
            }
            if (next == Long.MAX_VALUE) {
                settle();
                return;
            }
            if (next > until) {
                return;
            }
            now = Math.max(now, next);
            if (kind == 1) {
                workers.core(worker).onTimer(now);
            } else if (kind == 2) {
                pass(worker);
            } else {
                handle(events.poll());
            }
            if (bfc) {
                maxBufferBytes = Math.max(maxBufferBytes, workers.bufferUsed());
            }
        }
    }

    /**
     * Changes every worker's MMU to {@code next} now, as the live switch does: each worker runs its
     * part of the {@link WorkersMmuChange} on a thread of its own (the rig's state is handed over by
     * the threads' start and join).
     */
    void changeMmu(org.pfcswitch.mmu.MmuConfig next) throws InterruptedException {
        WorkersMmuChange change = workers.mmuChange(next);
        runParts(change, workers.workers());
        if (change.refusal() != null) {
            throw change.refusal();
        }
    }

    /** Runs the parts of workers 0 to {@code parts - 1} of {@code change}, each on a thread, and waits for them. */
    void runParts(WorkersMmuChange change, int parts) throws InterruptedException {
        Thread[] threads = new Thread[parts];
        RuntimeException[] failed = new RuntimeException[1];
        for (int w = 0; w < parts; w++) {
            int worker = w;
            threads[w] = new Thread(() -> {
                try {
                    change.runOn(worker, workers.core(worker), now);
                } catch (RuntimeException e) {
                    failed[0] = e;
                }
            }, "change-" + w);
            threads[w].start();
        }
        for (Thread t : threads) {
            t.join(10_000);
            if (t.isAlive()) {
                throw new AssertionError(t.getName() + " is still in the change after 10 s");
            }
        }
        if (failed[0] != null) {
            throw failed[0];
        }
    }

    /** One worker's pass: takes what crossed to it, publishes what it handed on; the next one after a jitter or, rarely, a stall. */
    private void pass(int w) {
        SwitchCore core = workers.core(w);
        core.onCrossings(now);
        core.publishToPeers(now);
        long gap = passNanos + random.nextLong(passNanos);
        if (stalls && random.nextInt(200) == 0) {
            gap += 50 * passNanos;          // the OS took the core away for a while
        }
        nextPass[w] = now + gap;
    }

    /** Nothing left to send: every worker flushes and takes what is still in the rings (the last releases). */
    private void settle() {
        for (int taken = 1; taken > 0; ) {
            taken = 0;
            for (int w = 0; w < workers.workers(); w++) {
                workers.core(w).publishToPeers();
            }
            for (int w = 0; w < workers.workers(); w++) {
                taken += workers.core(w).onCrossings(now);
            }
        }
    }

    private int framesInSwitch() {
        int n = 0;
        for (int w = 0; w < workers.workers(); w++) {
            n += workers.core(w).framesHeld();
        }
        return n + (buffersInUse() > 0 ? 1 : 0);
    }

    private void handle(Event e) {
        switch (e.kind) {
            case TO_SWITCH -> {
                SwitchCore core = workers.core(workers.workerOf(e.port));
                core.onFrame(e.port, e.handle, now);
                if (workers.workers() > 1) {
                    core.publishToPeers(now);      // as the end of a burst; crossings still wait for the next pass
                }
            }
            case TO_HOST -> hostReceives(e.port, e.handle);
            case HOST_SEND -> hostSends(e.port);
            default -> throw new IllegalStateException();
        }
    }

    private void hostReceives(int host, long handle) {
        FrameParser.parse(slab, offset(handle), length(handle), parsed);
        if (parsed.isBfcControl()) {
            obeyBfc(host);
        } else if (parsed.isPfc()) {
            pfcFramesToHosts++;
            if ((parsed.classEnable() >>> 3 & 1) != 0) {
                int quanta = parsed.quanta(3);
                pausedUntil[host] = quanta == 0 ? now
                        : now + (long) quanta * MacControl.BITS_PER_QUANTUM * 1_000_000_000L / speed[host];
                if (quanta == 0 && !sending[host] && framesLeft[host] > 0) {
                    schedule(now, HOST_SEND, host, 0);
                    sending[host] = true;
                }
            }
        } else {
            delivered[host]++;
        }
        free(handle);
    }

    /** A BFC NIC's reaction to the switch's control frame: its queues' pause state, and sending again if one resumed. */
    private void obeyBfc(int host) {
        long before = pausedQueues[host];
        switch (parsed.bfcOp()) {
            case Bfc.OP_PAUSE -> {
                bfcPausesToHosts++;
                bfcPausesOfQueue[host * 64 + parsed.bfcQueue()]++;
                pausedQueues[host] |= 1L << parsed.bfcQueue();
            }
            case Bfc.OP_RESUME -> pausedQueues[host] &= ~(1L << parsed.bfcQueue());
            default -> pausedQueues[host] = Bfc.pausedInBitmap(parsed, 64);
        }
        if ((before & ~pausedQueues[host]) != 0 && !sending[host] && framesLeft[host] > 0) {
            schedule(now, HOST_SEND, host, 0);
            sending[host] = true;
        }
    }

    /** Under bfc: the index of host's next frame to send, the first unsent one whose queue is not paused, or -1. */
    private int nextBfcFrame(int host) {
        int perHost = destinations.length / ports;
        int base = host * perHost;
        while (firstUnsent[host] < perHost && taken[base + firstUnsent[host]]) {
            firstUnsent[host]++;
        }
        for (int k = firstUnsent[host]; k < perHost; k++) {
            if (!taken[base + k] && (pausedQueues[host] >>> destinations[base + k] & 1) == 0) {
                return base + k;
            }
        }
        return -1;
    }

    private void hostSends(int host) {
        sending[host] = false;
        if (framesLeft[host] == 0) {
            return;
        }
        if (bfc) {
            sendBfc(host);
            return;
        }
        if (pausedUntil[host] > now) {
            schedule(pausedUntil[host], HOST_SEND, host, 0);   // re-checked then: a later XOFF extends it
            sending[host] = true;
            return;
        }
        int i = host * (destinations.length / ports) + (destinations.length / ports - framesLeft[host]);
        int dst = destinations[i];
        roce.macs(Configs.host(dst), Configs.host(host)).ips(0x0A00_0000 + host, 0x0A00_0000 + dst).dscp(26)
                .ecn(Ipv4.ECN_ECT0).destQp(host).psn((int) sent[host]).payloadBytes(payload[i]);
        putOnWire(host);
    }

    /** A BFC NIC sends its next frame of an unpaused queue, or waits for a resume. */
    private void sendBfc(int host) {
        int i = nextBfcFrame(host);
        if (i < 0) {
            return;                                   // every queue with frames left is paused: a resume sends again
        }
        taken[i] = true;
        int dst = destinations[i];
        roce.macs(Configs.host(dst), Configs.host(host)).ips(0x0A00_0000 + host, 0x0A00_0000 + dst).dscp(26)
                .ecn(Ipv4.ECN_ECT0).destQp(host).psn((int) sent[host]).payloadBytes(payload[i]).bfcUpstreamQueue(dst);
        putOnWire(host);
    }

    /** Writes the frame {@code roce} holds into the slab, sends it down {@code host}'s cable, and schedules the next. */
    private void putOnWire(int host) {
        long h = allocate(roce.frameLength());
        if (h == NO_HANDLE) {
            throw new IllegalStateException("the test's slab is too small");
        }
        roce.write(slab, offset(h));
        int len = roce.frameLength();
        framesLeft[host]--;
        sent[host]++;
        long lineNanos = LineRate.nanos(len, speed[host]);
        schedule(now + lineNanos + CABLE_NANOS, TO_SWITCH, host, h);
        if (framesLeft[host] > 0) {
            schedule(now + lineNanos, HOST_SEND, host, 0);
            sending[host] = true;
        }
    }

    /** The share of time {@code port}'s line was busy from the start of its first frame to the end of its last. */
    double lineUtilization(int port) {
        return (double) lineBusyNanos[port] / (lastSentEnd[port] - firstSentAt[port]);
    }

    /** Only {@code hosts} send (each its frames); call before {@link #run}. */
    void onlyHostsSend(int... hosts) {
        long keep = 0;
        for (int h : hosts) {
            keep |= 1L << h;
        }
        for (int h = 0; h < ports; h++) {
            if ((keep >>> h & 1) == 0) {
                framesLeft[h] = 0;
            }
        }
    }

    long now() {
        return now;
    }

    MemorySegment memory() {
        return slab;
    }
}

package org.pfcswitch.testbed;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

import org.pfcswitch.codec.Bfc;
import org.pfcswitch.codec.Ethernet;
import org.pfcswitch.codec.FrameKind;
import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.codec.RoceFrameBuilder;
import org.pfcswitch.core.ClonePfc;
import org.pfcswitch.core.FrameCost;
import org.pfcswitch.core.LineRate;
import org.pfcswitch.core.PauseTimers;

/**
 * An emulated RoCEv2 host with one NIC port.
 *
 * <p>As a sender it round-robins over its started, unfinished queue pairs, one frame at a time as
 * its line frees, skipping QPs whose priority a received PFC frame pauses (a frame already on the
 * line finishes) and QPs whose DCQCN rate limiter holds them back. Control frames (CNPs and ACKs)
 * go first, on the control priority, which PFC may pause too.
 *
 * <p>With a BFC NIC (the switch runs the {@code bfc} scheme) every data frame carries the BFC shim
 * naming the QP's NIC queue ({@link #nicQueue}), and BFC PAUSE, RESUME and BITMAP frames from the
 * switch stop and restart those queues until told otherwise. The NIC itself never pauses the switch:
 * it always drains. ACKs and CNPs go without a shim (never backpressured).
 *
 * <p>As a receiver it parses every frame, checks each flow's PSN order and counts payload. It is the
 * DCQCN notification point: a CE-marked data packet makes it send a CNP (BTH opcode 0x81) to the
 * sender, at most one per QP per CNP interval (or one per marked packet, or the BECN bit of that
 * packet's ACK: {@link HostModel#cnp}). It
 * answers every packet that asks for an ACK (the last one of each message; or every data packet:
 * {@link HostModel#ack}) with an RC ACK; the sender notes the flow's final ACK. A received PFC
 * pause lasts its quanta, or until its resume ({@link HostModel#pfc}).
 *
 * <p>A host may instead be a <em>clone port</em> of another ({@link Testbed.Builder#cloneOf}): it
 * originates nothing; every data frame its source puts on its line, the clone puts on its own
 * line at the same instant, as that flow's shadow (same length, opcode, PSN and priority; the
 * clone's MAC, IP and QP). It handles the ACKs and CNPs the receiver sends back to the shadow
 * flows (nothing reacts to a CNP: no rate limiter) and a PFC PAUSE per its {@link ClonePfc}.
 */
public final class RoceHost implements Node {

    private final int index;
    private final EventLoop loop;
    private final HeapSlab slab;
    private final FlowRecords records;
    private final FlowTable table;
    private final FlowListener events;
    private final DcqcnConfig dcqcn;
    private final CnpPolicy cnpPolicy;
    private final AckPolicy ackPolicy;
    private final long mac;
    private final int ip;
    private final long rateBps;
    private final int controlPriority;
    private final PauseTimers pause;
    private final ParsedFrame parsed = new ParsedFrame();
    private final int[] quanta = new int[MacControl.PRIORITIES];
    private final RoceFrameBuilder control = new RoceFrameBuilder();
    private Flow[] active = new Flow[8];
    private int activeCount;
    private int cursor;
    private long[] controlHandle = new long[16];    // a FIFO ring of built control frames
    private int[] controlLength = new int[16];
    private int controlHead;
    private int controlCount;
    private int nodeId = -1;
    private Line line;                      // where started frames go: a Wire, or a SocketLine in real time
    private long lineFreeAt;
    private int lastLength = -1;            // serialization(): the last frame length and its line time
    private long lastSerialization;
    private FrameCost frameCost = FrameCost.ETHERNET;
    private long scheduledWake = Long.MAX_VALUE;
    private HostObserver observer = HostObserver.NONE;
    private long framesSent;
    private long framesReceived;
    private long pfcFramesReceived;
    private long pfcFramesSent;
    private long foreignFrames;
    private long malformedFrames;
    private long pauseFramesReceived;
    private long cnpsSent;
    private long cnpsReceived;
    private long acksSent;
    private long firstPauseAt = -1;
    private long anyPausedSince;            // start of the current (or last) spell with some priority paused
    private long anyPausedUntil;            // end of that spell as the PFC frames so far set it
    private long anyPausedCompleted;        // nanoseconds in spells that ended
    private final boolean bfcNic;
    private int bfcPaused;                  // bit q = NIC queue q paused by the switch
    private int bfcLastSequence = -1;
    private long bfcPausedSince;            // start of the current spell with any queue paused
    private long bfcPausedCompleted;        // nanoseconds in spells that ended
    private long bfcFramesReceived;

    /** NIC queues of a BFC NIC: QP {@code id} uses queue {@code id mod NIC_QUEUES}. */
    static final int NIC_QUEUES = 32;
    private RoceHost cloneSource;                   // non-null: a clone port replaying this host
    private ClonePfc clonePfc = ClonePfc.IGNORE;
    private RoceHost[] clones = new RoceHost[0];    // the clone ports replaying this host, in order
    private MemorySegment skipped;                  // SKIP: where a skipped copy is written and dropped
    private long framesSkipped;
    private boolean ignoresPfc;                     // a NIC that ignores PFC and PAUSE (counted, never obeyed)

    RoceHost(int index, EventLoop loop, HeapSlab slab, FlowRecords records, FlowTable table, FlowListener events,
             DcqcnConfig dcqcn, long mac, int ip, long rateBps, int controlPriority, boolean bfcNic) {
        this(index, loop, slab, records, table, events, dcqcn, HostModel.DEFAULT, mac, ip, rateBps, controlPriority,
                bfcNic);
    }

    RoceHost(int index, EventLoop loop, HeapSlab slab, FlowRecords records, FlowTable table, FlowListener events,
             DcqcnConfig dcqcn, HostModel model, long mac, int ip, long rateBps, int controlPriority, boolean bfcNic) {
        this.index = index;
        this.cnpPolicy = model.cnp();
        this.ackPolicy = model.ack();
        this.loop = loop;
        this.slab = slab;
        this.records = records;
        this.table = table;
        this.events = events;
        this.dcqcn = dcqcn;
        this.mac = mac;
        this.ip = ip;
        this.rateBps = rateBps;
        this.controlPriority = controlPriority;
        this.bfcNic = bfcNic;
        this.pause = new PauseTimers(new long[] {rateBps}, model.pfc());
        control.dscp(controlPriority * 8).ips(ip, 0);
    }

    /** What its frames cost on its line and in its pacing (the testbed's switches' choice; before the run). */
    RoceHost frameCost(FrameCost c) {
        frameCost = c;
        lastLength = -1;
        return this;
    }

    void attach(int id, Line nicLine) {
        this.nodeId = id;
        this.line = nicLine;
    }

    /** Makes this host a clone port of {@code source} (before the run; source must not be a clone). */
    void cloneOf(RoceHost source, ClonePfc mode) {
        if (source == this || source.cloneSource != null || cloneSource != null || clones.length > 0) {
            throw new IllegalArgumentException("host " + index + " cannot clone host " + source.index
                    + ": a clone port replays one host that is itself no clone");
        }
        cloneSource = source;
        clonePfc = mode;
        source.clones = Arrays.copyOf(source.clones, source.clones.length + 1);
        source.clones[source.clones.length - 1] = this;
    }

    /** Makes this host's NIC ignore the PFC and PAUSE frames it receives (before the run). */
    void ignorePfc(boolean ignore) {
        ignoresPfc = ignore;
    }

    /** Whether this host's NIC ignores PFC ({@link Testbed.Builder#ignoresPfc}). */
    public boolean ignoresPfc() {
        return ignoresPfc;
    }

    public void observe(HostObserver o) {
        observer = o == null ? HostObserver.NONE : o;
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        switch (kind) {
            case EventLoop.FRAME -> receive(arg, now);
            case EventLoop.FLOW_START -> {
                start(table.get((int) arg), now);
                transmit(now);
            }
            default -> {
                if (now == scheduledWake) {
                    scheduledWake = Long.MAX_VALUE;
                }
                transmit(now);
            }
        }
    }

    private void start(Flow f, long now) {
        f.start();
        f.nextSendAt = now;
        if (activeCount == active.length) {
            active = Arrays.copyOf(active, activeCount * 2);
        }
        active[activeCount++] = f;
    }

    // ------------------------------------------------------------------ sending

    /** Starts the next frame if the line is free, else (or when everything waits) arranges a wake-up. */
    private void transmit(long now) {
        if (lineFreeAt > now) {
            wakeAt(lineFreeAt);
            return;
        }
        long earliest = Long.MAX_VALUE;
        if (controlCount > 0) {
            if (!pause.isPaused(0, controlPriority, now)) {
                sendControl(now);
                return;
            }
            earliest = pause.pausedUntil(0, controlPriority);
        }
        int n = activeCount;
        for (int i = 0; i < n; i++) {
            int slot = (cursor + i) % n;
            Flow f = active[slot];
            if (pause.isPaused(0, f.priority, now)) {
                earliest = Math.min(earliest, pause.pausedUntil(0, f.priority));
            } else if (bfcNic && (bfcPaused >>> nicQueue(f.id) & 1) != 0) {
                continue;                                   // until the switch resumes the queue
            } else if (f.nextSendAt > now) {
                earliest = Math.min(earliest, f.nextSendAt);
            } else {
                cursor = slot + 1;
                send(f, slot, now);
                return;
            }
        }
        if (earliest != Long.MAX_VALUE) {
            wakeAt(earliest);
        }
    }

    private void send(Flow f, int slot, long now) {
        int length = f.nextFrameLength();
        putOnLine(f, length, now);
        if (f.cc != null) {
            f.cc.onSent(length, now);
            long rate = f.cc.rateBps(now);
            f.nextSendAt = rate >= rateBps ? lineFreeAt : now + frameCost.lineNanos(length, rate);
        }
        Flow[] shadows = f.shadows;
        if (shadows != null) {
            for (int k = 0; k < shadows.length; k++) {
                clones[k].replay(shadows[k], length, now);
            }
        }
        if (f.sentAll()) {
            System.arraycopy(active, slot + 1, active, slot, activeCount - slot - 1);   // keep the round-robin order
            active[--activeCount] = null;
            cursor = slot;
            events.onFlowSent(f.id, now);
        }
        if (activeCount > 0) {
            cursor %= activeCount;
        } else {
            cursor = 0;
        }
        wakeAt(lineFreeAt);
    }

    /**
     * A clone port: its source just started a frame of {@code sourceLength} bytes of the flow whose
     * copy is {@code shadow}; start the copy now on this line (same rate, so it never overlaps).
     */
    private void replay(Flow shadow, int sourceLength, long now) {
        int length = shadow.nextFrameLength();
        if (length != sourceLength) {
            throw new IllegalStateException("clone " + index + ": copy of " + length + " B for a " + sourceLength + " B frame");
        }
        if (clonePfc == ClonePfc.SKIP && pause.isPaused(0, shadow.priority, now)) {
            if (skipped == null) {
                skipped = HeapSlab.aside(slab.slotBytes());
            }
            shadow.writeNext(skipped, 0);          // the shadow's PSN moves on: the packet is lost, not late
            framesSkipped++;
            return;
        }
        putOnLine(shadow, length, now);
    }

    /** Writes flow {@code f}'s next frame ({@code length} bytes) into a buffer and starts it on the line. */
    private void putOnLine(Flow f, int length, long now) {
        long handle = slab.allocateOrFail(length);
        int payload = f.writeNext(slab.bytes(), slab.offset(handle));
        records.onSent(f.id, payload);
        framesSent++;
        observer.onTransmit(index, f.id, f.writtenPsn(), f.priority, length, now);
        lineFreeAt = now + serialization(length);
        line.send(handle, length, now);
    }

    private void sendControl(long now) {
        long handle = controlHandle[controlHead];
        int length = controlLength[controlHead];
        controlHead = (controlHead + 1) % controlHandle.length;
        controlCount--;
        framesSent++;
        lineFreeAt = now + serialization(length);
        line.send(handle, length, now);
        wakeAt(lineFreeAt);
    }

    /**
     * Sends an 802.1Qbb PFC frame to the switch: every priority of {@code classEnable} paused for
     * {@code quanta} (0 = resume). It goes with the ACKs and CNPs, ahead of data (a NIC's MAC sends
     * PFC at once; here it waits for a frame already on the line). What a stuck NIC's pause storm
     * is made of ({@link PfcStorm}).
     */
    public void sendPfc(int classEnable, int quanta, long now) {
        long handle = slab.allocateOrFail(Ethernet.MIN_FRAME_BYTES);
        int length = MacControl.writePfc(slab.bytes(), slab.offset(handle), mac, classEnable, quanta);
        if (controlCount == controlHandle.length) {
            growControlRing();
        }
        int tail = (controlHead + controlCount) % controlHandle.length;
        controlHandle[tail] = handle;
        controlLength[tail] = length;
        controlCount++;
        pfcFramesSent++;
        transmit(now);
    }

    /** Builds a CNP or ACK (with {@code becn}: one that carries a CNP) for flow {@code f} back to its sender and queues it ahead of data. */
    private void queueControl(Flow f, int opcode, int psn, boolean becn, long now) {
        RoceHost to = senderOf(f);
        control.macs(to.mac, mac).ips(ip, to.ip).destQp(f.id).opcode(opcode).psn(psn)
                .udpSrcPort(f.udpSrcPort).payloadBytes(0).aeth(Roce.AETH_ACK, psn).ackRequest(false)
                .becn(becn);
        int length = control.frameLength();
        long handle = slab.allocateOrFail(length);
        control.write(slab.bytes(), slab.offset(handle));
        if (controlCount == controlHandle.length) {
            growControlRing();
        }
        int tail = (controlHead + controlCount) % controlHandle.length;
        controlHandle[tail] = handle;
        controlLength[tail] = length;
        controlCount++;
        transmit(now);
    }

    private void growControlRing() {
        int cap = controlHandle.length * 2;
        long[] h = new long[cap];
        int[] l = new int[cap];
        for (int i = 0; i < controlCount; i++) {
            h[i] = controlHandle[(controlHead + i) % controlHandle.length];
            l[i] = controlLength[(controlHead + i) % controlHandle.length];
        }
        controlHandle = h;
        controlLength = l;
        controlHead = 0;
    }

    private RoceHost senderOf(Flow f) {
        return peers[f.src];
    }

    private RoceHost[] peers = new RoceHost[0];

    /** Every host of the testbed by index, to address CNPs and ACKs. */
    void peers(RoceHost[] all) {
        peers = all;
    }

    /** {@link LineRate#nanos} of a frame on this host's line, remembered for the last length (as {@link Wire} does). */
    private long serialization(int length) {
        if (length != lastLength) {
            lastLength = length;
            lastSerialization = frameCost.lineNanos(length, rateBps);
        }
        return lastSerialization;
    }

    private void wakeAt(long at) {
        if (at < scheduledWake) {
            scheduledWake = at;
            loop.schedule(at, nodeId, EventLoop.WAKE, 0, 0);
        }
    }

    // ------------------------------------------------------------------ receiving

    private void receive(long handle, long now) {
        long offset = slab.offset(handle);
        FrameParser.parse(slab.bytes(), offset, slab.length(handle), parsed);
        framesReceived++;
        if (parsed.isMalformed() && !parsed.isPfc()) {
            malformedFrames++;                    // a PFC frame with reserved bits set still counts: 802.1Qbb ignores them
        } else if (parsed.isPfc()) {
            receivePfc(now);
        } else if (parsed.kind() == FrameKind.PAUSE) {
            receivePause(now);
        } else if (parsed.isBfcControl()) {
            receiveBfc(now);
        } else if (parsed.isRoce() && parsed.dstMac() == mac) {
            Flow f = table.get(parsed.destQp());
            int op = parsed.bthOpcode();
            if (f == null) {
                foreignFrames++;
            } else if (op == Roce.OP_CNP && f.src == index) {
                cnpsReceived++;
                if (f.cc != null) {
                    f.cc.onCnp(now);
                }
            } else if (op == Roce.OP_RC_ACK && f.src == index) {
                if (parsed.psn() == f.lastPsn() && f.sentAll()) {
                    records.onAcked(f.id, now);
                }
                if (Roce.becn(slab.bytes(), parsed.bthOffset())) {      // a CNP on the ACK (CnpPolicy.ON_ACK)
                    cnpsReceived++;
                    if (f.cc != null) {
                        f.cc.onCnp(now);
                    }
                }
            } else if (f.dst == index) {
                receiveData(f, op, now);
            } else {
                foreignFrames++;
            }
        } else {
            foreignFrames++;                      // flooded to us, or not RoCE
        }
        slab.free(handle);
    }

    private void receivePfc(long now) {
        pfcFramesReceived++;
        int classEnable = parsed.classEnable();
        boolean pauses = false;
        for (int p = 0; p < MacControl.PRIORITIES; p++) {
            quanta[p] = parsed.quanta(p);
            pauses |= (classEnable >>> p & 1) != 0 && quanta[p] > 0;
        }
        if (pauses && firstPauseAt < 0) {
            firstPauseAt = now;
        }
        observer.onPfc(index, classEnable, quanta, now);
        if (ignoresPfc) {
            return;                                     // counted, never obeyed
        }
        if (applyPause(classEnable, now) != 0 && cloneSource == null) {
            transmit(now);
        }
    }

    /** An 802.3x PAUSE stops every priority for its time, as a NIC without PFC does (quanta 0 resumes). */
    private void receivePause(long now) {
        pauseFramesReceived++;
        int q = parsed.pauseQuanta();
        Arrays.fill(quanta, q);
        if (q > 0 && firstPauseAt < 0) {
            firstPauseAt = now;
        }
        observer.onPfc(index, ALL_PRIORITIES, quanta, now);
        if (ignoresPfc) {
            return;
        }
        if (applyPause(ALL_PRIORITIES, now) != 0 && cloneSource == null) {
            transmit(now);
        }
    }

    /**
     * Applies the received times in {@link #quanta} to the priorities of {@code classEnable} and
     * extends the spell with any priority paused; returns the priorities this resumed.
     *
     * <p>The spell is the union of the priorities' pause intervals. Each interval starts at the
     * arrival of the frame that set it, and a later frame can only cut or extend it at its own
     * arrival. So every pause in effect when a frame arrives contains that instant, and from then
     * until the next frame the union is one interval, from the arrival to the latest end among the
     * priorities. If a pause was in effect just before the frame ({@code anyPausedUntil > now}),
     * the frame continues that spell; otherwise the spell ended at {@code anyPausedUntil} and any
     * new one starts now. Under {@code UNTIL_RESUME} an end is {@code NEVER} until a resume.
     */
    private int applyPause(int classEnable, long now) {
        if (anyPausedUntil <= now) {
            anyPausedCompleted += Math.max(0, anyPausedUntil - anyPausedSince);
            anyPausedSince = now;
        }
        int resumed = pause.applyPfc(0, classEnable, quanta, now);
        long until = Long.MIN_VALUE;
        for (int prio = 0; prio < MacControl.PRIORITIES; prio++) {
            until = Math.max(until, pause.pausedUntil(0, prio));
        }
        anyPausedUntil = until;
        return resumed;
    }

    private static final int ALL_PRIORITIES = (1 << MacControl.PRIORITIES) - 1;

    /** Applies a BFC control frame to the NIC queues (ignored by a NIC without BFC, or if older than the last). */
    private void receiveBfc(long now) {
        bfcFramesReceived++;
        int seq = parsed.bfcSeq();
        if (!bfcNic || Bfc.isStale(seq, bfcLastSequence)) {
            return;
        }
        bfcLastSequence = seq;
        int paused = bfcPaused;
        int q = parsed.bfcQueue();
        switch (parsed.bfcOp()) {
            case Bfc.OP_PAUSE -> paused |= q < NIC_QUEUES ? 1 << q : 0;
            case Bfc.OP_RESUME -> paused &= q < NIC_QUEUES ? ~(1 << q) : ~0;
            default -> paused = (int) Bfc.pausedInBitmap(parsed, NIC_QUEUES);
        }
        if ((paused & ~bfcPaused) != 0 && firstPauseAt < 0) {
            firstPauseAt = now;
        }
        if (bfcPaused == 0 && paused != 0) {
            bfcPausedSince = now;
        } else if (bfcPaused != 0 && paused == 0) {
            bfcPausedCompleted += now - bfcPausedSince;
        }
        boolean resumed = (bfcPaused & ~paused) != 0;
        bfcPaused = paused;
        if (resumed) {
            transmit(now);
        }
    }

    /** The NIC queue QP {@code flowId} sends from under BFC (stamped in its frames' shim). */
    static int nicQueue(int flowId) {
        return flowId & (NIC_QUEUES - 1);
    }

    private void receiveData(Flow f, int op, long now) {
        int payload = payloadBytes();
        if (payload < 0) {
            malformedFrames++;                    // headers that leave no room for BTH and ICRC: not ours
            return;
        }
        int psn = parsed.psn();
        int skipped = f.receivedPsn(psn);
        boolean lastOfFlow = (op == Roce.OP_RC_WRITE_LAST || op == Roce.OP_RC_WRITE_ONLY)
                && records.receivedPayloadBytes(f.id) + payload >= records.sizeBytes(f.id);
        records.onReceived(f.id, payload, Math.max(0, skipped), skipped == Flow.LATE, lastOfFlow, now);
        boolean cnp = parsed.ecn() == Ipv4.ECN_CE && dcqcn.enabled() && cnpPolicy.sendFor(f, now, dcqcn.cnpIntervalNanos());
        boolean ack = ackPolicy.acks(parsed.ackRequested());
        boolean cnpOnAck = cnp && ack && cnpPolicy.ridesOnAck();
        if (cnp) {
            cnpsSent++;
            if (!cnpOnAck) {
                queueControl(f, Roce.OP_CNP, 0, false, now);
            }
        }
        if (ack) {
            acksSent++;
            queueControl(f, Roce.OP_RC_ACK, psn, cnpOnAck, now);
        }
        if (lastOfFlow) {
            events.onFlowReceived(f.id, now);
        }
    }

    /** RDMA payload of the parsed frame: the UDP payload minus BTH, RETH, pad and ICRC. */
    private int payloadBytes() {
        long bth = parsed.bthOffset();
        int pad = (slab.bytes().get(JAVA_BYTE, bth + 1) >>> 4) & 3;
        int udpPayload = parsed.ipTotalLength() - parsed.ipHeaderBytes() - 8;
        int extensions = Roce.carriesReth(parsed.bthOpcode()) ? Roce.RETH_BYTES : 0;
        return udpPayload - Roce.BTH_BYTES - extensions - pad - Roce.ICRC_BYTES;
    }

    // ------------------------------------------------------------------ observation

    public int index() { return index; }
    public long mac() { return mac; }
    public int ip() { return ip; }
    public long rateBps() { return rateBps; }
    public long framesSent() { return framesSent; }
    public long framesReceived() { return framesReceived; }
    public long pfcFramesReceived() { return pfcFramesReceived; }
    /** PFC frames this host sent ({@link #sendPfc}). */
    public long pfcFramesSent() { return pfcFramesSent; }
    public long foreignFrames() { return foreignFrames; }
    /** Frames that did not parse (truncated, bad lengths, an unknown MAC-control opcode): counted and dropped. */
    public long malformedFrames() { return malformedFrames; }
    /** 802.3x PAUSE frames received (each pauses every priority). */
    public long pauseFramesReceived() { return pauseFramesReceived; }
    public long cnpsSent() { return cnpsSent; }
    public long cnpsReceived() { return cnpsReceived; }
    public long acksSent() { return acksSent; }
    /** The index of the host this clone port replays, or -1 for an ordinary host. */
    public int cloneSource() { return cloneSource == null ? -1 : cloneSource.index; }
    public ClonePfc clonePfc() { return clonePfc; }
    /** Copies a SKIP clone port dropped because it was paused. */
    public long framesSkipped() { return framesSkipped; }
    int cloneCount() { return clones.length; }
    RoceHost clone(int k) { return clones[k]; }
    /** When the first PFC frame that paused some priority arrived, or -1 if none did. */
    public long firstPauseNanos() { return firstPauseAt; }
    public long pausedNanos(int priority, long now) { return pause.pausedNanos(0, priority, now); }
    public boolean isPaused(int priority, long now) { return pause.isPaused(0, priority, now); }
    /** Whether this host has a BFC NIC (stamps the shim, obeys BFC pauses). */
    public boolean bfcNic() { return bfcNic; }
    public long bfcFramesReceived() { return bfcFramesReceived; }
    /** Whether the switch keeps some NIC queue paused (BFC). */
    public boolean isBfcPaused() { return bfcPaused != 0; }
    /** Time with at least one NIC queue paused by BFC, up to {@code now}. */
    public long bfcPausedNanos(long now) { return bfcPausedCompleted + (bfcPaused != 0 ? now - bfcPausedSince : 0); }

    /** Time with at least one priority paused by PFC (or 802.3x PAUSE), up to {@code now}. */
    public long pfcPausedNanos(long now) {
        return anyPausedCompleted + Math.max(0, Math.min(now, anyPausedUntil) - anyPausedSince);
    }

    /** Time kept from sending by the switch, up to {@code now}: any priority paused by PFC, plus BFC spells. */
    public long pausedNanos(long now) {
        return pfcPausedNanos(now) + bfcPausedNanos(now);
    }

    /** Whether the switch keeps anything of this host from sending at {@code now} (PFC or BFC). */
    public boolean isPaused(long now) {
        if (bfcPaused != 0) {
            return true;
        }
        for (int prio = 0; prio < MacControl.PRIORITIES; prio++) {
            if (pause.isPaused(0, prio, now)) {
                return true;
            }
        }
        return false;
    }
    /** The current DCQCN rate of flow {@code id} sent by this host, or its line rate without CC. */
    public long flowRateBps(int id, long now) {
        Flow f = table.get(id);
        return f == null || f.cc == null ? rateBps : f.cc.rateBps(now);
    }
}

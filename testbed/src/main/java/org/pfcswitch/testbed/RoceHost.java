package org.pfcswitch.testbed;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.Roce;
import org.pfcswitch.dataplane.core.LineRate;
import org.pfcswitch.dataplane.core.PauseTimers;

/**
 * An emulated RoCEv2 host with one NIC port, at line rate and without congestion control (this
 * slice). As a sender it round-robins over its started flows, one frame at a time as its line
 * frees, skipping flows whose priority a received PFC frame pauses (a frame already on the line
 * finishes). As a receiver it parses every frame, checks each flow's PSN order, counts payload
 * and frees the buffer.
 */
public final class RoceHost implements Node {

    private final int index;
    private final EventLoop loop;
    private final HeapSlab slab;
    private final FlowRecords records;
    private final long mac;
    private final int ip;
    private final long rateBps;
    private final PauseTimers pause;
    private final ParsedFrame parsed = new ParsedFrame();
    private final int[] quanta = new int[MacControl.PRIORITIES];
    private final List<Flow> flowList = new ArrayList<>();
    private Flow[] flows = new Flow[0];
    private int cursor;
    private int nodeId = -1;
    private Wire wire;
    private long lineFreeAt;
    private long scheduledWake = Long.MAX_VALUE;
    private HostObserver observer = HostObserver.NONE;
    private long framesSent;
    private long framesReceived;
    private long pfcFramesReceived;
    private long foreignFrames;
    /** By flow id: the PSN the next packet must carry, or -1 for flows this host does not receive. */
    private int[] expectedPsn = new int[0];

    RoceHost(int index, EventLoop loop, HeapSlab slab, FlowRecords records, long mac, int ip, long rateBps) {
        this.index = index;
        this.loop = loop;
        this.slab = slab;
        this.records = records;
        this.mac = mac;
        this.ip = ip;
        this.rateBps = rateBps;
        this.pause = new PauseTimers(new long[] {rateBps});
    }

    void attach(int id, Wire nicWire) {
        this.nodeId = id;
        this.wire = nicWire;
    }

    void addFlow(Flow f) {
        flowList.add(f);
        flows = flowList.toArray(Flow[]::new);
    }

    void expectFlow(int flowId) {
        if (flowId >= expectedPsn.length) {
            int old = expectedPsn.length;
            expectedPsn = Arrays.copyOf(expectedPsn, Math.max(flowId + 1, old * 2));
            Arrays.fill(expectedPsn, old, expectedPsn.length, -1);
        }
        expectedPsn[flowId] = 0;
    }

    private boolean receives(int flowId) {
        return flowId >= 0 && flowId < expectedPsn.length && expectedPsn[flowId] >= 0;
    }

    public void observe(HostObserver o) {
        observer = o == null ? HostObserver.NONE : o;
    }

    @Override
    public void onEvent(int kind, int port, long arg, long now) {
        switch (kind) {
            case EventLoop.FRAME -> receive(arg, now);
            case EventLoop.FLOW_START -> {
                for (Flow f : flows) {
                    if (f.id == arg) {
                        f.start();
                    }
                }
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

    // ------------------------------------------------------------------ sending

    /** Starts the next frame if the line is free, else (or when everything is paused) arranges a wake-up. */
    private void transmit(long now) {
        if (lineFreeAt > now) {
            wakeAt(lineFreeAt);
            return;
        }
        long resume = Long.MAX_VALUE;
        int n = flows.length;
        for (int i = 0; i < n; i++) {
            Flow f = flows[(cursor + i) % n];
            if (!f.hasData()) {
                continue;
            }
            if (pause.isPaused(0, f.priority, now)) {
                resume = Math.min(resume, pause.pausedUntil(0, f.priority));
                continue;
            }
            cursor = (cursor + i + 1) % n;
            send(f, now);
            return;
        }
        if (resume != Long.MAX_VALUE) {
            wakeAt(resume);
        }
    }

    private void send(Flow f, long now) {
        int length = f.nextFrameLength();
        long handle = slab.allocateOrFail(length);
        int payload = f.writeNext(slab.bytes(), slab.offset(handle));
        records.onSent(f.id, payload);
        framesSent++;
        observer.onTransmit(index, f.id, f.priority, length, now);
        lineFreeAt = now + LineRate.nanos(length, rateBps);
        wire.send(handle, length, now);
        wakeAt(lineFreeAt);
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
        if (parsed.isPfc()) {
            pfcFramesReceived++;
            int classEnable = parsed.classEnable();
            for (int p = 0; p < MacControl.PRIORITIES; p++) {
                quanta[p] = parsed.quanta(p);
            }
            observer.onPfc(index, classEnable, quanta, now);
            if (pause.applyPfc(0, classEnable, quanta, now) != 0) {
                transmit(now);
            }
        } else if (parsed.isRoce() && parsed.dstMac() == mac && receives(parsed.destQp())) {
            int flow = parsed.destQp();
            boolean inOrder = parsed.psn() == expectedPsn[flow];
            expectedPsn[flow] = (parsed.psn() + 1) & 0xFF_FFFF;
            int op = parsed.bthOpcode();
            boolean lastOfFlow = (op == Roce.OP_RC_WRITE_LAST || op == Roce.OP_RC_WRITE_ONLY)
                    && records.receivedPayloadBytes(flow) + payloadBytes() >= records.sizeBytes(flow);
            records.onReceived(flow, payloadBytes(), inOrder, lastOfFlow, now);
        } else {
            foreignFrames++;                      // flooded to us, or a flow this host does not receive
        }
        slab.free(handle);
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
    public long framesSent() { return framesSent; }
    public long framesReceived() { return framesReceived; }
    public long pfcFramesReceived() { return pfcFramesReceived; }
    public long foreignFrames() { return foreignFrames; }
    public long pausedNanos(int priority, long now) { return pause.pausedNanos(0, priority, now); }
}

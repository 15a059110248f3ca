package org.pfcswitch.core;

import java.lang.foreign.MemorySegment;

import org.pfcswitch.codec.FrameParser;
import org.pfcswitch.codec.Ipv4;
import org.pfcswitch.codec.MacAddress;
import org.pfcswitch.codec.MacControl;
import org.pfcswitch.codec.ParseError;
import org.pfcswitch.codec.ParsedFrame;
import org.pfcswitch.codec.PriorityClassifier;

/**
 * The receive stage: a frame that arrived is parsed in place, handed to the link control if it is
 * a MAC-control frame (PFC, PAUSE, BFC: consumed, never forwarded), else classified to a priority,
 * its source MAC learned, and routed: an ECMP group's member by flow hash, else the forwarding
 * table's port, else flooded (a copy per other port). Each routed copy goes to the
 * {@link AdmissionStage}.
 *
 * <p><b>Owns</b>: the parse results of the burst in hand, the forwarding table (learned entries),
 * the ECMP groups, and the rx, parse-error, filter and flood counters. With several workers each
 * keeps its own table and tells the others what it learns ({@link WorkerCrossings#sendLearned}). <b>Reads</b>: the PFC
 * watchdog's stormed queues (a stormed neighbour's own traffic is dropped here). Only the worker
 * that polls the frame's ingress port touches it.
 */
final class ReceiveStage {

    private static final int PRIORITIES = MacControl.PRIORITIES;

    private final int ports;
    private final PacketMemory memory;
    private final MemorySegment bytes;
    private final FrameAllocator allocator;
    private final LinkControl link;
    private final AdmissionStage admission;
    private final EgressStage egress;
    private final SwitchCounters counters;
    private final PriorityClassifier classifier;
    private final ForwardingTable table;
    private final EcmpRoutes ecmp;
    /** How ECMP groups pick a member ({@link SwitchModel#ecmpHash}), with its seed. */
    private final EcmpHash ecmpHash;
    private final int ecmpSeed;
    /** Frames a burst is parsed in at most; a longer one is taken this many at a time. */
    static final int BURST = 32;
    /** The parse of each frame of the burst in hand ({@link #receive} uses the first), its offset, length and parse error. */
    private final ParsedFrame[] parsed = new ParsedFrame[BURST];
    private final long[] burstOffset = new long[BURST];
    private final int[] burstLength = new int[BURST];
    private final ParseError[] burstError = new ParseError[BURST];
    /** The PFC watchdog, or null under bfc, which runs no PFC. */
    private final PfcWatchdog watchdog;
    /** The rings to the other workers (stations learned here go to them), or null with one worker. */
    private WorkerCrossings crossings;
    /** MAC moves and denied moves for the log, one per port per second. */
    private final MacMoveEvents moveEvents;

    ReceiveStage(CoreConfig config, SwitchModel model, PacketMemory memory, FrameAllocator allocator, LinkControl link,
                 PfcWatchdog watchdog, AdmissionStage admission, EgressStage egress, SwitchCounters counters) {
        this.ports = config.ports();
        this.memory = memory;
        this.bytes = memory.bytes();
        this.allocator = allocator;
        this.link = link;
        this.watchdog = watchdog;
        this.admission = admission;
        this.egress = egress;
        this.counters = counters;
        this.ecmpHash = model.ecmpHash();
        this.ecmpSeed = model.ecmpSeed();
        this.classifier = config.classifier();
        this.table = new ForwardingTable(ports, config.tableCapacity(), config.learning(), config.portLearning());
        this.moveEvents = new MacMoveEvents(ports);
        for (CoreConfig.StaticMac s : config.staticMacs()) {
            table.addStatic(s.mac(), s.port());
        }
        this.ecmp = new EcmpRoutes(config.ecmpGroups());
        for (int i = 0; i < BURST; i++) {
            parsed[i] = new ParsedFrame();
        }
    }

    /** A frame arrived (its last bit was received) on {@code port} at {@code now}; the stage owns the handle from now on. */
    void receive(int port, long handle, long now) {
        ParsedFrame frame = parsed[0];
        int length = memory.length(handle);
        long offset = memory.offset(handle);
        ParseError error = FrameParser.parse(bytes, offset, length, frame);
        handle(port, handle, offset, length, error, frame, now);
        egress.sendOwedControlFrames(now);
    }

    /**
     * {@code count} frames that arrived on {@code port} at {@code now}, {@code handles[from]} first:
     * what {@link #receive} of each in turn does, in two passes, with the owed control frames sent
     * once, after the burst. The first pass parses every frame of the burst (a parse reads only its
     * own frame's bytes, which nothing the second pass does to earlier frames touches), so the
     * header reads of the burst overlap instead of each waiting behind the previous frame's
     * admission; the second takes each frame through the rest of the core in arrival order.
     *
     * <p>A control frame that a frame of the burst makes owed (an XOFF) still goes out before any
     * data frame of its port that would follow it: a port that owes one never sends a frame at once
     * ({@link EgressStage#sendsAtOnce}), and serving it sends the owed frame first. What waits for
     * the end of the burst is only the serving of a port that no frame of the burst went to; it
     * runs at the same {@code now}, before the driver polls its next burst, a few microseconds of
     * processing at most, which is well inside the pause response time the headroom allows for.
     */
    void receiveBurst(int port, long[] handles, int from, int count, long now) {
        for (int done = 0; done < count; done += BURST) {
            int n = Math.min(BURST, count - done);
            int first = from + done;
            for (int i = 0; i < n; i++) {
                long handle = handles[first + i];
                int length = memory.length(handle);
                long offset = memory.offset(handle);
                burstLength[i] = length;
                burstOffset[i] = offset;
                burstError[i] = FrameParser.parse(bytes, offset, length, parsed[i]);
            }
            for (int i = 0; i < n; i++) {
                handle(port, handles[first + i], burstOffset[i], burstLength[i], burstError[i], parsed[i], now);
            }
        }
        egress.sendOwedControlFrames(now);
    }

    /** A parsed frame: dropped if malformed, to the link control if MAC control, else forwarded. */
    private void handle(int port, long handle, long offset, int length, ParseError error, ParsedFrame frame,
                        long now) {
        if (error != ParseError.NONE) {
            counters.countParseError(port, error);
        }
        if (error == ParseError.RUNT || error == ParseError.OUTSIDE_BUFFER) {
            counters.malformedDropped[port]++;
            allocator.free(handle);
            return;
        }
        int control = link.receive(port, frame, now);
        if (control == LinkControl.NOT_CONTROL) {
            forward(port, frame, handle, offset, length, now);
        } else {
            allocator.free(handle);                 // link-local: never forwarded
            if (control == LinkControl.RESUMED) {
                egress.serve(port, now);
            }
        }
    }

    private void forward(int inPort, ParsedFrame parsed, long handle, long offset, int length, long now) {
        int priority = classifier.classify(parsed);
        int key = inPort * PRIORITIES + priority;
        counters.rxFrames[key]++;
        counters.rxBytes[key] += length;
        if (watchdog != null && watchdog.drops(inPort, priority)) {
            // SONiC's drop action: the stormed neighbour's own traffic of that priority goes too, so
            // a stuck NIC cannot fill the buffer (and pause others) with frames it sends meanwhile
            counters.pfcwdIngressDrops[key]++;
            allocator.free(handle);
            return;
        }
        long dst = parsed.dstMac();
        if (table.learning()) {
            int learned = table.learn(parsed.srcMac(), inPort);
            if (learned != ForwardingTable.UNCHANGED) {
                learned(learned, parsed.srcMac(), inPort, now);
            }
        }
        int outPort = MacAddress.isMulticast(dst) ? -1 : route(parsed, dst);
        short ipv4Offset = parsed.hasIpv4() && parsed.ecn() != Ipv4.ECN_NOT_ECT
                ? (short) (parsed.ipv4Offset() - offset) : PacketSlots.NOT_ECN_CAPABLE;
        if (outPort == inPort) {
            counters.filtered[inPort]++;
            allocator.free(handle);
        } else if (outPort >= 0) {
            admission.admit(parsed, inPort, priority, outPort, handle, length, ipv4Offset, now);
        } else {
            flood(parsed, inPort, priority, handle, offset, length, ipv4Offset, now);
        }
    }

    /** What learning {@code mac} on {@code port} did ({@link ForwardingTable#learn}), besides nothing: shared, counted, logged. */
    private void learned(int outcome, long mac, int port, long now) {
        switch (outcome) {
            case ForwardingTable.LEARNED -> share(mac, port);
            case ForwardingTable.MOVED -> {
                counters.macMoves[port]++;
                moveEvents.report(mac, table.movedFrom(), port, false, now);
                share(mac, port);
            }
            case ForwardingTable.MOVE_DENIED -> {
                counters.macMovesDenied[port]++;
                moveEvents.report(mac, table.movedFrom(), port, true, now);
            }
            default -> counters.macOverLimit[port]++;
        }
    }

    /** A station learned (or moved) here: the other workers forward to it too. */
    private void share(long mac, int port) {
        if (crossings != null) {
            crossings.sendLearned(mac, port);
        }
    }

    /**
     * The egress port for unicast {@code dst}: its ECMP group's member for this frame's flow hash
     * when it has a group, else the forwarding table's port, or -1 (flood). A switch without
     * groups never computes the hash.
     */
    private int route(ParsedFrame parsed, long dst) {
        if (!ecmp.isEmpty()) {
            int port = ecmp.lookup(dst, ecmpHash.hash(parsed, ecmpSeed));
            if (port != EcmpRoutes.NO_ROUTE) {
                return port;
            }
        }
        return table.lookupOwned(dst);
    }

    private void flood(ParsedFrame parsed, int inPort, int priority, long handle, long offset, int length, short ipv4Offset, long now) {
        counters.flooded[inPort]++;
        for (int out = 0; out < ports; out++) {
            if (out == inPort) {
                continue;
            }
            long copy = allocator.allocate(length);
            if (copy == FrameAllocator.NO_HANDLE) {
                counters.floodNoBuffer[inPort]++;
                continue;
            }
            MemorySegment.copy(bytes, offset, bytes, memory.offset(copy), length);
            admission.admit(parsed, inPort, priority, out, copy, length, ipv4Offset, now);
        }
        allocator.free(handle);
    }

    /** The rings to the other workers (null with one worker); wiring, once, before the first frame. */
    void connect(WorkerCrossings crossings) {
        this.crossings = crossings;
    }

    /**
     * A station another worker learned on one of its ports: this worker forwards to it as well. The
     * port's learning rules apply here too (a station this worker saw first on a port that denies
     * moves stays there), but the counting and the log are the learning worker's.
     */
    void learnedElsewhere(long mac, int port) {
        table.learn(mac, port);
    }

    MacMoveEvents moveEvents() {
        return moveEvents;
    }

    ForwardingTable forwardingTable() {
        return table;
    }
}

package org.pfcswitch.testbed;

import java.util.Arrays;

/**
 * One partition's pending events, run by one thread at a time: primitive tuples (time, node, kind,
 * port, arg) in slot arrays, ordered by a 4-ary heap of slot numbers on (time, key). The key is
 * {@link EventLoop}'s tie order (the scheduling node, then that node's own count of events it has
 * scheduled), given by the caller, so the order never depends on which queue an event waits in
 * or when it was inserted. No object is created per event once the arrays have grown.
 *
 * <p>Frame arrivals of a wire wait in the wire's own FIFO ({@link #openLane}), and a node's flow
 * starts in one of the node's own, with only the earliest of each FIFO in the heap; that changes
 * the cost, not the order.
 */
final class EventQueue {

    private final EventLoop loop;
    /** The partition this queue runs (the loop's global queue has the index after the last partition). */
    final int partition;

    // Per event, by slot: what to deliver. The order key lives in the heap, beside the slot number.
    private int[] node = new int[1024];
    private int[] kind = new int[1024];
    private int[] port = new int[1024];
    private long[] arg = new long[1024];
    // A 4-ary min-heap on (time, key). Each entry's key sits in the heap's own parallel arrays, so a
    // comparison never follows a slot number, and the four children of an entry are adjacent. Any
    // heap pops the same order: the key is unique, so the order is total.
    private int[] heap = new int[1024];
    private long[] heapTime = new long[1024];
    private long[] heapKey = new long[1024];
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private Lane[] lanes = new Lane[0];
    // By node id: the lane of that node's FLOW_START events (-1: none yet). Traffic generators draw
    // every start before the run, so without lanes the heap would hold one entry per future flow
    // (tens of thousands on a fabric) and every removal would sift through all of them.
    private int[] flowStartLane = new int[0];
    private int size;
    private int slotsUsed;
    // True while an event runs whose heap entry (the root, heap[0]) is spent but not yet removed.
    // The first event scheduled meanwhile takes the root's place with one sift-down, instead of
    // the root being removed (a sift-down of the last entry) and the new event pushed (a sift-up):
    // most events schedule at least one more. The heap holds the same set of keys either way.
    private boolean rootSpent;

    /** The node whose event runs now, or {@link EventLoop#OUTSIDE}: the source of the keys of what it schedules. */
    int source = EventLoop.OUTSIDE;
    private long now;
    long dispatched;
    /** Queues whose events the node running here may schedule: they take its {@link #source} while it runs. */
    private EventQueue[] followers = new EventQueue[0];

    EventQueue(EventLoop loop, int partition) {
        this.loop = loop;
        this.partition = partition;
    }

    /** While this queue runs a node, {@code others} take it as their {@link #source} too. */
    void lead(EventQueue[] others) {
        followers = others;
    }

    long now() {
        return now;
    }

    void advanceTo(long t) {
        now = Math.max(now, t);
    }

    /** The earliest pending event's time, or {@link Long#MAX_VALUE}. */
    long nextTime() {
        return size > 0 ? heapTime[0] : Long.MAX_VALUE;          // asked between runs, when no root is spent
    }

    int pendingEvents() {
        int n = rootSpent ? size - 1 : size;
        for (Lane lane : lanes) {
            n += lane.count > 0 ? lane.count - 1 : 0;    // the heap holds one entry per busy lane
        }
        return n;
    }

    int heapEntries() {
        return rootSpent ? size - 1 : size;
    }

    void schedule(long at, long key, int nodeId, int eventKind, int eventPort, long eventArg) {
        if (eventKind == EventLoop.FLOW_START) {
            scheduleOnLane(flowStartLane(nodeId), at, key, eventArg);
            return;
        }
        scheduleInHeap(at, key, nodeId, eventKind, eventPort, eventArg);
    }

    private void scheduleInHeap(long at, long key, int nodeId, int eventKind, int eventPort, long eventArg) {
        if (at < now) {
            throw new IllegalArgumentException("event at " + at + " ns is before now (" + now + " ns)");
        }
        int s = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        node[s] = nodeId;
        kind[s] = eventKind;
        port[s] = eventPort;
        arg[s] = eventArg;
        push(at, key, s);
    }

    /** Adds the heap entry (t, q, slot): in the spent root's place if there is one, else at the bottom. */
    private void push(long t, long q, int slot) {
        if (rootSpent) {
            rootSpent = false;
            down(t, q, slot);
            return;
        }
        if (size == heap.length) {
            growHeap();
        }
        up(size++, t, q, slot);
    }

    /**
     * Opens a lane: a FIFO of FRAME events to one (node, port), for a sender whose events arrive in
     * time order, as a wire's frames do. Only a lane's earliest event sits in the heap, so the heap
     * holds about one entry per busy wire rather than one per frame in flight, and a lane's next
     * event replaces its predecessor at the top instead of a pop and a push.
     */
    int openLane(int nodeId, int eventPort) {
        return openLane(nodeId, EventLoop.FRAME, eventPort);
    }

    private int openLane(int nodeId, int eventKind, int eventPort) {
        lanes = Arrays.copyOf(lanes, lanes.length + 1);
        lanes[lanes.length - 1] = new Lane(nodeId, eventKind, eventPort);
        return lanes.length - 1;
    }

    private int flowStartLane(int nodeId) {
        if (nodeId >= flowStartLane.length) {
            int from = flowStartLane.length;
            flowStartLane = Arrays.copyOf(flowStartLane, Math.max(nodeId + 1, 2 * from));
            Arrays.fill(flowStartLane, from, flowStartLane.length, -1);
        }
        if (flowStartLane[nodeId] < 0) {
            flowStartLane[nodeId] = openLane(nodeId, EventLoop.FLOW_START, 0);
        }
        return flowStartLane[nodeId];
    }

    /** Schedules the lane's kind of event with {@code eventArg} on lane {@code laneId}. */
    void scheduleOnLane(int laneId, long at, long key, long eventArg) {
        Lane lane = lanes[laneId];
        if (lane.count > 0 && at < lane.time[(lane.head + lane.count - 1) & lane.mask]) {
            scheduleInHeap(at, key, lane.node, lane.kind, lane.port, eventArg);   // out of order: the heap keeps it right
            return;
        }
        if (at < now) {
            throw new IllegalArgumentException("event at " + at + " ns is before now (" + now + " ns)");
        }
        if (lane.count == 0) {
            push(at, key, -1 - laneId);                            // a negative slot names a lane
        }
        lane.add(at, key, eventArg);
    }

    /** Runs events until none is left at or before {@code until}; the clock then reads {@code until}. */
    void runUntil(long until) {
        Node[] byId = loop.nodes();
        long[] digests = loop.nodeDigests();
        while (size > 0 && heapTime[0] <= until) {
            int s = heap[0];
            now = heapTime[0];
            int n;
            int k;
            int p;
            long a;
            if (s >= 0) {
                rootSpent = true;                  // removed after the event, unless it schedules one
                freeSlots[freeCount++] = s;
                n = node[s];
                k = kind[s];
                p = port[s];
                a = arg[s];
            } else {
                Lane lane = lanes[-1 - s];
                a = lane.arg[lane.head];
                lane.head = (lane.head + 1) & lane.mask;
                if (--lane.count > 0) {
                    down(lane.time[lane.head], lane.key[lane.head], s);   // the lane's next event takes its place
                } else {
                    rootSpent = true;
                }
                n = lane.node;
                k = lane.kind;
                p = lane.port;
            }
            dispatched++;
            digests[n] = (digests[n] ^ (now * 31 + ((long) n << 20 | (long) k << 16 | p))) * 0x0100_0000_01B3L;
            source = n;
            for (EventQueue q : followers) {
                q.source = n;
            }
            byId[n].onEvent(k, p, a, now);
            if (rootSpent) {                       // the event scheduled nothing: remove the root now
                rootSpent = false;
                if (--size > 0) {
                    down(heapTime[size], heapKey[size], heap[size]);
                }
            }
        }
        source = EventLoop.OUTSIDE;
        for (EventQueue q : followers) {
            q.source = EventLoop.OUTSIDE;
        }
        now = Math.max(now, until);
    }

    private int newSlot() {
        if (slotsUsed == node.length) {
            int cap = node.length * 2;
            node = Arrays.copyOf(node, cap);
            kind = Arrays.copyOf(kind, cap);
            port = Arrays.copyOf(port, cap);
            arg = Arrays.copyOf(arg, cap);
            freeSlots = Arrays.copyOf(freeSlots, cap);
        }
        return slotsUsed++;
    }

    /** The heap holds slots and lane heads, so it can outgrow the slot arrays. */
    private void growHeap() {
        int cap = heap.length * 2;
        heap = Arrays.copyOf(heap, cap);
        heapTime = Arrays.copyOf(heapTime, cap);
        heapKey = Arrays.copyOf(heapKey, cap);
    }

    /** A ring of one lane's pending events, all of one (node, kind, port), in (time, key) order. */
    private static final class Lane {
        final int node;
        final int kind;
        final int port;
        long[] time = new long[64];
        long[] key = new long[64];
        long[] arg = new long[64];
        int mask = 63;
        int head;
        int count;

        Lane(int node, int kind, int port) {
            this.node = node;
            this.kind = kind;
            this.port = port;
        }

        void add(long at, long q, long a) {
            if (count == time.length) {
                grow();
            }
            int tail = (head + count++) & mask;
            time[tail] = at;
            key[tail] = q;
            arg[tail] = a;
        }

        private void grow() {
            int cap = time.length * 2;
            long[] t = new long[cap];
            long[] q = new long[cap];
            long[] a = new long[cap];
            for (int i = 0; i < count; i++) {
                int j = (head + i) & mask;
                t[i] = time[j];
                q[i] = key[j];
                a[i] = arg[j];
            }
            time = t;
            key = q;
            arg = a;
            mask = cap - 1;
            head = 0;
        }
    }

    /** Places the entry (t, q, slot) at the hole {@code i} or above it, moving later parents down. */
    private void up(int i, long t, long q, int slot) {
        while (i > 0) {
            int parent = (i - 1) >>> 2;
            long pt = heapTime[parent];
            if (pt < t || (pt == t && heapKey[parent] < q)) {
                break;
            }
            heap[i] = heap[parent];
            heapTime[i] = pt;
            heapKey[i] = heapKey[parent];
            i = parent;
        }
        heap[i] = slot;
        heapTime[i] = t;
        heapKey[i] = q;
    }

    /** Places the entry (t, q, slot) at the root's hole or below it, moving earlier children up. */
    private void down(long t, long q, int slot) {
        int i = 0;
        while (true) {
            int first = 4 * i + 1;
            if (first >= size) {
                break;
            }
            int last = Math.min(first + 4, size);
            int c = first;
            long ct = heapTime[first];
            long cq = heapKey[first];
            for (int j = first + 1; j < last; j++) {
                long jt = heapTime[j];
                if (jt < ct || (jt == ct && heapKey[j] < cq)) {
                    c = j;
                    ct = jt;
                    cq = heapKey[j];
                }
            }
            if (t < ct || (t == ct && q < cq)) {
                break;
            }
            heap[i] = heap[c];
            heapTime[i] = ct;
            heapKey[i] = cq;
            i = c;
        }
        heap[i] = slot;
        heapTime[i] = t;
        heapKey[i] = q;
    }
}

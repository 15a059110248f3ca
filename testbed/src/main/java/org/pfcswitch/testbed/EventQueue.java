package org.pfcswitch.testbed;

import java.util.Arrays;

/**
 * One partition's pending events, run by one thread at a time: primitive tuples (time, node, kind,
 * port, arg) in slot arrays, run in (time, key) order. The key is {@link EventLoop}'s tie order
 * (the scheduling node, then that node's own count of the events it has scheduled), given by the
 * caller, so the order never depends on which queue an event waits in or when it was inserted. No
 * object is created per event once the arrays have grown.
 *
 * <p><b>A timing wheel in front of a heap.</b> Nearly every event of a run is due within a few
 * microseconds (a line frees, a frame arrives after its wire's delay), so the slots due before
 * the wheel's horizon wait in the wheel: {@value #BUCKETS} buckets of {@value #BUCKET_NANOS} ns
 * starting at the bucket of the last event run, each an unordered list of the slots due in it, and
 * a bitmap of the buckets that hold any. Adding is a push on a list; the next event is the least
 * (time, key) of the first non-empty bucket, which holds a handful. Slots due at or after the
 * horizon (flow starts, long timers) wait in a 4-ary heap and move into the wheel as the horizon
 * passes them. Every slot in the wheel is due before every slot in the heap, so the next event is
 * the wheel's if it has one, else the heap's.
 *
 * <p>Frame arrivals of a wire wait in the wire's own FIFO ({@link #openLane}), and a node's flow
 * starts in one of the node's own, with only the earliest of each FIFO holding a slot; that changes
 * the cost, not the order.
 */
final class EventQueue {

    /**
     * With {@code -Dpfcswitch.sim.eventCounts=true}, events are counted by node and kind
     * ({@link EventLoop#eventCounts()}), to see which kinds a run spends its events on; off, the
     * JIT drops the count.
     */
    static final boolean COUNTING = Boolean.getBoolean("pfcswitch.sim.eventCounts");
    private static final int KINDS = 3;

    private static final int BUCKET_SHIFT = 2;
    /** The width of a bucket of the wheel. */
    static final long BUCKET_NANOS = 1L << BUCKET_SHIFT;
    /** Buckets of the wheel (a power of two): the horizon is this many bucket widths after the current bucket's start. */
    static final int BUCKETS = 2048;
    private static final long WHEEL_NANOS = (long) BUCKETS << BUCKET_SHIFT;
    private static final int NONE = -1;

    private final EventLoop loop;
    /** By node id * 3 + kind, when {@link #COUNTING}: the events run. */
    private long[] counts = new long[0];
    /** The partition this queue runs (the loop's global queue has the index after the last partition). */
    final int partition;

    // Per slot: when and in which order it is due, what to deliver, and the list it waits in. A
    // slot is one event, or the earliest event of a lane (its lane's number in lane[], else NONE).
    private long[] time = new long[1024];
    private long[] key = new long[1024];
    private int[] node = new int[1024];
    private int[] kind = new int[1024];
    private int[] port = new int[1024];
    private long[] arg = new long[1024];
    private int[] lane = new int[1024];
    private int[] next = new int[1024];
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private int slotsUsed;

    // The wheel: per bucket the first slot of its list (NONE: empty), a bit per non-empty bucket.
    private final int[] bucketHead = new int[BUCKETS];
    private final long[] occupied = new long[BUCKETS / 64];
    private int wheelSlots;
    /** The start of the wheel's current bucket: the bucket of the last event run (or of 0). */
    private long wheelStart;
    /** Slots due before this wait in the wheel, the others in the heap. */
    private long horizon = WHEEL_NANOS;

    // A 4-ary min-heap on (time, key) of the slots due at or after the horizon. Each entry's key sits
    // in the heap's own parallel arrays, so a comparison never follows a slot number.
    private int[] heap = new int[64];
    private long[] heapTime = new long[64];
    private long[] heapKey = new long[64];
    private int heapSize;

    // The next slot to run, once found (NONE: not known); if in the wheel, the slot before it in its
    // bucket's list (NONE: it is the list's first).
    private int nextSlot = NONE;
    private int nextPrevious = NONE;

    private Lane[] lanes = new Lane[0];
    // By node id: the lane of that node's FLOW_START events (-1: none yet). Traffic generators draw
    // every start before the run, so without lanes the queue would hold one slot per future flow
    // (tens of thousands on a fabric).
    private int[] flowStartLane = new int[0];

    /** The node whose event runs now, or {@link EventLoop#OUTSIDE}: the source of the keys of what it schedules. */
    int source = EventLoop.OUTSIDE;
    private long now;
    long dispatched;
    /** Queues whose events the node running here may schedule: they take its {@link #source} while it runs. */
    private EventQueue[] followers = new EventQueue[0];

    EventQueue(EventLoop loop, int partition) {
        this.loop = loop;
        this.partition = partition;
        Arrays.fill(bucketHead, NONE);
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
        int s = findNext();
        return s == NONE ? Long.MAX_VALUE : time[s];
    }

    int pendingEvents() {
        int n = queuedSlots();
        for (Lane l : lanes) {
            n += l.count > 0 ? l.count - 1 : 0;    // a busy lane holds one slot
        }
        return n;
    }

    /** Slots in the wheel and the heap: one per event outside lanes, one per busy lane. */
    int queuedSlots() {
        return wheelSlots + heapSize;
    }

    void schedule(long at, long key, int nodeId, int eventKind, int eventPort, long eventArg) {
        if (eventKind == EventLoop.FLOW_START) {
            scheduleOnLane(flowStartLane(nodeId), at, key, eventArg);
            return;
        }
        scheduleSlot(at, key, nodeId, eventKind, eventPort, eventArg, NONE);
    }

    private void scheduleSlot(long at, long q, int nodeId, int eventKind, int eventPort, long eventArg, int laneId) {
        if (at < now) {
            throw new IllegalArgumentException("event at " + at + " ns is before now (" + now + " ns)");
        }
        int s = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        node[s] = nodeId;
        kind[s] = eventKind;
        port[s] = eventPort;
        arg[s] = eventArg;
        lane[s] = laneId;
        enqueue(s, at, q);
    }

    /** Puts slot {@code s}, due at ({@code t}, {@code q}), in the wheel if before the horizon, else in the heap. */
    private void enqueue(int s, long t, long q) {
        time[s] = t;
        key[s] = q;
        if (nextSlot != NONE && (t < time[nextSlot] || t == time[nextSlot] && q < key[nextSlot]
                || nextPrevious == NONE && t < horizon && bucket(t) == bucket(time[nextSlot]))) {
            nextSlot = NONE;            // it runs earlier, or its list's head changes under the found slot
        }
        if (t < horizon) {
            int b = bucket(t);
            next[s] = bucketHead[b];
            bucketHead[b] = s;
            occupied[b >>> 6] |= 1L << b;
            wheelSlots++;
        } else {
            push(t, q, s);
        }
    }

    private static int bucket(long t) {
        return (int) (t >>> BUCKET_SHIFT) & (BUCKETS - 1);
    }

    /**
     * Opens a lane: a FIFO of FRAME events to one (node, port), for a sender whose events arrive in
     * time order, as a wire's frames do. Only a lane's earliest event holds a slot, so the queue
     * holds about one slot per busy wire rather than one per frame in flight.
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
        Lane l = lanes[laneId];
        if (l.count > 0 && at < l.time[(l.head + l.count - 1) & l.mask]) {
            scheduleSlot(at, key, l.node, l.kind, l.port, eventArg, NONE);   // out of order: a slot of its own keeps it right
            return;
        }
        if (at < now) {
            throw new IllegalArgumentException("event at " + at + " ns is before now (" + now + " ns)");
        }
        if (l.count == 0) {
            scheduleSlot(at, key, l.node, l.kind, l.port, 0, laneId);
        }
        l.add(at, key, eventArg);
    }

    /** Runs events until none is left at or before {@code until}; the clock then reads {@code until}. */
    void runUntil(long until) {
        Node[] byId = loop.nodes();
        long[] digests = loop.nodeDigests();
        while (true) {
            int s = findNext();
            if (s == NONE || time[s] > until) {
                break;
            }
            dequeueNext();
            now = time[s];
            if (now - wheelStart >= BUCKET_NANOS) {
                turnWheelTo(now);
            }
            int n = node[s];
            int k = kind[s];
            int p = port[s];
            long a;
            int laneId = lane[s];
            if (laneId == NONE) {
                a = arg[s];
                freeSlots[freeCount++] = s;
            } else {
                Lane l = lanes[laneId];
                a = l.arg[l.head];
                l.head = (l.head + 1) & l.mask;
                if (--l.count > 0) {
                    enqueue(s, l.time[l.head], l.key[l.head]);      // the lane's next event takes its slot
                } else {
                    freeSlots[freeCount++] = s;
                }
            }
            dispatched++;
            if (COUNTING) {
                countEvent(n, k);
            }
            digests[n] = (digests[n] ^ (now * 31 + ((long) n << 20 | (long) k << 16 | p))) * 0x0100_0000_01B3L;
            source = n;
            for (EventQueue q : followers) {
                q.source = n;
            }
            byId[n].onEvent(k, p, a, now);
        }
        source = EventLoop.OUTSIDE;
        for (EventQueue q : followers) {
            q.source = EventLoop.OUTSIDE;
        }
        now = Math.max(now, until);
    }

    /** The slot of the earliest pending event (remembered until the queue changes), or {@link #NONE}. */
    private int findNext() {
        if (nextSlot != NONE) {
            return nextSlot;
        }
        if (wheelSlots == 0) {
            nextPrevious = NONE;
            nextSlot = heapSize > 0 ? heap[0] : NONE;
            return nextSlot;
        }
        int b = firstOccupiedBucket();
        int best = bucketHead[b];
        int bestPrevious = NONE;
        long bt = time[best];
        long bq = key[best];
        for (int previous = best, s = next[best]; s != NONE; previous = s, s = next[s]) {
            long t = time[s];
            if (t < bt || t == bt && key[s] < bq) {
                best = s;
                bestPrevious = previous;
                bt = t;
                bq = key[s];
            }
        }
        nextPrevious = bestPrevious;
        nextSlot = best;
        return best;
    }

    /** The first non-empty bucket from the current one on, around the wheel (the wheel holds a slot). */
    private int firstOccupiedBucket() {
        int from = bucket(wheelStart);
        int w = from >>> 6;
        long bits = occupied[w] & (-1L << from);
        while (bits == 0) {
            w = (w + 1) & (occupied.length - 1);
            bits = occupied[w];
        }
        return (w << 6) + Long.numberOfTrailingZeros(bits);
    }

    /** Takes the slot {@link #findNext} found out of the wheel or the heap. */
    private void dequeueNext() {
        int s = nextSlot;
        nextSlot = NONE;
        if (wheelSlots == 0) {
            if (--heapSize > 0) {
                down(heapTime[heapSize], heapKey[heapSize], heap[heapSize]);
            }
            return;
        }
        int b = bucket(time[s]);
        if (nextPrevious == NONE) {
            bucketHead[b] = next[s];
            if (next[s] == NONE) {
                occupied[b >>> 6] &= ~(1L << b);
            }
        } else {
            next[nextPrevious] = next[s];
        }
        wheelSlots--;
    }

    /** Moves the wheel's current bucket to {@code t}'s, and the heap's slots the horizon now passes into the wheel. */
    private void turnWheelTo(long t) {
        wheelStart = t & -BUCKET_NANOS;
        horizon = wheelStart > Long.MAX_VALUE - WHEEL_NANOS ? Long.MAX_VALUE : wheelStart + WHEEL_NANOS;
        while (heapSize > 0 && heapTime[0] < horizon) {
            int s = heap[0];
            if (--heapSize > 0) {
                down(heapTime[heapSize], heapKey[heapSize], heap[heapSize]);
            }
            enqueue(s, time[s], key[s]);
        }
    }

    private void countEvent(int nodeId, int eventKind) {
        if (nodeId * KINDS + eventKind >= counts.length) {
            counts = Arrays.copyOf(counts, Math.max(KINDS * (nodeId + 1), 2 * counts.length));
        }
        counts[nodeId * KINDS + eventKind]++;
    }

    /** Events of {@code eventKind} this queue ran for node {@code nodeId} ({@link #COUNTING} only). */
    long count(int nodeId, int eventKind) {
        int i = nodeId * KINDS + eventKind;
        return i < counts.length ? counts[i] : 0;
    }

    private int newSlot() {
        if (slotsUsed == node.length) {
            int cap = node.length * 2;
            time = Arrays.copyOf(time, cap);
            key = Arrays.copyOf(key, cap);
            node = Arrays.copyOf(node, cap);
            kind = Arrays.copyOf(kind, cap);
            port = Arrays.copyOf(port, cap);
            arg = Arrays.copyOf(arg, cap);
            lane = Arrays.copyOf(lane, cap);
            next = Arrays.copyOf(next, cap);
            freeSlots = Arrays.copyOf(freeSlots, cap);
        }
        return slotsUsed++;
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

    /** Adds the heap entry (t, q, slot). */
    private void push(long t, long q, int slot) {
        if (heapSize == heap.length) {
            int cap = heap.length * 2;
            heap = Arrays.copyOf(heap, cap);
            heapTime = Arrays.copyOf(heapTime, cap);
            heapKey = Arrays.copyOf(heapKey, cap);
        }
        up(heapSize++, t, q, slot);
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
            if (first >= heapSize) {
                break;
            }
            int last = Math.min(first + 4, heapSize);
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

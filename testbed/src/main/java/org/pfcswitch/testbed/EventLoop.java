package org.pfcswitch.testbed;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The discrete-event loop of a virtual-time run. Events are primitive tuples (time, node, kind,
 * port, arg) kept in slot arrays and ordered by a binary heap of slot numbers on (time, sequence
 * number): two events at the same nanosecond run in the order they were scheduled, so a run is a
 * pure function of its inputs. No object is created per event once the arrays have grown.
 *
 * <p>Every dispatched event is folded into {@link #traceDigest()}, a 64-bit fingerprint of the
 * whole run that the determinism test compares.
 */
public final class EventLoop {

    /** A frame's last bit arrived at {@code port}; {@code arg} is its handle. */
    public static final int FRAME = 0;
    /** A node asked to be woken (line free, pause over, timer due). */
    public static final int WAKE = 1;
    /** A flow starts; {@code arg} is its id. */
    public static final int FLOW_START = 2;

    private final List<Node> nodes = new ArrayList<>();
    private Node[] byId = new Node[0];

    private long[] time = new long[1024];
    private long[] seq = new long[1024];
    private int[] node = new int[1024];
    private int[] kind = new int[1024];
    private int[] port = new int[1024];
    private long[] arg = new long[1024];
    private int[] heap = new int[1024];
    private long[] heapTime = new long[1024];   // time of heap[i], kept beside it: compares touch one array
    private int[] freeSlots = new int[1024];
    private int freeCount;
    private int size;
    private int slotsUsed;

    private long nextSeq;
    private long now;
    private long dispatched;
    private long digest = 0xCBF2_9CE4_8422_2325L;

    /** Adds a node and returns its id. */
    public int register(Node n) {
        nodes.add(n);
        byId = nodes.toArray(Node[]::new);
        return nodes.size() - 1;
    }

    public long now() {
        return now;
    }

    /** Events run so far. */
    public long eventsDispatched() {
        return dispatched;
    }

    public int pendingEvents() {
        return size;
    }

    /** A fingerprint of every event run so far: time, node, kind and port, in order. */
    public long traceDigest() {
        return digest;
    }

    /** Schedules an event; {@code at} must not be in the past. */
    public void schedule(long at, int nodeId, int eventKind, int eventPort, long eventArg) {
        if (at < now) {
            throw new IllegalArgumentException("event at " + at + " ns is before now (" + now + " ns)");
        }
        int s = freeCount > 0 ? freeSlots[--freeCount] : newSlot();
        time[s] = at;
        seq[s] = nextSeq++;
        node[s] = nodeId;
        kind[s] = eventKind;
        port[s] = eventPort;
        arg[s] = eventArg;
        heap[size] = s;
        heapTime[size] = at;
        up(size++);
    }

    /** Runs events until none is left at or before {@code until}; the clock then reads {@code until}. */
    public void runUntil(long until) {
        while (size > 0 && heapTime[0] <= until) {
            int s = heap[0];
            if (--size > 0) {
                heap[0] = heap[size];
                heapTime[0] = heapTime[size];
                down(0);
            }
            freeSlots[freeCount++] = s;
            now = time[s];
            int n = node[s];
            int k = kind[s];
            int p = port[s];
            dispatched++;
            digest = (digest ^ (now * 31 + ((long) n << 20 | (long) k << 16 | p))) * 0x0100_0000_01B3L;
            byId[n].onEvent(k, p, arg[s], now);
        }
        now = Math.max(now, until);
    }

    private int newSlot() {
        if (slotsUsed == time.length) {
            int cap = time.length * 2;
            time = Arrays.copyOf(time, cap);
            seq = Arrays.copyOf(seq, cap);
            node = Arrays.copyOf(node, cap);
            kind = Arrays.copyOf(kind, cap);
            port = Arrays.copyOf(port, cap);
            arg = Arrays.copyOf(arg, cap);
            heap = Arrays.copyOf(heap, cap);
            heapTime = Arrays.copyOf(heapTime, cap);
            freeSlots = Arrays.copyOf(freeSlots, cap);
        }
        return slotsUsed++;
    }

    /** Whether heap entry {@code i} runs before heap entry {@code j}: earlier, or as early and scheduled first. */
    private boolean before(int i, int j) {
        return heapTime[i] < heapTime[j] || (heapTime[i] == heapTime[j] && seq[heap[i]] < seq[heap[j]]);
    }

    private void swap(int i, int j) {
        int s = heap[i];
        heap[i] = heap[j];
        heap[j] = s;
        long t = heapTime[i];
        heapTime[i] = heapTime[j];
        heapTime[j] = t;
    }

    private void up(int i) {
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (!before(i, parent)) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void down(int i) {
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(child + 1, child)) {
                child++;
            }
            if (!before(child, i)) {
                break;
            }
            swap(i, child);
            i = child;
        }
    }
}

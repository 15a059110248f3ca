package org.pfcswitch.core;

import java.util.Arrays;

/**
 * The core's own timers: a binary min-heap of deadlines over a fixed set of timer ids, with
 * O(log n) set and cancel and O(1) access to the earliest. Equal deadlines come out by lower id
 * first, so a run never depends on insertion order. Allocates only in the constructor.
 */
final class DeadlineHeap {

    /** The deadline of an unset timer and of an empty heap. */
    static final long NEVER = Long.MAX_VALUE;

    private final int[] heap;        // timer ids in heap order
    private final int[] position;    // by id: index in heap, or -1
    private final long[] deadline;   // by id
    private int size;

    DeadlineHeap(int timers) {
        heap = new int[timers];
        position = new int[timers];
        deadline = new long[timers];
        Arrays.fill(position, -1);
        Arrays.fill(deadline, NEVER);
    }

    /** Sets (or moves) timer {@code id} to {@code at}. */
    void set(int id, long at) {
        int i = position[id];
        if (i < 0) {
            deadline[id] = at;
            heap[size] = id;
            position[id] = size;
            up(size++);
        } else if (at != deadline[id]) {
            long old = deadline[id];
            deadline[id] = at;
            if (at < old) {
                up(i);
            } else {
                down(i);
            }
        }
    }

    void cancel(int id) {
        int i = position[id];
        if (i < 0) {
            return;
        }
        int last = heap[--size];
        position[id] = -1;
        deadline[id] = NEVER;
        if (i < size) {
            heap[i] = last;
            position[last] = i;
            down(i);
            up(position[last]);
        }
    }

    long deadline(int id) {
        return deadline[id];
    }

    /** The earliest deadline, or {@link #NEVER}. */
    long earliest() {
        return size == 0 ? NEVER : deadline[heap[0]];
    }

    /** The id of the earliest timer; only when {@link #earliest} is not {@link #NEVER}. */
    int earliestId() {
        return heap[0];
    }

    private boolean before(int a, int b) {
        long da = deadline[a];
        long db = deadline[b];
        return da < db || (da == db && a < b);
    }

    private void up(int i) {
        int id = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            int p = heap[parent];
            if (!before(id, p)) {
                break;
            }
            heap[i] = p;
            position[p] = i;
            i = parent;
        }
        heap[i] = id;
        position[id] = i;
    }

    private void down(int i) {
        int id = heap[i];
        while (true) {
            int child = 2 * i + 1;
            if (child >= size) {
                break;
            }
            if (child + 1 < size && before(heap[child + 1], heap[child])) {
                child++;
            }
            int c = heap[child];
            if (!before(c, id)) {
                break;
            }
            heap[i] = c;
            position[c] = i;
            i = child;
        }
        heap[i] = id;
        position[id] = i;
    }
}

package org.pfcswitch.testbed;

import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.IntStream;

/**
 * A fixed list of flows (src, dst, bytes, start, priority, and optionally the UDP source port its
 * frames carry), sorted by start time, in parallel
 * primitive arrays: a list of hundreds of thousands of flows is a few megabytes and no object per
 * flow. Flows with the same start keep the order they were added in (the file's line order), so
 * the ids the testbed gives them, and hence the run, follow the file. Immutable once built, so one
 * list loaded with its scenario can be shared by every run of a grid, whatever thread runs it.
 */
public final class FlowList {

    private final int[] src;
    private final int[] dst;
    private final long[] bytes;
    private final long[] start;
    private final byte[] priority;
    private final char[] udpSrcPort;

    private FlowList(int[] src, int[] dst, long[] bytes, long[] start, byte[] priority, char[] udpSrcPort) {
        this.src = src;
        this.dst = dst;
        this.bytes = bytes;
        this.start = start;
        this.priority = priority;
        this.udpSrcPort = udpSrcPort;
    }

    public int size() { return start.length; }
    public int src(int i) { return src[i]; }
    public int dst(int i) { return dst[i]; }
    public long bytes(int i) { return bytes[i]; }
    public long startNanos(int i) { return start[i]; }
    public int priority(int i) { return priority[i]; }
    /** The UDP source port flow {@code i}'s frames carry, or {@link #DEFAULT_PORT}: the testbed's own choice. */
    public int udpSrcPort(int i) { return udpSrcPort[i]; }

    /** {@link #udpSrcPort} of a flow that left the port to the testbed. */
    public static final int DEFAULT_PORT = 0;

    /** Collects flows in any order; {@link #build} sorts them by start (stable). */
    public static final class Builder {
        private int n;
        private int[] src = new int[1024];
        private int[] dst = new int[1024];
        private long[] bytes = new long[1024];
        private long[] start = new long[1024];
        private byte[] priority = new byte[1024];
        private char[] udpSrcPort = new char[1024];
        private boolean sorted = true;

        public Builder add(int from, int to, long size, long startNanos, int prio) {
            return add(from, to, size, startNanos, prio, DEFAULT_PORT);
        }

        /** A flow whose frames carry UDP source port {@code sport} (1..65535), or {@link #DEFAULT_PORT}. */
        public Builder add(int from, int to, long size, long startNanos, int prio, int sport) {
            if (from == to || size <= 0 || startNanos < 0 || prio < 0 || prio > 7 || sport < 0 || sport > 65535) {
                throw new IllegalArgumentException("a flow needs two different hosts, > 0 bytes, a start >= 0, a"
                        + " priority 0..7 and a UDP source port 1..65535 if any, got " + from + " -> " + to + ", " + size
                        + " B at " + startNanos + " ns, priority " + prio + ", port " + sport);
            }
            if (n == start.length) {
                int cap = n * 2;
                src = Arrays.copyOf(src, cap);
                dst = Arrays.copyOf(dst, cap);
                bytes = Arrays.copyOf(bytes, cap);
                start = Arrays.copyOf(start, cap);
                priority = Arrays.copyOf(priority, cap);
                udpSrcPort = Arrays.copyOf(udpSrcPort, cap);
            }
            sorted &= n == 0 || start[n - 1] <= startNanos;
            src[n] = from;
            dst[n] = to;
            bytes[n] = size;
            start[n] = startNanos;
            priority[n] = (byte) prio;
            udpSrcPort[n] = (char) sport;
            n++;
            return this;
        }

        public int size() { return n; }

        public FlowList build() {
            if (sorted) {           // the usual case (generators write in time order): no permutation at all
                return new FlowList(Arrays.copyOf(src, n), Arrays.copyOf(dst, n), Arrays.copyOf(bytes, n),
                        Arrays.copyOf(start, n), Arrays.copyOf(priority, n), Arrays.copyOf(udpSrcPort, n));
            }
            long[] at = start;
            // A stable sort of the indices keeps equal starts in the order they were added.
            int[] order = IntStream.range(0, n).boxed().sorted(Comparator.comparingLong(i -> at[i]))
                    .mapToInt(Integer::intValue).toArray();
            int[] s = new int[n];
            int[] d = new int[n];
            long[] b = new long[n];
            long[] t = new long[n];
            byte[] p = new byte[n];
            char[] u = new char[n];
            for (int k = 0; k < n; k++) {
                int i = order[k];
                s[k] = src[i];
                d[k] = dst[i];
                b[k] = bytes[i];
                t[k] = start[i];
                p[k] = priority[i];
                u[k] = udpSrcPort[i];
            }
            return new FlowList(s, d, b, t, p, u);
        }
    }
}

package org.pfcswitch.core.record;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

import org.pfcswitch.core.CoreConfig;
import org.pfcswitch.core.FrameAllocator;
import org.pfcswitch.core.FrameSink;
import org.pfcswitch.core.PacketMemory;
import org.pfcswitch.core.SwitchCore;
import org.pfcswitch.core.SwitchCounters;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.RandomSource;

/**
 * Replays an arrival-record file open-loop through one {@link SwitchCore} in virtual time: every
 * recorded frame arrives on its port at its recorded time (relative to the first), the core's timers
 * run in between, egress ports drain at their line rate into nothing (no hosts, so nobody pauses the
 * switch and no sender reacts to the pauses it sends, which are counted). Deterministic: the same
 * file and configuration give the same {@link ReplayResult}.
 *
 * <p>Frames are slots of a heap slab holding the recorded header bytes; a frame reports its recorded
 * length, its payload beyond 64 bytes reads as zeros (the core never looks there). Forwarding: the
 * file's MAC table, then every source MAC at the port it was first seen on, then the core's own
 * learning and flooding.
 */
public final class Replay {

    /** Cable delay the replay's MMU assumes for headroom (100 m of fibre); not in the file. */
    public static final long DEFAULT_CABLE_DELAY_NS = 500;
    /** Replay stops running timers this long after the last arrival (queues drain long before). */
    private static final long DRAIN_LIMIT_NS = 1_000_000_000L;

    private Replay() {}

    /** The switch a recording describes: its ports and speeds, {@code scheme}, a {@code bufferBytes} shared buffer. */
    public static CoreConfig config(Path file, String scheme, long bufferBytes) throws IOException {
        ArrivalHeader header;
        Map<Long, Integer> macs;
        try (ArrivalReader r = ArrivalReader.open(file)) {
            header = r.header();
            macs = new LinkedHashMap<>(header.macPorts());
            ArrivalReader.Arrival a = new ArrivalReader.Arrival();
            while (r.next(a)) {
                if (a.captured >= 12) {
                    long src = mac(a.header, 6);
                    if ((src & 0x0100_0000_0000L) == 0) {         // unicast sources only
                        macs.putIfAbsent(src, a.port);
                    }
                }
            }
        }
        MmuConfig.Builder mb = MmuConfig.builder().totalBytes(bufferBytes).scheme(scheme);
        for (int p = 0; p < header.ports(); p++) {
            mb.port(header.speedBps(p), DEFAULT_CABLE_DELAY_NS);
        }
        CoreConfig.Builder cb = CoreConfig.builder(mb.build());
        macs.forEach(cb::staticMac);
        return cb.build();
    }

    private static long mac(byte[] b, int at) {
        long m = 0;
        for (int i = 0; i < 6; i++) {
            m = m << 8 | (b[at + i] & 0xFF);
        }
        return m;
    }

    /** Replays {@code file} through a core built from {@code config} (ports must match the file's). */
    public static ReplayResult run(Path file, CoreConfig config, long seed) throws IOException {
        try (ArrivalReader r = ArrivalReader.open(file)) {
            ArrivalHeader h = r.header();
            if (config.ports() != h.ports()) {
                throw new IllegalArgumentException("the switch has " + config.ports() + " ports, the recording " + h.ports());
            }
            long bufferFrames = config.mmu().totalBytes() / 64 + 4096;
            Slab slab = new Slab((int) Math.min(bufferFrames, 1 << 22), 256);
            long[] txFrames = new long[h.ports()];
            FrameSink sink = (port, handle, length, start) -> {
                txFrames[port]++;
                slab.free(handle);
            };
            SwitchCore core = new SwitchCore(config, slab, slab, sink, RandomSource.seeded(seed));
            ReplayResult.Builder out = new ReplayResult.Builder(config.mmu().scheme(), h.ports());
            ArrivalReader.Arrival a = new ArrivalReader.Arrival();
            long first = Long.MIN_VALUE;
            long now = 0;
            long events = 0;
            while (r.next(a)) {
                if (first == Long.MIN_VALUE) {
                    first = a.timeNanos;
                }
                now = a.timeNanos - first;
                long due;
                while ((due = core.nextTimerDue()) <= now) {
                    core.onTimer(due);
                    events++;
                }
                long handle = slab.allocate(a.length, a.header);
                if (handle == FrameAllocator.NO_HANDLE) {
                    out.slabFull++;
                    continue;
                }
                core.onFrame(a.port, handle, now);
                events++;
            }
            long last = now;
            long due;
            while ((due = core.nextTimerDue()) != SwitchCore.NO_TIMER && due <= last + DRAIN_LIMIT_NS) {
                core.onTimer(due);
                events++;
                now = due;
            }
            out.arrivals = r.count();
            out.stoppedEarly = r.stoppedEarly();
            out.lastArrivalNanos = last;
            out.events = events;
            out.framesLeftQueued = core.framesHeld();
            SwitchCounters c = core.counters();
            for (int p = 0; p < h.ports(); p++) {
                out.pfcFramesSent[p] = c.pfcFramesTx[p];
                long xoff = 0;
                for (int q = 0; q < SwitchCounters.PRIORITIES; q++) {
                    xoff += c.pfcXoffTx[p * SwitchCounters.PRIORITIES + q];
                }
                out.xoffSent[p] = xoff;
                out.txFrames[p] = txFrames[p];
            }
            out.drops = c.totalDrops();
            out.losslessViolations = core.losslessViolations(false) + core.losslessViolations(true);
            out.maxBufferBytes = c.maxBufferBytes();
            long sum = 0;
            long max = 0;
            long frames = 0;
            for (int i = 0; i < c.queueDelaySumNanos.length; i++) {
                sum += c.queueDelaySumNanos[i];
                max = Math.max(max, c.queueDelayMaxNanos[i]);
            }
            for (int i = 0; i < c.txFrames.length; i++) {
                frames += c.txFrames[i];
            }
            out.meanQueueDelayNanos = frames == 0 ? 0 : sum / (double) frames;
            out.maxQueueDelayNanos = max;
            return out.build();
        }
    }

    /**
     * Frames on a heap slab: small slots of 128 bytes for arrivals and PFC frames, and a few big ones
     * for the core's flood and clone copies (it copies a frame's full length).
     */
    static final class Slab implements PacketMemory, FrameAllocator {
        private static final int SMALL = 128;
        /** Flood and clone copies up to a 16 KiB frame (jumbo frames are 9 KiB); a longer copy gets no buffer (counted by the core). */
        private static final int BIG = 16 << 10;
        private static final int TAIL = ArrivalFormat.MAX_LENGTH + 1;
        private final MemorySegment bytes;
        private final int smallSlots;
        private final int[] length;
        private final int[] freeSmall;
        private int freeSmallCount;
        private final int[] freeBig;
        private int freeBigCount;

        Slab(int smallSlots, int bigSlots) {
            this.smallSlots = smallSlots;
            // Tail padding: a frame's recorded length may run past its 128-byte slot (reads only).
            this.bytes = Arena.ofAuto().allocate((long) smallSlots * SMALL + (long) bigSlots * BIG + TAIL, 64);
            this.length = new int[smallSlots + bigSlots];
            this.freeSmall = new int[smallSlots];
            for (int i = 0; i < smallSlots; i++) {
                freeSmall[i] = smallSlots - 1 - i;
            }
            freeSmallCount = smallSlots;
            this.freeBig = new int[bigSlots];
            for (int i = 0; i < bigSlots; i++) {
                freeBig[i] = smallSlots + bigSlots - 1 - i;
            }
            freeBigCount = bigSlots;
        }

        long allocate(int len, byte[] header) {
            if (freeSmallCount == 0) {
                return NO_HANDLE;
            }
            int slot = freeSmall[--freeSmallCount];
            length[slot] = len;
            MemorySegment.copy(header, 0, bytes, ValueLayout.JAVA_BYTE, (long) slot * SMALL, ArrivalFormat.HEADER_BYTES);
            bytes.asSlice((long) slot * SMALL + ArrivalFormat.HEADER_BYTES, SMALL - ArrivalFormat.HEADER_BYTES).fill((byte) 0);
            return slot;
        }

        @Override
        public long allocate(int len) {
            if (len <= SMALL && freeSmallCount > 0) {
                int slot = freeSmall[--freeSmallCount];
                length[slot] = len;
                return slot;
            }
            if (freeBigCount == 0 || len > BIG) {
                return NO_HANDLE;
            }
            int slot = freeBig[--freeBigCount];
            length[slot] = len;
            return slot;
        }

        @Override
        public void free(long handle) {
            int slot = (int) handle;
            if (slot < smallSlots) {
                freeSmall[freeSmallCount++] = slot;
            } else {
                freeBig[freeBigCount++] = slot;
            }
        }

        @Override
        public MemorySegment bytes() {
            return bytes;
        }

        @Override
        public long offset(long handle) {
            int slot = (int) handle;
            return slot < smallSlots ? (long) slot * SMALL : (long) smallSlots * SMALL + (long) (slot - smallSlots) * BIG;
        }

        @Override
        public int length(long handle) {
            return length[(int) handle];
        }
    }
}

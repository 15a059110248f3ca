package org.pfcswitch.core.record;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ArrivalRecorderTest {

    @TempDir
    Path dir;

    private static MemorySegment frame(int length, int seed) {
        MemorySegment f = Arena.ofAuto().allocate(length + 3).asSlice(3);      // unaligned on purpose
        for (int i = 0; i < length; i++) {
            f.set(ValueLayout.JAVA_BYTE, i, (byte) (seed + i));
        }
        return f;
    }

    @Test
    void ringKeepsHeaderBytesAndDropsWhenFull() {
        ArrivalRing ring = new ArrivalRing(4, Long.MAX_VALUE);
        MemorySegment f = frame(100, 7);
        for (int i = 0; i < 6; i++) {
            assertEquals(i < 4, ring.offer(i, 1, 100, f, 0));
        }
        assertEquals(2, ring.dropped());
        long[] got = new long[ArrivalRing.RECORD_LONGS];
        assertEquals(1, ring.drain((w, from) -> System.arraycopy(w, from, got, 0, got.length), 1));
        assertEquals(0, got[0]);
        assertEquals(1 | 100 << 16 | 64L << 32, got[1]);
        assertEquals(0x0E0D0C0B0A090807L, got[2]);
        assertTrue(ring.offer(9, 1, 100, f, 0));
    }

    @Test
    void shortFrameTailAndMax() {
        ArrivalRing ring = new ArrivalRing(8, 2);
        assertTrue(ring.offer(1, 0, 11, frame(11, 1), 0));
        assertTrue(ring.offer(2, 0, 11, frame(11, 1), 0));
        assertFalse(ring.offer(3, 0, 11, frame(11, 1), 0));
        assertEquals(1, ring.overMax());
        assertEquals(0, ring.dropped());
        long[] got = new long[ArrivalRing.RECORD_LONGS];
        ring.drain((w, from) -> System.arraycopy(w, from, got, 0, got.length), 1);
        assertEquals(0x0807060504030201L, got[2]);
        assertEquals(0x0B0A09L, got[3]);
        assertEquals(0, got[4]);
    }

    @Test
    void recorderWritesWhatTheReaderReads() throws IOException {
        Path f = dir.resolve("live.arr");
        ArrivalRecorder r = new ArrivalRecorder(f, new ArrivalHeader(new long[] {25_000_000_000L, 25_000_000_000L},
                Map.of(0x0200_0000_0001L, 1)), 1 << 10, Long.MAX_VALUE);
        MemorySegment a = frame(1500, 3);
        MemorySegment b = frame(60, 200);
        long offered = 0;
        for (int i = 0; i < 100_000; i++) {
            if (r.ring(0).offer(i * 10L, i & 1, (i & 1) == 0 ? 1500 : 60, (i & 1) == 0 ? a : b, 0)) {
                offered++;
            }
        }
        ArrivalRecorder.Summary s = r.close();
        assertEquals(offered, s.written());
        assertEquals(100_000, s.written() + s.droppedRingFull());
        try (ArrivalReader in = ArrivalReader.open(f)) {
            assertEquals(25_000_000_000L, in.header().speedBps(1));
            ArrivalReader.Arrival x = new ArrivalReader.Arrival();
            long n = 0;
            while (in.next(x)) {
                n++;
                MemorySegment src = x.port == 0 ? a : b;
                assertEquals(x.port == 0 ? 1500 : 60, x.length);
                assertEquals(Math.min(x.length, 64), x.captured);
                byte[] want = new byte[64];
                MemorySegment.copy(src, ValueLayout.JAVA_BYTE, 0, want, 0, x.captured);
                assertArrayEquals(want, x.header);
                assertEquals(x.port, (int) (x.timeNanos / 10 & 1));
            }
            assertEquals(s.written(), n);
        }
    }

    @Test
    void offerAllocatesNothing() {
        ArrivalRing ring = new ArrivalRing(1 << 10, Long.MAX_VALUE);
        MemorySegment f = frame(1500, 3);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long[] sink = new long[1];
        ArrivalRing.Consumer c = (w, from) -> sink[0] += w[from];
        for (int i = 0; i < 200_000; i++) {          // warm up (JIT)
            ring.offer(i, 0, 1500, f, 0);
            ring.drain(c, 16);
        }
        long before = mx.getCurrentThreadAllocatedBytes();
        for (int i = 0; i < 100_000; i++) {
            ring.offer(i, 0, 1500, f, 0);
            ring.drain(c, 16);
        }
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertTrue(allocated < 1024, "allocated " + allocated + " bytes");
        assertTrue(Arrays.stream(sink).sum() != 0);
    }
}

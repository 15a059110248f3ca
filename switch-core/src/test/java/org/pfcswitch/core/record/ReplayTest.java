package org.pfcswitch.core.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.codec.RoceFrameBuilder;

class ReplayTest {

    static final long SPEED = 10_000_000_000L;
    static final long RECEIVER = 0x0200_0000_0A00L;
    static final long BUFFER = 16L << 20;

    @TempDir
    Path dir;

    /**
     * A synthetic incast: senders on ports 1..{@code senders} each send {@code framesEach} RoCEv2 frames
     * (DSCP 26, priority 3, lossless) back to back at 10 Gbit/s to the receiver on port 0.
     */
    static Path incast(Path file, int ports, int senders, int framesEach, int length) throws IOException {
        long[] speeds = new long[ports];
        Arrays.fill(speeds, SPEED);
        MemorySegment frame = Arena.ofAuto().allocate(2048);
        long gap = (length + 24) * 8L * 1_000_000_000L / SPEED;     // preamble, IFG and FCS on the wire
        try (ArrivalWriter w = ArrivalWriter.create(file, new ArrivalHeader(speeds, Map.of(RECEIVER, 0)))) {
            for (int i = 0; i < framesEach; i++) {
                for (int s = 1; s <= senders; s++) {
                    RoceFrameBuilder b = new RoceFrameBuilder().macs(RECEIVER, 0x0200_0000_0B00L + s).dscp(26)
                            .ips(0x0A00_0000 + s, 0x0A00_0001).psn(i).untagged();
                    b.payloadBytes(length - b.frameLength());
                    int len = b.write(frame, 0);
                    w.write(1_000_000L + i * gap + s, s, len, frame, 0);
                }
            }
        }
        return file;
    }

    @Test
    void writesAndReadsBack() throws IOException {
        Path f = incast(dir.resolve("a.arr"), 5, 2, 3, 1024);
        assertEquals(24 + 5 * 8 + 16 + 6 * ArrivalFormat.RECORD_BYTES, Files.size(f));
        try (ArrivalReader r = ArrivalReader.open(f)) {
            assertEquals(5, r.header().ports());
            assertEquals(SPEED, r.header().speedBps(3));
            assertEquals(Map.of(RECEIVER, 0), r.header().macPorts());
            ArrivalReader.Arrival a = new ArrivalReader.Arrival();
            assertTrue(r.next(a));
            assertEquals(1_000_001L, a.timeNanos);
            assertEquals(1, a.port);
            assertTrue(a.length >= 1024 && a.length < 1030, "length " + a.length);   // the builder pads the payload
            assertEquals(64, a.captured);
            assertEquals(0x02, a.header[0]);
            int n = 1;
            while (r.next(a)) {
                n++;
            }
            assertEquals(6, n);
        }
    }

    /**
     * The buffer model predicts the direction. Four senders into one port: each ingress queue holds 3/4 of
     * what it sent when the burst ends (the receiver's port drains a quarter of the arrivals). st pauses a
     * lossless ingress queue at B_s / ports = B_s / 5; dt (alpha 1/16) at alpha (B_s - used), which with four
     * equal queues is B_s / 20. A burst of 1500 frames of 1 KiB per sender peaks near 1.1 MiB per queue,
     * between the two: dt pauses every sender port, st pauses none, and neither ever pauses the receiver.
     */
    @Test
    void incastPausesUnderDtNotSt() throws IOException {
        Path f = incast(dir.resolve("incast.arr"), 5, 4, 1500, 1024);
        ReplayResult dt = Replay.run(f, Replay.config(f, "dt", BUFFER), 1);
        ReplayResult st = Replay.run(f, Replay.config(f, "st", BUFFER), 1);
        assertEquals(6000, dt.arrivals());
        assertEquals(0, st.xoffSentTotal(), "st: " + st);
        assertEquals(0, st.drops());
        assertEquals(6000, st.txFrames()[0]);
        for (int p = 1; p <= 4; p++) {
            assertTrue(dt.xoffSent()[p] > 0, "dt pauses sender port " + p + ": " + dt);
        }
        assertEquals(0, dt.xoffSent()[0]);
        assertEquals(0, st.framesLeftQueued());
        assertEquals(0, dt.framesLeftQueued());
        assertTrue(st.maxBufferBytes() > 4L * 1000 * 1024 * 3 / 4 - 100_000, "st holds the burst: " + st.maxBufferBytes());
        assertTrue(st.meanQueueDelayNanos() > 0);
    }

    @Test
    void sameFileSameResult() throws IOException {
        Path f = incast(dir.resolve("d.arr"), 5, 4, 1500, 1024);
        assertEquals(Replay.run(f, Replay.config(f, "dt", BUFFER), 1), Replay.run(f, Replay.config(f, "dt", BUFFER), 1));
        assertEquals(Replay.run(f, Replay.config(f, "spfc", BUFFER), 1), Replay.run(f, Replay.config(f, "spfc", BUFFER), 1));
    }

    @Test
    void badFilesRejectedWithOneLine() throws IOException {
        Path good = incast(dir.resolve("g.arr"), 5, 2, 3, 1024);
        byte[] b = Files.readAllBytes(good);
        int headerEnd = 24 + 5 * 8 + 16;

        assertRejected(dir.resolve("empty"), new byte[0], "header is cut short");
        byte[] magic = b.clone();
        magic[0] = 'X';
        assertRejected(dir.resolve("magic"), magic, "not an arrival-record file");
        assertRejected(dir.resolve("cut"), Arrays.copyOf(b, b.length - 7), "record 5 is cut short");
        byte[] port = b.clone();
        port[headerEnd + ArrivalFormat.RECORD_BYTES + 8] = 9;
        assertRejected(dir.resolve("port"), port, "record 1: port 9 outside 0..4");
        byte[] order = b.clone();
        order[headerEnd + 2 * ArrivalFormat.RECORD_BYTES + 2] = 0;     // record 2's time drops below record 1's
        assertRejected(dir.resolve("order"), order, "record 2: time");
        byte[] speed = b.clone();
        Arrays.fill(speed, 24, 32, (byte) 0);
        assertRejected(dir.resolve("speed"), speed, "header: port 0 speed must be > 0");
    }

    private static void assertRejected(Path f, byte[] bytes, String message) throws IOException {
        Files.write(f, bytes);
        ArrivalReader.ArrivalFormatException e = assertThrows(ArrivalReader.ArrivalFormatException.class, () -> {
            try (ArrivalReader r = ArrivalReader.open(f)) {
                ArrivalReader.Arrival a = new ArrivalReader.Arrival();
                while (r.next(a)) {
                    // read all
                }
            }
        });
        assertTrue(e.getMessage().startsWith(message), e.getMessage());
        assertFalse(e.getMessage().contains("\n"));
    }
}

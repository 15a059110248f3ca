package org.pfcswitch.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** TraceWriter's text format and TraceReader reading it back; the errors a reader gives. */
class TraceFileTest {

    private static final TraceHeader HEADER = new TraceHeader("dt", 10_000, 0, "test", "switch", List.of("H0", "H 1", "R,1"));

    @Test
    void writtenRecordsReadBack() throws IOException {
        TraceRing ring = new TraceRing(16);
        ring.offer(10_000, TraceRecorder.header(TraceRecorder.QUEUE, TraceRecorder.NONE, 0, 3), 2172, 0, 1_040_370);
        ring.offer(10_000, TraceRecorder.header(TraceRecorder.QUEUE, TraceRecorder.NONE, 2, 3), 0, 500_000, 1_040_370);
        ring.offer(20_007, TraceRecorder.header(TraceRecorder.PFC_TX, TraceRecorder.XOFF, 0, 3), 2, 0, 0);
        ring.offer(30_001, TraceRecorder.header(TraceRecorder.PFC_RX, TraceRecorder.XON, 2, 5), 1, 0, 0);
        StringWriter text = new StringWriter();
        try (TraceWriter w = new TraceWriter(ring, text)) {
            w.writeHeader(HEADER);
            assertEquals(4, w.drain());
        }
        String s = text.toString();
        assertEquals("""
                # pfcswitch-trace v1 scheme=dt every_ns=10000 origin_ns=0 source=test switch=switch ports=H0,H_1,R_1
                time_ns,kind,port,priority,ingress_bytes,egress_bytes,threshold_bytes,event,count
                10000,queue,0,3,2172,0,1040370,,
                10000,queue,2,3,0,500000,1040370,,
                20007,pfc_tx,0,3,,,,xoff,2
                30001,pfc_rx,2,5,,,,xon,1
                # end records=4 dropped=0
                """, s);

        TraceReader.Trace t = TraceReader.read(new BufferedReader(new StringReader(s)), "t.csv");
        assertEquals(HEADER, t.header());
        assertEquals(4, t.size());
        assertTrue(t.complete());
        assertEquals(0, t.dropped());
        assertEquals(List.of(new TraceReader.Queue(0, 3), new TraceReader.Queue(2, 3)), t.queues());
        assertEquals(2172, t.ingressBytes(0));
        assertEquals(500_000, t.egressBytes(1));
        assertEquals(1_040_370, t.thresholdBytes(1));
        assertEquals(TraceRecorder.PFC_TX, t.kind(2));
        assertEquals(TraceRecorder.XOFF, t.event(2));
        assertEquals(2, t.count(2));
        assertEquals(20_007, t.time(2));
        assertEquals(5, t.priority(3));
        assertEquals(2, t.pfcCount(TraceRecorder.PFC_TX, TraceRecorder.XOFF, -1));
        assertEquals(1, t.pfcCount(TraceRecorder.PFC_RX, TraceRecorder.XON, 2));
        assertEquals(1, t.header().portIndex("H_1"));
        assertEquals(2, t.header().portIndex("2"));
        assertEquals(-1, t.header().portIndex("nope"));
    }

    @Test
    void theWriterThreadDrainsWhileTheProducerWrites(@TempDir Path dir) throws Exception {
        TraceRing ring = new TraceRing(256);
        Path file = dir.resolve("live.csv");
        TraceWriter w = TraceWriter.open(ring, file, HEADER).start("trace-writer", 50_000);
        int offered = 0;
        for (int i = 0; i < 100_000; i++) {
            if (ring.offer(i, TraceRecorder.header(TraceRecorder.QUEUE, TraceRecorder.NONE, i % 3, 3), i, 0, 7)) {
                offered++;
            }
            if (i % 1000 == 0) {
                Thread.onSpinWait();
            }
        }
        w.close();
        TraceReader.Trace t = TraceReader.read(file);
        assertTrue(t.complete());
        assertEquals(offered, t.size());
        assertEquals(100_000 - offered, t.dropped());
        for (int i = 1; i < t.size(); i++) {
            assertTrue(t.time(i) > t.time(i - 1));
            assertEquals(t.time(i), t.ingressBytes(i));
        }
    }

    @Test
    void aReaderSaysWhatIsWrongInOneLine(@TempDir Path dir) throws IOException {
        Path png = dir.resolve("fig.png");
        Files.write(png, new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n', (byte) 0xff, (byte) 0xfe});
        assertTrue(message(png).contains("not a pfcswitch trace"), message(png));

        Path csv = dir.resolve("other.csv");
        Files.writeString(csv, "a,b,c\n1,2,3\n");
        assertEquals(csv + ": not a pfcswitch trace (its first line does not start with '# pfcswitch-trace')", message(csv));

        Path v2 = dir.resolve("v2.csv");
        Files.writeString(v2, "# pfcswitch-trace v2 scheme=dt\n" + TraceWriter.COLUMNS + "\n");
        assertEquals(v2 + ": trace format v2, this build reads v1", message(v2));

        Path bad = dir.resolve("bad.csv");
        Files.writeString(bad, HEADER.line() + "\n" + TraceWriter.COLUMNS + "\n10,queue,0,3,1,2,3,,\n11,queue,0,3,x,2,3,,\n");
        assertEquals(bad + ": line 4: not a number where one belongs: '11,queue,0,3,x,2,3,,'", message(bad));

        Path cut = dir.resolve("cut.csv");
        Files.writeString(cut, HEADER.line() + "\n" + TraceWriter.COLUMNS + "\n10,queue,0,3,1,2,3,,\n");
        TraceReader.Trace t = TraceReader.read(cut);
        assertFalse(t.complete(), "no end line: cut short");
        assertEquals(-1, t.dropped());

        assertThrows(java.nio.file.NoSuchFileException.class, () -> TraceReader.read(dir.resolve("missing.csv")));
    }

    private static String message(Path p) {
        return assertThrows(TraceReader.TraceFormatException.class, () -> TraceReader.read(p)).getMessage();
    }
}

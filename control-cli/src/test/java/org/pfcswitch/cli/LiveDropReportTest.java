package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.testbed.DropAttribution;
import org.pfcswitch.testbed.DropAttribution.Drop;
import org.pfcswitch.testbed.HostSendLog;

/** {@code run --drop-log}'s CSV read back, bad files named by line, and the attribution line over it. */
class LiveDropReportTest {

    @TempDir
    Path dir;

    @Test
    void readsTheDropLogOfTheHostsItKnowsAndSaysWhoseEachDropIs() throws Exception {
        Path csv = dir.resolve("drops.csv");
        // h0's sender started PSN 0..29 every 40 us (1000 B at 200 Mb/s) and took the XOFF at 1.2 ms;
        // 'c0' is a clone port (no host here)
        Files.writeString(csv, DropLog.CSV_HEADER + "\n"
                + "h0,3,7,20,900000,400000,7,5,240000,9800,10000\n"         // wire: sent before the pause, 15 frames in headroom
                + "c0,3,9,1,900000,400000,9,0,0,9800,10000\n"
                + "h0,3,7,25,1000000,-1,7,5,240000,9800,10000\n");          // before any XOFF: the switch's
        List<Drop> drops = LiveDropReport.readCsv(csv, port -> port.equals("h0") ? 0 : -1);
        assertEquals(2, drops.size(), "the clone port's drop is not a host's");
        assertEquals(new Drop(0, 3, 7, 20, 900_000, 400_000, 7, 5, 240_000, 9800, 10_000), drops.getFirst());

        long[] clock = {0};
        HostSendLog log = new HostSendLog(1 << 8, 4, () -> clock[0]);
        for (int psn = 0; psn < 30; psn++) {
            clock[0] = psn * 40_000L;
            log.onTransmit(0, 7, psn, 3, 1000, psn * 40_000L);
        }
        clock[0] = 1_200_000;
        int[] quanta = new int[8];
        quanta[3] = 0xFFFF;
        log.onPfc(0, 1 << 3, quanta, 1_200_000);
        DropAttribution attribution = new DropAttribution(log, new long[] {200_000_000L}, 1000);
        String line = LiveDropReport.line(drops, attribution, 3, 0);
        assertTrue(line.startsWith("lossless drops of senders that obey PFC, by whose they are: wire 1, switch 1, host 0,"
                + " unmatched 0; the emulated wires' "), line);
        assertTrue(line.contains("XOFF delivery up to 0.800 ms, first headroom frame's trip up to 0.040 ms"), line);
        assertTrue(line.contains("the first switch one: QP 7 PSN 25: dropped before any XOFF frame went out"), line);
        assertTrue(line.endsWith("; 3 more past the switch's drop log, not judged"), line);

        // Frames the switch ports' rx rings dropped never reached the MMU: they are the switch's too.
        String withRings = LiveDropReport.line(drops, attribution, 0, 40);
        assertTrue(withRings.startsWith("lossless drops of senders that obey PFC, by whose they are: wire 1, switch 41, host 0,"
                + " unmatched 0; 40 of the switch's in its ports' rx rings"), withRings);
        // The live tests let the rx rings' drops through (printed; see LosslessJudgement), and no other of the switch's.
        assertEquals(40, LosslessJudgement.attributed("ring", "dt", "dt " + LiveDropReport.line(List.of(), attribution, 0, 40)));
        AssertionError judged = assertThrows(AssertionError.class,
                () -> LosslessJudgement.attributed("ring and MMU", "dt", "dt " + withRings));
        assertTrue(judged.getMessage().contains("switch 41"), judged.getMessage());
        // The judgement for a lab sized for its stalls lets nothing through: not the rings', not the wires'.
        LosslessJudgement.none("clean", "dt", "dt " + LiveDropReport.line(List.of(), attribution, 0, 0));
        AssertionError ring = assertThrows(AssertionError.class,
                () -> LosslessJudgement.none("ring", "dt", "dt " + LiveDropReport.line(List.of(), attribution, 0, 40)));
        assertTrue(ring.getMessage().contains("switch 40"), ring.getMessage());
        List<Drop> wireOnly = drops.stream()
                .filter(d -> attribution.attribute(d).kind() == org.pfcswitch.testbed.DropAttribution.Kind.WIRE).toList();
        AssertionError wire = assertThrows(AssertionError.class,
                () -> LosslessJudgement.none("wire", "dt", "dt " + LiveDropReport.line(wireOnly, attribution, 0, 0)));
        assertTrue(wire.getMessage().contains("wire 1"), wire.getMessage());
    }

    @Test
    void aFileThatIsNotADropLogIsNamedWithItsLine() throws Exception {
        Path csv = dir.resolve("bad.csv");
        Files.writeString(csv, "port,psn\nh0,1\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> LiveDropReport.readCsv(csv, p -> 0));
        assertTrue(e.getMessage().startsWith(csv + ": line 1: not a drop log"), e.getMessage());
        Files.writeString(csv, DropLog.CSV_HEADER + "\nh0,3,7,20,900000,400000,7,5,240000,9800,10000\nh0,3,x,1,2,3,4,5,6,7,8\n");
        e = assertThrows(IllegalArgumentException.class, () -> LiveDropReport.readCsv(csv, p -> 0));
        assertTrue(e.getMessage().startsWith(csv + ": line 3: "), e.getMessage());
        Files.writeString(csv, DropLog.CSV_HEADER + "\nh0,3,7\n");
        e = assertThrows(IllegalArgumentException.class, () -> LiveDropReport.readCsv(csv, p -> 0));
        assertEquals(csv + ": line 2: 11 fields expected, got 3", e.getMessage());
    }
}

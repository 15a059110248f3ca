package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;

import org.junit.jupiter.api.Test;

/** The progress of long commands: a bar on a terminal, plain lines every few seconds anywhere else. */
class ProgressTest {

    private final long[] now = {0};
    private final StringWriter text = new StringWriter();

    private Progress progress(boolean terminal) {
        return new Progress(new PrintWriter(text), "victim dt", "simulated", terminal, () -> now[0]);
    }

    /** Reports at these wall-clock seconds, each at the same share of a 12 ms run. */
    private void run(Progress p, double... seconds) {
        for (double s : seconds) {
            now[0] = (long) (s * 1e9);
            p.at((long) (s * 1e6), 12_000_000);
        }
    }

    @Test
    void notOnATerminalPlainLinesEveryFiveSecondsAndNoCarriageReturn() {
        Progress p = progress(false);
        run(p, 0.5, 1, 2, 4.9, 5.1, 6, 9, 10.2, 11);
        p.done("victim dt: 12.000 ms simulated");
        String out = text.toString();
        assertFalse(out.contains("\r"), out);
        assertEquals("victim dt: 43%, 5.10/12.00 ms simulated after 5 s\n"
                + "victim dt: 85%, 10.20/12.00 ms simulated after 10 s\n"
                + "victim dt: 12.000 ms simulated\n", out);
    }

    @Test
    void aShortRunOffATerminalPrintsOnlyTheFinalLine() {
        Progress p = progress(false);
        run(p, 0.1, 1, 2, 3);
        p.done("done");
        assertEquals("done\n", text.toString());
    }

    @Test
    void onATerminalABarRedrawnInPlaceAndClearedAtTheEnd() {
        Progress p = progress(true);
        run(p, 0.5, 1.1, 1.2, 1.4);
        String bars = text.toString();
        assertEquals(2, bars.chars().filter(c -> c == '\r').count(), "silent for 1 s, then at most 5 frames a second: " + bars);
        assertTrue(bars.startsWith("\rvictim dt [##") && bars.contains("1.10/12.00 ms simulated, 1.1 s"), bars);
        assertFalse(bars.contains("\n"), bars);
        p.done("final");
        assertTrue(text.toString().endsWith("\r" + " ".repeat(text.toString().indexOf("\r", 1) - 1) + "\rfinal\n"), text.toString());
    }

    /** A grid of runs: runs done and the time left at the pace so far; plain lines every 5 s off a terminal. */
    @Test
    void aGridCountsRunsAndEstimatesTheTimeLeft() {
        Progress p = new Progress(new java.io.PrintWriter(text), "grid", "runs", false, () -> now[0]);
        int[] doneAt = {1, 2, 6, 7};
        for (int i = 0; i < doneAt.length; i++) {
            now[0] = doneAt[i] * 1_000_000_000L;
            p.runs(i + 1, 8);
        }
        assertEquals("grid: 3/8 runs after 6 s, ETA 10 s\n", text.toString());
        Progress bar = new Progress(new java.io.PrintWriter(text), "grid", "runs", true, () -> now[0]);
        text.getBuffer().setLength(0);
        now[0] += 2_000_000_000L;
        bar.runs(4, 8);
        assertTrue(text.toString().startsWith("\rgrid [###############               ] 4/8 runs, 2.0 s, ETA 2 s"), text.toString());
    }
}

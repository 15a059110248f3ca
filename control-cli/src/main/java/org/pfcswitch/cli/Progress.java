package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.function.LongSupplier;

import org.pfcswitch.testbed.ScenarioRunner;

/**
 * How far a long run is, on stderr, for every command that runs for a while ({@code sim},
 * {@code hosts}, the sim half of {@code lab}). On a terminal: a bar redrawn in place with
 * {@code \r} at most five times a second, from the first second of wall time on, and cleared at
 * the end. Anywhere else (a pipe, a file, a CI log): never a {@code \r}, only a plain line every
 * {@value #PLAIN_EVERY_SECONDS} s of wall time, so short runs print none. Either way {@link #done}
 * prints the final line. The wall clock only decides when to print; it never reaches a result.
 */
final class Progress implements ScenarioRunner.Progress {

    static final int PLAIN_EVERY_SECONDS = 5;
    private static final long SECOND = 1_000_000_000L;
    private static final int WIDTH = 30;

    private final PrintWriter err;
    private final String label;
    private final String clock;
    private final boolean terminal;
    private final LongSupplier nanoTime;
    private final long startedAt;
    private long printedAt;
    private int drawnWidth;

    /**
     * @param label what runs, e.g. {@code "spfc-victim dt"}
     * @param clock whose time the run counts, e.g. {@code "simulated"}
     */
    Progress(PrintWriter err, String label, String clock) {
        this(err, label, clock, Terminal.attached(), System::nanoTime);
    }

    Progress(PrintWriter err, String label, String clock, boolean terminal, LongSupplier nanoTime) {
        this.err = err;
        this.label = label;
        this.clock = clock;
        this.terminal = terminal;
        this.nanoTime = nanoTime;
        this.startedAt = nanoTime.getAsLong();
        this.printedAt = startedAt;
    }

    @Override
    public void at(long doneNanos, long totalNanos) {
        long now = nanoTime.getAsLong();
        double percent = 100.0 * doneNanos / Math.max(1, totalNanos);
        if (terminal) {
            if (now - startedAt < SECOND || now - printedAt < SECOND / 5) {
                return;
            }
            int filled = (int) Math.min(WIDTH, WIDTH * doneNanos / Math.max(1, totalNanos));
            String bar = String.format(Locale.ROOT, "%s [%s%s] %5.1f%% %s %s, %.1f s", label, "#".repeat(filled),
                    " ".repeat(WIDTH - filled), percent, amount(doneNanos, totalNanos), clock, (now - startedAt) / 1e9);
            err.print("\r" + bar);
            drawnWidth = Math.max(drawnWidth, bar.length());
        } else {
            if (now - printedAt < PLAIN_EVERY_SECONDS * SECOND) {
                return;
            }
            err.printf(Locale.ROOT, "%s: %.0f%%, %s %s after %.0f s%n", label, percent, amount(doneNanos, totalNanos), clock,
                    (now - startedAt) / 1e9);
        }
        printedAt = now;
        err.flush();
    }

    /**
     * Progress of a grid of runs on a pool of threads: {@code done} of {@code total} runs finished
     * and the time left at the pace so far (ETA). Thread-safe; same rules as {@link #at}: a bar on a
     * terminal, a plain line every {@value #PLAIN_EVERY_SECONDS} s elsewhere.
     */
    synchronized void runs(int done, int total) {
        long now = nanoTime.getAsLong();
        double elapsed = (now - startedAt) / 1e9;
        String eta = done == 0 ? "?" : String.format(Locale.ROOT, "%.0f s", elapsed / done * (total - done));
        if (terminal) {
            if (done < total && now - printedAt < SECOND / 5) {
                return;
            }
            int filled = WIDTH * done / Math.max(1, total);
            String bar = String.format(Locale.ROOT, "%s [%s%s] %d/%d runs, %.1f s, ETA %s", label, "#".repeat(filled),
                    " ".repeat(WIDTH - filled), done, total, elapsed, eta);
            err.print("\r" + bar);
            drawnWidth = Math.max(drawnWidth, bar.length());
        } else {
            if (now - printedAt < PLAIN_EVERY_SECONDS * SECOND) {
                return;
            }
            err.printf(Locale.ROOT, "%s: %d/%d runs after %.0f s, ETA %s%n", label, done, total, elapsed, eta);
        }
        printedAt = now;
        err.flush();
    }

    /** Clears the bar (on a terminal) and prints {@code line}, if not null. */
    synchronized void done(String line) {
        if (drawnWidth > 0) {
            err.print("\r" + " ".repeat(drawnWidth) + "\r");
            drawnWidth = 0;
        }
        if (line != null) {
            err.println(line);
        }
        err.flush();
    }

    /** {@code 3.20/12.00 ms} or, for runs of a second or more, {@code 4.0/10.0 s}. */
    private static String amount(long done, long total) {
        return total >= SECOND
                ? String.format(Locale.ROOT, "%.1f/%.1f s", done / 1e9, total / 1e9)
                : String.format(Locale.ROOT, "%.2f/%.2f ms", done / 1e6, total / 1e6);
    }
}

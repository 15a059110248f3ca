package org.pfcswitch.cli.scenario;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A line chart of stacked panels sharing one time axis, each with its own y axis, lines, legend,
 * and event marks drawn as a rug beneath the panel's axis (one row per kind of mark, so they
 * never cover the data). The time axis reads in the unit its span suits (µs, ms, s) with ticks at
 * 1, 2 or 5 times a power of ten ({@link Ticks}); {@link #window} shows a part of it. Written as
 * PNG, SVG or PDF by the output's extension ({@link FigureFormat}); no plotting library, no display.
 */
public final class LinePlot {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};
    private static final Color GRID = new Color(0xE6E6E6);
    private static final Color AXIS = new Color(0x404040);
    /** Width of every figure, pixels. */
    public static final int WIDTH = 900;
    private static final int PANEL_HEIGHT = 260;
    private static final int LEFT = 80;
    private static final int RIGHT = 190;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;
    /** Height of one row of the rug of marks beneath a panel's axis, and its band's colour. */
    private static final int RUG_ROW = 11;
    private static final Color RUG_BAND = new Color(0xF3F3F3);

    /** One curve: {@code y[i]} at the plot's {@code i}-th time. */
    public record Line(String label, double[] y) {}

    /** Events at {@code timeNanos} (same clock as the plot's times), drawn in {@code color} as a rug under the axis. */
    public record Marks(String label, long[] timeNanos, Color color, boolean dashed) {}

    record Panel(String yLabel, List<Line> lines, List<Marks> marks) {}

    private final String title;
    /** Sample times, nanoseconds from the origin. */
    private final double[] x;
    private final List<Panel> panels = new ArrayList<>();
    private final long originNanos;
    private double fromNanos = Double.NaN;
    private double toNanos = Double.NaN;

    /** A plot over {@code timeNanos}, counted from 0. */
    public LinePlot(String title, long[] timeNanos) {
        this(title, timeNanos, 0);
    }

    /** A plot over {@code timeNanos}, shown as the time since {@code originNanos}. */
    public LinePlot(String title, long[] timeNanos, long originNanos) {
        this.title = title;
        this.originNanos = originNanos;
        this.x = new double[timeNanos.length];
        for (int i = 0; i < timeNanos.length; i++) {
            x[i] = timeNanos[i] - originNanos;
        }
    }

    /** Shows only {@code [from, to]}, nanoseconds since the origin; samples and marks outside are left out. */
    public LinePlot window(long from, long to) {
        this.fromNanos = from;
        this.toNanos = to;
        return this;
    }

    public LinePlot panel(String yLabel, List<Line> lines) {
        return panel(yLabel, lines, List.of());
    }

    public LinePlot panel(String yLabel, List<Line> lines, List<Marks> marks) {
        panels.add(new Panel(yLabel, lines, marks));
        return this;
    }

    /** The first and one past the last index of the sorted {@code times} within {@code [lo, hi]}. */
    static int[] indexRange(double[] times, double lo, double hi) {
        int first = 0;
        while (first < times.length && times[first] < lo) {
            first++;
        }
        int end = first;
        while (end < times.length && times[end] <= hi) {
            end++;
        }
        return new int[] {first, end};
    }

    /** Writes the figure to {@code out} and returns it; the format follows its extension (.png, .svg or .pdf). */
    public Path write(Path out) throws IOException {
        int height = TOP + panels.size() * PANEL_HEIGHT + BOTTOM;
        Canvas c = Canvas.create(out, WIDTH, height);
        c.text(title, LEFT, 24, 15, true, Color.BLACK, Canvas.Anchor.START);
        double lo = Double.isNaN(fromNanos) ? 0 : fromNanos;
        double last = x.length == 0 ? 1 : x[x.length - 1];
        double hi = Double.isNaN(toNanos) ? last : Math.min(toNanos, Math.max(last, lo + 1));
        if (hi <= lo) {
            hi = lo + 1;
        }
        int[] range = indexRange(x, lo, hi);
        Ticks.TimeUnit unit = Ticks.timeUnit(hi - lo);
        double step = Ticks.step((hi - lo) / unit.nanos(), 8);
        Axis time = new Axis(lo, hi, unit, step);
        for (int p = 0; p < panels.size(); p++) {
            int top = TOP + p * PANEL_HEIGHT + 10;
            drawPanel(c, panels.get(p), top, time, range, p == panels.size() - 1);
        }
        c.write(out);
        return out;
    }

    /** The shared time axis: its range in nanoseconds since the origin, its unit and tick step in that unit. */
    private record Axis(double lo, double hi, Ticks.TimeUnit unit, double step) {
        double pixel(double nanos, int w) {
            return LEFT + (nanos - lo) / (hi - lo) * w;
        }
    }

    private void drawPanel(Canvas c, Panel panel, int top, Axis time, int[] range, boolean timeLabels) {
        int w = WIDTH - LEFT - RIGHT;
        int rug = panel.marks.size() * RUG_ROW;
        int h = PANEL_HEIGHT - 45 - rug;
        double yMax = 0;
        for (Line l : panel.lines) {
            for (int i = range[0]; i < range[1] && i < l.y.length; i++) {
                if (Double.isFinite(l.y[i])) {
                    yMax = Math.max(yMax, l.y[i]);
                }
            }
        }
        double yStep = Ticks.step(yMax, 5);
        double yTop = Ticks.top(yMax, 5);
        for (double v : Ticks.at(0, yTop, yStep)) {
            double y = top + h - v / yTop * h;
            c.line(LEFT, y, LEFT + w, y, GRID, 1, false);
            c.text(Ticks.label(v, yStep), LEFT - 6, y + 4, 11, false, AXIS, Canvas.Anchor.END);
        }
        for (double t : Ticks.at(time.lo() / time.unit().nanos(), time.hi() / time.unit().nanos(), time.step())) {
            double px = time.pixel(t * time.unit().nanos(), w);
            c.line(px, top, px, top + h, GRID, 1, false);
            c.line(px, top + h + rug, px, top + h + rug + 4, AXIS, 1, false);
            if (timeLabels) {
                c.text(Ticks.label(t, time.step()), px, top + h + rug + 17, 11, false, AXIS, Canvas.Anchor.MIDDLE);
            }
        }
        if (timeLabels) {
            c.text("time (" + time.unit().name() + ")", LEFT + w / 2.0, top + h + rug + 34, 12, false, Color.BLACK,
                    Canvas.Anchor.MIDDLE);
        }
        c.text(panel.yLabel, LEFT + 4, top - 4, 12, false, Color.BLACK, Canvas.Anchor.START);
        int legend = 0;
        for (int k = 0; k < panel.lines.size(); k++) {
            Line l = panel.lines.get(k);
            Color color = PALETTE[k % PALETTE.length];
            drawLine(c, l.y, range, time, w, top, h, yTop, color);
            double ly = top + 14 + legend++ * 16;
            c.line(LEFT + w + 10, ly - 4, LEFT + w + 26, ly - 4, color, 2, false);
            c.text(l.label, LEFT + w + 32, ly, 11, false, Color.BLACK, Canvas.Anchor.START);
        }
        c.strokeRect(LEFT, top, w, h, Color.BLACK);
        for (int m = 0; m < panel.marks.size(); m++) {
            Marks marks = panel.marks.get(m);
            double rowTop = top + h + 1 + m * RUG_ROW;
            c.fillRect(LEFT, rowTop, w, RUG_ROW - 1, RUG_BAND);
            c.text(marks.label.split(" ")[0], LEFT - 6, rowTop + RUG_ROW - 2, 9, false, marks.color, Canvas.Anchor.END);
            int shown = 0;
            for (long t : marks.timeNanos) {
                double nanos = t - originNanos;
                if (nanos < time.lo() || nanos > time.hi()) {
                    continue;
                }
                double px = time.pixel(nanos, w);
                c.line(px, rowTop, px, rowTop + RUG_ROW - 1, marks.color, 1.5, false);
                shown++;
            }
            double ly = top + 14 + legend++ * 16;
            c.line(LEFT + w + 15, ly - 9, LEFT + w + 15, ly + 1, marks.color, 1.5, false);
            c.line(LEFT + w + 21, ly - 9, LEFT + w + 21, ly + 1, marks.color, 1.5, false);
            c.text(marks.label + " (" + shown + ")", LEFT + w + 32, ly, 11, false, Color.BLACK, Canvas.Anchor.START);
        }
        if (!panel.marks.isEmpty()) {
            double ly = top + 14 + legend * 16;
            c.text("ticks beneath the axis", LEFT + w + 32, ly, 10, false, AXIS, Canvas.Anchor.START);
        }
    }

    /**
     * One line over the window with at most four points per pixel column (the column's first,
     * lowest, highest and last sample), so a long trace draws the same shape in a file of bounded size.
     */
    private void drawLine(Canvas c, double[] y, int[] range, Axis time, int w, int top, int h, double yTop, Color color) {
        Points pts = new Points(4 * (w + 3));
        int end = Math.min(range[1], y.length);
        for (int i = range[0]; i < end; i++) {
            pts.add(time.pixel(x[i], w), top + h - Math.min(1, Math.max(0, y[i]) / yTop) * h);
        }
        pts.flush();
        c.polyline(pts.xs, pts.ys, pts.n, color, 1.5);
    }

    /** The points of one drawn line, thinned per pixel column. */
    private static final class Points {
        final double[] xs;
        final double[] ys;
        int n;
        private int column;
        private int count;
        private double firstX, firstY, lowY, highY, lastX, lastY;

        Points(int capacity) {
            xs = new double[capacity];
            ys = new double[capacity];
        }

        void add(double x, double y) {
            int col = (int) Math.floor(x);
            if (count > 0 && col != column) {
                flush();
            }
            if (count == 0) {
                column = col;
                firstX = x;
                firstY = y;
                lowY = y;
                highY = y;
            }
            lowY = Math.max(lowY, y);                    // pixel y grows downwards: low values have large y
            highY = Math.min(highY, y);
            lastX = x;
            lastY = y;
            count++;
        }

        void flush() {
            if (count == 0) {
                return;
            }
            put(firstX, firstY);
            if (count > 2) {
                put(firstX, lowY);
                put(lastX, highY);
            }
            if (count > 1) {
                put(lastX, lastY);
            }
            count = 0;
        }

        private void put(double x, double y) {
            if (n < xs.length) {
                xs[n] = x;
                ys[n++] = y;
            }
        }
    }
}

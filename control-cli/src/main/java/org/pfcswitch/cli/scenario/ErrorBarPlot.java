package org.pfcswitch.cli.scenario;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The papers' sweep figure: a metric against a swept value, one line per series (scheme) with a
 * marker per point and a vertical error bar of +- the 95 % confidence half-width. The x axis is
 * linear when every x value is a number, otherwise the values are spread evenly in order. PNG, SVG or
 * PDF by the output's extension, as {@link LinePlot}.
 */
public final class ErrorBarPlot {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};
    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;
    private static final int LEFT = 90;
    private static final int RIGHT = 190;
    private static final int TOP = 50;
    private static final int BOTTOM = 60;
    private static final Color GRID = new Color(0xE6E6E6);

    /** One point: x as text (the swept value), the mean and the half-width (NaN: no bar). */
    public record Point(String x, double mean, double halfWidth) {}

    public record Series(String label, List<Point> points) {}

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();

    public ErrorBarPlot(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    public ErrorBarPlot series(Series s) {
        series.add(s);
        return this;
    }

    /** Writes the figure; the format follows {@code out}'s extension (.png, .svg or .pdf). */
    public void write(Path out) throws IOException {
        List<String> xs = new ArrayList<>();
        boolean numeric = true;
        double yMax = 0;
        for (Series s : series) {
            for (Point p : s.points()) {
                if (!xs.contains(p.x())) {
                    xs.add(p.x());
                }
                numeric &= isNumber(p.x());
                if (Double.isFinite(p.mean())) {
                    yMax = Math.max(yMax, p.mean() + (Double.isFinite(p.halfWidth()) ? p.halfWidth() : 0));
                }
            }
        }
        double lo = 0;
        double hi = Math.max(1, xs.size() - 1);
        if (numeric && !xs.isEmpty()) {
            lo = xs.stream().mapToDouble(Double::parseDouble).min().orElse(0);
            hi = xs.stream().mapToDouble(Double::parseDouble).max().orElse(1);
            if (hi == lo) {
                lo -= 1;
                hi += 1;
            }
        }
        double yTop = Ticks.top(yMax, 5);
        double yStep = Ticks.step(yMax, 5);
        int w = WIDTH - LEFT - RIGHT;
        int h = HEIGHT - TOP - BOTTOM;
        Canvas c = Canvas.create(out, WIDTH, HEIGHT);
        c.text(title, LEFT, 26, 15, true, Color.BLACK, Canvas.Anchor.START);
        for (double v : Ticks.at(0, yTop, yStep)) {
            double y = TOP + h - v / yTop * h;
            c.line(LEFT, y, LEFT + w, y, GRID, 1, false);
            c.text(Ticks.label(v, yStep), LEFT - 6, y + 4, 11, false, Color.DARK_GRAY, Canvas.Anchor.END);
        }
        int pad = w / 20;                           // keep the end points off the frame
        for (int i = 0; i < xs.size(); i++) {
            int x = xPixel(xs.get(i), i, numeric, lo, hi, pad, w);
            c.line(x, TOP + h, x, TOP + h + 4, Color.DARK_GRAY, 1, false);
            c.text(xs.get(i), x, TOP + h + 18, 11, false, Color.DARK_GRAY, Canvas.Anchor.MIDDLE);
        }
        c.strokeRect(LEFT, TOP, w, h, Color.BLACK);
        c.text(yLabel, LEFT + 4, TOP - 6, 12, false, Color.BLACK, Canvas.Anchor.START);
        c.text(xLabel, LEFT + w / 2.0, TOP + h + 40, 12, false, Color.BLACK, Canvas.Anchor.MIDDLE);
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            Color color = PALETTE[k % PALETTE.length];
            List<Point> pts = new ArrayList<>(s.points());
            if (numeric) {
                pts.sort((a, b) -> Double.compare(Double.parseDouble(a.x()), Double.parseDouble(b.x())));
            }
            int px = -1;
            int py = -1;
            for (Point p : pts) {
                if (!Double.isFinite(p.mean())) {
                    px = -1;
                    continue;
                }
                int x = xPixel(p.x(), xs.indexOf(p.x()), numeric, lo, hi, pad, w);
                int y = yPixel(p.mean(), yTop, h);
                if (px >= 0) {
                    c.line(px, py, x, y, color, 1.8, false);
                }
                c.fillCircle(x, y, 4, color);
                if (Double.isFinite(p.halfWidth()) && p.halfWidth() > 0) {
                    int top = yPixel(p.mean() + p.halfWidth(), yTop, h);
                    int bottom = yPixel(Math.max(0, p.mean() - p.halfWidth()), yTop, h);
                    int dx = 3 + 2 * k;                     // schemes' bars side by side, not on top of each other
                    c.line(x + dx, top, x + dx, bottom, color, 1.2, false);
                    c.line(x + dx - 4, top, x + dx + 4, top, color, 1.2, false);
                    c.line(x + dx - 4, bottom, x + dx + 4, bottom, color, 1.2, false);
                }
                px = x;
                py = y;
            }
            int ly = TOP + 14 + k * 18;
            c.fillRect(LEFT + w + 12, ly - 8, 14, 4, color);
            c.text(s.label(), LEFT + w + 32, ly - 3, 11, false, Color.BLACK, Canvas.Anchor.START);
        }
        c.text("bars: 95 % CI over seeds", LEFT + w + 12, TOP + h, 11, false, Color.DARK_GRAY, Canvas.Anchor.START);
        c.write(out);
    }

    private static int xPixel(String x, int index, boolean numeric, double lo, double hi, int pad, int w) {
        double f = numeric ? (Double.parseDouble(x) - lo) / (hi - lo) : index / hi;
        return LEFT + pad + (int) Math.round(f * (w - 2 * pad));
    }

    private static int yPixel(double v, double yMax, int h) {
        return TOP + h - (int) Math.round(Math.min(1, Math.max(0, v / yMax)) * h);
    }

    private static boolean isNumber(String s) {
        try {
            return Double.isFinite(Double.parseDouble(s));
        } catch (NumberFormatException e) {
            return false;
        }
    }
}

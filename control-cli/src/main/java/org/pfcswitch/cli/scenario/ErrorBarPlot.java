package org.pfcswitch.cli.scenario;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;


/**
 * The papers' sweep figure: a metric against a swept value, one line per series (scheme) with a
 * marker per point and a vertical error bar of +- the 95 % confidence half-width. The x axis is
 * linear when every x value is a number, otherwise the values are spread evenly in order. Java2D
 * into a headless PNG, as {@link LinePlot}.
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

    /** One point: x as text (the swept value), the mean and the half-width (NaN: no bar). */
    public record Point(String x, double mean, double halfWidth) {}

    public record Series(String label, List<Point> points) {}

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final List<Series> series = new ArrayList<>();

    public ErrorBarPlot(String title, String xLabel, String yLabel) {
        System.setProperty("java.awt.headless", "true");
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    public ErrorBarPlot series(Series s) {
        series.add(s);
        return this;
    }

    public void write(Path png) throws IOException {
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
        yMax = LinePlot.niceCeiling(yMax);
        int w = WIDTH - LEFT - RIGHT;
        int h = HEIGHT - TOP - BOTTOM;
        BufferedImage img = new BufferedImage(WIDTH, HEIGHT, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, HEIGHT);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 26);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (int t = 0; t <= 4; t++) {
            int y = TOP + h - t * h / 4;
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(LEFT, y, LEFT + w, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(LinePlot.format(yMax * t / 4), 8, y + 4);
        }
        int pad = w / 20;                           // keep the end points off the frame
        for (int i = 0; i < xs.size(); i++) {
            int x = xPixel(xs.get(i), i, numeric, lo, hi, pad, w);
            g.setColor(Color.DARK_GRAY);
            g.drawLine(x, TOP + h, x, TOP + h + 4);
            g.drawString(xs.get(i), x - 3 * xs.get(i).length(), TOP + h + 18);
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, TOP, w, h);
        g.drawString(yLabel, LEFT + 4, TOP - 6);
        g.drawString(xLabel, LEFT + w / 2 - 3 * xLabel.length(), TOP + h + 40);
        for (int k = 0; k < series.size(); k++) {
            Series s = series.get(k);
            Color c = PALETTE[k % PALETTE.length];
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
                int y = yPixel(p.mean(), yMax, h);
                g.setColor(c);
                g.setStroke(new BasicStroke(1.8f));
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                g.fillOval(x - 4, y - 4, 8, 8);
                if (Double.isFinite(p.halfWidth()) && p.halfWidth() > 0) {
                    g.setStroke(new BasicStroke(1.2f));
                    int top = yPixel(p.mean() + p.halfWidth(), yMax, h);
                    int bottom = yPixel(Math.max(0, p.mean() - p.halfWidth()), yMax, h);
                    int dx = 3 + 2 * k;                     // schemes' bars side by side, not on top of each other
                    g.drawLine(x + dx, top, x + dx, bottom);
                    g.drawLine(x + dx - 4, top, x + dx + 4, top);
                    g.drawLine(x + dx - 4, bottom, x + dx + 4, bottom);
                }
                px = x;
                py = y;
            }
            int ly = TOP + 14 + k * 18;
            g.setColor(c);
            g.fillRect(LEFT + w + 12, ly - 8, 14, 4);
            g.setColor(Color.BLACK);
            g.drawString(s.label(), LEFT + w + 32, ly - 3);
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("bars: 95 % CI over seeds", LEFT + w + 12, TOP + h);
        g.dispose();
        PngFile.write(img, png);
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

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
 * A small line chart drawn with Java2D into a headless image: stacked panels sharing the time
 * axis (microseconds from an origin), each with its own y axis, lines, vertical event marks and
 * legend. Enough for the scenario and trace figures, no plotting library. Runs with
 * {@code java.awt.headless} set (no display needed).
 */
public final class LinePlot {

    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xd62728), new Color(0x2ca02c),
            new Color(0xff7f0e), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f)};
    /** Width of every figure, pixels. */
    public static final int WIDTH = 900;
    private static final int PANEL_HEIGHT = 260;
    private static final int LEFT = 80;
    private static final int RIGHT = 170;
    private static final int TOP = 40;
    private static final int BOTTOM = 45;

    /** One curve: {@code y[i]} at the plot's {@code i}-th time. */
    public record Line(String label, double[] y) {}

    /** Vertical marks at {@code timeNanos} (same clock as the plot's times), in {@code color}, dashed or solid. */
    public record Marks(String label, long[] timeNanos, Color color, boolean dashed) {}

    record Panel(String yLabel, List<Line> lines, List<Marks> marks) {}

    private final String title;
    private final double[] xMicros;
    private final long originNanos;
    private final List<Panel> panels = new ArrayList<>();

    /** A plot over {@code timeNanos}, counted from 0. */
    public LinePlot(String title, long[] timeNanos) {
        this(title, timeNanos, 0);
    }

    /** A plot over {@code timeNanos}, shown as microseconds since {@code originNanos}. */
    public LinePlot(String title, long[] timeNanos, long originNanos) {
        System.setProperty("java.awt.headless", "true");
        this.title = title;
        this.originNanos = originNanos;
        this.xMicros = new double[timeNanos.length];
        for (int i = 0; i < timeNanos.length; i++) {
            xMicros[i] = (timeNanos[i] - originNanos) / 1e3;
        }
    }

    public LinePlot panel(String yLabel, List<Line> lines) {
        return panel(yLabel, lines, List.of());
    }

    public LinePlot panel(String yLabel, List<Line> lines, List<Marks> marks) {
        panels.add(new Panel(yLabel, lines, marks));
        return this;
    }

    public void write(Path png) throws IOException {
        int height = TOP + panels.size() * PANEL_HEIGHT + BOTTOM;
        BufferedImage img = new BufferedImage(WIDTH, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, WIDTH, height);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(title, LEFT, 24);
        double xMax = xMicros.length == 0 ? 1 : Math.max(1e-9, xMicros[xMicros.length - 1]);
        for (int p = 0; p < panels.size(); p++) {
            int top = TOP + p * PANEL_HEIGHT + 10;
            drawPanel(g, panels.get(p), top, PANEL_HEIGHT - 40, xMax, p == panels.size() - 1);
        }
        g.dispose();
        PngFile.write(img, png);
    }

    private void drawPanel(Graphics2D g, Panel panel, int top, int h, double xMax, boolean xLabels) {
        int w = WIDTH - LEFT - RIGHT;
        double yMax = 0;
        for (Line l : panel.lines) {
            for (double v : l.y) {
                if (Double.isFinite(v)) {
                    yMax = Math.max(yMax, v);
                }
            }
        }
        yMax = niceCeiling(yMax);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        for (int t = 0; t <= 4; t++) {                        // grid and ticks
            int y = top + h - t * h / 4;
            g.setColor(new Color(0xE0E0E0));
            g.drawLine(LEFT, y, LEFT + w, y);
            g.setColor(Color.DARK_GRAY);
            g.drawString(format(yMax * t / 4), 8, y + 4);
            int x = LEFT + t * w / 4;
            if (xLabels) {
                g.drawString(format(xMax * t / 4) + " us", x - 15, top + h + 16);
            }
        }
        g.setColor(Color.BLACK);
        g.drawRect(LEFT, top, w, h);
        g.drawString(panel.yLabel, LEFT + 4, top - 3);
        g.setStroke(new BasicStroke(1.5f));
        for (int k = 0; k < panel.lines.size(); k++) {
            Line l = panel.lines.get(k);
            g.setColor(PALETTE[k % PALETTE.length]);
            int px = -1;
            int py = -1;
            for (int i = 0; i < l.y.length && i < xMicros.length; i++) {
                int x = LEFT + (int) Math.round(xMicros[i] / xMax * w);
                int y = top + h - (int) Math.round(Math.max(0, l.y[i]) / yMax * h);
                if (px >= 0) {
                    g.drawLine(px, py, x, y);
                }
                px = x;
                py = y;
            }
            int ly = top + 14 + k * 16;
            g.fillRect(LEFT + w + 10, ly - 8, 14, 4);
            g.setColor(Color.BLACK);
            g.drawString(l.label, LEFT + w + 30, ly - 3);
        }
        int legend = panel.lines.size();
        for (Marks m : panel.marks) {
            g.setColor(m.color);
            g.setStroke(m.dashed ? new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                    new float[] {4f, 3f}, 0f) : new BasicStroke(1f));
            for (long t : m.timeNanos) {
                double us = (t - originNanos) / 1e3;
                if (us < 0 || us > xMax) {
                    continue;
                }
                int x = LEFT + (int) Math.round(us / xMax * w);
                g.drawLine(x, top, x, top + h);
            }
            int ly = top + 14 + legend++ * 16;
            g.drawLine(LEFT + w + 17, ly - 12, LEFT + w + 17, ly);
            g.setColor(Color.BLACK);
            g.drawString(m.label + " (" + m.timeNanos.length + ")", LEFT + w + 30, ly - 3);
        }
        g.setStroke(new BasicStroke(1f));
    }

    /** The smallest 1, 2, 2.5 or 5 times a power of ten at or above {@code v}: an axis maximum. */
    static double niceCeiling(double v) {
        if (v <= 0) {
            return 1;
        }
        double mag = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * mag >= v) {
                return m * mag;
            }
        }
        return 10 * mag;
    }

    /** An axis label: whole numbers as they are, others to two significant digits. */
    static String format(double v) {
        return v >= 100 || v == Math.rint(v) ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2g", v);
    }
}

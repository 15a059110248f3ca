package org.pfcswitch.cli.scenario;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Line2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;

/**
 * A {@link Canvas} drawn through Java2D: into a headless image for PNG ({@link PngCanvas}), or
 * into a PDF page as vector graphics ({@link PdfCanvas}), with the same strokes and text.
 */
abstract class Graphics2DCanvas implements Canvas {

    protected final Graphics2D g;

    Graphics2DCanvas(Graphics2D g, int width, int height) {
        this.g = g;
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_STROKE_CONTROL, RenderingHints.VALUE_STROKE_PURE);
        g.setColor(Color.WHITE);
        g.fill(new Rectangle2D.Double(0, 0, width, height));
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, Color color, double width, boolean dashed) {
        g.setColor(color);
        g.setStroke(dashed ? new BasicStroke((float) width, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[] {4f, 3f}, 0f) : new BasicStroke((float) width));
        g.draw(new Line2D.Double(x1, y1, x2, y2));
    }

    @Override
    public void polyline(double[] xs, double[] ys, int n, Color color, double width) {
        if (n < 2) {
            return;
        }
        Path2D.Double path = new Path2D.Double();
        path.moveTo(xs[0], ys[0]);
        for (int i = 1; i < n; i++) {
            path.lineTo(xs[i], ys[i]);
        }
        g.setColor(color);
        g.setStroke(new BasicStroke((float) width, BasicStroke.CAP_ROUND, BasicStroke.JOIN_ROUND));
        g.draw(path);
    }

    @Override
    public void strokeRect(double x, double y, double w, double h, Color color) {
        g.setColor(color);
        g.setStroke(new BasicStroke(1f));
        g.draw(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void fillRect(double x, double y, double w, double h, Color color) {
        g.setColor(color);
        g.fill(new Rectangle2D.Double(x, y, w, h));
    }

    @Override
    public void fillCircle(double cx, double cy, double r, Color color) {
        g.setColor(color);
        g.fill(new Ellipse2D.Double(cx - r, cy - r, 2 * r, 2 * r));
    }

    @Override
    public void text(String text, double x, double y, double size, boolean bold, Color color, Anchor anchor) {
        g.setFont(new Font(Font.SANS_SERIF, bold ? Font.BOLD : Font.PLAIN, (int) Math.round(size)));
        g.setColor(color);
        int w = g.getFontMetrics().stringWidth(text);
        double left = switch (anchor) {
            case START -> x;
            case MIDDLE -> x - w / 2.0;
            case END -> x - w;
        };
        g.drawString(text, (float) left, (float) y);
    }
}

package org.pfcswitch.cli.scenario;

import java.awt.Color;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A {@link Canvas} written as an SVG 1.1 document: every line, point and label a vector element,
 * text as text (searchable, and set in the reader's sans-serif font), so a figure scales for print.
 */
final class SvgCanvas implements Canvas {

    private final StringBuilder svg = new StringBuilder();

    SvgCanvas(int width, int height) {
        svg.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n")
                .append("<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"").append(width)
                .append("\" height=\"").append(height).append("\" viewBox=\"0 0 ").append(width).append(' ').append(height)
                .append("\" font-family=\"Helvetica, Arial, sans-serif\">\n")
                .append("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");
    }

    @Override
    public void line(double x1, double y1, double x2, double y2, Color color, double width, boolean dashed) {
        svg.append("<line x1=\"").append(n(x1)).append("\" y1=\"").append(n(y1)).append("\" x2=\"").append(n(x2))
                .append("\" y2=\"").append(n(y2)).append("\" stroke=\"").append(hex(color)).append("\" stroke-width=\"")
                .append(n(width)).append('"').append(dashed ? " stroke-dasharray=\"4 3\"" : "").append("/>\n");
    }

    @Override
    public void polyline(double[] xs, double[] ys, int n, Color color, double width) {
        if (n < 2) {
            return;
        }
        svg.append("<polyline fill=\"none\" stroke=\"").append(hex(color)).append("\" stroke-width=\"").append(n(width))
                .append("\" stroke-linejoin=\"round\" points=\"");
        for (int i = 0; i < n; i++) {
            svg.append(i == 0 ? "" : " ").append(n(xs[i])).append(',').append(n(ys[i]));
        }
        svg.append("\"/>\n");
    }

    @Override
    public void strokeRect(double x, double y, double w, double h, Color color) {
        svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"none\" stroke=\"").append(hex(color)).append("\"/>\n");
    }

    @Override
    public void fillRect(double x, double y, double w, double h, Color color) {
        svg.append("<rect x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" width=\"").append(n(w))
                .append("\" height=\"").append(n(h)).append("\" fill=\"").append(hex(color)).append("\"/>\n");
    }

    @Override
    public void fillCircle(double cx, double cy, double r, Color color) {
        svg.append("<circle cx=\"").append(n(cx)).append("\" cy=\"").append(n(cy)).append("\" r=\"").append(n(r))
                .append("\" fill=\"").append(hex(color)).append("\"/>\n");
    }

    @Override
    public void text(String text, double x, double y, double size, boolean bold, Color color, Anchor anchor) {
        svg.append("<text x=\"").append(n(x)).append("\" y=\"").append(n(y)).append("\" font-size=\"").append(n(size))
                .append('"').append(bold ? " font-weight=\"bold\"" : "")
                .append(switch (anchor) {
                    case START -> "";
                    case MIDDLE -> " text-anchor=\"middle\"";
                    case END -> " text-anchor=\"end\"";
                })
                .append(" fill=\"").append(hex(color)).append("\">").append(escape(text)).append("</text>\n");
    }

    @Override
    public void write(Path out) throws IOException {
        Files.writeString(out, svg + "</svg>\n", StandardCharsets.UTF_8);
    }

    /** A coordinate to two decimals, without trailing zeros: small files, sub-pixel precision. */
    private static String n(double v) {
        String s = String.format(Locale.ROOT, "%.2f", v);
        s = s.contains(".") ? s.replaceAll("0+$", "").replaceAll("\\.$", "") : s;
        return s.equals("-0") ? "0" : s;
    }

    private static String hex(Color c) {
        return String.format(Locale.ROOT, "#%02x%02x%02x", c.getRed(), c.getGreen(), c.getBlue());
    }

    static String escape(String text) {
        StringBuilder b = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            switch (c) {
                case '&' -> b.append("&amp;");
                case '<' -> b.append("&lt;");
                case '>' -> b.append("&gt;");
                case '"' -> b.append("&quot;");
                default -> {
                    if (c >= 0x20 || c == '\t' || c == '\n') {
                        b.append(c);
                    }
                }
            }
        }
        return b.toString();
    }
}

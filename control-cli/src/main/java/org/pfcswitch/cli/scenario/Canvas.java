package org.pfcswitch.cli.scenario;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;

/**
 * What a figure draws: lines, boxes, dots and text in pixel coordinates (origin top left), and
 * the file it is written to. {@link #create} picks the format from the file's extension, so one
 * drawing routine serves every format.
 */
interface Canvas {

    enum Anchor { START, MIDDLE, END }

    void line(double x1, double y1, double x2, double y2, Color color, double width, boolean dashed);

    /** A connected line through the first {@code n} points. */
    void polyline(double[] xs, double[] ys, int n, Color color, double width);

    void strokeRect(double x, double y, double w, double h, Color color);

    void fillRect(double x, double y, double w, double h, Color color);

    void fillCircle(double cx, double cy, double r, Color color);

    /** Text with its baseline at {@code y}, starting, centred or ending at {@code x}. */
    void text(String text, double x, double y, double size, boolean bold, Color color, Anchor anchor);

    void write(Path out) throws IOException;

    /** A white canvas of {@code width} x {@code height} pixels for {@code out}'s format. */
    static Canvas create(Path out, int width, int height) {
        return switch (FigureFormat.of(out)) {
            case PNG -> new PngCanvas(width, height);
            case SVG -> new SvgCanvas(width, height);
            case PDF -> PdfCanvas.create(width, height);
        };
    }
}

package org.pfcswitch.cli.scenario;

import java.nio.file.Path;
import java.util.Locale;

/** The formats a figure is written in, chosen by the file's extension. */
public enum FigureFormat {
    /** A raster image, 900 pixels wide: for a screen or a notebook. */
    PNG,
    /** Vector graphics: for a paper (scales without blur; converts to PDF with rsvg-convert or Inkscape). */
    SVG;

    /**
     * The format of {@code out}, from its extension.
     *
     * @throws IllegalArgumentException one line naming the file and the extensions allowed
     */
    public static FigureFormat of(Path out) {
        String name = out.getFileName() == null ? "" : out.getFileName().toString();
        int dot = name.lastIndexOf('.');
        String ext = dot < 0 ? "" : name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return switch (ext) {
            case "png" -> PNG;
            case "svg" -> SVG;
            default -> throw new IllegalArgumentException(out + ": a figure is written as .png or .svg (chosen by the"
                    + " extension), not " + (ext.isEmpty() ? "a name without one" : "." + ext));
        };
    }
}

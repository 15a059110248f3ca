package org.pfcswitch.cli.scenario;

import java.nio.file.Path;
import java.util.Locale;

/** The formats a figure is written in, chosen by the file's extension. */
public enum FigureFormat {
    /** A raster image, 900 pixels wide: for a screen or a notebook. */
    PNG,
    /** Vector graphics as SVG: for a paper or a web page (scales without blur). */
    SVG,
    /** Vector graphics as one PDF page: for a paper typeset with LaTeX. */
    PDF;

    /** The file extension, without its dot: png, svg or pdf. */
    public String extension() {
        return name().toLowerCase(Locale.ROOT);
    }

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
            case "pdf" -> PDF;
            default -> throw new IllegalArgumentException(out + ": a figure is written as .png, .svg or .pdf (chosen by"
                    + " the extension), not " + (ext.isEmpty() ? "a name without one" : "." + ext));
        };
    }
}

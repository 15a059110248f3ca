package org.pfcswitch.cli.scenario;

import java.awt.image.RenderedImage;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;
import javax.imageio.stream.ImageOutputStream;
import javax.imageio.stream.MemoryCacheImageOutputStream;

/**
 * Writes a figure as PNG. The file is opened here, not by {@code ImageIO.write(img, "png", File)},
 * whose file stream provider prints a stack trace to stderr when it cannot create the file (a
 * folder, a read-only path) before its own exception: opening it ourselves gives one plain
 * {@link IOException} naming the problem.
 */
public final class PngFile {
    private PngFile() {}

    public static void write(RenderedImage image, Path png) throws IOException {
        try (OutputStream file = Files.newOutputStream(png);
                ImageOutputStream out = new MemoryCacheImageOutputStream(file)) {
            if (!ImageIO.write(image, "png", out)) {
                throw new IOException("this Java has no PNG writer");
            }
        }
    }
}

package org.pfcswitch.cli.scenario;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import javax.imageio.ImageIO;

/** A {@link Canvas} drawn with Java2D into a headless image, written as PNG. */
final class PngCanvas extends Graphics2DCanvas {

    private final BufferedImage image;

    PngCanvas(int width, int height) {
        this(headlessImage(width, height));
    }

    private PngCanvas(BufferedImage image) {
        super(image.createGraphics(), image.getWidth(), image.getHeight());
        this.image = image;
    }

    private static BufferedImage headlessImage(int width, int height) {
        System.setProperty("java.awt.headless", "true");
        return new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
    }

    @Override
    public void write(Path out) throws IOException {
        g.dispose();
        ImageIO.write(image, "png", out.toFile());
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.pfcswitch.cli.SimGridTest.GRID;
import static org.pfcswitch.cli.SimGridTest.assertUsage;
import static org.pfcswitch.cli.SimGridTest.concat;
import static org.pfcswitch.cli.SimGridTest.sim;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code plot SUMMARY --x KEY --y METRIC}: the sweep figure, a line per scheme with error bars; one-line errors. */
class SweepPlotTest {

    @Test
    void aSummaryDrawsAMetricAgainstTheSweptKeyWithALinePerScheme(@TempDir Path dir) throws IOException {
        Path summary = dir.resolve("s.csv");
        assertEquals(0, sim(concat(GRID, "--summary", summary.toString())).exitCode());
        Path png = dir.resolve("fig.png");
        Cli c = Cli.run("plot", summary.toString(), "--x", "traffic.web.load", "--y", "fct_p99_ns", "--out", png.toString());
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.err().contains("2 lines, 4 points"), c.err());
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(900, img.getWidth());
        boolean blue = false;
        boolean red = false;
        for (int x = 0; x < img.getWidth(); x++) {
            for (int y = 0; y < img.getHeight(); y++) {
                int rgb = img.getRGB(x, y) & 0xFFFFFF;
                blue |= rgb == 0x1f77b4;
                red |= rgb == 0xd62728;
            }
        }
        assertTrue(blue && red, "a line per scheme (dt blue, spfc red)");

        Cli metric = Cli.run("plot", summary.toString(), "--x", "traffic.web.load", "--y", "fct", "--out", png.toString());
        assertEquals(1, metric.exitCode());
        assertTrue(metric.err().contains("--y fct: no such figure") && metric.err().contains("fct_p99_ns,"), metric.err());
        Cli key = Cli.run("plot", summary.toString(), "--x", "load", "--y", "fct_p99_ns", "--out", png.toString());
        assertEquals(1, key.exitCode());
        assertTrue(key.err().contains("--x load: not a swept key") && key.err().contains("traffic.web.load"), key.err());
        assertUsage(Cli.run("plot", summary.toString(), "--x", "traffic.web.load", "--out", png.toString()),
                "a sweep figure needs both --x KEY and --y METRIC");
    }
}

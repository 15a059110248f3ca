package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.pfcswitch.cli.scenario.LinePlot;

/** {@code pfcswitch plot} on a sim trace: PNGs ImageIO reads back, one panel per queue, and one-line errors. */
class PlotCommandTest {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    static Path dir;
    static Path trace;

    /** 1.5 ms of the SPFC case under dt, bursts from 1 ms: H0 is paused and resumed. */
    @BeforeAll
    static void traceASim() {
        trace = dir.resolve("dt.csv");
        Cli c = Cli.run("sim", "-c", Path.of("..", "testbed-configs", "scenarios", "spfc-victim.yaml").toString(),
                "--scheme", "dt", "--set", "duration=1500us", "--set", "measure.to=1500us",
                "--set", "traffic.bursts.repeatUntil=1500us", "--trace", trace.toString(), "--trace-every", "2us");
        assertEquals(0, c.exitCode(), c.err());
    }

    @Test
    void onePortsQueueIsAPngImageIoReads() throws IOException {
        Path png = dir.resolve("figs").resolve("h0.png");
        Cli c = Cli.run("plot", trace.toString(), "--out", png.toString(), "--port", "H0");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(c.err().contains("wrote " + png + " (1 queue, "), c.err());
        byte[] bytes = Files.readAllBytes(png);
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, 8));
        BufferedImage img = ImageIO.read(png.toFile());
        assertEquals(LinePlot.WIDTH, img.getWidth());
        int onePanel = img.getHeight();

        Path byNumber = dir.resolve("h0-by-number.png");
        Cli same = Cli.run("plot", trace.toString(), "--out", byNumber.toString(), "--port", "0", "--priority", "3");
        assertEquals(0, same.exitCode(), same.err());
        assertArrayEquals(bytes, Files.readAllBytes(byNumber), "a port by name or by number: the same figure");

        Path all = dir.resolve("all.png");
        Cli every = Cli.run("plot", trace.toString(), "--out", all.toString());
        assertEquals(0, every.exitCode(), every.err());
        BufferedImage big = ImageIO.read(all.toFile());
        assertEquals(LinePlot.WIDTH, big.getWidth());
        assertTrue(big.getHeight() > 2 * onePanel, "a panel per queue that held bytes: " + big.getHeight());
        assertTrue(every.err().contains("left out "), "the receivers' ingress queues stay empty: " + every.err());
    }

    /** --out's extension picks the format; --from/--to draw a part of the trace, in the unit its span suits. */
    @Test
    void svgByExtensionAndATimeWindow() throws Exception {
        Path svg = dir.resolve("h0.svg");
        Cli c = Cli.run("plot", trace.toString(), "--out", svg.toString(), "--port", "H0");
        assertEquals(0, c.exitCode(), c.err());
        org.w3c.dom.Document whole = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        String wholeText = whole.getDocumentElement().getTextContent();
        assertTrue(wholeText.contains("time (ms)") && wholeText.contains("ingress bytes") && wholeText.contains("XOFF threshold"), wholeText);
        int wholePoints = points(whole);

        Path part = dir.resolve("h0-part.svg");
        Cli w = Cli.run("plot", trace.toString(), "--out", part.toString(), "--port", "H0", "--from", "1ms", "--to", "1.2ms");
        assertEquals(0, w.exitCode(), w.err());
        org.w3c.dom.Document window = javax.xml.parsers.DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(part.toFile());
        String text = window.getDocumentElement().getTextContent();
        assertTrue(text.contains("time (µs)"), "a 200 us window reads in us: " + text);
        assertTrue(text.contains("1000") && text.contains("1200"), "its ends are round ticks: " + text);
        int windowPoints = points(window);
        assertTrue(windowPoints > 0 && windowPoints < wholePoints, "fewer samples in the window: " + windowPoints + " of " + wholePoints);
    }

    private static int points(org.w3c.dom.Document svg) {
        org.w3c.dom.NodeList lines = svg.getElementsByTagName("polyline");
        int n = 0;
        for (int i = 0; i < lines.getLength(); i++) {
            n += ((org.w3c.dom.Element) lines.item(i)).getAttribute("points").split(" ").length;
        }
        return n;
    }

    @Test
    void errorsAreOneLine(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("x.png");
        assertError(Cli.run("plot", tmp.resolve("missing.csv").toString(), "--out", out.toString()),
                "pfcswitch plot: error: no such file: " + tmp.resolve("missing.csv"));

        Path json = tmp.resolve("report.json");
        Files.writeString(json, "{\"schemes\": {}}\n");
        assertError(Cli.run("plot", json.toString(), "--out", out.toString()),
                "pfcswitch plot: error: " + json + ": not a pfcswitch trace (its first line does not start with '# pfcswitch-trace')");

        assertError(Cli.run("plot", trace.toString(), "--out", out.toString(), "--port", "H99"),
                "pfcswitch plot: error: no port 'H99' in " + trace + "; its ports: H0, H1, H2,");
        assertError(Cli.run("plot", trace.toString(), "--out", out.toString(), "--port", "32"),
                "pfcswitch plot: error: no port '32' in " + trace);
        assertError(Cli.run("plot", trace.toString(), "--out", out.toString(), "--priority", "2"),
                "pfcswitch plot: error: " + trace + " has no queue rows of priority 2; it traces priorities [3] on 32 ports");
        assertError(Cli.run("plot", trace.toString(), "--out", tmp.resolve("x.jpg").toString()),
                "pfcswitch plot: error: " + tmp.resolve("x.jpg") + ": a figure is written as .png, .svg or .pdf (chosen by the extension), not .jpg");
        assertError(Cli.run("plot", trace.toString(), "--out", out.toString(), "--from", "5ms", "--to", "6ms"),
                "pfcswitch plot: error: " + trace + " has no sample from 5ms to 6ms; its samples run from ");
        assertTrue(Files.notExists(out), "no figure from a failed plot");
        assertTrue(Files.notExists(tmp.resolve("x.jpg")));
        Cli badFrom = Cli.run("plot", trace.toString(), "--out", out.toString(), "--from", "soon");
        assertEquals(2, badFrom.exitCode());
        assertTrue(badFrom.err().startsWith("--from: expected a time like"), badFrom.err());

        Cli noOut = Cli.run("plot", trace.toString());
        assertEquals(2, noOut.exitCode());
        assertTrue(noOut.err().startsWith("Missing required option: '--out=FIG.png|FIG.svg|FIG.pdf'"), noOut.err());
        Cli badPriority = Cli.run("plot", trace.toString(), "--out", out.toString(), "--priority", "9");
        assertEquals(2, badPriority.exitCode());
        assertTrue(badPriority.err().startsWith("--priority: expected 0-7, got 9"), badPriority.err());
    }

    private static void assertError(Cli c, String start) {
        assertEquals(1, c.exitCode(), c.err());
        assertTrue(c.err().startsWith(start), c.err());
        assertEquals(1, c.err().strip().lines().count(), "one line: " + c.err());
    }
}

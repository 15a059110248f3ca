package org.pfcswitch.cli.scenario;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import javax.imageio.ImageIO;
import javax.xml.parsers.DocumentBuilderFactory;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Round ticks, the time unit, windows, and the same figure as PNG and as well-formed SVG. */
class FiguresTest {

    @TempDir
    Path dir;

    @Test
    void ticksAreOneTwoOrFiveTimesAPowerOfTen() {
        assertEquals(0.2, Ticks.step(1.5, 8), 1e-12);        // 1.5 ms: 0, 0.2, ..., 1.4
        assertEquals(100, Ticks.step(501.407, 8), 1e-9);     // the "501407 us" trace, in ms: 0, 100, ..., 500
        assertEquals(1, Ticks.step(8, 8), 1e-12);
        assertEquals(2, Ticks.step(8.01, 8), 1e-12);
        assertEquals(5, Ticks.step(30, 8), 1e-12);
        assertEquals(0.05, Ticks.step(0.3, 8), 1e-12);
        for (double span = 0.001; span < 1e7; span *= 1.37) {
            double step = Ticks.step(span, 8);
            double mantissa = step / Math.pow(10, Math.floor(Math.log10(step) + 1e-9));
            assertTrue(Math.abs(mantissa - 1) < 1e-9 || Math.abs(mantissa - 2) < 1e-9 || Math.abs(mantissa - 5) < 1e-9,
                    span + " -> " + step);
            assertTrue(span / step <= 8 + 1e-9 && span / step > 8 / 5.0 - 1e-9, span + " -> " + step + ": 2 to 8 intervals");
        }
        assertArrayEquals(new double[] {0, 0.2, 0.4, 0.6, 0.8, 1.0, 1.2, 1.4}, Ticks.at(0, 1.5, 0.2), 1e-9);
        assertArrayEquals(new double[] {1.0, 1.1, 1.2}, Ticks.at(0.95, 1.2, 0.1), 1e-9);
        assertEquals(250, Ticks.top(230, 5), 1e-9);
        assertEquals(1, Ticks.top(0, 5), 1e-9);
        assertEquals("1.4", Ticks.label(1.4000000000000001, 0.2));
        assertEquals("500", Ticks.label(500, 100));
        assertEquals("0.05", Ticks.label(0.05, 0.05));
        assertEquals("0.0", Ticks.label(-1e-17, 0.2), "no minus zero");
    }

    @Test
    void theTimeUnitFollowsTheSpan() {
        assertEquals("ns", Ticks.timeUnit(800).name());
        assertEquals("µs", Ticks.timeUnit(999_999).name());
        assertEquals("ms", Ticks.timeUnit(1_500_000).name());
        assertEquals("ms", Ticks.timeUnit(501_407_000).name());
        assertEquals("s", Ticks.timeUnit(2e9).name());
    }

    @Test
    void aWindowKeepsTheSamplesInsideIt() {
        double[] t = {0, 10, 20, 30, 40, 50};
        assertArrayEquals(new int[] {1, 4}, LinePlot.indexRange(t, 10, 30));
        assertArrayEquals(new int[] {2, 4}, LinePlot.indexRange(t, 15, 35));
        assertArrayEquals(new int[] {0, 6}, LinePlot.indexRange(t, -5, 1e9));
        assertArrayEquals(new int[] {6, 6}, LinePlot.indexRange(t, 60, 70), "after the last sample: none");
    }

    @Test
    void theFormatFollowsTheExtensionAndAnOtherIsRefusedInOneLine() {
        assertEquals(FigureFormat.PNG, FigureFormat.of(Path.of("a/b.png")));
        assertEquals(FigureFormat.SVG, FigureFormat.of(Path.of("fig.SVG")));
        assertEquals(FigureFormat.PDF, FigureFormat.of(Path.of("fig.pdf")));
        IllegalArgumentException jpg = assertThrows(IllegalArgumentException.class, () -> FigureFormat.of(Path.of("fig.jpg")));
        assertEquals("fig.jpg: a figure is written as .png, .svg or .pdf (chosen by the extension), not .jpg", jpg.getMessage());
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> FigureFormat.of(Path.of("fig")));
        assertTrue(none.getMessage().endsWith("not a name without one"), none.getMessage());
    }

    /**
     * 3 ms of a sine-ish queue with marks: the SVG parses as XML and holds the series, labels and
     * round ticks; the PNG reads back; the PDF is one page whose text a PDF reader extracts.
     */
    @Test
    void theSameFigureAsPngAndAsWellFormedSvg() throws Exception {
        int n = 3000;
        long[] times = new long[n];
        double[] queue = new double[n];
        double[] threshold = new double[n];
        for (int i = 0; i < n; i++) {
            times[i] = 1_000_000L + i * 1000L;           // every 1 us from an origin of 1 ms
            queue[i] = 50 + 40 * Math.sin(i / 200.0);
            threshold[i] = 80;
        }
        LinePlot plot = new LinePlot("a <test> & figure", times, 1_000_000L)
                .panel("ingress queue (KB)", List.of(new LinePlot.Line("ingress bytes", queue), new LinePlot.Line("XOFF threshold", threshold)),
                        List.of(new LinePlot.Marks("XOFF sent", new long[] {1_500_000, 2_000_000}, new Color(0x9467bd), false),
                                new LinePlot.Marks("XON sent", new long[] {1_700_000}, new Color(0x2ca02c), true)));
        Path svg = dir.resolve("f.svg");
        plot.write(svg);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        Element root = doc.getDocumentElement();
        assertEquals("svg", root.getTagName());
        assertEquals("http://www.w3.org/2000/svg", root.getAttribute("xmlns"));
        List<String> texts = texts(doc);
        assertTrue(texts.contains("a <test> & figure"), "the title, escaped and read back: " + texts);
        assertTrue(texts.containsAll(List.of("ingress bytes", "XOFF threshold", "time (ms)")), texts.toString());
        assertTrue(texts.containsAll(List.of("0.0", "0.5", "1.0", "1.5", "2.0", "2.5")), "round ticks in ms: " + texts);
        assertTrue(texts.stream().anyMatch(s -> s.startsWith("XOFF sent (2)")), texts.toString());
        NodeList lines = doc.getElementsByTagName("polyline");
        assertEquals(2, lines.getLength(), "one polyline per series");
        int points = ((Element) lines.item(0)).getAttribute("points").split(" ").length;
        assertTrue(points > 100 && points <= 4 * (LinePlot.WIDTH + 3), "thinned to the pixel columns: " + points);

        Path window = dir.resolve("w.svg");
        new LinePlot("w", times, 1_000_000L).window(1_000_000, 1_100_000)
                .panel("q", List.of(new LinePlot.Line("ingress bytes", queue))).write(window);
        Document w = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(window.toFile());
        assertEquals(101, ((Element) w.getElementsByTagName("polyline").item(0)).getAttribute("points").split(" ").length,
                "1.000 to 1.100 ms at 1 us: 101 samples, no thinning needed");
        assertTrue(texts(w).contains("time (µs)"), "a 100 us window reads in us: " + texts(w));

        Path png = dir.resolve("f.png");
        plot.write(png);
        assertEquals(LinePlot.WIDTH, ImageIO.read(png.toFile()).getWidth());
        Path pdf = dir.resolve("f.pdf");
        plot.write(pdf);
        assertEquals("%PDF-", new String(Files.readAllBytes(pdf), 0, 5, java.nio.charset.StandardCharsets.ISO_8859_1));
        com.lowagie.text.pdf.PdfReader reader = new com.lowagie.text.pdf.PdfReader(pdf.toString());
        assertEquals(1, reader.getNumberOfPages());
        assertEquals(LinePlot.WIDTH, reader.getPageSize(1).getWidth(), 0.5, "one point per pixel");
        String pdfText = new com.lowagie.text.pdf.parser.PdfTextExtractor(reader).getTextFromPage(1);
        assertTrue(pdfText.contains("time (ms)") && pdfText.contains("XOFF threshold"), "text as text: " + pdfText);
        reader.close();
        assertThrows(IllegalArgumentException.class, () -> plot.write(dir.resolve("f.eps")));
        assertTrue(Files.notExists(dir.resolve("f.eps")));
    }

    @Test
    void theSweepFigureIsSvgToo() throws IOException, Exception {
        ErrorBarPlot plot = new ErrorBarPlot("fct", "load", "fct_p99 (mean)")
                .series(new ErrorBarPlot.Series("dt", List.of(new ErrorBarPlot.Point("0.3", 12, 1), new ErrorBarPlot.Point("0.5", 37, 2))))
                .series(new ErrorBarPlot.Series("spfc", List.of(new ErrorBarPlot.Point("0.3", 10, 1), new ErrorBarPlot.Point("0.5", 21, 3))));
        Path svg = dir.resolve("s.svg");
        plot.write(svg);
        Document doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(svg.toFile());
        List<String> texts = texts(doc);
        assertTrue(texts.containsAll(List.of("dt", "spfc", "0.3", "0.5", "load", "40")), "series, x values, y top 40: " + texts);
        assertEquals(4, doc.getElementsByTagName("circle").getLength(), "a marker per point");
    }

    private static List<String> texts(Document doc) {
        NodeList nodes = doc.getElementsByTagName("text");
        List<String> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            out.add(nodes.item(i).getTextContent());
        }
        return out;
    }
}

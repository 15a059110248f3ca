package org.pfcswitch.cli.scenario;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import com.lowagie.text.Document;
import com.lowagie.text.Rectangle;
import com.lowagie.text.pdf.PdfGraphics2D;
import com.lowagie.text.pdf.PdfWriter;

/**
 * A {@link Canvas} drawn with Java2D onto one PDF page (OpenPDF's {@link PdfGraphics2D}): lines as
 * vector paths and text as text in Helvetica, the page the figure's size in points, ready for
 * LaTeX's includegraphics.
 */
final class PdfCanvas extends Graphics2DCanvas {

    private final Document document;
    private final ByteArrayOutputStream bytes;

    private PdfCanvas(Document document, ByteArrayOutputStream bytes, PdfGraphics2D graphics, int width, int height) {
        super(graphics, width, height);
        this.document = document;
        this.bytes = bytes;
    }

    static PdfCanvas create(int width, int height) {
        System.setProperty("java.awt.headless", "true");
        Document document = new Document(new Rectangle(width, height), 0, 0, 0, 0);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        PdfWriter writer = PdfWriter.getInstance(document, bytes);
        document.addCreator("pfcswitch");
        document.open();
        return new PdfCanvas(document, bytes, new PdfGraphics2D(writer.getDirectContent(), width, height), width, height);
    }

    @Override
    public void write(Path out) throws IOException {
        g.dispose();
        document.close();
        Files.write(out, bytes.toByteArray());
    }
}

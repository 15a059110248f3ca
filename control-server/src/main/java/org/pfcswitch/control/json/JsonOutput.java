package org.pfcswitch.control.json;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.Locale;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.StreamWriteFeature;

/**
 * The one JSON writer of the CLI: every {@code --json} output goes through it. A thin layer over
 * jackson-core's streaming {@link JsonGenerator} that builds one compact document (no spaces, keys
 * in the order written) in memory. Integers are written as JSON numbers; a double is written with
 * a fixed number of decimals ({@link Locale#ROOT}), so the same results give the same bytes, and
 * as {@code null} when it is NaN or infinite.
 *
 * <pre>{@code
 * JsonOutput j = new JsonOutput().beginObject().field("scheme", "dt").beginArray("pools");
 * ...
 * String text = j.endArray().endObject().toString();
 * }</pre>
 */
public final class JsonOutput {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .build();

    private final StringWriter text = new StringWriter(256);
    private final JsonGenerator g;

    public JsonOutput() {
        g = io(() -> FACTORY.createGenerator(text));
    }

    // ------------------------------------------------------------------ structure

    public JsonOutput beginObject() {
        return run(g::writeStartObject);
    }

    /** Starts an object as the value of field {@code name}. */
    public JsonOutput beginObject(String name) {
        return name(name).beginObject();
    }

    public JsonOutput endObject() {
        return run(g::writeEndObject);
    }

    public JsonOutput beginArray() {
        return run(g::writeStartArray);
    }

    /** Starts an array as the value of field {@code name}. */
    public JsonOutput beginArray(String name) {
        return name(name).beginArray();
    }

    public JsonOutput endArray() {
        return run(g::writeEndArray);
    }

    /** Writes a field name; the next value written is its value (for values a helper of another class writes). */
    public JsonOutput name(String name) {
        return run(() -> g.writeFieldName(name));
    }

    // ------------------------------------------------------------------ fields

    /** A string field; {@code null} is written as JSON null. */
    public JsonOutput field(String name, String value) {
        return name(name).value(value);
    }

    public JsonOutput field(String name, long value) {
        return name(name).value(value);
    }

    public JsonOutput field(String name, boolean value) {
        return run(() -> g.writeBooleanField(name, value));
    }

    public JsonOutput field(String name, int[] values) {
        name(name).beginArray();
        for (int v : values) {
            value(v);
        }
        return endArray();
    }

    /** A decimal with {@code decimals} places; NaN or infinite is null. */
    public JsonOutput field(String name, double value, int decimals) {
        return name(name).value(value, decimals);
    }

    /** An array of decimals with {@code decimals} places each; NaN or infinite ones are null. */
    public JsonOutput field(String name, double[] values, int decimals) {
        name(name).beginArray();
        for (double v : values) {
            value(v, decimals);
        }
        return endArray();
    }

    public JsonOutput nullField(String name) {
        return run(() -> g.writeNullField(name));
    }

    // ------------------------------------------------------------------ values (in arrays, or after name())

    public JsonOutput value(String value) {
        return run(() -> {
            if (value == null) {
                g.writeNull();
            } else {
                g.writeString(value);
            }
        });
    }

    public JsonOutput value(long value) {
        return run(() -> g.writeNumber(value));
    }

    /** A decimal with {@code decimals} places; NaN or infinite is null. */
    public JsonOutput value(double value, int decimals) {
        return run(() -> {
            if (Double.isFinite(value)) {
                g.writeNumber(String.format(Locale.ROOT, "%." + decimals + "f", value));
            } else {
                g.writeNull();
            }
        });
    }

    /** A number given as its text, written as it is (e.g. a table cell formatted elsewhere). */
    public JsonOutput rawNumber(String text) {
        return run(() -> g.writeNumber(text));
    }

    // ------------------------------------------------------------------ result

    /** The document written so far. */
    @Override
    public String toString() {
        run(g::flush);
        return text.toString();
    }

    /** Prints the document and a line break. */
    public void println(PrintWriter out) {
        out.println(this);
    }

    // ------------------------------------------------------------------ plumbing

    private interface Write {
        void run() throws IOException;
    }

    private interface Create<T> {
        T get() throws IOException;
    }

    /** The generator writes into a StringWriter, which never fails; an IOException here is a bug. */
    private JsonOutput run(Write w) {
        try {
            w.run();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return this;
    }

    private static <T> T io(Create<T> c) {
        try {
            return c.get();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

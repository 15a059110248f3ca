package org.pfcswitch.config;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * The text of a hand-written input file (a config, a flow-size CDF): at most {@link #MAX_BYTES},
 * not empty, strict UTF-8. Every refusal is a one-line {@link ConfigException} naming the file,
 * and for a byte that is not UTF-8 its offset.
 */
public final class ConfigText {
    /** Largest file read, in bytes. */
    public static final int MAX_BYTES = 4 << 20;

    private ConfigText() {}

    /** The file's text. */
    public static String read(Path file) {
        byte[] bytes;
        try {
            if (Files.isDirectory(file)) {
                throw new ConfigException(file + ": is a directory, not a file");
            }
            long size = Files.size(file);
            if (size > MAX_BYTES) {
                throw new ConfigException(file + ": " + size + " bytes is too large for an input file (at most "
                        + MAX_BYTES + ")");
            }
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new ConfigException(file + ": no such file");
        } catch (IOException e) {
            throw new ConfigException(file + ": cannot read: " + e.getMessage());
        }
        if (bytes.length > MAX_BYTES) {     // a file that grew, or a device that reports no size
            throw new ConfigException(file + ": too large for an input file (at most " + MAX_BYTES + " bytes)");
        }
        if (bytes.length == 0) {
            throw new ConfigException(file + ": the file is empty");
        }
        return utf8(file.toString(), bytes);
    }

    /** Decodes {@code bytes} as UTF-8, naming the offset of the first byte that is not. */
    static String utf8(String name, byte[] bytes) {
        CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        ByteBuffer in = ByteBuffer.wrap(bytes);
        CharBuffer out = CharBuffer.allocate(bytes.length);
        CoderResult result = decoder.decode(in, out, true);
        if (result.isError()) {
            throw new ConfigException(name + ": not UTF-8 text: byte " + in.position() + " (0x"
                    + String.format("%02x", bytes[in.position()] & 0xFF) + ") starts no UTF-8 character;"
                    + " save the file as UTF-8");
        }
        decoder.flush(out);
        return out.flip().toString();
    }
}

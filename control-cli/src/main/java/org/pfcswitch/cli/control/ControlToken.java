package org.pfcswitch.cli.control;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * The bearer token that every mutation of the control API must carry. The switch makes a fresh one
 * at start-up and writes it to a file that only its owner can read (mode 0600 in a 0700 folder);
 * {@code pfcswitch set} reads it from there. Whoever can read the file may change the switch;
 * reads of the API need no token (they are served on loopback unless told otherwise).
 */
public final class ControlToken {

    private final byte[] token;
    private final Path file;

    private ControlToken(byte[] token, Path file) {
        this.token = token;
        this.file = file;
    }

    /** Where the switch listening on {@code port} writes its token by default: {@code ~/.pfcswitch/control-PORT.token}. */
    public static Path defaultFile(int port) {
        return Path.of(System.getProperty("user.home"), ".pfcswitch", "control-" + port + ".token");
    }

    /** Makes a token of 32 random bytes and writes it (hex) to {@code file}, replacing an old one, readable by the owner only. */
    public static ControlToken create(Path file) throws IOException {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        byte[] hex = HexFormat.of().formatHex(raw).getBytes(StandardCharsets.US_ASCII);
        Path dir = file.toAbsolutePath().getParent();
        if (!Files.isDirectory(dir)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        }
        Path tmp = dir.resolve("." + file.getFileName() + "." + ProcessHandle.current().pid());
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("cannot create " + tmp + ": it exists", e);
        }
        Files.write(tmp, hex);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        return new ControlToken(hex, file);
    }

    /** Reads the token a switch wrote (for the client). */
    public static String read(Path file) throws IOException {
        return Files.readString(file, StandardCharsets.US_ASCII).trim();
    }

    public Path file() {
        return file;
    }

    /** Whether {@code header} is {@code "Bearer <token>"}; compares in constant time. */
    public boolean accepts(String header) {
        if (header == null || !header.startsWith("Bearer ")) {
            return false;
        }
        byte[] given = header.substring("Bearer ".length()).trim().getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(given, token);
    }

    /** Removes the file (at shutdown): a stale token must not outlive its switch. */
    public void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // best effort: the next switch on this port overwrites it
        }
    }
}

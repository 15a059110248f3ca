package org.pfcswitch.control;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.pfcswitch.dpdk.ProcessLeftovers;

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

    /**
     * Makes a token of 32 random bytes and writes it (hex) to {@code file}, replacing an old one,
     * readable by the owner only, with this process's pid beside it ({@code FILE.pid}) so that the
     * next switch can tell a killed switch's token from a live one's. Before writing, it checks the
     * folder (see {@link #secureFolder}) and removes the tokens of switches that are gone.
     *
     * @throws IOException the folder is not safe for a secret, or the file cannot be written
     */
    public static ControlToken create(Path file, Consumer<String> log) throws IOException {
        byte[] raw = new byte[32];
        new SecureRandom().nextBytes(raw);
        byte[] hex = HexFormat.of().formatHex(raw).getBytes(StandardCharsets.US_ASCII);
        Path dir = file.toAbsolutePath().getParent();
        secureFolder(dir, log);
        Path target = dir.resolve(file.getFileName());
        removeOrphans(dir, target, log);
        writeOwnerOnly(pidFile(target), Long.toString(ProcessHandle.current().pid()).getBytes(StandardCharsets.US_ASCII));
        writeOwnerOnly(target, hex);
        return new ControlToken(hex, target);
    }

    /** Writes through an owner-only temporary file and an atomic rename, so a reader never sees half a file. */
    private static void writeOwnerOnly(Path file, byte[] content) throws IOException {
        Path tmp = file.resolveSibling("." + file.getFileName() + "." + ProcessHandle.current().pid());
        Files.deleteIfExists(tmp);
        try {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            throw new IOException("cannot create " + tmp + ": it exists", e);
        }
        Files.write(tmp, content);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static Path pidFile(Path token) {
        return token.resolveSibling(token.getFileName() + ".pid");
    }

    /**
     * Makes {@code dir} fit to hold a secret: created owner-only if missing; refused if another user
     * owns it; if others may write in it (they could replace the token or plant a link), made
     * owner-only again with a logged line when it is the default folder, refused otherwise (a
     * folder the user chose is not ours to change).
     */
    static void secureFolder(Path dir, Consumer<String> log) throws IOException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            return;
        }
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException("token folder " + dir + " is not a folder (or is a symbolic link): remove it or give"
                    + " --token-file in a folder of yours");
        }
        String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        String me = System.getProperty("user.name");
        if (!owner.equals(me)) {
            throw new IOException("token folder " + dir + " belongs to " + owner + ", not to " + me
                    + ": its owner could read or replace the token; remove it or give --token-file in a folder of yours");
        }
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (perms.contains(PosixFilePermission.GROUP_WRITE) || perms.contains(PosixFilePermission.OTHERS_WRITE)) {
            String was = PosixFilePermissions.toString(perms);
            if (!dir.equals(defaultFile(0).getParent().toAbsolutePath())) {
                throw new IOException("token folder " + dir + " is writable by others (" + was + "): they could replace"
                        + " the token; chmod 700 it or give --token-file in a folder only you can write");
            }
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
            log.accept("WARNING: token folder " + dir + " was writable by others (" + was + "): made rwx------");
        }
    }

    /**
     * Removes the tokens (and half-written temporary files) that switches killed before their
     * shutdown left in {@code dir}: those named as switches name them by default, and {@code target}'s.
     * Other files, whatever their names, are not ours.
     */
    private static void removeOrphans(Path dir, Path target, Consumer<String> log) throws IOException {
        String mine = target.getFileName().toString();
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                String name = f.getFileName().toString();
                Matcher temp = TEMPORARY.matcher(name);
                String tempOf = temp.matches() ? temp.group(1).replaceFirst("\\.pid$", "") : null;
                if (tempOf != null && (isDefaultName(tempOf) || tempOf.equals(mine))) {
                    ProcessLeftovers.deleteIfOrphaned(Long.parseLong(temp.group(2)), f);
                } else if (name.endsWith(".pid")) {
                    String tokenName = name.substring(0, name.length() - ".pid".length());
                    if (isDefaultName(tokenName) || tokenName.equals(mine)) {
                        removeIfOrphaned(f, f.resolveSibling(tokenName), log);
                    }
                }
            }
        }
    }

    private static void removeIfOrphaned(Path pidFile, Path token, Consumer<String> log) {
        long pid;
        try {
            pid = Long.parseLong(Files.readString(pidFile, StandardCharsets.US_ASCII).trim());
        } catch (IOException | NumberFormatException e) {
            return;                                  // unreadable or not a pid: leave it
        }
        if (ProcessLeftovers.deleteIfOrphaned(pid, pidFile)) {
            try {
                Files.deleteIfExists(token);
                log.accept("removed " + token + ": its switch (pid " + pid + ") is gone");
            } catch (IOException e) {
                log.accept("cannot remove " + token + " of a gone switch (pid " + pid + "): " + e.getMessage());
            }
        }
    }

    private static boolean isDefaultName(String name) {
        return DEFAULT_NAME.matcher(name).matches();
    }

    private static final Pattern DEFAULT_NAME = Pattern.compile("control-\\d{1,5}\\.token");
    /** {@link #writeOwnerOnly}'s temporary files: {@code .NAME.PID}. */
    private static final Pattern TEMPORARY = Pattern.compile("\\.(.+)\\.(\\d{1,10})");

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

    /** Removes the file and its pid (at shutdown): a stale token must not outlive its switch. */
    public void delete() {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(pidFile(file));
        } catch (IOException ignored) {
            // best effort: the next switch removes what a gone switch left
        }
    }
}

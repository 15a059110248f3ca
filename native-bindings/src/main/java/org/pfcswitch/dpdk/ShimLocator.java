package org.pfcswitch.dpdk;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.CodeSource;

/**
 * Finds the shim library, {@value #FILE_NAME}, which the Maven build compiles into
 * {@code target/native/} and also copies into the classes (so the jar carries it). In order:
 * <ol>
 *   <li>the system property {@value #PROPERTY}, if set (it must then name a readable file);</li>
 *   <li>{@code native/}{@value #FILE_NAME} beside the directory or jar these classes were loaded
 *       from ({@code target/classes} → {@code target/native});</li>
 *   <li>the class-path resource {@value #RESOURCE} next to this class: used in place when it is a
 *       file, extracted to a temporary file when it is inside a jar.</li>
 * </ol>
 */
final class ShimLocator {

    static final String PROPERTY = "pfcswitch.dpdk.shim";
    static final String FILE_NAME = "libpfcswitch_dpdk.so";
    static final String RESOURCE = "native/" + FILE_NAME;

    private ShimLocator() {}

    static Path locate() {
        String configured = System.getProperty(PROPERTY);
        if (configured != null) {
            Path path = Path.of(configured);
            if (!Files.isReadable(path)) {
                throw new IllegalStateException("-D" + PROPERTY + "=" + configured + " is not a readable file");
            }
            return path;
        }
        Path beside = besideCodeSource();
        if (beside != null && Files.isReadable(beside)) {
            return beside;
        }
        URL resource = ShimLocator.class.getResource(RESOURCE);
        if (resource == null) {
            throw new IllegalStateException("The DPDK shim " + FILE_NAME + " was not found (looked at "
                    + beside + " and the class-path resource " + RESOURCE + "). Build the native-bindings module"
                    + " (mvn -f native-bindings/pom.xml compile) or set -D" + PROPERTY + "=/path/to/" + FILE_NAME);
        }
        if ("file".equals(resource.getProtocol())) {
            try {
                return Path.of(resource.toURI());
            } catch (URISyntaxException e) {
                throw new IllegalStateException("Unusable resource URL " + resource, e);
            }
        }
        return extract(resource);
    }

    /** {@code <dir of the classes dir or jar>/native/libpfcswitch_dpdk.so}, or null if unknown. */
    private static Path besideCodeSource() {
        CodeSource source = ShimLocator.class.getProtectionDomain().getCodeSource();
        if (source == null || source.getLocation() == null) {
            return null;
        }
        try {
            Path classesOrJar = Path.of(source.getLocation().toURI());
            Path parent = classesOrJar.toAbsolutePath().getParent();
            return parent == null ? null : parent.resolve("native").resolve(FILE_NAME);
        } catch (URISyntaxException | IllegalArgumentException | java.nio.file.FileSystemNotFoundException e) {
            return null; // not a local file (e.g. a custom class loader): fall through to the resource
        }
    }

    /**
     * dlopen needs a real file, so a library inside a jar is copied out, to be deleted at exit. Its
     * name carries this process's pid, so that the copies of killed processes (which never reach
     * their exit hooks) are removed by the next extraction.
     */
    static Path extract(URL resource) {
        Path dir = Path.of(System.getProperty("java.io.tmpdir"));
        removeOrphanedCopies(dir);
        try (InputStream in = resource.openStream()) {
            Path file = Files.createTempFile(dir, EXTRACTED_PREFIX + ProcessHandle.current().pid() + "-", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not extract " + resource + " to a temporary file", e);
        }
    }

    static final String EXTRACTED_PREFIX = "pfcswitch_dpdk-";
    private static final java.util.regex.Pattern EXTRACTED = java.util.regex.Pattern.compile(
            java.util.regex.Pattern.quote(EXTRACTED_PREFIX) + "(\\d{1,10})-\\d+\\.so");

    /**
     * Deletes the extracted copies in {@code dir} whose process is gone. Names without a pid are
     * left alone: nothing tells whose they are.
     *
     * @return how many were deleted
     */
    static int removeOrphanedCopies(Path dir) {
        int removed = 0;
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (Path f : (Iterable<Path>) files::iterator) {
                java.util.regex.Matcher m = EXTRACTED.matcher(f.getFileName().toString());
                if (m.matches() && ProcessLeftovers.deleteIfOrphaned(Long.parseLong(m.group(1)), f)) {
                    removed++;
                }
            }
        } catch (IOException | RuntimeException e) {
            // an unreadable temp folder: extraction itself reports what matters
        }
        return removed;
    }
}

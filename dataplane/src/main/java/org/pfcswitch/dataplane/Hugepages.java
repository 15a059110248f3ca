package org.pfcswitch.dataplane;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** What {@code /proc/meminfo} says about the default-size hugepages, and reserving them. */
public final class Hugepages {

    private static final Path MEMINFO = Path.of("/proc/meminfo");
    private static final Path NR = Path.of("/proc/sys/vm/nr_hugepages");

    private Hugepages() {}

    /** Free hugepage memory in MiB (0 when none or unknown). */
    public static long freeMb() {
        return field("HugePages_Free:") * field("Hugepagesize:") / 1024;
    }

    /** The default hugepage size in KiB (2048 on x86-64). */
    public static long pageKb() {
        long kb = field("Hugepagesize:");
        return kb > 0 ? kb : 2048;
    }

    /** {@code /proc/sys/vm/nr_hugepages}, or -1 if unreadable. */
    public static long reserved() {
        try {
            return Long.parseLong(Files.readString(NR).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    /** Writes {@code /proc/sys/vm/nr_hugepages} (root only); false if that failed. */
    public static boolean reserve(long pages) {
        try {
            Files.writeString(NR, Long.toString(pages));
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }

    private static long field(String name) {
        try {
            for (String line : Files.readAllLines(MEMINFO)) {
                if (line.startsWith(name)) {
                    return Long.parseLong(line.substring(name.length()).trim().split("\\s+")[0]);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux: no hugepages
        }
        return 0;
    }
}

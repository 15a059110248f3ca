package org.pfcswitch.dpdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shim copies that killed processes leave in the temporary folder are removed by the next
 * extraction; a live process's copy, or one whose owner cannot be told, is kept.
 */
class ShimLeftoversTest {

    @TempDir
    Path tmp;

    /** A pid that was a process a moment ago and is gone now. */
    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return p.pid();
    }

    @Test
    void copiesOfGoneProcessesAreRemovedAndLiveOnesKept() throws Exception {
        Process live = new ProcessBuilder("sleep", "30").start();
        try {
            Path dead = Files.createFile(tmp.resolve(ShimLocator.EXTRACTED_PREFIX + deadPid() + "-123.so"));
            Path alive = Files.createFile(tmp.resolve(ShimLocator.EXTRACTED_PREFIX + live.pid() + "-456.so"));
            Path mine = Files.createFile(tmp.resolve(ShimLocator.EXTRACTED_PREFIX + ProcessHandle.current().pid() + "-7.so"));
            Path unknown = Files.createFile(tmp.resolve(ShimLocator.EXTRACTED_PREFIX + "5100869034168545378.so"));
            // A live pid whose process started after the file was written: the pid was reused.
            Path reused = Files.createFile(tmp.resolve(ShimLocator.EXTRACTED_PREFIX + live.pid() + "-789.so"));
            Files.setLastModifiedTime(reused, FileTime.from(Instant.now().minusSeconds(3600)));

            assertEquals(2, ShimLocator.removeOrphanedCopies(tmp));
            assertFalse(Files.exists(dead), "the copy of a gone process");
            assertFalse(Files.exists(reused), "the copy of a pid now reused");
            assertTrue(Files.exists(alive), "a live process's copy is never deleted");
            assertTrue(Files.exists(mine));
            assertTrue(Files.exists(unknown), "a name without a pid: whose it is cannot be told");
        } finally {
            live.destroyForcibly();
        }
    }

    /** An extracted copy's name carries its process's pid, which is what lets the next one clean up after a SIGKILL. */
    @Test
    void anExtractedCopyIsNamedForItsProcess() throws Exception {
        Path library = Files.writeString(tmp.resolve("lib.so"), "not really a library");
        Path copy = ShimLocator.extract(library.toUri().toURL());
        try {
            assertTrue(copy.getFileName().toString().matches(ShimLocator.EXTRACTED_PREFIX + ProcessHandle.current().pid()
                    + "-\\d+\\.so"), copy.toString());
            assertEquals("not really a library", Files.readString(copy));
        } finally {
            Files.deleteIfExists(copy);
        }
    }
}

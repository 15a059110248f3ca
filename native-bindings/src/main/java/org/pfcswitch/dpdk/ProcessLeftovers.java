package org.pfcswitch.dpdk;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * Files a process leaves behind when it is killed before it can remove them (SIGKILL), found by the
 * pid their name or content records: such a file may be deleted once that pid is gone, or belongs to
 * a process that started after the file was written (the pid was reused). A file of a live owner is
 * never touched.
 */
public final class ProcessLeftovers {

    private ProcessLeftovers() {}

    /** Whether the process {@code pid} that wrote {@code file} may still be using it. */
    public static boolean ownerAlive(long pid, Path file) {
        Optional<ProcessHandle> p = ProcessHandle.of(pid);
        if (p.isEmpty() || !p.get().isAlive()) {
            return false;
        }
        Optional<Instant> started = p.get().info().startInstant();
        if (started.isEmpty()) {
            return true;                       // cannot tell a reused pid: keep the file
        }
        try {
            // Start times are rounded to the clock tick (10 ms): allow a second before calling it a reused pid.
            return !started.get().minusSeconds(1).isAfter(Files.getLastModifiedTime(file).toInstant());
        } catch (IOException e) {
            return true;                       // gone or unreadable: nothing to clean here
        }
    }

    /**
     * Deletes {@code file} if its owner {@code pid} is gone (see {@link #ownerAlive}).
     *
     * @return whether it was deleted
     */
    public static boolean deleteIfOrphaned(long pid, Path file) {
        if (pid == ProcessHandle.current().pid() || ownerAlive(pid, file)) {
            return false;
        }
        try {
            return Files.deleteIfExists(file);
        } catch (IOException e) {
            return false;                      // not ours to delete (another user's, in a sticky folder)
        }
    }
}

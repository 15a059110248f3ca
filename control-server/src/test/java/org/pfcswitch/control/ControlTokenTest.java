package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the token may be written, and what a killed switch's token becomes at the next start. */
class ControlTokenTest {

    @TempDir
    Path dir;
    final List<String> log = new ArrayList<>();

    static long deadPid() throws Exception {
        Process p = new ProcessBuilder("true").start();
        assertTrue(p.waitFor(10, TimeUnit.SECONDS));
        return p.pid();
    }

    @Test
    void writesAnOwnerOnlyTokenAndItsPidInAFolderItMakes() throws Exception {
        Path file = dir.resolve("new").resolve("control-9464.token");
        ControlToken t = ControlToken.create(file, log::add);
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals(64, ControlToken.read(file).length());
        assertEquals(Long.toString(ProcessHandle.current().pid()), Files.readString(file.resolveSibling("control-9464.token.pid")));
        assertTrue(t.accepts("Bearer " + ControlToken.read(file)));
        t.delete();
        assertFalse(Files.exists(file));
        assertFalse(Files.exists(file.resolveSibling("control-9464.token.pid")));
    }

    @Test
    void theDefaultFolderWritableByOthersIsMadeOwnerOnlyWithALine() throws Exception {
        String home = System.getProperty("user.home");
        System.setProperty("user.home", dir.toString());
        try {
            Path folder = Files.createDirectory(dir.resolve(".pfcswitch"));
            Files.setPosixFilePermissions(folder, PosixFilePermissions.fromString("rwxrwxrwx"));
            ControlToken.create(ControlToken.defaultFile(9464), log::add);
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(folder)));
            assertEquals(1, log.size(), log.toString());
            assertTrue(log.getFirst().contains(folder + " was writable by others (rwxrwxrwx): made rwx------"), log.toString());
        } finally {
            System.setProperty("user.home", home);
        }
    }

    @Test
    void aChosenFolderWritableByOthersOrOwnedByAnotherUserIsRefused() throws Exception {
        Path open = Files.createDirectory(dir.resolve("open"));
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rwxrwx---"));
        IOException e = assertThrows(IOException.class, () -> ControlToken.create(open.resolve("t.token"), log::add));
        assertEquals("token folder " + open + " is writable by others (rwxrwx---): they could replace the token;"
                + " chmod 700 it or give --token-file in a folder only you can write", e.getMessage());
        assertEquals("rwxrwx---", PosixFilePermissions.toString(Files.getPosixFilePermissions(open)), "not ours to change");
        assertFalse(Files.exists(open.resolve("t.token")));

        Path theirs = Files.createDirectory(dir.resolve("theirs"));
        UserPrincipal nobody = theirs.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName("nobody");
        Files.setOwner(theirs, nobody);
        IOException f = assertThrows(IOException.class, () -> ControlToken.create(theirs.resolve("t.token"), log::add));
        assertTrue(f.getMessage().startsWith("token folder " + theirs + " belongs to nobody, not to "), f.getMessage());
        assertFalse(Files.exists(theirs.resolve("t.token")));
    }

    @Test
    void tokensOfGoneSwitchesAreRemovedAndLiveOnesKept() throws Exception {
        Process live = new ProcessBuilder("sleep", "30").start();
        try {
            long gonePid = deadPid();
            Path gone = tokenOf(gonePid, "control-9500.token");
            Path running = tokenOf(live.pid(), "control-9501.token");
            Path unrelated = Files.writeString(dir.resolve("nginx.pid"), Long.toString(deadPid()));
            Files.writeString(dir.resolve("nginx"), "not a token");
            Path halfWritten = Files.writeString(dir.resolve(".control-9502.token." + deadPid()), "x");
            Path mine = dir.resolve("control-9464.token");
            Files.writeString(mine, "stale");

            ControlToken.create(mine, log::add);

            assertFalse(Files.exists(gone), "a killed switch's token");
            assertFalse(Files.exists(gone.resolveSibling("control-9500.token.pid")));
            assertFalse(Files.exists(halfWritten), "a killed switch's half-written token");
            assertTrue(Files.exists(running), "a live switch's token is never touched");
            assertTrue(Files.exists(unrelated) && Files.exists(dir.resolve("nginx")), "files not named as tokens are not ours");
            assertNotEquals("stale", ControlToken.read(mine));
            assertEquals(List.of("removed " + gone + ": its switch (pid " + gonePid + ") is gone"), log);
        } finally {
            live.destroyForcibly();
        }
    }

    private Path tokenOf(long pid, String name) throws IOException {
        Path token = Files.writeString(dir.resolve(name), "0".repeat(64));
        Files.writeString(dir.resolve(name + ".pid"), Long.toString(pid));
        return token;
    }
}

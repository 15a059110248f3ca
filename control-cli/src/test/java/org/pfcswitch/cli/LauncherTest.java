package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

/**
 * The JVM flags of the repository's {@code ./pfcswitch} launcher, run on this build's class path:
 * a command in normal use writes nothing to stderr (no JVM warning about incubator modules or
 * native access).
 */
class LauncherTest {

    private static final Path LAUNCHER = Path.of("..", "pfcswitch");

    /** The flags between {@code exec "$java_home/bin/java"} and {@code -cp}, as the launcher passes them. */
    static List<String> launcherJvmFlags() throws IOException {
        String script = Files.readString(LAUNCHER);
        int exec = script.indexOf("exec \"$java_home/bin/java\"");
        assertTrue(exec >= 0, "the launcher's exec line was not found");
        String tail = script.substring(exec + "exec \"$java_home/bin/java\"".length(), script.indexOf("-cp ", exec));
        List<String> flags = new ArrayList<>();
        for (String word : tail.replace("\\\n", " ").trim().split("\\s+")) {
            if (!word.startsWith("${")) {       // the user's own PFCSWITCH_JAVA_OPTS
                flags.add(word);
            }
        }
        return flags;
    }

    @Test
    void commandsInNormalUseWriteNothingToStderr() throws Exception {
        List<String> flags = launcherJvmFlags();
        assertTrue(flags.contains("--enable-native-access=ALL-UNNAMED"), flags.toString());
        for (String[] args : List.of(new String[] {"--version"}, new String[] {"--help"},
                new String[] {"mmu", "explain", "-c", "../testbed-configs/mmu/tomahawk-32x100g.yaml", "--scheme", "dt"})) {
            List<String> command = new ArrayList<>();
            command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
            command.addAll(flags);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), PfcSwitch.class.getName()));
            command.addAll(Arrays.asList(args));
            Process p = new ProcessBuilder(command).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String stderr = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(60, TimeUnit.SECONDS));
            assertEquals(0, p.exitValue(), String.join(" ", args) + ": " + stderr);
            assertEquals("", stderr, String.join(" ", args));
        }
    }
}

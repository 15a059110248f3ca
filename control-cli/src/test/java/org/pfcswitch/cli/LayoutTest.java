package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The commands of a live switch ({@code run}, {@code set}, {@code mmu}, {@code trace}, {@code record},
 * {@code show}, {@code clear}, {@code pfcwd}) reach no class of the simulator's module
 * ({@code org.pfcswitch.testbed}), through any class of this module they use: their files are read
 * through {@code config}. The class graph is the JDK's own {@code jdeps} over the compiled classes.
 */
class LayoutTest {

    private static final List<String> LIVE_COMMANDS = List.of("RunCommand", "SetCommand", "MmuCommand", "TraceCommand",
            "RecordCommand", "ShowCommand", "ClearCommand", "PfcwdCommand");
    private static final Pattern EDGE = Pattern.compile("^\\s+(\\S+)\\s+->\\s+(\\S+)\\s.*$");
    private static final String CLI = "org.pfcswitch.cli.";

    @Test
    void theLiveSwitchsCommandsReachNothingOfTheSimulator() throws Exception {
        Map<String, Set<String>> uses = classGraph();
        assertTrue(uses.containsKey(CLI + "RunCommand"), "jdeps read the classes: " + uses.size() + " classes");
        Set<String> reached = new TreeSet<>();
        Map<String, String> via = new HashMap<>();
        Deque<String> todo = new ArrayDeque<>();
        for (String c : uses.keySet()) {
            if (LIVE_COMMANDS.stream().anyMatch(cmd -> c.equals(CLI + cmd) || c.startsWith(CLI + cmd + "$"))) {
                todo.add(c);
                via.put(c, c);
            }
        }
        Set<String> seen = new HashSet<>(todo);
        while (!todo.isEmpty()) {
            String c = todo.poll();
            for (String target : uses.getOrDefault(c, Set.of())) {
                if (target.startsWith("org.pfcswitch.testbed.")) {
                    reached.add(target + " (from " + c + ", reached from " + via.get(c) + ")");
                } else if (target.startsWith(CLI) && seen.add(target)) {
                    via.put(target, via.get(c));
                    todo.add(target);
                }
            }
        }
        assertEquals(Set.of(), reached, "simulator classes the live switch's commands depend on");
    }

    /** Class to the classes it refers to, for every class of this module's main code. */
    private static Map<String, Set<String>> classGraph() throws Exception {
        Path classes = Path.of(PfcSwitch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jdeps = Path.of(System.getProperty("java.home"), "bin", "jdeps");
        Process p = new ProcessBuilder(jdeps.toString(), "--multi-release", Integer.toString(Runtime.version().feature()),
                "-verbose:class", "-filter:none", "-cp", System.getProperty("java.class.path"), classes.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "jdeps did not finish");
        assertEquals(0, p.exitValue(), out);
        Map<String, Set<String>> uses = new HashMap<>();
        for (String line : out.split("\n")) {
            Matcher m = EDGE.matcher(line);
            if (m.matches()) {
                uses.computeIfAbsent(m.group(1), c -> new HashSet<>()).add(m.group(2));
            }
        }
        return uses;
    }
}

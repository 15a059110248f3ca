package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;

import picocli.CommandLine;

/**
 * Every command and sub-command of {@code pfcswitch}, found by walking picocli's tree (so a new
 * one is covered without being listed here): its {@code --help} prints to stdout only, and
 * nothing to stderr, not even picocli's own warnings (which it writes to {@code System.err}, as
 * it did for a description with a bare percent sign); an option it does not know is named as such
 * in one line plus the hint, with exit status 2, before any required option it then lacks.
 */
class CommandTreeTest {

    /** Every command path below the top, e.g. ["pfcwd", "start"]; picocli's own {@code help} left out. */
    static List<List<String>> commands() {
        List<List<String>> out = new ArrayList<>();
        walk(new CommandLine(new PfcSwitch()), new ArrayList<>(), out);
        return out;
    }

    private static void walk(CommandLine cmd, List<String> path, List<List<String>> out) {
        out.add(List.copyOf(path));
        cmd.getSubcommands().forEach((name, sub) -> {
            if (!sub.getCommandSpec().helpCommand() && sub.getCommandName().equals(name)) {     // aliases once
                path.add(name);
                walk(sub, path, out);
                path.removeLast();
            }
        });
    }

    private static Cli run(List<String> path, String... more) {
        List<String> args = new ArrayList<>(path);
        args.addAll(List.of(more));
        return Cli.run(args.toArray(String[]::new));
    }

    @Test
    void everyCommandsHelpGoesToStdoutAndNothingToStderr() {
        List<List<String>> commands = commands();
        assertTrue(commands.size() > 30, "the walk found the tree: " + commands);
        PrintStream systemErr = System.err;
        ByteArrayOutputStream picocliWarnings = new ByteArrayOutputStream();
        List<String> failures = new ArrayList<>();
        System.setErr(new PrintStream(picocliWarnings, true, StandardCharsets.UTF_8));
        try {
            for (List<String> path : commands) {
                picocliWarnings.reset();
                Cli r = run(path, "--help");
                String name = String.join(" ", path);
                String warned = picocliWarnings.toString(StandardCharsets.UTF_8);
                if (r.exitCode() != 0 || !r.err().isEmpty() || !warned.isEmpty() || !r.out().contains("Usage: ")) {
                    failures.add("'" + name + " --help': exit " + r.exitCode() + ", stderr '" + r.err() + warned + "'");
                }
            }
        } finally {
            System.setErr(systemErr);
        }
        assertEquals(List.of(), failures);
    }

    /**
     * A comma-list option reads {@code --scheme=SCHEME[,SCHEME...]} in the synopsis: picocli adds the
     * list syntax itself, so a label that spells it too reads {@code SCHEME[,SCHEME...][,SCHEME[,SCHEME...]...]}.
     */
    @Test
    void commaListsReadOnceInTheSynopsis() {
        List<String> doubled = new ArrayList<>();
        for (List<String> path : commands()) {
            Cli r = run(path, "--help");
            if (r.out().contains("...][,")) {
                doubled.add(String.join(" ", path));
            }
        }
        assertEquals(List.of(), doubled, "commands whose synopsis spells a comma list twice");
        assertTrue(Cli.run("sim", "--help").out().contains("[--scheme=SCHEME[,SCHEME...]]..."), Cli.run("sim", "--help").out());
    }

    @Test
    void anUnknownOptionIsNamedInOneLineWithTheHintBeforeAnythingMissing() {
        List<String> failures = new ArrayList<>();
        for (List<String> path : commands()) {
            Cli r = run(path, "--bogus");
            String name = String.join(" ", path);
            List<String> lines = r.err().lines().toList();
            String hint = PfcSwitch.USAGE_HINT_START + ("pfcswitch " + name).strip() + " --help' for its usage.";
            if (r.exitCode() != 2 || !r.out().isEmpty() || lines.size() != 2
                    || !lines.getFirst().startsWith("Unknown option: '--bogus'") || !lines.getLast().equals(hint)) {
                failures.add("'" + name + " --bogus': exit " + r.exitCode() + ", stderr " + lines);
            }
        }
        assertEquals(List.of(), failures);
    }

    /** A mistyped required option is named with picocli's guess, not reported as the option missing. */
    @Test
    void aMistypedRequiredOptionGetsItsGuess() {
        Cli r = Cli.run("lab", "--confg", "lab.yaml", "--scenario", "s.yaml");
        assertEquals(2, r.exitCode(), r.err());
        String first = r.err().lines().findFirst().orElse("");
        assertTrue(first.startsWith("Unknown options: '--confg', 'lab.yaml'") && first.endsWith("(did you mean --config?)"), r.err());
    }

    /** A change sent to a switch names the command that was run in its errors, not another one. */
    @Test
    void aChangeNamesItsOwnCommandInItsErrors() {
        String missing = Path.of(System.getProperty("java.io.tmpdir"), "pfcswitch-no-such-dir", "control.token").toString();
        Map<String, List<String>> commandLines = Map.of("pfcswitch set scheme", List.of("set", "scheme", "dt"),
                "pfcswitch clear", List.of("clear", "counters"), "pfcswitch pfcwd start", List.of("pfcwd", "start", "all", "400"),
                "pfcswitch pfcwd stop", List.of("pfcwd", "stop"));
        commandLines.forEach((command, args) -> {
            Cli r = run(args, "--api", "http://127.0.0.1:1", "--token-file", missing);
            assertEquals(1, r.exitCode(), r.err());
            assertTrue(r.err().startsWith(command + ": no token file " + missing), r.err());
        });
    }

    /** pfcwd start without its ports and detection time says what it takes, in words. */
    @Test
    void pfcwdStartWithoutItsArgumentsSaysWhatItTakes() {
        Cli none = Cli.run("pfcwd", "start");
        assertEquals(2, none.exitCode(), none.err());
        assertEquals(List.of("pfcwd start takes the ports (names, or all) and then the detection time in ms, e.g. 'pfcwd start"
                + " all 400'", PfcSwitch.USAGE_HINT_START + "pfcswitch pfcwd start --help' for its usage."), none.err().lines().toList());
        Cli one = Cli.run("pfcwd", "start", "400");
        assertEquals(2, one.exitCode(), one.err());
        assertTrue(one.err().lines().findFirst().orElse("").endsWith("; got only '400'"), one.err());
    }
}

package org.pfcswitch.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code pfcswitch completion}: a bash/zsh script that bash accepts and that completes our commands. */
class CompletionCommandTest {

    @TempDir
    Path dir;

    @Test
    void theScriptNamesEveryCommandAndOption() {
        Cli c = Cli.run("completion");
        assertEquals(0, c.exitCode(), c.err());
        String script = c.out();
        assertTrue(script.contains("complete -F _complete_pfcswitch"), script);
        for (String command : new String[] {"frame", "decode", "mmu", "run", "testbed", "bench", "sim", "plot", "hosts", "lab",
                "completion", "frame pfc", "frame pause", "frame bfc", "frame roce", "mmu explain", "testbed up",
                "testbed down", "bench fwd"}) {
            assertTrue(script.contains("${COMP_WORDS[0]} " + command + "\""), command + " missing");
        }
        for (String option : new String[] {"--scheme", "--json", "--sweep", "--priorities", "--out", "--trace", "--trace-every"}) {
            assertTrue(script.contains("'" + option + "'"), option + " missing");
        }
    }

    @Test
    void bashAcceptsItAndItCompletes() throws Exception {
        Path script = Files.writeString(dir.resolve("pfcswitch.bash"), Cli.run("completion").out());
        assumeTrue(bash("true").startsWith("exit 0"), "no bash on this machine");
        assertEquals("exit 0\n", bash("bash -n '" + script + "'"), "bash -n: the script parses");
        assertTrue(complete(script, "./pfcswitch", "si").contains("sim"));
        assertEquals("explain", complete(script, "pfcswitch", "mmu", "ex").strip());
        assertEquals("all", complete(script, "pfcswitch", "mmu", "explain", "--scheme", "al").strip());
        assertEquals("--scheme", complete(script, "pfcswitch", "run", "--sch").strip());
        assertEquals("dsh dt", complete(script, "pfcswitch", "run", "--scheme", "d").strip());
        assertEquals("sonic spfc st", complete(script, "pfcswitch", "sim", "--scheme", "s").strip());
        assertEquals("spfc", complete(script, "pfcswitch", "lab", "--scheme", "sp").strip());
        assertEquals("bfc", complete(script, "pfcswitch", "sim", "--scheme", "b").strip(), "--scheme has its own candidates");
        assertEquals("", complete(script, "pfcswitch", "sim", "--shadow", "b").strip(), "bfc cannot be a shadow");
        assertEquals("dsh dt", complete(script, "pfcswitch", "run", "--shadow", "d").strip());
    }

    @Test
    void itCompletesTheLastItemOfACommaList() throws Exception {
        Path script = Files.writeString(dir.resolve("pfcswitch.bash"), Cli.run("completion").out());
        assumeTrue(bash("true").startsWith("exit 0"), "no bash on this machine");
        assertEquals("dt,sonic dt,spfc dt,st", complete(script, "pfcswitch", "sim", "--scheme", "dt,s").strip());
        assertEquals("dt,dsh,reverie", complete(script, "pfcswitch", "sim", "--shadow", "dt,dsh,r").strip());
        assertEquals("dsh dt", complete(script, "pfcswitch", "run", "--scheme", "d").strip(), "a single item as before");
    }

    /** Options that take a word from a fixed list complete it as the command takes it (lower case). */
    @Test
    void figureFormatsAndWatchdogActionsComplete() throws Exception {
        Path script = Files.writeString(dir.resolve("pfcswitch.bash"), Cli.run("completion").out());
        assumeTrue(bash("true").startsWith("exit 0"), "no bash on this machine");
        assertEquals("pdf png svg", complete(script, "pfcswitch", "sim", "--figures", "").strip());
        assertEquals("svg,pdf svg,png", complete(script, "pfcswitch", "sim", "--figures", "svg,p").strip());
        assertEquals("forward", complete(script, "pfcswitch", "pfcwd", "start", "--action", "f").strip());
        assertEquals("alert drop forward", complete(script, "pfcswitch", "pfcwd", "start", "--action", "").strip());
    }

    /** What the script offers for the last word of {@code words}, one candidate a line. */
    private String complete(Path script, String... words) throws Exception {
        StringBuilder array = new StringBuilder();
        for (String w : words) {
            array.append(" '").append(w).append('\'');
        }
        String out = bash("source '" + script + "'" + "; COMP_WORDS=(" + array + "); COMP_CWORD=" + (words.length - 1)
                + "; COMP_LINE=\"${COMP_WORDS[*]}\"; COMP_POINT=${#COMP_LINE}; _complete_pfcswitch 2>/dev/null;"
                + " printf '%s\\n' \"${COMPREPLY[@]}\" | sort | tr '\\n' ' '");
        return out.replaceFirst("^exit \\d+\n", "");
    }

    /** Runs {@code command} in bash; the output starts with "exit N". */
    private static String bash(String command) throws IOException, InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("bash", "-c", command).redirectErrorStream(true).start();
        } catch (IOException e) {
            return "no bash: " + e.getMessage();
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "bash did not finish: " + command);
        return "exit " + p.exitValue() + "\n" + out;
    }
}

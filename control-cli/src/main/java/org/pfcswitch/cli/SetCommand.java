package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.control.ControlToken;
import org.pfcswitch.control.json.JsonInput;
import org.pfcswitch.control.json.JsonOutput;

import com.fasterxml.jackson.databind.JsonNode;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "set",
        mixinStandardHelpOptions = true,
        description = {
            "Changes a running switch through its control API: its scheme or parameters.",
            "",
            "A change is validated in full first (a bad one changes nothing and says what is",
            "allowed), then applied by the switch's worker between two bursts, logged by the",
            "switch, and visible in the next 'show' and in /metrics.",
            "",
            "What happens to bytes already in the buffer: nothing is dropped or lost. Frames",
            "queued at the change stay queued in order; the new MMU takes their bytes over",
            "(each charged where the new scheme would put it, never dropped, so its ledger",
            "holds exactly what the buffer holds) and releases them as they leave. PFC",
            "follows the new thresholds at once: an ingress queue now over XOFF is paused",
            "(a PFC frame goes out), one the old scheme held paused that the new one does not",
            "is resumed (XON). The MMU's own drop counters start again; the switch's go on.",
            "A change to or from bfc is refused (bfc runs its own queues and link control):",
            "restart the switch with --scheme bfc.",
            "",
            "Changes need the token the switch wrote at start-up (--token-file, by default",
            "~/.pfcswitch/control-PORT.token, readable by the switch's owner only)."
        },
        subcommands = {SetCommand.Scheme.class, SetCommand.Param.class})
final class SetCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        throw new ParameterException(spec.commandLine(), "say what to set: 'set scheme NAME' or 'set param KEY=VALUE ...'");
    }

    /** The API address and token file, shared by the set commands. */
    static final class Target {
        @Option(names = "--api", paramLabel = "URL", defaultValue = ControlClient.DEFAULT_URL,
                description = "The switch's control API (default: ${DEFAULT-VALUE}).")
        String api;

        @Option(names = "--token-file", paramLabel = "FILE",
                description = "The token the switch wrote (default: ~/.pfcswitch/control-PORT.token for the --api port).")
        Path tokenFile;

        @Option(names = "--json", description = "Print the API's JSON answer instead of a sentence.")
        boolean json;

        /**
         * Posts {@code body}; prints the answer as {@code words} say it, or as JSON with --json. Its
         * errors start with the command that was run ({@code spec}'s full name, e.g. "pfcswitch pfcwd start").
         */
        int post(CommandSpec spec, String path, String body, java.util.function.Function<JsonNode, String> words)
                throws InterruptedException {
            String command = spec.qualifiedName();
            ControlClient client = ControlClient.forCommand(spec, api);
            Path file = tokenFile != null ? tokenFile : client.defaultTokenFile();
            String token;
            try {
                token = ControlToken.read(file);
            } catch (NoSuchFileException e) {
                spec.commandLine().getErr().println(command + ": no token file " + file
                        + " (the switch writes it at start-up; give --token-file if it runs as another user or port)");
                return 1;
            } catch (IOException e) {
                spec.commandLine().getErr().println(command + ": cannot read the token file " + file + ": " + e.getMessage());
                return 1;
            }
            try {
                String answer = client.post(path, body, token);
                spec.commandLine().getOut().println(json ? answer : words.apply(JsonInput.read(answer)));
                return 0;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                spec.commandLine().getErr().println(command + ": the switch's answer is not JSON (" + e.getOriginalMessage()
                        + "); the change was applied");
                return 1;
            } catch (ControlClient.Failure f) {
                spec.commandLine().getErr().println(command + ": " + f.getMessage());
                return f.status == 0 ? 1 : 2;
            }
        }
    }

    @Command(name = "scheme", mixinStandardHelpOptions = true,
            description = "Switches the running switch to another buffer-admission scheme (queued frames kept).",
            footer = {"", "Example:", "  ./pfcswitch set scheme dsh"})
    static final class Scheme implements Callable<Integer> {
        @Parameters(index = "0", paramLabel = "NAME", description = "${COMPLETION-CANDIDATES}", completionCandidates = SchemeNames.class)
        String name;

        @Mixin
        Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            return target.post(spec, "/api/v1/scheme", new JsonOutput().beginObject().field("scheme", name).endObject().toString(),
                    Scheme::inWords);
        }

        /** "scheme dt -> dsh; 12,288 bytes in the buffer kept, now dsh's" from the API's answer. */
        static String inWords(JsonNode answer) {
            String now = answer.path("scheme").asText();
            StringBuilder s = new StringBuilder("scheme ").append(answer.path("previous").asText()).append(" -> ").append(now);
            if (answer.has("buffered_bytes")) {
                s.append(String.format(java.util.Locale.ROOT, "; %,d bytes in the buffer kept, now %s's",
                        answer.get("buffered_bytes").asLong(), now));
            }
            return s.toString();
        }
    }

    @Command(name = "param", mixinStandardHelpOptions = true,
            description = {"Changes parameters of the running switch, all at once:",
                "  a parameter of the active scheme by name (alpha=1/8, kSpfc=2, tcNs=50000; 'show scheme'",
                "  lists them) or SCHEME.NAME=VALUE; headroom=BYTES (fixed per-queue headroom) or",
                "  headroom=ieee|hpcc|sonic; ecn.kmin=BYTES, ecn.kmax=BYTES, ecn.pmax=P."},
            footer = {"", "Examples:", "  ./pfcswitch set param alpha=1/8", "  ./pfcswitch set param ecn.kmin=100KiB ecn.kmax=400KiB ecn.pmax=0.2"})
    static final class Param implements Callable<Integer> {
        @Parameters(arity = "1..*", paramLabel = "KEY=VALUE")
        List<String> assignments;

        @Mixin
        Target target;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            Map<String, String> params = new LinkedHashMap<>();
            for (String a : assignments) {
                int eq = a.indexOf('=');
                if (eq <= 0) {
                    throw new ParameterException(spec.commandLine(), "expected KEY=VALUE, got '" + a + "'");
                }
                if (params.put(a.substring(0, eq), a.substring(eq + 1)) != null) {
                    throw new ParameterException(spec.commandLine(), a.substring(0, eq) + " is given twice: give each KEY once");
                }
            }
            JsonOutput body = new JsonOutput().beginObject().beginObject("params");
            params.forEach(body::field);
            return target.post(spec, "/api/v1/params", body.endObject().endObject().toString(), Param::inWords);
        }

        /** "set under dt: alpha = 1/4, ecn.kmax = 400KiB" from the API's answer. */
        static String inWords(JsonNode answer) {
            List<String> applied = new java.util.ArrayList<>();
            answer.path("applied").properties().forEach(e -> applied.add(e.getKey() + " = " + e.getValue().asText()));
            return "set under " + answer.path("scheme").asText() + ": " + String.join(", ", applied);
        }
    }
}

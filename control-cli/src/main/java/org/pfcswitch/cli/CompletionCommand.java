package org.pfcswitch.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code pfcswitch completion}: picocli's completion script, taught one thing it lacks. It prints
 * one bash script (zsh runs it through bashcompinit) that completes every command, sub-command and
 * option, scheme names after {@code --scheme} and {@code --shadow} and file names after file options.
 * picocli completes a value as one word; ours are often lists ({@code --scheme dt,spfc}), so the
 * script's one candidate function completes the item after the last comma and keeps the ones before.
 */
@Command(name = "completion",
        mixinStandardHelpOptions = true,
        versionProvider = PfcSwitch.Version.class,
        description = {
            "Prints a bash/zsh completion script for pfcswitch.",
            "",
            "It completes commands, sub-commands and options, scheme names after --scheme and",
            "--shadow (each item of a comma list: --scheme dt,sp<TAB>) and file names after",
            "file options. To use it in the current shell (bash, or zsh):",
            "",
            "  source <(./pfcswitch completion)",
            "",
            "For every new shell, add that line (with the full path of ./pfcswitch) to",
            "~/.bashrc or ~/.zshrc. It completes 'pfcswitch' and './pfcswitch' alike.",
            ""
        })
final class CompletionCommand implements Runnable {

    /** picocli's candidate function ends with this line; ours completes the last item of a comma list. */
    static final String PICOCLI_CANDIDATES = "  echo -e \"$(compgen -W \"${optionList[*]}\" -- \"$curr_word\")\"";
    static final String LIST_ITEM_CANDIDATES = String.join("\n",
            "  local done_items=\"\"",
            "  if [[ $curr_word == *,* ]]; then done_items=\"${curr_word%,*},\"; curr_word=\"${curr_word##*,}\"; fi",
            "  local candidate IFS=$'\\n'",
            "  compgen -W \"${optionList[*]}\" -- \"$curr_word\" | while IFS= read -r candidate; do",
            "    echo \"${done_items}${candidate}\"",
            "  done");

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        String script = AutoComplete.bash(spec.root().name(), spec.root().commandLine());
        if (!script.contains(PICOCLI_CANDIDATES)) {
            throw new IllegalStateException("picocli's completion script changed: its candidate function was not found");
        }
        spec.commandLine().getOut().print(script.replace(PICOCLI_CANDIDATES, LIST_ITEM_CANDIDATES));
        spec.commandLine().getOut().flush();
    }
}

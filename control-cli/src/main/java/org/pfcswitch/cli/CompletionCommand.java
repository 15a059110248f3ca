package org.pfcswitch.cli;

import picocli.AutoComplete;
import picocli.CommandLine.Command;

/**
 * {@code pfcswitch completion}: picocli's ready-made completion generator under a shorter name. It
 * prints one bash script (zsh runs it through bashcompinit) that completes every command,
 * sub-command and option, scheme names for {@code --scheme} and file names for file options.
 */
@Command(name = "completion",
        versionProvider = PfcSwitch.Version.class,
        description = {
            "Prints a bash/zsh completion script for pfcswitch.",
            "",
            "It completes commands, sub-commands and options, scheme names after --scheme and",
            "file names after file options. To use it in the current shell (bash, or zsh):",
            "",
            "  source <(./pfcswitch completion)",
            "",
            "For every new shell, add that line (with the full path of ./pfcswitch) to",
            "~/.bashrc or ~/.zshrc. It completes 'pfcswitch' and './pfcswitch' alike.",
            ""
        })
final class CompletionCommand extends AutoComplete.GenerateCompletion {
}

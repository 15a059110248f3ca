package org.pfcswitch.cli;

import java.util.List;

import org.pfcswitch.core.ShadowMmus;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --shadow S[,S...]} of {@code sim} and {@code run}: shadow schemes beside the active one (a picocli mixin). */
final class ShadowsOption {

    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--shadow", split = ",", paramLabel = "SHADOW", completionCandidates = ShadowNames.class,
            description = "Shadow schemes: each keeps its own ledger over the same arrivals and departures as the "
                    + "real buffer and counts the XOFFs and drops it would have caused, never sending or dropping "
                    + "anything (${COMPLETION-CANDIDATES}; bfc cannot be a shadow). Off by default.")
    List<String> shadows;

    /**
     * The shadow schemes given (empty when none), every name checked.
     *
     * @throws ParameterException an unknown or repeated name, or bfc, with the schemes that can be shadows
     */
    List<String> checked() {
        List<String> given = shadows == null ? List.of() : shadows.stream().map(String::strip).toList();
        try {
            ShadowMmus.check(given);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(command.commandLine(), "--shadow: " + e.getMessage());
        }
        return given;
    }

    /** The schemes that can be shadows, for picocli's help text and shell completion. */
    static final class ShadowNames implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return ShadowMmus.shadowable().iterator();
        }
    }
}

package org.pfcswitch.cli;

import java.util.List;

import org.pfcswitch.mmu.Schemes;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code --scheme S[,S...]} of the commands that run a scenario once per scheme ({@code sim}, {@code lab}): a picocli mixin. */
final class SchemesOption {

    /** The command this mixin is part of. */
    @Spec(Spec.Target.MIXEE)
    CommandSpec command;

    @Option(names = "--scheme", split = ",", paramLabel = "SCHEME", completionCandidates = SchemeNames.class,
            description = "Schemes to run, one after the other: ${COMPLETION-CANDIDATES} (default: the scenario's "
                    + "schemes: list).")
    List<String> schemes;

    /**
     * The schemes given, or else {@code fromScenario}, every name checked.
     *
     * @throws ParameterException naming an unknown scheme and the known ones
     */
    List<String> orElse(List<String> fromScenario) {
        List<String> run = schemes != null ? schemes : fromScenario;
        for (String s : run) {
            if (!Schemes.NAMES.contains(s)) {
                throw new ParameterException(command.commandLine(), "--scheme: unknown scheme '" + s + "'; use one or more of "
                        + String.join(", ", Schemes.NAMES));
            }
        }
        return run;
    }
}

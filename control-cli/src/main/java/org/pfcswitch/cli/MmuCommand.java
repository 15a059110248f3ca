package org.pfcswitch.cli;

import org.pfcswitch.config.ConfigNode;
import org.pfcswitch.config.MmuConfigLoader;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.MmuExplanation;
import org.pfcswitch.mmu.Schemes;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

@Command(name = "mmu",
        mixinStandardHelpOptions = true,
        description = "Inspects the shared-buffer MMU: buffer layout, headroom and thresholds.",
        subcommands = {MmuCommand.Explain.class})
final class MmuCommand {

    @Command(name = "explain",
            mixinStandardHelpOptions = true,
            description = {
                "Shows where the buffer goes under a scheme.",
                "",
                "Private, shared, headroom or insurance bytes per port and queue, the pools, the",
                "headroom formula with its inputs, and the scheme's thresholds when the buffer is",
                "empty. Reads the mmu: section of CONFIG. Schemes: st, dt, sonic, dsh, spfc,",
                "reverie, capfc, bfc (see mmu/README.md for each one's parameters and sources)."
            },
            footer = {"", "Examples:",
                "  pfcswitch mmu explain -c testbed-configs/mmu/tomahawk-32x100g.yaml",
                "  pfcswitch mmu explain -c testbed-configs/mmu/tomahawk-32x100g.yaml --scheme dt --json",
                "  pfcswitch mmu explain -c testbed-configs/mmu/tomahawk-32x100g.yaml --scheme all"})
    static final class Explain implements Callable<Integer> {
        @Option(names = {"-c", "--config"}, required = true, paramLabel = "CONFIG", description = "A YAML file with an mmu: section.")
        Path config;

        @Option(names = "--scheme", paramLabel = "S", completionCandidates = SchemeNames.OrAll.class,
                description = "Explain this scheme instead of the file's, or 'all' for every scheme.")
        String scheme;

        @Option(names = "--json", description = "One JSON document (a JSON array with --scheme all).")
        boolean json;

        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            boolean all = "all".equalsIgnoreCase(scheme);
            if (scheme != null && !all && !Schemes.NAMES.contains(scheme.toLowerCase(java.util.Locale.ROOT))) {
                throw new ParameterException(spec.commandLine(),
                        "--scheme must be one of " + String.join(", ", Schemes.NAMES) + " or all, got '" + scheme + "'");
            }
            MmuConfig cfg = MmuConfigLoader.load(ConfigNode.load(config), all ? null : scheme);
            List<MmuExplanation> explanations = all ? MmuExplanation.ofAllSchemes(cfg) : List.of(MmuExplanation.of(cfg));
            PrintWriter out = spec.commandLine().getOut();
            if (json) {
                out.println(all ? MmuExplanationJson.of(explanations) : MmuExplanationJson.of(explanations.getFirst()));
            } else {
                for (MmuExplanation e : explanations) {
                    out.println(e.toText());
                }
            }
            return 0;
        }
    }
}

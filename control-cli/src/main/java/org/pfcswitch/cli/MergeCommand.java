package org.pfcswitch.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.sweep.ResultTable;
import org.pfcswitch.cli.sweep.ShardFile;
import org.pfcswitch.cli.sweep.ShardMerge;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(name = "merge",
        mixinStandardHelpOptions = true,
        description = {
            "Joins the shards of a grid into its results table.",
            "",
            "Reads every shard-I-of-N.json in the directories given (or the files given), as",
            "'sim --shard I/N --out DIR' writes them, and prints and writes what a local run of",
            "the whole grid prints and writes: the summary (or --json), --table and --summary",
            "files, the same bytes but for the heap_alloc_mb and wall_s columns. Every shard",
            "0..N-1 must be there: a missing one is named (rerun it alone with its --shard)",
            "and nothing is written.",
            "Shards of two different grids (their fingerprints differ) are refused."
        },
        footer = {"", "Examples:",
            "  pfcswitch sim merge results/ --table load.csv --summary load-summary.csv",
            "  pfcswitch sim merge results/ --table load.json --json"})
final class MergeCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "DIR", description = "Directories holding shard files, or shard files.")
    List<Path> paths;

    @Option(names = "--table", paramLabel = "FILE",
            description = "Write the results table to FILE (.csv rows, .json rows and summary), as 'sim --table'. Repeatable.")
    List<Path> tables = new ArrayList<>();

    @Option(names = "--summary", paramLabel = "FILE",
            description = "Write the summary over seeds to FILE (.csv or .json), as 'sim --summary'. Repeatable.")
    List<Path> summaries = new ArrayList<>();

    @Option(names = "--json", description = "Print the table's JSON instead of the summary.")
    boolean json;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        tables.forEach(ResultTable::format);
        summaries.forEach(ResultTable::format);
        PrintWriter err = spec.commandLine().getErr();
        try {
            List<ShardFile> shards = new ArrayList<>();
            for (Path f : ShardFile.find(paths)) {
                shards.add(ShardFile.read(f));
            }
            ResultTable table = ShardMerge.merge(shards);
            err.println("merged " + shards.size() + " shard files, " + table.rows().size() + " runs");
            SimCommand.writeTable(table, tables, summaries, json, spec.commandLine().getOut(), err);
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
        return 0;
    }
}

package org.pfcswitch.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.util.List;

/** The {@code pfcswitch} command: one sub-command per job, each with its own --help. */
@Command(name = "pfcswitch",
        mixinStandardHelpOptions = true,
        versionProvider = PfcSwitch.Version.class,
        description = {
            "A software 802.1Qbb (PFC) switch for lossless-Ethernet research.",
            "",
            "Run 'pfcswitch COMMAND --help' for what each command does and takes."
        },
        subcommands = {FrameCommand.class, RecordCommand.class, FlowsCommand.class, DecodeCommand.class, MmuCommand.class, RunCommand.class, ShowCommand.class, SetCommand.class, PfcwdCommand.class, ClearCommand.class, TraceCommand.class, TestbedCommand.class, BenchCommand.class, SimCommand.class, PlotCommand.class, HostsCommand.class, LabCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class})
public final class PfcSwitch {

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs one command line with the given streams and returns its exit code; used by tests too. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine cli = new CommandLine(new PfcSwitch());
        cli.setOut(out);
        cli.setErr(err);
        cli.registerConverter(Double.class, PfcSwitch::finiteNumber);
        cli.registerConverter(Double.TYPE, PfcSwitch::finiteNumber);
        cli.setExecutionExceptionHandler((e, cmd, parsed) -> {
            // Expected failures (a file that can't be written, a bad pcap) get one line, not a trace.
            cmd.getErr().println(cmd.getCommandSpec().qualifiedName() + ": error: " + messageOf(e));
            return 1;
        });
        cli.setParameterExceptionHandler(PfcSwitch::usageError);
        fitHelp(cli);
        int code = cli.execute(args);
        out.flush();
        err.flush();
        return code;
    }

    /**
     * A command line picocli cannot take: one line saying why (with picocli's guesses at a mistyped
     * name on the same line), then a hint where the usage is; not the whole usage, which buries the line.
     * A word the command does not know is named before anything found missing: picocli checks the
     * required options first, and {@code --confg x} would otherwise be answered "missing --config".
     */
    private static int usageError(CommandLine.ParameterException error, String[] args) {
        CommandLine cmd = error.getCommandLine();
        CommandLine.ParameterException e = error instanceof CommandLine.UnmatchedArgumentException
                || cmd.getUnmatchedArguments().isEmpty() ? error
                : new CommandLine.UnmatchedArgumentException(cmd, cmd.getUnmatchedArguments());
        List<String> guesses = e instanceof CommandLine.UnmatchedArgumentException u ? u.getSuggestions() : List.of();
        cmd.getErr().println(e.getMessage() + (guesses.isEmpty() ? "" : " (did you mean " + String.join(" or ", guesses) + "?)"));
        cmd.getErr().println(USAGE_HINT_START + cmd.getCommandSpec().qualifiedName() + " --help' for its usage.");
        return cmd.getCommandSpec().exitCodeOnInvalidInput();
    }

    /** How the hint after a usage error starts (tests recognise it by this). */
    static final String USAGE_HINT_START = "Run '";

    /**
     * Help fits a terminal's width (picocli asks the terminal when help is printed); anywhere else (a
     * pipe, a file) lines are not wrapped at all, so an example stays one line that can be copied and a
     * grep finds an option with its description.
     */
    private static void fitHelp(CommandLine cli) {
        if (Terminal.attached()) {
            cli.setUsageHelpAutoWidth(true);
        } else {
            cli.setUsageHelpWidth(UNWRAPPED);
        }
    }

    /** Wider than any line of our help: picocli then wraps nothing. */
    static final int UNWRAPPED = 1_000;

    /** Every decimal option: NaN and infinities mean nothing as a time, a rate or a load. */
    static double finiteNumber(String text) {
        double v;
        try {
            v = Double.parseDouble(text.trim());
        } catch (NumberFormatException e) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a number");
        }
        if (!Double.isFinite(v)) {
            throw new CommandLine.TypeConversionException("'" + text + "' is not a finite number");
        }
        return v;
    }

    private static String messageOf(Throwable e) {
        String m = e.getMessage();
        return m == null || m.isBlank() ? e.getClass().getSimpleName() : m;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = PfcSwitch.class.getPackage().getImplementationVersion();
            return new String[] {"pfcswitch " + (v == null ? "development build" : v),
                    "Java " + Runtime.version()};
        }
    }
}

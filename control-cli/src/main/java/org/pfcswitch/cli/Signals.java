package org.pfcswitch.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * SIGINT and SIGTERM as a call-back instead of JVM shutdown, so that {@code run} and
 * {@code bench} can take the switch apart in order on the main thread and exit with 0. (A
 * shutdown hook would race the exit and could only end with 130/143.)
 *
 * <p>A signal the process inherited as ignored stays ignored: a script's background job ignores
 * SIGINT by POSIX rule, so that Ctrl-C in the terminal stops the script and not its background
 * children, and the JVM keeps that choice. The caller learns which signals are ignored and says
 * so; SIGTERM is the stop signal that always works.
 */
final class Signals {

    private Signals() {}

    /** Installs {@code handler} for SIGINT and SIGTERM; returns the ones that stay ignored ("SIGINT"). */
    @SuppressWarnings("removal")
    static List<String> onTermination(Consumer<String> handler) {
        List<String> ignored = new ArrayList<>();
        for (String name : new String[] {"INT", "TERM"}) {
            SignalHandler previous = Signal.handle(new Signal(name), s -> handler.accept("SIG" + s.getName()));
            if (previous == SignalHandler.SIG_IGN) {
                ignored.add("SIG" + name);
            }
        }
        return ignored;
    }
}

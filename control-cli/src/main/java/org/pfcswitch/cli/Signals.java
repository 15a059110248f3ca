package org.pfcswitch.cli;

import java.util.function.Consumer;

/**
 * SIGINT and SIGTERM as a call-back instead of JVM shutdown, so that {@code run} and
 * {@code bench} can take the switch apart in order on the main thread and exit with 0. (A
 * shutdown hook would race the exit and could only end with 130/143.)
 */
final class Signals {

    private Signals() {}

    @SuppressWarnings("removal")
    static void onTermination(Consumer<String> handler) {
        for (String name : new String[] {"INT", "TERM"}) {
            sun.misc.Signal.handle(new sun.misc.Signal(name), s -> handler.accept("SIG" + s.getName()));
        }
    }
}

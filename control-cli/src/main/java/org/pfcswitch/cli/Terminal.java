package org.pfcswitch.cli;

/** Whether a person watches this process's output on a terminal (not a pipe or a file). */
final class Terminal {

    private Terminal() {}

    /**
     * Since JDK 22 {@link System#console()} is there even when the streams are redirected, so its
     * {@code isTerminal()} decides.
     */
    static boolean attached() {
        java.io.Console c = System.console();
        return c != null && c.isTerminal();
    }
}

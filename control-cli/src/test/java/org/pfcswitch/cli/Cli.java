package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the CLI in-process and keeps what it printed. */
record Cli(int exitCode, String out, String err) {
    static Cli run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = PfcSwitch.run(new PrintWriter(out), new PrintWriter(err), args);
        return new Cli(code, out.toString(), err.toString());
    }

    String[] outLines() {
        return out.isEmpty() ? new String[0] : out.split("\n");
    }
}

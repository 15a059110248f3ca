package org.pfcswitch.cli;

import org.pfcswitch.config.Units;

import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/** A time given on the command line ({@code --duration 3s}), read with the configs' units. */
final class TimeOption {

    private TimeOption() {}

    /**
     * Nanoseconds of {@code text}, which must be a time above 0 (or also 0 when {@code zeroAllowed}).
     *
     * @throws ParameterException naming {@code option} and what is allowed
     */
    static long nanos(CommandLine cmd, String option, String text, boolean zeroAllowed) {
        long n;
        try {
            n = Units.nanos(text);
        } catch (IllegalArgumentException e) {
            n = -1;
        }
        if (n < 0 || (n == 0 && !zeroAllowed)) {
            throw new ParameterException(cmd, option + ": expected a time like 10s or 500ms" + (zeroAllowed ? " or 0" : "")
                    + ", got '" + text + "'");
        }
        return n;
    }
}

package org.pfcswitch.testbed.config;

import java.io.IOException;
import java.io.Writer;
import java.util.List;

import org.pfcswitch.testbed.FlowList;

/**
 * Writes a flow list in the form {@link FlowListReader} reads: {@code src dst bytes start [priority] [sport=N]}
 * a line, start in seconds with up to nine decimals (exact: reading it back gives the same
 * nanosecond), hosts by index or, given their names, by name.
 */
public final class FlowListWriter {

    private FlowListWriter() {}

    /**
     * Writes {@code list} after the comment lines {@code header} (each gets "# "); {@code names}
     * null: host indices; without {@code priorities} no fifth column (the scenario's priority applies).
     */
    public static void write(FlowList list, Writer out, List<String> names, List<String> header, boolean priorities)
            throws IOException {
        StringBuilder b = new StringBuilder(64);
        for (String h : header) {
            out.write("# " + h + "\n");
        }
        for (int i = 0; i < list.size(); i++) {
            b.setLength(0);
            host(b, list.src(i), names).append(' ');
            host(b, list.dst(i), names).append(' ').append(list.bytes(i)).append(' ');
            seconds(b, list.startNanos(i));
            if (priorities) {
                b.append(' ').append(list.priority(i));
            }
            if (list.udpSrcPort(i) != FlowList.DEFAULT_PORT) {
                b.append(' ').append(FlowListReader.SPORT).append(list.udpSrcPort(i));
            }
            b.append('\n');
            out.append(b);
        }
    }

    private static StringBuilder host(StringBuilder b, int h, List<String> names) {
        return names == null ? b.append(h) : b.append(names.get(h));
    }

    /** {@code nanos} as seconds, trailing zeros dropped: 1500000 -> 0.0015, 2000000000 -> 2. */
    public static StringBuilder seconds(StringBuilder b, long nanos) {
        b.append(nanos / 1_000_000_000L);
        long frac = nanos % 1_000_000_000L;
        if (frac != 0) {
            String f = Long.toString(1_000_000_000L + frac).substring(1);    // nine digits, leading zeros kept
            int end = f.length();
            while (f.charAt(end - 1) == '0') {
                end--;
            }
            b.append('.').append(f, 0, end);
        }
        return b;
    }
}

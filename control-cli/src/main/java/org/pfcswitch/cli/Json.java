package org.pfcswitch.cli;

/**
 * A minimal JSON object writer for one-line records. The CLI prints flat records with a few
 * arrays, so a library would add more than it saves.
 */
final class Json {
    private final StringBuilder sb = new StringBuilder(128).append('{');
    private boolean first = true;

    Json field(String name, String value) {
        key(name);
        quote(value);
        return this;
    }

    Json field(String name, long value) {
        key(name);
        sb.append(value);
        return this;
    }

    Json field(String name, boolean value) {
        key(name);
        sb.append(value);
        return this;
    }

    Json field(String name, int[] values) {
        key(name);
        sb.append('[');
        for (int i = 0; i < values.length; i++) {
            sb.append(i == 0 ? "" : ",").append(values[i]);
        }
        sb.append(']');
        return this;
    }

    @Override
    public String toString() {
        return sb + "}";
    }

    private void key(String name) {
        if (!first) {
            sb.append(',');
        }
        first = false;
        quote(name);
        sb.append(':');
    }

    private void quote(String s) {
        sb.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        sb.append('"');
    }
}

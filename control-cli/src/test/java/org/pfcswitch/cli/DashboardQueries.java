package org.pfcswitch.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The PromQL of a Grafana dashboard: every {@code expr} of every panel's {@code targets}, rows'
 * nested panels included, in the order they appear. The file is read with a small strict JSON
 * reader (RFC 8259: no comments, no trailing commas, keys quoted, one value), so a dashboard that
 * Grafana could not import fails here too. Objects become {@code Map<String, Object>} (insertion
 * order), arrays {@code List<Object>}, numbers {@code Double}, and literals {@code Boolean} or null.
 */
final class DashboardQueries {
    private DashboardQueries() {}

    /** Every panel target's {@code expr}, in file order. */
    static List<String> expressions(Path dashboardJson) throws IOException {
        Object root = parse(Files.readString(dashboardJson));
        if (!(root instanceof Map<?, ?> dashboard)) {
            throw new IllegalArgumentException(dashboardJson + ": the top level is not a JSON object");
        }
        List<String> out = new ArrayList<>();
        collect(dashboard.get("panels"), out);
        return out;
    }

    private static void collect(Object panels, List<String> out) {
        if (!(panels instanceof List<?> list)) {
            return;
        }
        for (Object p : list) {
            if (!(p instanceof Map<?, ?> panel)) {
                continue;
            }
            if (panel.get("targets") instanceof List<?> targets) {
                for (Object t : targets) {
                    if (t instanceof Map<?, ?> target && target.get("expr") instanceof String expr) {
                        out.add(expr);
                    }
                }
            }
            collect(panel.get("panels"), out);   // a collapsed row keeps its panels inside it
        }
    }

    /** Parses one JSON document; a syntax error throws with its line and column. */
    static Object parse(String json) {
        Reader r = new Reader(json);
        r.skipSpace();
        Object value = r.value();
        r.skipSpace();
        if (r.pos != json.length()) {
            throw r.error("text after the JSON value");
        }
        return value;
    }

    private static final class Reader {
        private final String s;
        private int pos;

        Reader(String s) {
            this.s = s;
        }

        Object value() {
            if (pos >= s.length()) {
                throw error("unexpected end of input, expected a value");
            }
            char c = s.charAt(pos);
            return switch (c) {
                case '{' -> object();
                case '[' -> array();
                case '"' -> string();
                case 't' -> literal("true", Boolean.TRUE);
                case 'f' -> literal("false", Boolean.FALSE);
                case 'n' -> literal("null", null);
                default -> {
                    if (c == '-' || (c >= '0' && c <= '9')) {
                        yield number();
                    }
                    throw error("unexpected character '" + c + "'");
                }
            };
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            pos++;                                   // '{'
            skipSpace();
            if (peek() == '}') {
                pos++;
                return map;
            }
            while (true) {
                skipSpace();
                if (peek() != '"') {
                    throw error("expected a quoted key");
                }
                String key = string();
                skipSpace();
                expect(':');
                skipSpace();
                if (map.containsKey(key)) {
                    throw error("duplicate key \"" + key + "\"");
                }
                map.put(key, value());
                skipSpace();
                char c = next("',' or '}'");
                if (c == '}') {
                    return map;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or '}'");
                }
            }
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            pos++;                                   // '['
            skipSpace();
            if (peek() == ']') {
                pos++;
                return list;
            }
            while (true) {
                skipSpace();
                list.add(value());
                skipSpace();
                char c = next("',' or ']'");
                if (c == ']') {
                    return list;
                }
                if (c != ',') {
                    pos--;
                    throw error("expected ',' or ']'");
                }
            }
        }

        private String string() {
            pos++;                                   // opening quote
            StringBuilder sb = new StringBuilder();
            while (true) {
                char c = next("a closing quote");
                if (c == '"') {
                    return sb.toString();
                }
                if (c < 0x20) {
                    pos--;
                    throw error("control character in a string");
                }
                if (c != '\\') {
                    sb.append(c);
                    continue;
                }
                char e = next("an escape");
                switch (e) {
                    case '"', '\\', '/' -> sb.append(e);
                    case 'b' -> sb.append('\b');
                    case 'f' -> sb.append('\f');
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        if (pos + 4 > s.length()) {
                            throw error("short \\u escape");
                        }
                        String hex = s.substring(pos, pos + 4);
                        if (!hex.matches("[0-9a-fA-F]{4}")) {
                            throw error("bad \\u escape");
                        }
                        sb.append((char) Integer.parseInt(hex, 16));
                        pos += 4;
                    }
                    default -> {
                        pos--;
                        throw error("bad escape '\\" + e + "'");
                    }
                }
            }
        }

        private Double number() {
            int start = pos;
            if (peek() == '-') {
                pos++;
            }
            if (peek() == '0') {
                pos++;
            } else if (isDigit(peek())) {
                digits();
            } else {
                throw error("expected a digit");
            }
            if (peek() == '.') {
                pos++;
                if (!isDigit(peek())) {
                    throw error("expected a digit after '.'");
                }
                digits();
            }
            if (peek() == 'e' || peek() == 'E') {
                pos++;
                if (peek() == '+' || peek() == '-') {
                    pos++;
                }
                if (!isDigit(peek())) {
                    throw error("expected a digit in the exponent");
                }
                digits();
            }
            return Double.valueOf(s.substring(start, pos));
        }

        private void digits() {
            while (isDigit(peek())) {
                pos++;
            }
        }

        private static boolean isDigit(char c) {
            return c >= '0' && c <= '9';
        }

        private Object literal(String word, Object value) {
            if (!s.startsWith(word, pos)) {
                throw error("unexpected word, expected " + word);
            }
            pos += word.length();
            return value;
        }

        void skipSpace() {
            while (pos < s.length()) {
                char c = s.charAt(pos);
                if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
                    return;
                }
                pos++;
            }
        }

        private char peek() {
            return pos < s.length() ? s.charAt(pos) : '\0';
        }

        private char next(String expected) {
            if (pos >= s.length()) {
                throw error("unexpected end of input, expected " + expected);
            }
            return s.charAt(pos++);
        }

        private void expect(char c) {
            if (peek() != c) {
                throw error("expected '" + c + "'");
            }
            pos++;
        }

        IllegalArgumentException error(String what) {
            int line = 1;
            int col = 1;
            for (int i = 0; i < Math.min(pos, s.length()); i++) {
                if (s.charAt(i) == '\n') {
                    line++;
                    col = 1;
                } else {
                    col++;
                }
            }
            return new IllegalArgumentException("JSON line " + line + " column " + col + ": " + what);
        }
    }
}

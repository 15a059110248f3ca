package org.pfcswitch.control;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One request, received whole before any handler sees it.
 *
 * @param method       GET, POST, ...
 * @param path         the target's path, percent-decoded
 * @param rawQuery     the target's query, as sent (null without one)
 * @param headers      by lower-case name; a repeated header keeps its last value
 * @param body         exactly Content-Length bytes
 * @param arrivedNanos {@link System#nanoTime} when its first byte was read
 */
public record ApiRequest(String method, String path, String rawQuery, Map<String, String> headers, byte[] body,
                          long arrivedNanos) {

    public String header(String name) {
        return headers.get(name.toLowerCase(java.util.Locale.ROOT));
    }

    /** The query's parameters, values percent-decoded, in the order sent. */
    public Map<String, String> query() {
        Map<String, String> q = new LinkedHashMap<>();
        if (rawQuery != null && !rawQuery.isEmpty()) {
            for (String pair : rawQuery.split("&")) {
                int eq = pair.indexOf('=');
                q.put(eq < 0 ? pair : pair.substring(0, eq),
                        eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
            }
        }
        return q;
    }
}

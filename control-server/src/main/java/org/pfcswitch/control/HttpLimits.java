package org.pfcswitch.control;

import java.time.Duration;

/**
 * What one client of the control API may hold, and for how long. A request arrives whole (request
 * line, headers and body) within {@code requestTimeout} of its first byte or is answered 408 and
 * closed; a connection with no request under way is closed after {@code idleTimeout}; a client that
 * stops reading its answer is dropped after {@code writeTimeout} without progress. When all
 * {@code maxConnections} are open, a new one takes the place of the connection that has waited
 * longest for a request to arrive (idle or half-sent), so stuck clients cannot lock others out.
 *
 * @param maxConnections  open connections at most
 * @param maxHeaderBytes  request line and headers at most (431 beyond)
 * @param maxBodyBytes    body at most, as its Content-Length says (413 beyond)
 * @param requestTimeout  from a request's first byte to its last
 * @param idleTimeout     a kept-alive connection between two requests
 * @param writeTimeout    an answer's bytes without any taken by the client
 */
public record HttpLimits(int maxConnections, int maxHeaderBytes, int maxBodyBytes, Duration requestTimeout,
                         Duration idleTimeout, Duration writeTimeout) {

    /** What the switch's control API uses. */
    public static final HttpLimits DEFAULT = new HttpLimits(256, 8 * 1024, 64 * 1024, Duration.ofSeconds(5),
            Duration.ofSeconds(30), Duration.ofSeconds(10));

    public HttpLimits {
        if (maxConnections < 1 || maxHeaderBytes < 64 || maxBodyBytes < 0) {
            throw new IllegalArgumentException("bad HTTP limits: " + maxConnections + " connections, " + maxHeaderBytes
                    + " header bytes, " + maxBodyBytes + " body bytes");
        }
    }
}

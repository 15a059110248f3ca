package org.pfcswitch.control;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

import org.pfcswitch.control.json.JsonOutput;

/**
 * How a handler answers one {@link ApiRequest}: once, either whole ({@link #send}) or streamed
 * ({@link #stream}). Answers are queued and written by the listener's own thread, so a handler
 * never waits for a client that does not read.
 */
public interface ApiExchange {

    /** Answers with {@code body}, which ends the exchange. Does nothing if the client is gone. */
    void send(int status, String contentType, byte[] body);

    /**
     * Starts a chunked answer; closing the stream ends it. A write throws {@link IOException} once
     * the client is gone or has left too much of the answer unread.
     */
    OutputStream stream(int status, String contentType) throws IOException;

    default void send(int status, String contentType, String body) {
        send(status, contentType, body.getBytes(StandardCharsets.UTF_8));
    }

    /** The API's error answer: {@code {"error": MESSAGE, "status": STATUS}}. */
    default void sendError(int status, String message) {
        send(status, "application/json", new JsonOutput().beginObject().field("error", message).field("status", status)
                .endObject().toString());
    }
}

package org.pfcswitch.control;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The control API's HTTP server on its own, with short limits, against clients that misbehave on purpose. */
class HttpListenerTest {

    static final HttpLimits SHORT = new HttpLimits(8, 1024, 4096, Duration.ofMillis(300), Duration.ofMillis(300),
            Duration.ofMillis(500));

    HttpListener listener;
    final CountDownLatch streamEnded = new CountDownLatch(1);
    volatile String streamFailure;

    @BeforeEach
    void start() throws IOException {
        listener = HttpListener.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), SHORT, 2, this::serve);
    }

    @AfterEach
    void stop() {
        listener.close();
    }

    private void serve(ApiRequest request, ApiExchange exchange) {
        switch (request.path()) {
            case "/echo" -> exchange.send(200, "text/plain", request.body());
            case "/late" -> {
                exchange.send(200, "text/plain", "early");
                sleep(30);                        // still running when the client's next request arrives
            }
            case "/stream" -> {
                try (OutputStream out = exchange.stream(200, "application/octet-stream")) {
                    byte[] chunk = new byte[64 * 1024];
                    while (true) {
                        out.write(chunk);
                    }
                } catch (IOException e) {
                    streamFailure = e.getMessage();
                } finally {
                    streamEnded.countDown();
                }
            }
            default -> exchange.sendError(404, "no " + request.path());
        }
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private Socket connect() throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), listener.port());
        s.setSoTimeout(5000);
        return s;
    }

    private static String readAll(Socket s) throws IOException {
        return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
    }

    /** A handler still running after it answered cannot touch the answer of the next request on the same connection. */
    @Test
    void keptAliveRequestsEachGetTheirOwnAnswer() throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + listener.port() + "/late"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, r.statusCode(), "request " + i + ": " + r.body());
            assertEquals("early", r.body());
        }
    }

    @Test
    void aHalfSentRequestIsAnswered408AndAnIdleConnectionClosed() throws Exception {
        try (Socket half = connect(); Socket idle = connect()) {
            half.getOutputStream().write("GET /echo HTTP/1.1\r\nHost: x\r\n".getBytes(StandardCharsets.US_ASCII));
            long start = System.nanoTime();
            String answer = readAll(half);
            long tookMillis = (System.nanoTime() - start) / 1_000_000;
            assertTrue(answer.startsWith("HTTP/1.1 408 ") && answer.contains("did not arrive whole within 300 ms"), answer);
            assertTrue(tookMillis >= 250 && tookMillis < 2000, "408 after " + tookMillis + " ms");
            assertEquals(-1, idle.getInputStream().read(), "an idle connection is closed");
        }
        assertEquals(1, listener.drops(HttpListener.Drop.REQUEST_TIMEOUT));
        assertEquals(1, listener.drops(HttpListener.Drop.IDLE_TIMEOUT));
    }

    @Test
    void whenEverySlotIsTakenTheLongestWaitingIsEvictedForANewClient() throws Exception {
        List<Socket> stuck = new ArrayList<>();
        try {
            for (int i = 0; i < SHORT.maxConnections(); i++) {
                Socket s = connect();
                s.getOutputStream().write('G');
                stuck.add(s);
                Thread.sleep(5);                  // so that the first is the longest waiting
            }
            try (Socket fresh = connect()) {
                fresh.getOutputStream().write("POST /echo HTTP/1.1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi"
                        .getBytes(StandardCharsets.US_ASCII));
                String answer = readAll(fresh);
                assertTrue(answer.startsWith("HTTP/1.1 200 ") && answer.endsWith("\r\n\r\nhi"), answer);
            }
            assertEquals(-1, stuck.getFirst().getInputStream().read(), "the longest waiting was closed");
            assertEquals(1, listener.drops(HttpListener.Drop.EVICTED));
        } finally {
            for (Socket s : stuck) {
                s.close();
            }
        }
    }

    @Test
    void aClientThatDoesNotReadAStreamedAnswerEndsIt() throws Exception {
        try (Socket s = connect()) {
            s.setReceiveBufferSize(4096);
            s.getOutputStream().write("GET /stream HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertTrue(streamEnded.await(20, TimeUnit.SECONDS), "the handler's writes failed");
            assertTrue(streamFailure != null && (streamFailure.contains("unread") || streamFailure.contains("closed")),
                    streamFailure);
        }
        assertEquals(1, listener.drops(HttpListener.Drop.WRITE_TIMEOUT));
    }

    @Test
    void pipelinedAndContinuedRequestsAreAnsweredInOrder() throws Exception {
        try (Socket s = connect()) {
            s.getOutputStream().write(("POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\none"
                    + "POST /echo HTTP/1.1\r\nContent-Length: 3\r\nConnection: close\r\n\r\ntwo").getBytes(StandardCharsets.US_ASCII));
            String answers = readAll(s);
            assertTrue(answers.matches("(?s)HTTP/1.1 200 .*\r\n\r\noneHTTP/1.1 200 .*\r\n\r\ntwo"), answers);
        }
        try (Socket s = connect()) {
            OutputStream out = s.getOutputStream();
            out.write("POST /echo HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            InputStream in = s.getInputStream();
            byte[] cont = in.readNBytes("HTTP/1.1 100 Continue\r\n\r\n".length());
            assertEquals("HTTP/1.1 100 Continue\r\n\r\n", new String(cont, StandardCharsets.US_ASCII));
            out.write("body".getBytes(StandardCharsets.US_ASCII));
            String answer = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
            assertTrue(answer.startsWith("HTTP/1.1 200 ") && answer.endsWith("\r\n\r\nbody"), answer);
        }
    }

    @Test
    void oversizedRequestsAreRefusedWithOneLine() throws Exception {
        record Raw(String request, String answer) {}
        for (Raw r : List.of(
                new Raw("GET /echo HTTP/1.1\r\nX: " + "a".repeat(2000) + "\r\n\r\n",
                        "{\"error\":\"request line and headers over 1024 bytes\",\"status\":431}"),
                new Raw("POST /echo HTTP/1.1\r\nContent-Length: 5000\r\n\r\n",
                        "{\"error\":\"request body of 5000 bytes; at most 4096\",\"status\":413}"),
                new Raw("POST /echo HTTP/1.1\r\nContent-Length: many\r\n\r\n",
                        "{\"error\":\"Content-Length must be a number, got 'many'\",\"status\":400}"))) {
            try (Socket s = connect()) {
                s.getOutputStream().write(r.request().getBytes(StandardCharsets.US_ASCII));
                String answer = readAll(s);
                assertTrue(answer.endsWith("\r\n\r\n" + r.answer()), answer);
            }
        }
        assertEquals(3, listener.drops(HttpListener.Drop.BAD_REQUEST));
    }
}

package org.pfcswitch.cli;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Local clients that hold the control API's connections without ever finishing a request: some
 * send half a request (headers never ended), some a byte a second, some nothing at all. One thread
 * keeps them up: each second it sends the slow ones their next byte and reconnects any the server
 * closed, so the pressure lasts as long as the test wants.
 */
final class HostileClients implements AutoCloseable {

    private static final byte[] HALF = "GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SLOW = ("POST /api/v1/params HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 30\r\n\r\n"
            + "{\"params\":{\"alpha\":\"1/2\"}}").getBytes(StandardCharsets.US_ASCII);

    private enum Kind { HALF_OPEN, SLOW, IDLE }

    private final class Client {
        final Kind kind;
        Socket socket;
        int sent;

        Client(Kind kind) {
            this.kind = kind;
        }

        void connect() throws IOException {
            socket = new Socket();
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(1);
            sent = 0;
            if (kind == Kind.HALF_OPEN) {
                socket.getOutputStream().write(HALF);
            }
        }

        /** Whether the server answered or closed it (a stuck client never gets either otherwise). */
        boolean droppedByServer() {
            try {
                InputStream in = socket.getInputStream();
                in.read();                             // any byte (an answer) or -1 (closed)
                return true;
            } catch (SocketTimeoutException e) {
                return false;
            } catch (IOException e) {
                return true;
            }
        }

        void tick() throws IOException {
            if (droppedByServer()) {
                socket.close();
                reconnects.incrementAndGet();
                connect();
            } else if (kind == Kind.SLOW && sent < SLOW.length - 1) {   // never the last byte
                try {
                    socket.getOutputStream().write(SLOW[sent++]);
                } catch (IOException e) {
                    socket.close();
                    reconnects.incrementAndGet();
                    connect();
                }
            }
        }
    }

    private final int port;
    private final List<Client> clients = new ArrayList<>();
    private final AtomicLong reconnects = new AtomicLong();
    private final CountDownLatch open = new CountDownLatch(1);
    private final Thread keeper;
    private volatile boolean stop;

    HostileClients(int port, int halfOpen, int slow, int idle) {
        this.port = port;
        for (int i = 0; i < halfOpen; i++) {
            clients.add(new Client(Kind.HALF_OPEN));
        }
        for (int i = 0; i < slow; i++) {
            clients.add(new Client(Kind.SLOW));
        }
        for (int i = 0; i < idle; i++) {
            clients.add(new Client(Kind.IDLE));
        }
        keeper = new Thread(this::keep, "hostile-clients");
        keeper.setDaemon(true);
        keeper.start();
    }

    private void keep() {
        try {
            for (Client c : clients) {
                c.connect();
            }
            open.countDown();
            while (!stop) {
                long next = System.nanoTime() + 1_000_000_000L;
                for (Client c : clients) {
                    c.tick();
                }
                long left = next - System.nanoTime();
                if (left > 0) {
                    TimeUnit.NANOSECONDS.sleep(left);
                }
            }
        } catch (IOException | InterruptedException e) {
            if (!stop) {
                throw new IllegalStateException("hostile clients failed", e);
            }
        } finally {
            for (Client c : clients) {
                try {
                    if (c.socket != null) {
                        c.socket.close();
                    }
                } catch (IOException ignored) {
                    // closing
                }
            }
        }
    }

    void awaitOpen(Duration timeout) throws InterruptedException {
        if (!open.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new AssertionError("hostile clients could not all connect within " + timeout);
        }
    }

    /** Connections the server answered or closed, reopened since start. */
    long reconnects() {
        return reconnects.get();
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        keeper.interrupt();
        keeper.join(5000);
    }

    /** Sends {@code request} raw on a fresh connection and returns all the server answers before it closes. */
    static String exchange(int port, String request) throws IOException {
        try (Socket s = new Socket("127.0.0.1", port)) {
            s.setSoTimeout(5000);
            s.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            return new String(s.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }
}

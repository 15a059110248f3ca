package org.pfcswitch.control;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The control API's HTTP/1.1 server: one thread that accepts, reads and writes every connection
 * without blocking, and a few handler threads that only ever see requests received whole. A client
 * can therefore hold nothing but its own connection: a half-sent request costs a slot and a
 * buffer until {@link HttpLimits#requestTimeout}, not a thread; and the slots themselves go to the
 * newest client when they run out (see {@link HttpLimits}). Requests are answered in order, one at
 * a time per connection (keep-alive, pipelining allowed); request bodies need Content-Length.
 */
public final class HttpListener implements AutoCloseable {

    /** Serves one request, on a handler thread. Must answer through the exchange exactly once. */
    @FunctionalInterface
    public interface Handler {
        void handle(ApiRequest request, ApiExchange exchange);
    }

    /** Why the listener dropped or refused a connection: counted, since clients come and go unlogged. */
    public enum Drop {
        /** a request not received whole within the request timeout (answered 408) */
        REQUEST_TIMEOUT("request_timeout"),
        /** a kept-alive connection idle for the idle timeout */
        IDLE_TIMEOUT("idle_timeout"),
        /** a client that left its answer unread for the write timeout, or too much of a streamed one */
        WRITE_TIMEOUT("write_timeout"),
        /** an idle or half-sent connection closed to make room for a new one (or the new one, when none was) */
        EVICTED("evicted"),
        /** a request over the size limits or not HTTP/1.x (answered 4xx) */
        BAD_REQUEST("bad_request");

        public final String label;

        Drop(String label) {
            this.label = label;
        }
    }

    /** Unread answer bytes a streamed answer may leave queued before its writes fail. */
    static final int MAX_STREAM_BACKLOG = 4 << 20;
    private static final long TICK_MILLIS = 100;
    private static final long LINGER_NANOS = 1_000_000_000L;
    private static final byte[] CONTINUE = "HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final HttpLimits limits;
    private final Handler handler;
    private final ServerSocketChannel server;
    private final Selector selector;
    private final ExecutorService handlers;
    private final Thread loop;
    /** Selector thread only. */
    private final Set<Connection> connections = new HashSet<>();
    /** Connections whose handler queued output or finished: the selector thread picks them up. */
    private final ConcurrentLinkedQueue<Connection> progressed = new ConcurrentLinkedQueue<>();
    private final AtomicLong[] drops = new AtomicLong[Drop.values().length];
    private volatile boolean closing;

    private HttpListener(ServerSocketChannel server, HttpLimits limits, int handlerThreads, Handler handler) throws IOException {
        this.server = server;
        this.limits = limits;
        this.handler = handler;
        this.selector = Selector.open();
        for (int i = 0; i < drops.length; i++) {
            drops[i] = new AtomicLong();
        }
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        this.handlers = Executors.newFixedThreadPool(handlerThreads, r -> {
            Thread t = new Thread(r, "pfcswitch-control");
            t.setDaemon(true);
            return t;
        });
        this.loop = new Thread(this::run, "pfcswitch-control-io");
        loop.setDaemon(true);
    }

    /**
     * Binds {@code address} and starts serving.
     *
     * @throws java.net.BindException the address is in use
     */
    public static HttpListener start(InetSocketAddress address, HttpLimits limits, int handlerThreads, Handler handler)
            throws IOException {
        ServerSocketChannel server = ServerSocketChannel.open();
        try {
            server.bind(address, 64);
            HttpListener l = new HttpListener(server, limits, handlerThreads, handler);
            l.loop.start();
            return l;
        } catch (IOException | RuntimeException e) {
            server.close();
            throw e;
        }
    }

    public int port() {
        return server.socket().getLocalPort();
    }

    /** Connections dropped or refused for {@code reason} since start. */
    public long drops(Drop reason) {
        return drops[reason.ordinal()].get();
    }

    @Override
    public void close() {
        closing = true;
        selector.wakeup();
        try {
            loop.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        handlers.shutdownNow();
    }

    // ------------------------------------------------------------------ the selector thread

    private void run() {
        try {
            while (!closing) {
                selector.select(TICK_MILLIS);
                for (Connection c; (c = progressed.poll()) != null; ) {
                    safely(c, c::flush);
                }
                for (SelectionKey key : selector.selectedKeys()) {
                    if (!key.isValid()) {
                        continue;
                    }
                    if (key.isAcceptable()) {
                        try {
                            accept();
                        } catch (IOException e) {
                            Thread.sleep(10);       // out of file descriptors, say: the others are served meanwhile
                        }
                    } else {
                        Connection c = (Connection) key.attachment();
                        safely(c, () -> {
                            if (key.isWritable()) {
                                c.flush();
                            }
                            if (key.isValid() && key.isReadable()) {
                                c.read();
                            }
                        });
                    }
                }
                selector.selectedKeys().clear();
                sweep(System.nanoTime());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            System.err.println("pfcswitch: control API stopped: " + e);
        } finally {
            for (Connection c : new ArrayList<>(connections)) {
                c.close();
            }
            try {
                selector.close();
                server.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }

    private void accept() throws IOException {
        SocketChannel ch = server.accept();
        if (ch == null) {
            return;
        }
        if (connections.size() >= limits.maxConnections()) {
            Connection longestWaiting = null;
            for (Connection c : connections) {
                if (c.waitingForRequest() && (longestWaiting == null || c.since < longestWaiting.since)) {
                    longestWaiting = c;
                }
            }
            drops[Drop.EVICTED.ordinal()].incrementAndGet();
            if (longestWaiting == null) {        // every slot is being answered: the newcomer waits its turn elsewhere
                ch.close();
                return;
            }
            longestWaiting.close();
        }
        try {
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            Connection c = new Connection(ch);
            c.key = ch.register(selector, SelectionKey.OP_READ, c);
            connections.add(c);
        } catch (IOException e) {
            ch.close();
            throw e;
        }
    }

    private void sweep(long now) {
        for (Connection c : new ArrayList<>(connections)) {
            safely(c, () -> c.checkDeadlines(now));
        }
    }

    /** One connection's trouble (e.g. its key cancelled under it) closes that connection only. */
    private static void safely(Connection c, Runnable step) {
        try {
            step.run();
        } catch (java.nio.channels.CancelledKeyException e) {
            c.close();
        }
    }

    private enum State {
        /** no byte of the next request yet */
        IDLE,
        /** part of a request */
        RECEIVING,
        /** a request is with a handler, or its answer is being written */
        ANSWERING,
        /**
         * answered and closing: output shut, what the client still sends read and dropped until it
         * closes or {@link #LINGER_NANOS} pass, so that closing with unread input (a reset) does not
         * destroy the answer before the client read it
         */
        CLOSING
    }

    private final class Connection {
        final SocketChannel ch;
        SelectionKey key;
        State state = State.IDLE;
        /** When the current state began (IDLE: the last answer's end; RECEIVING: the request's first byte). */
        long since = System.nanoTime();
        /** Request line and headers, then what follows them (body, a pipelined request). Write mode. */
        final ByteBuffer head = ByteBuffer.allocate(limits.maxHeaderBytes());
        ApiRequest pending;            // parsed head, body still arriving
        ByteBuffer body;
        /** Whether the request being received lets the connection stay open after its answer. */
        boolean keepAlive;
        /** When queued output last went out or first waited; 0 while nothing waits. */
        long stalledSince;

        // shared with handler threads
        final ConcurrentLinkedQueue<ByteBuffer> out = new ConcurrentLinkedQueue<>();
        final AtomicLong backlog = new AtomicLong();
        /** The answer to the request being served (selector thread). */
        Answer current;
        volatile boolean closed;

        Connection(SocketChannel ch) {
            this.ch = ch;
        }

        boolean waitingForRequest() {
            return state == State.IDLE || state == State.RECEIVING;
        }

        void read() {
            if (state == State.CLOSING) {
                discardInput();
                return;
            }
            if (state == State.ANSWERING) {         // readable when the request was dispatched this pass: later
                return;
            }
            try {
                int n = pending == null ? ch.read(head) : ch.read(body);
                if (n < 0) {
                    close();
                    return;
                }
                if (n > 0 && state == State.IDLE) {
                    state = State.RECEIVING;
                    since = System.nanoTime();
                }
                advance();
            } catch (IOException e) {
                close();
            }
        }

        /** Parses what has arrived; hands a whole request to a handler. */
        private void advance() {
            if (pending == null) {
                if (state == State.IDLE && head.position() > 0) {     // a pipelined request already buffered
                    state = State.RECEIVING;
                    since = System.nanoTime();
                }
                int end = headEnd();
                if (end < 0) {
                    if (!head.hasRemaining()) {
                        refuse(431, "request line and headers over " + limits.maxHeaderBytes() + " bytes");
                    }
                    return;
                }
                byte[] text = new byte[end];
                head.flip();
                head.get(text);
                head.position(head.position() + 4);
                head.compact();
                if (!parseHead(new String(text, StandardCharsets.ISO_8859_1))) {
                    return;
                }
                int take = Math.min(head.position(), body.remaining());
                head.flip();
                body.put(body.position(), head, 0, take);
                body.position(take);
                head.position(take);
                head.compact();
                if (body.hasRemaining() && "100-continue".equalsIgnoreCase(pending.header("expect"))) {
                    queue(ByteBuffer.wrap(CONTINUE));
                    flush();
                }
            }
            if (!body.hasRemaining()) {
                dispatch();
            }
        }

        private int headEnd() {
            byte[] a = head.array();
            for (int i = 3; i < head.position(); i++) {
                if (a[i] == '\n' && a[i - 1] == '\r' && a[i - 2] == '\n' && a[i - 3] == '\r') {
                    return i - 3;
                }
            }
            return -1;
        }

        /** Sets {@link #pending} and {@link #body}, or refuses the request and returns false. */
        private boolean parseHead(String text) {
            String[] lines = text.split("\r\n", -1);
            String[] start = lines[0].split(" ", -1);
            if (start.length != 3 || !start[1].startsWith("/") || !start[2].startsWith("HTTP/1.")) {
                refuse(400, "not an HTTP/1.x request line: '" + abbreviate(lines[0]) + "'");
                return false;
            }
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                if (colon <= 0) {
                    refuse(400, "not a header line: '" + abbreviate(lines[i]) + "'");
                    return false;
                }
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
            if (headers.containsKey("transfer-encoding")) {
                refuse(411, "a request body needs Content-Length (Transfer-Encoding is not accepted)");
                return false;
            }
            long length;
            try {
                length = Long.parseLong(headers.getOrDefault("content-length", "0"));
            } catch (NumberFormatException e) {
                refuse(400, "Content-Length must be a number, got '" + abbreviate(headers.get("content-length")) + "'");
                return false;
            }
            if (length < 0 || length > limits.maxBodyBytes()) {
                refuse(413, "request body of " + length + " bytes; at most " + limits.maxBodyBytes());
                return false;
            }
            URI target;
            try {
                target = new URI(start[1]);
            } catch (URISyntaxException e) {
                refuse(400, "not a request target: '" + abbreviate(start[1]) + "'");
                return false;
            }
            String connection = headers.getOrDefault("connection", "");
            keepAlive = start[2].equals("HTTP/1.1") && !connection.equalsIgnoreCase("close");
            pending = new ApiRequest(start[0], target.getPath(), target.getRawQuery(), headers, new byte[(int) length], since);
            body = ByteBuffer.wrap(pending.body());
            return true;
        }

        private void dispatch() {
            ApiRequest request = pending;
            pending = null;
            body = null;
            Answer answer = startAnswer(keepAlive);
            try {
                handlers.execute(() -> {
                    try {
                        handler.handle(request, answer);
                    } catch (RuntimeException e) {
                        if (!answer.answered) {
                            answer.sendError(500, "internal error: " + e);
                        }
                    }
                    if (!answer.answered) {
                        answer.sendError(500, "internal error: no answer to " + request.method() + " " + request.path());
                    }
                });
            } catch (RejectedExecutionException e) {
                close();                            // shutting down
            }
        }

        private Answer startAnswer(boolean keepAlive) {
            state = State.ANSWERING;
            since = System.nanoTime();
            current = new Answer(keepAlive);
            key.interestOps(0);                     // no reading while answering: requests are served in order
            return current;
        }

        /** Answers a request that will not reach a handler, and closes after it. */
        private void refuse(int status, String message) {
            drops[Drop.BAD_REQUEST.ordinal()].incrementAndGet();
            pending = null;
            body = null;
            startAnswer(false).sendError(status, message);
        }

        void checkDeadlines(long now) {
            if (state == State.IDLE && now - since > limits.idleTimeout().toNanos()) {
                drops[Drop.IDLE_TIMEOUT.ordinal()].incrementAndGet();
                close();
            } else if (state == State.RECEIVING && now - since > limits.requestTimeout().toNanos()) {
                drops[Drop.REQUEST_TIMEOUT.ordinal()].incrementAndGet();
                pending = null;
                body = null;
                startAnswer(false).sendError(408, "the request did not arrive whole within " + limits.requestTimeout().toMillis() + " ms");
            } else if (state == State.CLOSING && now - since > LINGER_NANOS) {
                close();
            } else if (stalledSince != 0 && now - stalledSince > limits.writeTimeout().toNanos()) {
                drops[Drop.WRITE_TIMEOUT.ordinal()].incrementAndGet();
                close();
            }
        }

        // ---------------------------------------------------------- answers (handler threads)

        /** One request's answer: its own flags, so a handler that returns late cannot touch the next request's. */
        private final class Answer implements ApiExchange {
            final boolean keepAlive;
            volatile boolean answered;
            /** All of the answer is queued. */
            volatile boolean done;

            Answer(boolean keepAlive) {
                this.keepAlive = keepAlive;
            }

            @Override
            public void send(int status, String contentType, byte[] bodyBytes) {
                if (answered) {
                    throw new IllegalStateException("answered twice");
                }
                answered = true;
                queue(ByteBuffer.wrap(statusAndHeaders(status, contentType, "Content-Length: " + bodyBytes.length)));
                queue(ByteBuffer.wrap(bodyBytes));
                finish();
            }

            @Override
            public OutputStream stream(int status, String contentType) throws IOException {
                if (answered) {
                    throw new IllegalStateException("answered twice");
                }
                answered = true;
                queue(ByteBuffer.wrap(statusAndHeaders(status, contentType, "Transfer-Encoding: chunked")));
                wake();
                return new java.io.BufferedOutputStream(new OutputStream() {
                    private boolean ended;

                    @Override
                    public void write(int b) throws IOException {
                        write(new byte[]{(byte) b}, 0, 1);
                    }

                    @Override
                    public void write(byte[] b, int off, int len) throws IOException {
                        if (len == 0) {
                            return;
                        }
                        if (closed) {
                            throw new IOException("the client closed the connection");
                        }
                        if (backlog.get() > MAX_STREAM_BACKLOG) {
                            drops[Drop.WRITE_TIMEOUT.ordinal()].incrementAndGet();
                            done = true;
                            closeSoon();
                            throw new IOException("the client left over " + MAX_STREAM_BACKLOG + " bytes unread");
                        }
                        byte[] chunk = new byte[len + 16];
                        byte[] size = (Integer.toHexString(len) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                        System.arraycopy(size, 0, chunk, 0, size.length);
                        System.arraycopy(b, off, chunk, size.length, len);
                        chunk[size.length + len] = '\r';
                        chunk[size.length + len + 1] = '\n';
                        queue(ByteBuffer.wrap(chunk, 0, size.length + len + 2));
                        wake();
                    }

                    @Override
                    public void close() {
                        if (!ended) {
                            ended = true;
                            queue(ByteBuffer.wrap("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
                            finish();
                        }
                    }
                }, 16 * 1024);
            }

            private void finish() {
                done = true;
                wake();
            }

            private byte[] statusAndHeaders(int status, String contentType, String framing) {
                return ("HTTP/1.1 " + status + " " + reason(status) + "\r\nContent-Type: " + contentType + "\r\n" + framing
                        + "\r\nConnection: " + (keepAlive ? "keep-alive" : "close") + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
            }
        }

        private void queue(ByteBuffer b) {
            if (!closed) {
                backlog.addAndGet(b.remaining());
                out.add(b);
            }
        }

        private void wake() {
            progressed.add(this);
            selector.wakeup();
        }

        /** From a handler thread: the selector thread closes the connection on its next pass. */
        private void closeSoon() {
            out.clear();
            backlog.set(0);
            closed = true;
            wake();
        }

        // ---------------------------------------------------------- writing (selector thread)

        /** Writes what is queued; when the answer is out, closes or waits for the next request. */
        void flush() {
            if (!ch.isOpen()) {
                return;
            }
            if (closed) {
                close();
                return;
            }
            try {
                for (ByteBuffer b; (b = out.peek()) != null; ) {
                    int n = ch.write(b);
                    if (n > 0) {
                        backlog.addAndGet(-n);
                        stalledSince = System.nanoTime();
                    }
                    if (b.hasRemaining()) {
                        break;
                    }
                    out.poll();
                }
            } catch (IOException e) {
                close();
                return;
            }
            if (!out.isEmpty()) {
                if (stalledSince == 0) {
                    stalledSince = System.nanoTime();
                }
                key.interestOps(SelectionKey.OP_WRITE);
                return;
            }
            stalledSince = 0;
            if (state != State.ANSWERING || !current.done) {
                key.interestOps(state == State.ANSWERING ? 0 : SelectionKey.OP_READ);
                return;
            }
            if (!current.keepAlive) {
                linger();
                return;
            }
            state = State.IDLE;
            since = System.nanoTime();
            key.interestOps(SelectionKey.OP_READ);
            advance();                              // a request pipelined behind the last one
        }

        private void linger() {
            try {
                ch.shutdownOutput();
            } catch (IOException e) {
                close();
                return;
            }
            state = State.CLOSING;
            since = System.nanoTime();
            key.interestOps(SelectionKey.OP_READ);
        }

        private void discardInput() {
            ByteBuffer sink = head.clear();
            try {
                int n;
                while ((n = ch.read(sink)) > 0) {
                    sink.clear();
                }
                if (n < 0) {
                    close();
                }
            } catch (IOException e) {
                close();
            }
        }

        void close() {
            closed = true;
            connections.remove(this);
            if (key != null) {
                key.cancel();
            }
            try {
                ch.close();
            } catch (IOException ignored) {
                // gone either way
            }
        }
    }

    private static String abbreviate(String s) {
        return s == null ? "" : s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }

    private static String reason(int status) {
        return switch (status) {
            case 100 -> "Continue";
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 411 -> "Length Required";
            case 413 -> "Content Too Large";
            case 431 -> "Request Header Fields Too Large";
            case 500 -> "Internal Server Error";
            case 503 -> "Service Unavailable";
            default -> "Status";
        };
    }
}

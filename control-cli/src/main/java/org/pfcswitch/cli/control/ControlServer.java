package org.pfcswitch.cli.control;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import org.pfcswitch.cli.json.JsonOutput;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.mmu.MmuConfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * The running switch's control API: HTTP and JSON, on 127.0.0.1 unless told otherwise.
 *
 * <pre>
 * GET  /metrics                         Prometheus text exposition (micrometer)
 * GET  /api/v1/show/VIEW[?format=text]  VIEW: ports, queues, buffer, pfc, thresholds, scheme, pfcwd, deadlock
 * GET  /api/v1/trace?duration=2s&amp;every=10us   a trace (CSV, format of TraceWriter), streamed as recorded
 * POST /api/v1/scheme   {"scheme": "dsh"}                          token required
 * POST /api/v1/params   {"params": {"alpha": "1/8", "ecn.kmax": "400KiB"}}   token required
 * </pre>
 *
 * Reads are open; a mutation needs {@code Authorization: Bearer TOKEN} (see {@link ControlToken}).
 * Every error is a 4xx or 5xx with {@code {"error": "...", ...}} naming what was wrong and what is
 * allowed; a refused mutation changes nothing. Requests that read or change the switch's state
 * take turns on one lock (they share one preallocated snapshot, which the switch's worker fills
 * between two bursts, {@link DpdkSwitch#snapshot}); a trace streams on its own thread meanwhile,
 * so a scrape never waits for a trace to end. One trace at a time.
 */
public final class ControlServer implements AutoCloseable {

    /** How long a request waits for the worker to take it (it polls every few microseconds when healthy). */
    static final long WORKER_TIMEOUT_NANOS = 2_000_000_000L;
    private static final int MAX_BODY_BYTES = 64 * 1024;

    private final DpdkSwitch sw;
    private final List<String> portNames;
    private final ControlToken token;
    private final Consumer<String> log;
    private final CoreSnapshot snapshot;
    private final SwitchMetrics metrics;
    private final SwitchMetrics.Driver driver;
    private final HttpServer server;
    private final ExecutorService executor;
    private final ObjectMapper json = new ObjectMapper();
    /** Guards {@link #snapshot} and {@link #metrics}: control threads only, never the worker. */
    private final java.util.concurrent.locks.ReentrantLock state = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.atomic.AtomicBoolean tracing = new java.util.concurrent.atomic.AtomicBoolean();

    private ControlServer(DpdkSwitch sw, InetSocketAddress address, ControlToken token, Consumer<String> log) throws IOException {
        this.sw = sw;
        this.portNames = sw.config().ports().stream().map(p -> p.name()).toList();
        this.token = token;
        this.log = log;
        this.snapshot = new CoreSnapshot(portNames.size());
        this.driver = new SwitchMetrics.Driver() {
            @Override
            public long txRefused(int port) {
                return sw.txRefused(port);
            }

            @Override
            public long rxMissed(int port) {
                return sw.rxMissed(port);
            }

            @Override
            public long stalls(int bucket) {
                return sw.stalls()[bucket];
            }
        };
        this.metrics = new SwitchMetrics(snapshot, portNames, driver, sw.config().core().pfcwd() != null,
                sw.config().core().shadows());
        this.server = HttpServer.create(address, 16);
        this.executor = Executors.newFixedThreadPool(4, r -> {
            Thread t = new Thread(r, "pfcswitch-control");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(executor);
        server.createContext("/", this::handle);
    }

    /**
     * Starts serving on {@code address}. Binding anywhere but loopback needs {@code allowRemote}
     * (the caller's explicit flag) and is logged loudly.
     *
     * @throws IllegalArgumentException a non-loopback address without {@code allowRemote}
     * @throws IOException              the address is in use or cannot be bound
     */
    public static ControlServer start(DpdkSwitch sw, String bind, int port, boolean allowRemote, ControlToken token,
                                      Consumer<String> log) throws IOException {
        InetAddress address = InetAddress.getByName(bind);
        if (!address.isLoopbackAddress() && !allowRemote) {
            throw new IllegalArgumentException("control API: " + bind + " is not a loopback address; binding there lets"
                    + " the network read the switch: add --allow-remote-control to mean it");
        }
        ControlServer s;
        try {
            s = new ControlServer(sw, new InetSocketAddress(address, port), token, log);
        } catch (java.net.BindException e) {
            throw new IOException("control API: cannot listen on " + bind + ":" + port + " (" + e.getMessage()
                    + "; another pfcswitch?): give --control-port N or --no-control", e);
        }
        s.server.start();
        if (!address.isLoopbackAddress()) {
            log.accept("WARNING: control API listening on " + bind + ":" + port + ", reachable from the network"
                    + " (reads need no token; mutations need the token in " + token.file() + ")");
        }
        log.accept("control API on http://" + bind + ":" + s.port() + " (/metrics, /api/v1/show/VIEW); mutation token in "
                + token.file() + " (owner-only)");
        return s;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
        token.delete();
    }

    // ------------------------------------------------------------------ dispatch

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            try {
                if (path.equals("/metrics")) {
                    requireMethod(method, "GET");
                    String text;
                    state.lock();
                    try {
                        refresh();
                        text = metrics.scrape();
                    } finally {
                        state.unlock();
                    }
                    send(ex, 200, "text/plain; version=0.0.4; charset=utf-8", text);
                } else if (path.startsWith("/api/v1/show/")) {
                    requireMethod(method, "GET");
                    show(ex, path.substring("/api/v1/show/".length()));
                } else if (path.equals("/api/v1/trace")) {
                    requireMethod(method, "GET");
                    trace(ex);
                } else if (path.equals("/api/v1/scheme") || path.equals("/api/v1/params")) {
                    requireMethod(method, "POST");
                    if (!token.accepts(ex.getRequestHeaders().getFirst("Authorization"))) {
                        throw new ApiError(401, "a change needs 'Authorization: Bearer TOKEN' with the token in "
                                + token.file() + " (pfcswitch set reads it)");
                    }
                    JsonNode body = body(ex);
                    state.lock();
                    try {
                        if (path.endsWith("scheme")) {
                            setScheme(ex, body);
                        } else {
                            setParams(ex, body);
                        }
                    } finally {
                        state.unlock();
                    }
                } else {
                    throw new ApiError(404, "no such resource: " + path + " (try /metrics, /api/v1/show/{"
                            + String.join(",", StatusViews.VIEWS) + "}, POST /api/v1/scheme, POST /api/v1/params)");
                }
            } catch (ApiError e) {
                error(ex, e.status, e.getMessage());
            } catch (TimeoutException e) {
                error(ex, 503, "the switch did not answer: " + e.getMessage());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                error(ex, 503, "shutting down");
            } catch (RuntimeException e) {
                error(ex, 500, "internal error: " + e);
            }
        }
    }

    private void show(HttpExchange ex, String view) throws IOException, TimeoutException, InterruptedException {
        if (!StatusViews.VIEWS.contains(view)) {
            throw new ApiError(404, "no view '" + view + "' (views: " + String.join(", ", StatusViews.VIEWS) + ")");
        }
        String format = query(ex).getOrDefault("format", "json");
        if (!format.equals("json") && !format.equals("text")) {
            throw new ApiError(400, "format must be json or text, got '" + format + "'");
        }
        String text;
        state.lock();
        try {
            refresh();
            StatusViews views = new StatusViews(snapshot, portNames, driver, sw.mmuConfig());
            text = format.equals("text") ? views.text(view) + "\n" : views.json(view);
        } finally {
            state.unlock();
        }
        send(ex, 200, format.equals("text") ? "text/plain; charset=utf-8" : "application/json", text);
    }

    /** Longest trace one request may record, and the finest sample period. */
    static final long MAX_TRACE_NANOS = 60_000_000_000L;
    static final long MIN_TRACE_EVERY_NANOS = 1_000;
    private static final int TRACE_RING_RECORDS = 1 << 18;

    /**
     * Records a trace for {@code duration} at one sample per {@code every} and streams it as CSV
     * (chunked) while it records: the worker writes records into a preallocated ring, this thread
     * drains the ring every 10 ms. The last line says how many records there were and how many the
     * worker dropped because the ring was full.
     */
    private void trace(HttpExchange ex) throws IOException, TimeoutException, InterruptedException {
        Map<String, String> q = query(ex);
        long duration = nanosParam(q, "duration", "1s", 1_000_000, MAX_TRACE_NANOS);
        long every = nanosParam(q, "every", "10us", MIN_TRACE_EVERY_NANOS, 1_000_000_000);
        for (String key : q.keySet()) {
            if (!key.equals("duration") && !key.equals("every")) {
                throw new ApiError(400, "unknown parameter '" + key + "' (allowed: duration, every)");
            }
        }
        if (!tracing.compareAndSet(false, true)) {
            throw new ApiError(409, "a trace is already being recorded; one at a time");
        }
        try {
            org.pfcswitch.core.trace.TraceRecorder recorder = new org.pfcswitch.core.trace.TraceRecorder(every, TRACE_RING_RECORDS);
            long origin;
            try {
                origin = sw.startTrace(recorder, WORKER_TIMEOUT_NANOS);
            } catch (IllegalArgumentException e) {
                throw new ApiError(409, e.getMessage());       // e.g. a switch of several workers
            }
            log.accept("control: trace of " + duration / 1_000_000 + " ms every " + every / 1000 + " us started");
            ex.getResponseHeaders().set("Content-Type", "text/csv; charset=utf-8");
            ex.sendResponseHeaders(200, 0);
            try (java.io.Writer out = new java.io.OutputStreamWriter(ex.getResponseBody(), StandardCharsets.UTF_8);
                 org.pfcswitch.core.trace.TraceWriter writer = new org.pfcswitch.core.trace.TraceWriter(recorder.ring(),
                         new java.io.BufferedWriter(out))) {
                writer.writeHeader(new org.pfcswitch.core.trace.TraceHeader(sw.mmuConfig().scheme(), every, origin, "live",
                        "switch", portNames));
                long end = System.nanoTime() + duration;
                try {
                    while (System.nanoTime() < end) {
                        Thread.sleep(10);
                        writer.drain();
                    }
                } finally {
                    sw.stopTrace(recorder, WORKER_TIMEOUT_NANOS);
                }
                writer.drain();
            }
            log.accept("control: trace ended, " + recorder.samples() + " samples, " + recorder.ring().dropped()
                    + " records dropped (ring full)");
        } finally {
            tracing.set(false);
        }
    }

    private static long nanosParam(Map<String, String> q, String key, String dflt, long min, long max) {
        String raw = q.getOrDefault(key, dflt);
        long v;
        try {
            v = org.pfcswitch.testbed.config.Units.nanos(raw);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, key + ": " + e.getMessage() + " (a time such as 2s, 500ms, 10us)");
        }
        if (v < min || v > max) {
            throw new ApiError(400, key + " must be between " + min / 1000 + " us and " + max / 1_000_000 + " ms, got " + raw);
        }
        return v;
    }

    private void setScheme(HttpExchange ex, JsonNode body) throws IOException, TimeoutException, InterruptedException {
        JsonNode scheme = body.get("scheme");
        if (scheme == null || !scheme.isTextual() || body.size() != 1) {
            throw new ApiError(400, "expected {\"scheme\": NAME}, got " + body);
        }
        MmuConfig before = sw.mmuConfig();
        MmuConfig next = validated(() -> MmuChange.scheme(before, scheme.asText()));
        apply(next);
        log.accept("control: scheme " + before.scheme() + " -> " + next.scheme() + " (queued frames kept, adopted by the new MMU)");
        refresh();
        send(ex, 200, "application/json", new JsonOutput().beginObject().field("scheme", next.scheme())
                .field("previous", before.scheme()).field("buffered_bytes", snapshot.totalUsed).endObject().toString());
    }

    private void setParams(HttpExchange ex, JsonNode body) throws IOException, TimeoutException, InterruptedException {
        JsonNode params = body.get("params");
        if (params == null || !params.isObject() || body.size() != 1) {
            throw new ApiError(400, "expected {\"params\": {\"KEY\": \"VALUE\", ...}}, got " + body);
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : params.properties()) {
            if (!e.getValue().isValueNode() || e.getValue().isNull()) {
                throw new ApiError(400, "parameter " + e.getKey() + ": expected a string or number, got " + e.getValue());
            }
            map.put(e.getKey(), e.getValue().asText());
        }
        MmuConfig before = sw.mmuConfig();
        MmuConfig next = validated(() -> MmuChange.params(before, map));
        apply(next);
        log.accept("control: set " + map + " under " + next.scheme());
        JsonOutput out = new JsonOutput().beginObject().field("scheme", next.scheme()).beginObject("applied");
        map.forEach(out::field);
        send(ex, 200, "application/json", out.endObject().endObject().toString());
    }

    private interface Change {
        MmuConfig make();
    }

    private static MmuConfig validated(Change change) {
        try {
            return change.make();
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        }
    }

    private void apply(MmuConfig next) throws TimeoutException, InterruptedException {
        try {
            sw.changeMmu(next, WORKER_TIMEOUT_NANOS);
        } catch (IllegalArgumentException e) {
            throw new ApiError(409, e.getMessage());
        }
    }

    private void refresh() throws TimeoutException, InterruptedException {
        sw.snapshot(snapshot, WORKER_TIMEOUT_NANOS);
    }

    // ------------------------------------------------------------------ HTTP plumbing

    private JsonNode body(HttpExchange ex) throws IOException {
        byte[] raw;
        try (InputStream in = ex.getRequestBody()) {
            raw = in.readNBytes(MAX_BODY_BYTES + 1);
        }
        if (raw.length > MAX_BODY_BYTES) {
            throw new ApiError(413, "request body over " + MAX_BODY_BYTES + " bytes");
        }
        try {
            JsonNode node = org.pfcswitch.cli.json.JsonInput.read(raw);
            if (node == null || !node.isObject()) {
                throw new ApiError(400, "expected a JSON object as the request body");
            }
            return node;
        } catch (JsonProcessingException e) {
            throw new ApiError(400, "the request body is not JSON: " + e.getOriginalMessage());
        }
    }

    private static Map<String, String> query(HttpExchange ex) {
        Map<String, String> q = new LinkedHashMap<>();
        String raw = ex.getRequestURI().getRawQuery();
        if (raw != null) {
            for (String pair : raw.split("&")) {
                int eq = pair.indexOf('=');
                q.put(eq < 0 ? pair : pair.substring(0, eq), eq < 0 ? "" : java.net.URLDecoder.decode(pair.substring(eq + 1),
                        StandardCharsets.UTF_8));
            }
        }
        return q;
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new ApiError(405, method + " not allowed here; use " + allowed);
        }
    }

    private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(bytes);
        }
    }

    private static void error(HttpExchange ex, int status, String message) throws IOException {
        send(ex, status, "application/json", new JsonOutput().beginObject().field("error", message).field("status", status)
                .endObject().toString());
    }

    /** A request the API refuses, with its HTTP status. */
    static final class ApiError extends RuntimeException {
        final int status;

        ApiError(int status, String message) {
            super(message);
            this.status = status;
        }
    }
}

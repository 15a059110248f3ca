package org.pfcswitch.control;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

import org.pfcswitch.control.json.JsonOutput;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.dataplane.DpdkSwitch;
import org.pfcswitch.mmu.MmuConfig;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;

/**
 * The running switch's control API: HTTP and JSON, on 127.0.0.1 unless told otherwise.
 *
 * <pre>
 * GET  /metrics                         Prometheus text exposition (micrometer)
 * GET  /api/v1/show/VIEW[?format=text][&amp;port=h0,h2]   VIEW: ports, queues, buffer, pfc, thresholds, scheme, pfcwd,
 *                                       deadlock, shadow, watermark[&amp;kind=pg|queue]
 * GET  /api/v1/trace?duration=2s&amp;every=10us   a trace (CSV, format of TraceWriter), streamed as recorded
 * POST /api/v1/scheme   {"scheme": "dsh"}                          token required
 * POST /api/v1/params   {"params": {"alpha": "1/8", "ecn.kmax": "400KiB"}}   token required
 * POST /api/v1/pfcwd/start {"ports": ["h2"], "detection_ms": 400, ...}       token required ({@link PfcwdRequest})
 * POST /api/v1/pfcwd/stop  {"ports": ["h2"]}                                 token required
 * GET  /api/v1/pfcwd/config[?format=text]   the watchdog's settings by port (its stats: /api/v1/show/pfcwd)
 * POST /api/v1/clear/WHAT   WHAT: counters, queues, pfc, watermarks (show reads since then)   token required
 * </pre>
 *
 * Reads are open; a mutation needs {@code Authorization: Bearer TOKEN} (see {@link ControlToken}).
 * Every error is a 4xx or 5xx with {@code {"error": "...", ...}} naming what was wrong and what is
 * allowed; a refused mutation changes nothing, and a change is applied only if the client can still
 * be told so (see {@link #APPLY_BEFORE_HEADER}). Requests reach a handler only once received whole
 * ({@link HttpListener}, within {@link HttpLimits}). Requests that read or change the switch's state
 * take turns on one lock (they share one preallocated snapshot, which the switch's worker fills
 * between two bursts, {@link DpdkSwitch#snapshot}); a trace streams on its own thread meanwhile,
 * so a scrape never waits for a trace to end. One trace at a time.
 */
public final class ControlServer implements AutoCloseable {

    /** How long a request waits for the worker to take it (it polls every few microseconds when healthy). */
    static final long WORKER_TIMEOUT_NANOS = 2_000_000_000L;
    /**
     * A client's deadline for a change, in milliseconds since the epoch: a change that cannot reach
     * the switch before it is refused (503) and never applied later, so a client that gave up by
     * then is right to say nothing changed. {@code pfcswitch set} sends it.
     */
    public static final String APPLY_BEFORE_HEADER = "X-Pfcswitch-Apply-Before";
    /** A change not begun within this long of its request's arrival is refused, whatever its deadline. */
    static final long CHANGE_WINDOW_NANOS = 5_000_000_000L;
    /** How long a change's answer waits for the buffer occupancy it reports (the worker has just answered). */
    private static final long REPORT_TIMEOUT_NANOS = 100_000_000L;
    private static final int HANDLER_THREADS = 4;

    private final DpdkSwitch sw;
    private final List<String> portNames;
    private final ControlToken token;
    private final Consumer<String> log;
    private final CoreSnapshot snapshot;
    private final SwitchMetrics metrics;
    private final SwitchMetrics.Driver driver;
    /** What operators cleared: guarded by {@link #state}, like the snapshot it is read with. */
    private final CounterClears clears;
    private HttpListener listener;
    /** Guards {@link #snapshot} and {@link #metrics}: control threads only, never the worker. */
    private final java.util.concurrent.locks.ReentrantLock state = new java.util.concurrent.locks.ReentrantLock();
    private final java.util.concurrent.atomic.AtomicBoolean tracing = new java.util.concurrent.atomic.AtomicBoolean();

    private ControlServer(DpdkSwitch sw, ControlToken token, Consumer<String> log) {
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
        // the watchdog's meters whenever it can run (it can be started at any time), so a scrape's families stay put
        boolean pfcRuns = sw.config().core().mmu().upstreamPausing() != org.pfcswitch.mmu.UpstreamPausing.PER_QUEUE;
        this.metrics = new SwitchMetrics(snapshot, portNames, driver, pfcRuns, sw.config().core().shadows());
        this.metrics.addProcessMetrics();
        this.clears = new CounterClears(portNames.size());
        this.metrics.addWatermarks(clears, portNames);
    }

    /**
     * Binds the API's port, before the switch starts: a second switch given the same port stops
     * there, before it opens a device or touches the first one's token. Until {@link Port#serve}
     * the API answers 503. Binding anywhere but loopback needs {@code allowRemote} (the caller's
     * explicit flag).
     *
     * @throws IllegalArgumentException a non-loopback address without {@code allowRemote}
     * @throws IOException              the address is in use or cannot be bound
     */
    public static Port bind(String bind, int port, boolean allowRemote) throws IOException {
        return bind(bind, port, allowRemote, HttpLimits.DEFAULT);
    }

    static Port bind(String bind, int port, boolean allowRemote, HttpLimits limits) throws IOException {
        InetAddress address = InetAddress.getByName(bind);
        if (!address.isLoopbackAddress() && !allowRemote) {
            throw new IllegalArgumentException("control API: " + bind + " is not a loopback address; binding there lets"
                    + " the network read the switch: add --allow-remote-control to mean it");
        }
        AtomicReference<ControlServer> served = new AtomicReference<>();
        try {
            HttpListener listener = HttpListener.start(new InetSocketAddress(address, port), limits, HANDLER_THREADS,
                    (request, exchange) -> {
                        ControlServer s = served.get();
                        if (s == null) {
                            exchange.sendError(503, "the switch is starting; try again");
                        } else {
                            s.handle(request, exchange);
                        }
                    });
            return new Port(listener, served, bind, address.isLoopbackAddress());
        } catch (java.net.BindException e) {
            throw new IOException("control API: cannot listen on " + bind + ":" + port + " (" + e.getMessage()
                    + "; another pfcswitch?): give --control-port N or --no-control", e);
        }
    }

    /** The API's bound port, not yet serving a switch. */
    public static final class Port implements AutoCloseable {
        private final HttpListener listener;
        private final AtomicReference<ControlServer> served;
        private final String bind;
        private final boolean loopback;

        private Port(HttpListener listener, AtomicReference<ControlServer> served, String bind, boolean loopback) {
            this.listener = listener;
            this.served = served;
            this.bind = bind;
            this.loopback = loopback;
        }

        /**
         * Serves {@code sw} from now on, with a fresh token in {@code tokenFile} (see
         * {@link ControlToken#create}); if the token cannot be written, the port is closed.
         */
        public ControlServer serve(DpdkSwitch sw, Path tokenFile, Consumer<String> log) throws IOException {
            ControlToken token;
            try {
                token = ControlToken.create(tokenFile, log);
            } catch (IOException | RuntimeException e) {
                listener.close();
                throw e;
            }
            ControlServer s = new ControlServer(sw, token, log);
            s.listener = listener;
            s.metrics.countControlDrops(listener);
            served.set(s);
            if (!loopback) {
                log.accept("WARNING: control API listening on " + bind + ":" + s.port() + ", reachable from the network"
                        + " (reads need no token; mutations need the token in " + token.file() + ")");
            }
            log.accept("control API on http://" + bind + ":" + s.port() + " (/metrics, /api/v1/show/VIEW); mutation token in "
                    + token.file() + " (owner-only)");
            return s;
        }

        /** Closes the port if no switch is served on it (a served one closes with its {@link ControlServer}). */
        @Override
        public void close() {
            if (served.get() == null) {
                listener.close();
            }
        }
    }

    public int port() {
        return listener.port();
    }

    /** Connections the API dropped or refused for {@code reason} since start. */
    public long drops(HttpListener.Drop reason) {
        return listener.drops(reason);
    }

    @Override
    public void close() {
        listener.close();
        token.delete();
    }

    // ------------------------------------------------------------------ dispatch

    private void handle(ApiRequest req, ApiExchange ex) {
        String path = req.path();
        String method = req.method();
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
                ex.send(200, "text/plain; version=0.0.4; charset=utf-8", text);
            } else if (path.startsWith("/api/v1/show/")) {
                requireMethod(method, "GET");
                show(req, ex, path.substring("/api/v1/show/".length()));
            } else if (path.equals("/api/v1/trace")) {
                requireMethod(method, "GET");
                trace(req, ex);
            } else if (path.startsWith("/api/v1/clear/")) {
                requireMethod(method, "POST");
                requireToken(req);
                clear(ex, path.substring("/api/v1/clear/".length()));
            } else if (path.equals("/api/v1/scheme") || path.equals("/api/v1/params")) {
                requireMethod(method, "POST");
                change(req, (body, deadline) -> {
                    if (path.endsWith("scheme")) {
                        setScheme(ex, body, deadline);
                    } else {
                        setParams(ex, body, deadline);
                    }
                });
            } else if (path.equals("/api/v1/pfcwd/start") || path.equals("/api/v1/pfcwd/stop")) {
                requireMethod(method, "POST");
                change(req, (body, deadline) -> changePfcwd(ex, path.endsWith("start")
                        ? PfcwdRequest.start(body, portNames, sw.mmuConfig().losslessPriorityMask())
                        : PfcwdRequest.stop(body, portNames), deadline));
            } else if (path.equals("/api/v1/pfcwd/config")) {
                requireMethod(method, "GET");
                pfcwdConfig(req, ex);
            } else {
                throw new ApiError(404, "no such resource: " + path + " (try /metrics, /api/v1/show/{"
                        + String.join(",", StatusViews.VIEWS) + "}, POST /api/v1/scheme, POST /api/v1/params, POST /api/v1/pfcwd/{start,stop}, /api/v1/pfcwd/config, POST /api/v1/clear/{"
                        + CounterClears.Family.labels().replace(" ", "") + "})");
            }
        } catch (ApiError e) {
            ex.sendError(e.status, e.getMessage());
        } catch (TimeoutException e) {
            ex.sendError(503, "the switch did not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            ex.sendError(503, "shutting down");
        } catch (IOException e) {
            // a streamed answer whose client went away: nothing left to tell it
        }
    }

    /** A change's work once its token, body and deadline are checked and the switch's state is held. */
    private interface ChangeHandler {
        void apply(JsonNode body, long deadline) throws TimeoutException, InterruptedException, IOException;
    }

    /**
     * Runs a mutation: refused without the token, with a body that is not a JSON object, or when
     * the switch's state cannot be had before the change's deadline ({@link #changeDeadline}).
     */
    private void change(ApiRequest req, ChangeHandler handler) throws TimeoutException, InterruptedException, IOException {
        requireToken(req);
        JsonNode body = body(req);
        long deadline = changeDeadline(req);
        if (!state.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
            throw new ApiError(503, "not applied: other control requests held the switch past this change's deadline");
        }
        try {
            handler.apply(body, deadline);
        } finally {
            state.unlock();
        }
    }

    /**
     * The {@link System#nanoTime} by which a change must have reached the switch: the earlier of the
     * client's {@link #APPLY_BEFORE_HEADER} and {@link #CHANGE_WINDOW_NANOS} after the request arrived.
     */
    private static long changeDeadline(ApiRequest req) {
        long deadline = req.arrivedNanos() + CHANGE_WINDOW_NANOS;
        String before = req.header(APPLY_BEFORE_HEADER);
        if (before != null) {
            long epochMillis;
            try {
                epochMillis = Long.parseLong(before.trim());
            } catch (NumberFormatException e) {
                throw new ApiError(400, APPLY_BEFORE_HEADER + " must be milliseconds since the epoch, got '" + before + "'");
            }
            long clientLeft = TimeUnit.MILLISECONDS.toNanos(epochMillis - System.currentTimeMillis());
            deadline = Math.min(deadline, System.nanoTime() + clientLeft);
        }
        if (deadline - System.nanoTime() <= 0) {
            throw new ApiError(503, "not applied: the request reached the switch after its deadline");
        }
        return deadline;
    }

    private void show(ApiRequest req, ApiExchange ex, String view) throws TimeoutException, InterruptedException {
        if (!StatusViews.VIEWS.contains(view)) {
            throw new ApiError(404, "no view '" + view + "' (views: " + String.join(", ", StatusViews.VIEWS) + ")");
        }
        String format = req.query().getOrDefault("format", "json");
        if (!format.equals("json") && !format.equals("text")) {
            throw new ApiError(400, "format must be json or text, got '" + format + "'");
        }
        int[] ports = portsQuery(req, view);
        String kind = req.query().get("kind");
        if (kind != null && !view.equals("watermark")) {
            throw new ApiError(400, "kind is for the watermark view only, not '" + view + "'");
        }
        String text;
        state.lock();
        try {
            refresh();
            StatusViews views = new StatusViews(snapshot, portNames, driver, sw.mmuConfig(), clears, ports);
            if (kind != null) {
                try {
                    views.watermarkKind(kind);
                } catch (IllegalArgumentException e) {
                    throw new ApiError(400, e.getMessage());
                }
            }
            text = format.equals("text") ? views.text(view) + "\n" : views.json(view);
        } finally {
            state.unlock();
        }
        ex.send(200, format.equals("text") ? "text/plain; charset=utf-8" : "application/json", text);
    }

    /** The ports {@code ?port=h0,h2} names (null: every port), for a view whose rows are per port. */
    private int[] portsQuery(ApiRequest req, String view) {
        String list = req.query().get("port");
        if (list == null) {
            return null;
        }
        if (!StatusViews.PER_PORT_VIEWS.contains(view)) {
            throw new ApiError(400, "the " + view + " view has no rows per port to filter (port= is for "
                    + String.join(", ", StatusViews.PER_PORT_VIEWS) + ")");
        }
        try {
            return StatusViews.portFilter(list, portNames);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, e.getMessage());
        }
    }

    /**
     * Clears a family of counters ({@link CounterClears}): {@code show} reads it relative to now from
     * then on; {@code /metrics} is untouched. Watermarks are restarted by the worker itself, in the
     * task that copies them.
     */
    private void clear(ApiExchange ex, String what) throws TimeoutException, InterruptedException {
        CounterClears.Family family;
        try {
            family = CounterClears.Family.of(what);
        } catch (IllegalArgumentException e) {
            throw new ApiError(404, e.getMessage());
        }
        long at;
        state.lock();
        try {
            if (family == CounterClears.Family.WATERMARKS) {
                sw.snapshotAndResetWatermarks(snapshot, WORKER_TIMEOUT_NANOS);
                clears.observe(snapshot);
            } else {
                refresh();
            }
            at = System.currentTimeMillis();
            clears.clear(family, snapshot, driver, at);
        } finally {
            state.unlock();
        }
        log.accept("control: cleared " + family.label);
        ex.send(200, "application/json", new JsonOutput().beginObject().field("cleared", family.label)
                .field("at", java.time.Instant.ofEpochMilli(at).toString()).endObject().toString());
    }

    /** Longest trace one request may record, and the finest sample period. */
    static final long MAX_TRACE_NANOS = 60_000_000_000L;
    static final long MIN_TRACE_EVERY_NANOS = 1_000;
    private static final int TRACE_RING_RECORDS = 1 << 18;

    /**
     * Records a trace for {@code duration} at one sample per {@code every} and streams it as CSV
     * (chunked) while it records: each worker writes its ports' records into a preallocated ring of
     * its own, this thread merges the rings every 10 ms. The last line says how many records there were and how many the
     * worker dropped because the ring was full.
     */
    private void trace(ApiRequest req, ApiExchange ex) throws IOException, TimeoutException, InterruptedException {
        Map<String, String> q = req.query();
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
            org.pfcswitch.core.trace.TraceMerge recorder = new org.pfcswitch.core.trace.TraceMerge(sw.workerOf(), every,
                    TRACE_RING_RECORDS);
            long origin = sw.startTrace(recorder, WORKER_TIMEOUT_NANOS);
            log.accept("control: trace of " + duration / 1_000_000 + " ms every " + every / 1000 + " us started");
            try (java.io.Writer out = new java.io.OutputStreamWriter(ex.stream(200, "text/csv; charset=utf-8"),
                    StandardCharsets.UTF_8);
                 org.pfcswitch.core.trace.TraceWriter writer = new org.pfcswitch.core.trace.TraceWriter(recorder,
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
            log.accept("control: trace ended, " + recorder.samples() + " samples, " + recorder.dropped()
                    + " records dropped (ring full)");
        } finally {
            tracing.set(false);
        }
    }

    private static long nanosParam(Map<String, String> q, String key, String dflt, long min, long max) {
        String raw = q.getOrDefault(key, dflt);
        long v;
        try {
            v = org.pfcswitch.config.Units.nanos(raw);
        } catch (IllegalArgumentException e) {
            throw new ApiError(400, key + ": " + e.getMessage() + " (a time such as 2s, 500ms, 10us)");
        }
        if (v < min || v > max) {
            throw new ApiError(400, key + " must be between " + min / 1000 + " us and " + max / 1_000_000 + " ms, got " + raw);
        }
        return v;
    }

    private void setScheme(ApiExchange ex, JsonNode body, long deadline) throws TimeoutException, InterruptedException {
        JsonNode scheme = body.get("scheme");
        if (scheme == null || !scheme.isTextual() || body.size() != 1) {
            throw new ApiError(400, "expected {\"scheme\": NAME}, got " + body);
        }
        MmuConfig before = sw.mmuConfig();
        MmuConfig next = validated(() -> MmuChange.scheme(before, scheme.asText()));
        apply(next, deadline);
        log.accept("control: scheme " + before.scheme() + " -> " + next.scheme() + " (queued frames kept, adopted by the new MMU)");
        JsonOutput answer = new JsonOutput().beginObject().field("scheme", next.scheme()).field("previous", before.scheme());
        try {
            sw.snapshot(snapshot, REPORT_TIMEOUT_NANOS);       // applied already: the answer must not wait long for this
            answer.field("buffered_bytes", snapshot.totalUsed);
        } catch (TimeoutException e) {
            // answered without the occupancy
        }
        ex.send(200, "application/json", answer.endObject().toString());
    }

    private void setParams(ApiExchange ex, JsonNode body, long deadline) throws TimeoutException, InterruptedException {
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
        apply(next, deadline);
        log.accept("control: set " + map + " under " + next.scheme());
        JsonOutput out = new JsonOutput().beginObject().field("scheme", next.scheme()).beginObject("applied");
        map.forEach(out::field);
        ex.send(200, "application/json", out.endObject().endObject().toString());
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

    /**
     * Hands {@code next} to the worker if it takes it before {@code deadline}; past it the change is
     * withdrawn unapplied ({@link org.pfcswitch.core.CoreMailbox#call}) and the client told so.
     */
    private void apply(MmuConfig next, long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new ApiError(503, "not applied: the change could not reach the switch before its deadline");
        }
        try {
            sw.changeMmu(next, Math.min(WORKER_TIMEOUT_NANOS, left));
        } catch (TimeoutException e) {
            throw new ApiError(503, "not applied: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            throw new ApiError(409, e.getMessage());
        }
    }

    /**
     * Starts or stops the PFC watchdog on the request's ports, on each port's worker, if it can
     * reach them before {@code deadline}; a stop restores a stormed queue first, and the answer
     * names every queue restored.
     */
    private void changePfcwd(ApiExchange ex, PfcwdRequest change, long deadline) throws InterruptedException {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new ApiError(503, "not applied: the change could not reach the switch before its deadline");
        }
        int[] restored;
        try {
            restored = sw.changePfcWatchdog(change.ports(), change.priorities(), change.settings(),
                    Math.min(WORKER_TIMEOUT_NANOS, left));
        } catch (TimeoutException e) {
            throw new ApiError(503, "not applied: " + e.getMessage());
        } catch (IllegalStateException e) {
            throw new ApiError(409, e.getMessage());
        }
        String answer = change.answer(portNames, restored);
        log.accept("control: pfcwd " + answer);
        ex.send(200, "application/json", answer);
    }

    private void pfcwdConfig(ApiRequest req, ApiExchange ex) throws TimeoutException, InterruptedException {
        String format = req.query().getOrDefault("format", "json");
        if (!format.equals("json") && !format.equals("text")) {
            throw new ApiError(400, "format must be json or text, got '" + format + "'");
        }
        String text;
        state.lock();
        try {
            refresh();
            PfcwdView view = new PfcwdView(snapshot, portNames);
            if (format.equals("text")) {
                text = view.configText() + "\n";
            } else {
                JsonOutput j = new JsonOutput().beginObject();
                view.configJson(j);
                text = j.endObject().toString();
            }
        } finally {
            state.unlock();
        }
        ex.send(200, format.equals("text") ? "text/plain; charset=utf-8" : "application/json", text);
    }

    private void refresh() throws TimeoutException, InterruptedException {
        sw.snapshot(snapshot, WORKER_TIMEOUT_NANOS);
        clears.observe(snapshot);
    }

    // ------------------------------------------------------------------ HTTP plumbing

    private JsonNode body(ApiRequest req) {
        byte[] raw = req.body();
        try {
            JsonNode node = org.pfcswitch.control.json.JsonInput.read(raw);
            if (node == null || !node.isObject()) {
                throw new ApiError(400, "expected a JSON object as the request body");
            }
            return node;
        } catch (IOException e) {
            throw new ApiError(400, "the request body is not JSON: " + (e instanceof JsonProcessingException j
                    ? j.getOriginalMessage() : e.getMessage()));
        }
    }

    private void requireToken(ApiRequest req) {
        if (!token.accepts(req.header("Authorization"))) {
            throw new ApiError(401, "a change needs 'Authorization: Bearer TOKEN' with the token this switch"
                    + " wrote at start-up (pfcswitch set, pfcwd and clear read it)");
        }
    }

    private static void requireMethod(String method, String allowed) {
        if (!method.equals(allowed)) {
            throw new ApiError(405, method + " not allowed here; use " + allowed);
        }
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

package org.pfcswitch.cli.client;

import org.pfcswitch.control.ControlServer;
import org.pfcswitch.control.ControlToken;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;

/** The CLI's side of the control API: {@code show} and {@code set} talk to a running switch through it. */
public final class ControlClient {

    /** Where {@code pfcswitch run} serves its API by default. */
    public static final String DEFAULT_URL = "http://127.0.0.1:9464";

    /** A refusal or failure, with the message to print (the API's own error text when it gave one). */
    public static final class Failure extends Exception {
        public final int status;

        Failure(int status, String message) {
            super(message);
            this.status = status;
        }
    }

    /** How long a request may take before the client gives up. */
    static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);
    /**
     * A change must reach the switch within this (it refuses it after, see
     * {@link ControlServer#APPLY_BEFORE_HEADER}); the rest of {@link #ANSWER_TIMEOUT} is for the answer
     * to come back, so a change the client gave up on was not applied.
     */
    static final Duration CHANGE_DEADLINE = Duration.ofSeconds(7);

    private final URI base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    public ControlClient(String url) {
        String u = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
        try {
            this.base = URI.create(u);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--api: not a URL: '" + url + "'");
        }
        if (base.getHost() == null || !"http".equals(base.getScheme())) {
            throw new IllegalArgumentException("--api: expected http://HOST:PORT, got '" + url + "'");
        }
    }

    /** The client for a command's {@code --api URL}; a bad URL is that command's usage error. */
    public static ControlClient forCommand(picocli.CommandLine.Model.CommandSpec spec, String url) {
        try {
            return new ControlClient(url);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
    }

    /** The token file the switch at this URL writes by default. */
    public Path defaultTokenFile() {
        return ControlToken.defaultFile(base.getPort() < 0 ? 80 : base.getPort());
    }

    public String get(String path) throws Failure, InterruptedException {
        return send(HttpRequest.newBuilder(base.resolve(path)).GET(), "");
    }

    public String post(String path, String json, String token) throws Failure, InterruptedException {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        b.header(ControlServer.APPLY_BEFORE_HEADER, Long.toString(System.currentTimeMillis() + CHANGE_DEADLINE.toMillis()));
        return send(b, " (the switch applies no change after " + CHANGE_DEADLINE.toSeconds() + " s: nothing changed)");
    }

    /**
     * GETs {@code path} into {@code file} as it streams (a trace), replacing the file only when the
     * switch answered 200.
     */
    public void download(String path, Path file, Duration timeout) throws Failure, InterruptedException {
        HttpResponse<java.io.InputStream> r;
        try {
            r = http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build(),
                    HttpResponse.BodyHandlers.ofInputStream());
        } catch (ConnectException e) {
            throw new Failure(0, "no switch answers at " + base + " (is 'pfcswitch run' running with its control API? see --api)");
        } catch (IOException e) {
            throw new Failure(0, "talking to " + base + ": " + e);
        }
        try (java.io.InputStream in = r.body()) {
            if (r.statusCode() != 200) {
                String body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
                try {
                    JsonNode n = org.pfcswitch.control.json.JsonInput.read(body);
                    throw new Failure(r.statusCode(), (n != null && n.has("error") ? n.get("error").asText() : body)
                            + " (HTTP " + r.statusCode() + ")");
                } catch (com.fasterxml.jackson.core.JsonProcessingException notJson) {
                    throw new Failure(r.statusCode(), "HTTP " + r.statusCode() + ": " + body);
                }
            }
            Path tmp = file.resolveSibling(file.getFileName() + ".part");
            java.nio.file.Files.copy(in, tmp, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            java.nio.file.Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new Failure(0, "receiving the trace: " + e.getMessage());
        }
    }

    private String send(HttpRequest.Builder request, String ifNoAnswer) throws Failure, InterruptedException {
        HttpResponse<String> r;
        try {
            r = http.send(request.timeout(ANSWER_TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new Failure(0, "no answer from " + base + " within " + ANSWER_TIMEOUT.toSeconds() + " s" + ifNoAnswer);
        } catch (ConnectException e) {
            throw new Failure(0, "no switch answers at " + base + " (is 'pfcswitch run' running with its control API? see --api)");
        } catch (IOException e) {
            throw new Failure(0, "talking to " + base + ": " + e);
        }
        if (r.statusCode() / 100 != 2) {
            throw new Failure(r.statusCode(), errorText(r));
        }
        return r.body();
    }

    private static String errorText(HttpResponse<String> r) {
        try {
            JsonNode n = org.pfcswitch.control.json.JsonInput.read(r.body());
            if (n != null && n.has("error")) {
                return n.get("error").asText() + " (HTTP " + r.statusCode() + ")";
            }
        } catch (IOException ignored) {
            // not JSON: show it as it came
        }
        return "HTTP " + r.statusCode() + ": " + r.body();
    }
}

package org.pfcswitch.cli;

import java.io.PrintWriter;
import java.time.LocalTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.Callable;

import org.pfcswitch.cli.client.ControlClient;
import org.pfcswitch.cli.client.CounterRates;
import org.pfcswitch.cli.client.FabricDeadlock;
import org.pfcswitch.control.StatusViews;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "show",
        mixinStandardHelpOptions = true,
        description = {
            "Shows the state of a running switch, read through its control API.",
            "",
            "  ports       frames and bytes per port, drops, TX refusals, PFC frames sent and",
            "              received, PAUSE received, malformed frames (show interfaces counters)",
            "  queues      per (port, priority): ingress bytes and headroom, egress bytes, the",
            "              XOFF threshold now and the advertised state, egress paused by the",
            "              neighbour, frames, drops, ECN marks",
            "  buffer      occupancy per ledger view: private, shared lossless and lossy,",
            "              headroom, total, most ever used (show buffer)",
            "  pfc         PFC pause frames received and sent per port and priority, and the",
            "              time each egress priority spent paused (pfcstat)",
            "  thresholds  the lossless ingress queues: bytes, current XOFF threshold, state",
            "  scheme      the scheme, its parameters in force, ECN profile, headroom per port,",
            "              the ingress queues paused now",
            "  pfcwd       the PFC watchdog: its settings and, per egress (port, priority),",
            "              stormed now, storms, restorations, frames dropped (show pfcwd stats)",
            "  deadlock    PFC deadlock detection: the cycle of paused queues the switch sees in",
            "              itself now (a loop cable, a bounce path), its reports, each port's MAC",
            "              and the MAC of the last PFC sender on it, the wait-for edges now",
            "  shadow      the active scheme beside the shadow schemes (run --shadow): XOFFs,",
            "              XONs, drops by reason, most buffer held, XOFFs per lossless queue",
            "  watermark [pg|queue]  the most bytes each ingress priority group held and each",
            "              egress queue had waiting, since the last clear and since start",
            "              (show priority-group watermark, show queue watermark; persistent)",
            "",
            "ports, queues and pfc count since the last 'pfcswitch clear' of their family and",
            "say since when; with --watch (or --rates) they show each counter's rate per",
            "second beside its total, over the switch's own clock between two snapshots.",
            "--port h0,h2 keeps the rows of those ports.",
            "",
            "Every view is one snapshot: the switch's worker copies its state between two",
            "bursts, so the numbers of one table belong to one instant. Exit codes: 0, 1 no",
            "switch answers, 2 bad arguments.",
            "",
            "show deadlock --switch [NAME=]URL --switch ... joins several switches: each one's",
            "XOFF ingress queues, wait-for edges, port MACs and PFC sender MACs make one graph",
            "over (switch, port, priority), searched with the switches' own cycle search, so",
            "a deadlock through several switches, which none of them sees alone, is named."
        },
        footer = {"", "Examples:",
            "  ./pfcswitch show pfc",
            "  ./pfcswitch show queues --watch 1",
            "  ./pfcswitch show ports --rates --port h0,h1",
            "  ./pfcswitch show watermark pg",
            "  ./pfcswitch show buffer --json --api http://127.0.0.1:9464",
            "  ./pfcswitch show deadlock --switch leaf0=http://10.0.0.1:9464 --switch spine0=http://10.0.0.2:9464"})
final class ShowCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "VIEW", description = "One of: ${COMPLETION-CANDIDATES}.",
            completionCandidates = Views.class)
    String view;

    @Parameters(index = "1", arity = "0..1", paramLabel = "KIND",
            description = "With the watermark view: pg or queue (default: both).", completionCandidates = WatermarkKinds.class)
    String kind;

    @Option(names = "--port", paramLabel = "NAME", split = ",",
            description = "Only these ports' rows (views with rows per port).")
    java.util.List<String> ports = new java.util.ArrayList<>();

    @Option(names = "--rates", description = "With ports, queues or pfc: rates per second beside the totals, from two"
            + " snapshots 1 s apart (with --watch: between one print and the next, always).")
    boolean rates;

    @Option(names = "--json", description = "Print the API's JSON instead of a table.")
    boolean json;

    @Option(names = "--watch", paramLabel = "SECONDS", description = "Print the view again every SECONDS until stopped "
            + "(Ctrl-C): redrawn in place on a terminal, one timestamped snapshot after another when piped.")
    double watch;

    @Option(names = "--count", paramLabel = "N", description = "With --watch: stop after N prints (default: never).")
    int count;

    @Option(names = "--api", paramLabel = "URL", defaultValue = ControlClient.DEFAULT_URL,
            description = "The switch's control API (default: ${DEFAULT-VALUE}).")
    String api;

    @Option(names = "--switch", paramLabel = "[NAME=]URL",
            description = "With the deadlock view: a switch of the fabric to join (repeat; NAME defaults to sw0, sw1, ...).")
    java.util.List<String> switches = new java.util.ArrayList<>();

    @Spec
    CommandSpec spec;

    static final class Views extends java.util.ArrayList<String> {
        Views() {
            super(StatusViews.VIEWS);
        }
    }

    static final class WatermarkKinds extends java.util.ArrayList<String> {
        WatermarkKinds() {
            super(StatusViews.WATERMARK_KINDS);
        }
    }

    /**
     * Each switch's deadlock view, fetched one after another, joined ({@link FabricDeadlock}).
     *
     * @throws IllegalStateException an answer is not JSON, or the answers cannot be joined
     */
    private String fabric(java.util.List<String> names, java.util.List<ControlClient> clients)
            throws ControlClient.Failure, InterruptedException {
        java.util.List<com.fasterxml.jackson.databind.JsonNode> views = new java.util.ArrayList<>();
        for (int i = 0; i < clients.size(); i++) {
            String body = clients.get(i).get("/api/v1/show/deadlock?format=json");
            try {
                views.add(org.pfcswitch.control.json.JsonInput.read(body));
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException(names.get(i) + ": the answer is not JSON: " + e.getOriginalMessage());
            }
        }
        FabricDeadlock f;
        try {
            f = new FabricDeadlock(names, views);
        } catch (IllegalArgumentException e) {
            throw new IllegalStateException(e.getMessage());
        }
        return json ? f.json() : f.text();
    }

    /** ANSI: cursor to the top left, then erase the screen, so the next snapshot replaces the last. */
    static final String HOME_AND_CLEAR = "\033[H\033[2J";

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss");

    @Override
    public Integer call() throws Exception {
        if (!StatusViews.VIEWS.contains(view)) {
            throw new ParameterException(spec.commandLine(), "unknown view '" + view + "' (views: "
                    + String.join(", ", StatusViews.VIEWS) + ")");
        }
        if (watch < 0 || count < 0) {
            throw new ParameterException(spec.commandLine(), "--watch and --count must be >= 0");
        }
        if (!switches.isEmpty() && !view.equals("deadlock")) {
            throw new ParameterException(spec.commandLine(), "--switch joins switches for the deadlock view only, not '" + view + "'");
        }
        if (kind != null && !view.equals("watermark")) {
            throw new ParameterException(spec.commandLine(), "'" + kind + "': only the watermark view takes a kind (pg or queue)");
        }
        if (kind != null && !StatusViews.WATERMARK_KINDS.contains(kind)) {
            throw new ParameterException(spec.commandLine(), "no watermark '" + kind + "' (allowed: "
                    + String.join(", ", StatusViews.WATERMARK_KINDS) + ")");
        }
        if (!ports.isEmpty() && !StatusViews.PER_PORT_VIEWS.contains(view)) {
            throw new ParameterException(spec.commandLine(), "--port: the " + view + " view has no rows per port (views with: "
                    + String.join(", ", StatusViews.PER_PORT_VIEWS) + ")");
        }
        if (rates && !CounterRates.hasRates(view)) {
            throw new ParameterException(spec.commandLine(), "--rates: the " + view + " view has no counters to rate"
                    + " (ports, queues, pfc)");
        }
        ControlClient client = switches.isEmpty() ? ControlClient.forCommand(spec, api) : null;
        java.util.List<String> names = new java.util.ArrayList<>();
        java.util.List<ControlClient> fabric = new java.util.ArrayList<>();
        for (String s : switches) {
            int eq = s.indexOf('=');
            names.add(eq > 0 ? s.substring(0, eq) : "sw" + names.size());
            fabric.add(ControlClient.forCommand(spec, eq > 0 ? s.substring(eq + 1) : s));
        }
        PrintWriter out = spec.commandLine().getOut();
        boolean redraw = watch > 0 && !json && Terminal.attached();
        boolean withRates = CounterRates.hasRates(view) && (rates || watch > 0);
        String path = "/api/v1/show/" + view + "?format=" + (json || withRates ? "json" : "text")
                + (ports.isEmpty() ? "" : "&port=" + java.net.URLEncoder.encode(String.join(",", ports), java.nio.charset.StandardCharsets.UTF_8))
                + (kind == null ? "" : "&kind=" + kind);
        com.fasterxml.jackson.databind.JsonNode previous = null;
        for (int printed = 0; ; ) {
            String body;
            try {
                if (withRates) {
                    if (previous == null && watch == 0) {
                        previous = org.pfcswitch.control.json.JsonInput.read(client.get(path));
                        Thread.sleep(1000);
                    }
                    com.fasterxml.jackson.databind.JsonNode answer = org.pfcswitch.control.json.JsonInput.read(client.get(path));
                    CounterRates r = new CounterRates(view, previous, answer);
                    body = json ? r.json() : r.text();
                    previous = answer;
                } else {
                    body = client != null ? client.get(path) : fabric(names, fabric);
                }
            } catch (ControlClient.Failure f) {
                spec.commandLine().getErr().println("pfcswitch show: " + f.getMessage());
                return f.status == 0 ? 1 : 2;
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                spec.commandLine().getErr().println("pfcswitch show: the switch's answer is not JSON: " + e.getOriginalMessage());
                return 1;
            } catch (IllegalStateException e) {         // fabric: an answer that cannot be joined
                spec.commandLine().getErr().println("pfcswitch show: " + e.getMessage());
                return 1;
            }
            if (redraw) {
                out.print(HOME_AND_CLEAR);
            }
            if (watch > 0 && !json) {
                out.println("-- " + LocalTime.now().format(TIME) + " " + view + (redraw ? "  (every " + watch + " s; Ctrl-C stops)" : ""));
            }
            out.println(body.stripTrailing());
            out.flush();
            printed++;
            if (watch == 0 || (count > 0 && printed >= count)) {
                return 0;
            }
            Thread.sleep((long) (watch * 1000));
        }
    }
}

package org.pfcswitch.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.pfcswitch.control.CounterClears;
import org.pfcswitch.control.HttpLimits;
import org.pfcswitch.control.HttpListener;
import org.pfcswitch.control.IdleDriver;
import org.pfcswitch.control.SwitchMetrics;
import org.pfcswitch.core.CoreSnapshot;

/**
 * What the switch's /metrics exports, read from a real scrape of {@link SwitchMetrics} with every
 * optional part on (PFC watchdog, a shadow scheme, watermarks, the control API's connection drops
 * of a real listener, the process and JVM meters) after a GC, so that the GC pause summary is there
 * too: each sample name with its label names, and the family ({@code # TYPE} name) each sample
 * belongs to. ControlApiTest checks that a live switch exports no family beyond these.
 */
final class ExportedMetrics {
    private ExportedMetrics() {}

    /** Sample name to its label names (Prometheus adds job and instance). */
    static final Map<String, Set<String>> SAMPLES;
    /** Sample name to the family it belongs to (a summary's _count and _sum to the summary). */
    static final Map<String, String> FAMILY;

    private static final Pattern TYPE = Pattern.compile("# TYPE (\\S+) (\\S+)");
    private static final Pattern SAMPLE = Pattern.compile("([A-Za-z_:][A-Za-z0-9_:]*)(?:\\{([^}]*)})? \\S+");
    private static final Pattern LABEL = Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)=\"");

    static {
        String scrape;
        try {
            scrape = scrape();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Set<String>> samples = new TreeMap<>();
        Map<String, String> family = new LinkedHashMap<>();
        String current = null;
        for (String line : scrape.split("\n")) {
            Matcher t = TYPE.matcher(line);
            if (t.matches()) {
                current = t.group(1);
                continue;
            }
            Matcher s = SAMPLE.matcher(line);
            if (line.startsWith("#") || !s.matches()) {
                continue;
            }
            Set<String> labels = samples.computeIfAbsent(s.group(1), n -> new TreeSet<>());
            if (s.group(2) != null) {
                Matcher l = LABEL.matcher(s.group(2));
                while (l.find()) {
                    labels.add(l.group(1));
                }
            }
            family.put(s.group(1), current);
        }
        SAMPLES = Collections.unmodifiableMap(samples);
        FAMILY = Collections.unmodifiableMap(family);
    }

    /** Every family name. */
    static Set<String> families() {
        return new TreeSet<>(FAMILY.values());
    }

    /** The families ({@code # TYPE} names) of an exposition text. */
    static Set<String> families(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            Matcher t = TYPE.matcher(line);
            if (t.matches()) {
                names.add(t.group(1));
            }
        }
        return names;
    }

    private static String scrape() throws IOException {
        CoreSnapshot snap = new CoreSnapshot(2);
        snap.scheme = "dt";
        SwitchMetrics metrics = new SwitchMetrics(snap, List.of("a", "b"), IdleDriver.INSTANCE, true, List.of("dsh"));
        metrics.addProcessMetrics();
        metrics.addWatermarks(new CounterClears(2), List.of("a", "b"));
        try (HttpListener listener = HttpListener.start(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                HttpLimits.DEFAULT, 1, (request, exchange) -> exchange.sendError(404, "no such page"))) {
            metrics.countControlDrops(listener);
            return scrapeAfterGc(metrics);
        }
    }

    private static String scrapeAfterGc(SwitchMetrics metrics) {
        String text = metrics.scrape();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!text.contains("jvm_gc_pause_seconds_count") && System.nanoTime() < deadline) {
            System.gc();                            // the GC meters appear with the first collection they hear of
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            text = metrics.scrape();
        }
        if (!text.contains("jvm_gc_pause_seconds_count")) {
            throw new AssertionError("no GC pause summary after System.gc() for 10 s");
        }
        return text;
    }
}

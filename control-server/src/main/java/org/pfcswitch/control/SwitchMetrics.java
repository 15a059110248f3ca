package org.pfcswitch.control;

import java.util.List;
import java.util.function.ToDoubleFunction;

import org.pfcswitch.codec.ParseError;
import org.pfcswitch.core.CoreSnapshot;
import org.pfcswitch.mmu.Verdict;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;

/**
 * The switch's Prometheus metrics, through micrometer: every meter reads one field of a
 * {@link CoreSnapshot} that the caller refreshes just before {@link #scrape}, so a scrape shows one
 * instant of the switch and the worker never waits on a lock (the snapshot was copied on the
 * worker thread between two bursts, see {@code CoreMailbox}).
 *
 * <p>Names follow Prometheus conventions: prefix {@code pfcswitch_}, counters end in
 * {@code _total}, base units in the name ({@code _bytes}, {@code _seconds}); labels {@code port}
 * (the configured port name), {@code priority}, {@code queue}, {@code reason}, {@code view},
 * {@code scheme}, {@code sender}. The list is in testbed-configs/grafana/README.md.
 */
public final class SwitchMetrics {

    /** Worker stall buckets, as {@code DpdkSwitch.STALL_BOUNDS_NANOS}. */
    public interface Driver {
        long txRefused(int port);

        /** Frames the port's receive ring had no room for (0 for a clone port). */
        long rxMissed(int port);

        long stalls(int bucket);
    }

    private static final String[] STALL_LABELS = {"100us", "1ms", "10ms", "100ms"};
    private static final int[] DROP_VERDICTS = {Verdict.DROP_LOSSY_THRESHOLD, Verdict.DROP_BUFFER_FULL,
            Verdict.DROP_LOSSLESS_VIOLATION, Verdict.DROP_EGRESS_LIMIT};

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final CoreSnapshot snap;
    private Meter schemeInfo;
    private String schemeInfoName;
    private ProcessMetrics process;

    public SwitchMetrics(CoreSnapshot snap, List<String> portNames, Driver driver) {
        this(snap, portNames, driver, false);
    }

    /** With {@code pfcwd}, also the PFC watchdog's meters (the scheme runs PFC, so the watchdog can be started). */
    public SwitchMetrics(CoreSnapshot snap, List<String> portNames, Driver driver, boolean pfcwd) {
        this(snap, portNames, driver, pfcwd, List.of());
    }

    /**
     * With {@code shadows} (the switch's shadow schemes, in {@link CoreSnapshot#shadows} order), also
     * their would-be XOFFs and drops, labelled {@code scheme}, and the active scheme's XOFF transitions
     * to put beside them.
     */
    public SwitchMetrics(CoreSnapshot snap, List<String> portNames, Driver driver, boolean pfcwd, List<String> shadows) {
        this.snap = snap;
        int priorities = CoreSnapshot.PRIORITIES;
        for (int p = 0; p < snap.ports; p++) {
            String port = portNames.get(p);
            int pp = p;
            for (int q = 0; q < priorities; q++) {
                int k = p * priorities + q;
                Tags prio = Tags.of("port", port, "priority", Integer.toString(q));
                Tags queue = Tags.of("port", port, "queue", Integer.toString(q));
                counter("pfcswitch.rx.frames", "Data frames received", prio, s -> s.counters.rxFrames[k]);
                counter("pfcswitch.rx.bytes", "Bytes of data frames received", prio, s -> s.counters.rxBytes[k]);
                counter("pfcswitch.tx.frames", "Data frames transmitted (egress port, priority)", prio, s -> s.counters.txFrames[k]);
                counter("pfcswitch.tx.bytes", "Bytes of data frames transmitted", prio, s -> s.counters.txBytes[k]);
                counter("pfcswitch.pfc.pause.sent", "PFC frames sent with this priority paused (XOFF, refreshes included)",
                        prio, s -> s.counters.pfcXoffTx[k]);
                counter("pfcswitch.pfc.resume.sent", "PFC frames sent resuming this priority (XON, quanta 0)",
                        prio, s -> s.counters.pfcXonTx[k]);
                counter("pfcswitch.pfc.pause.received", "PFC frames received pausing this priority", prio, s -> s.counters.pfcXoffRx[k]);
                counter("pfcswitch.pfc.resume.received", "PFC frames received resuming this priority", prio, s -> s.counters.pfcXonRx[k]);
                counter("pfcswitch.paused.seconds", "Time this egress queue was paused by the neighbour", queue,
                        s -> s.egressPausedNanos[k] / 1e9);
                counter("pfcswitch.ecn.marked", "Frames marked CE at dequeue", queue, s -> s.counters.ecnMarked[k]);
                for (int verdict : DROP_VERDICTS) {
                    int index = k * Verdict.DROP_REASONS + Verdict.dropIndex(verdict);
                    counter("pfcswitch.drops", "Frames dropped at admission, by reason", prio.and("reason", Verdict.name(verdict)),
                            s -> s.counters.drops[index]);
                }
                counter("pfcswitch.lossless.drops", "Lossless frames dropped at admission, by ingress (port, priority), and"
                        + " whether the sender there obeys PFC (sender=obeys_pfc: the switch's fault) or not (ignores_pfc:"
                        + " a clone port with pfc: ignore)", prio.and("sender", snap.senderIgnoresPfc[p] ? "ignores_pfc" : "obeys_pfc"),
                        s -> s.counters.losslessDrops[k]);
                if (pfcwd) {
                    counter("pfcswitch.pfcwd.storms", "PFC watchdog: storms declared on this egress queue (paused without a break"
                            + " for the detection time)", prio, s -> s.counters.pfcwdStorms[k]);
                    counter("pfcswitch.pfcwd.restorations", "PFC watchdog: stormed egress queue restored (no pause frame for the"
                            + " restoration time)", prio, s -> s.counters.pfcwdRestorations[k]);
                    counter("pfcswitch.pfcwd.dropped.frames", "PFC watchdog: frames for this egress queue dropped while it was"
                            + " stormed (action drop)", prio, s -> s.counters.pfcwdDrops[k]);
                    counter("pfcswitch.pfcwd.dropped.rx.frames", "PFC watchdog: frames of this priority received from the"
                            + " neighbour behind this port while its queue was stormed (action drop)", prio,
                            s -> s.counters.pfcwdIngressDrops[k]);
                    gauge("pfcswitch.pfcwd.stormed", "PFC watchdog: 1 while this egress queue is stormed", prio,
                            s -> s.pfcwdStormed[k] ? 1 : 0);
                }
                gauge("pfcswitch.ingress.queue.bytes", "Bytes held for this ingress queue (every segment)", prio,
                        s -> s.ingressBytes[k]);
                gauge("pfcswitch.egress.queue.bytes", "Bytes waiting in this egress queue", queue, s -> s.egressBytes[k]);
                gauge("pfcswitch.xoff.threshold.bytes", "The scheme's shared-pool limit for this ingress queue now", prio,
                        s -> s.xoffThresholdBytes[k]);
            }
            Tags portTag = Tags.of("port", port);
            counter("pfcswitch.pfc.frames.sent", "PFC frames sent out of the port, each once however many priorities it"
                    + " pauses or resumes (a port-level pause is one frame)", portTag, s -> s.counters.pfcFramesTx[pp]);
            counter("pfcswitch.pfc.frames.received", "PFC frames received on the port, each once however many priorities it"
                    + " carries", portTag, s -> s.counters.pfcFramesRx[pp]);
            counter("pfcswitch.pause.frames.received", "802.3x PAUSE frames received (they pause every priority)", portTag,
                    s -> s.counters.pauseFramesRx[pp]);
            counter("pfcswitch.tx.refused.frames", "Frames the port's TX queue refused after retries (lost)", portTag,
                    s -> driver.txRefused(pp));
            counter("pfcswitch.rx.missed.frames", "Frames the port's receive ring had no room for: lost before the switch"
                    + " saw them (the worker fell behind the port)", portTag, s -> driver.rxMissed(pp));
            counter("pfcswitch.flooded.frames", "Frames flooded (unknown or multicast destination)", portTag, s -> s.counters.flooded[pp]);
            counter("pfcswitch.mac.moves", "Learned stations that moved to this port (seen here, learned on another)",
                    portTag, s -> s.counters.macMoves[pp]);
            counter("pfcswitch.mac.moves.denied", "Frames from a station learned on another port (or static there) that did"
                    + " not move it here: a static entry, or this port's learning moves: deny", portTag,
                    s -> s.counters.macMovesDenied[pp]);
            counter("pfcswitch.mac.learn.limit", "Source MACs not learned because this port has learned its learning"
                    + " maxMacs (the frames are forwarded)", portTag, s -> s.counters.macOverLimit[pp]);
            for (ParseError e : ParseError.values()) {
                if (e == ParseError.NONE) {
                    continue;
                }
                int index = p * CoreSnapshot.PARSE_ERRORS + e.ordinal();
                counter("pfcswitch.malformed.frames", "Frames whose parse found something wrong, by reason",
                        portTag.and("reason", e.label()), s -> s.counters.parseErrors[index]);
            }
        }
        String[] views = {"private", "shared_lossless", "shared_lossy", "headroom", "total"};
        List<ToDoubleFunction<CoreSnapshot>> used = List.of(s -> s.privateUsed, s -> s.sharedLosslessUsed,
                s -> s.sharedLossyUsed, s -> s.headroomUsed, s -> s.totalUsed);
        for (int v = 0; v < views.length; v++) {
            gauge("pfcswitch.buffer.used.bytes", "Shared buffer in use, by ledger view", Tags.of("view", views[v]), used.get(v));
        }
        gauge("pfcswitch.buffer.size.bytes", "The shared buffer's size", Tags.empty(), s -> s.bufferBytes);
        gauge("pfcswitch.buffer.max.used.bytes", "Most of the buffer ever in use", Tags.empty(), s -> s.maxBufferBytes);
        counter("pfcswitch.lossless.violations", "Lossless frames dropped by the MMU (0 when headroom is sized right)",
                Tags.empty(), s -> s.losslessViolations);
        counter("pfcswitch.lossless.violations.by.sender", "Lossless frames dropped since start, by whether their sender obeys PFC",
                Tags.of("sender", "obeys_pfc"), s -> s.losslessViolationsObeying);
        counter("pfcswitch.lossless.violations.by.sender", "Lossless frames dropped since start, by whether their sender obeys PFC",
                Tags.of("sender", "ignores_pfc"), s -> s.losslessViolationsIgnoring);
        counter("pfcswitch.record.write.failures", "run --record: writes to the recording that failed (a full disk, an I/O"
                + " error); the first stops the recording, the file keeps a readable prefix", Tags.empty(),
                s -> s.recordWriteFailures);
        counter("pfcswitch.record.arrivals.lost", "run --record: arrivals not recorded because the recording had stopped"
                + " on a failed write (the switch forwarded them)", Tags.empty(), s -> s.recordArrivalsAfterFailure);
        counter("pfcswitch.deadlocks", "PFC deadlocks the switch found in itself: a cycle of paused queues that lasted"
                + " deadlock.persist (show deadlock)", Tags.empty(), s -> s.deadlock.deadlocks);
        gauge("pfcswitch.deadlock.present", "1 while a reported PFC deadlock is still found", Tags.empty(),
                s -> s.deadlock.present ? 1 : 0);
        if (!shadows.isEmpty()) {
            shadowMeters(portNames, shadows);
        }
        for (int b = 0; b < STALL_LABELS.length; b++) {
            int bucket = b;
            counter("pfcswitch.worker.stalls", "Poll-loop passes that started this long or longer after the previous one, less any idle sleep the worker asked for (time the OS held it past that sleep counts)",
                    Tags.of("over", STALL_LABELS[b]), s -> driver.stalls(bucket));
        }
    }

    /** The shadow schemes' counters ({@code org.pfcswitch.core.ShadowMmus}) and the active scheme's XOFF transitions. */
    private void shadowMeters(List<String> portNames, List<String> shadows) {
        int priorities = CoreSnapshot.PRIORITIES;
        for (int p = 0; p < snap.ports; p++) {
            for (int q = 0; q < priorities; q++) {
                int k = p * priorities + q;
                Tags prio = Tags.of("port", portNames.get(p), "priority", Integer.toString(q));
                counter("pfcswitch.xoff", "XOFF transitions the active scheme asserted on this ingress queue (one per pause"
                        + " episode; since its last scheme change)", prio, s -> s.active.xoff[k]);
                for (int i = 0; i < shadows.size(); i++) {
                    int shadow = i;
                    counter("pfcswitch.shadow.xoff", "XOFF transitions a shadow scheme would have asserted on this ingress"
                            + " queue (counted, never sent)", prio.and("scheme", shadows.get(i)), s -> s.shadows[shadow].xoff[k]);
                }
            }
        }
        for (int i = 0; i < shadows.size(); i++) {
            int shadow = i;
            Tags scheme = Tags.of("scheme", shadows.get(i));
            for (int verdict : DROP_VERDICTS) {
                int reason = Verdict.dropIndex(verdict);
                counter("pfcswitch.shadow.drops", "Frames a shadow scheme would have dropped at admission, by reason (never"
                        + " dropped)", scheme.and("reason", Verdict.name(verdict)), s -> s.shadows[shadow].drops[reason]);
            }
            counter("pfcswitch.shadow.xon", "XON transitions of a shadow scheme (counted, never sent)", scheme,
                    s -> s.shadows[shadow].xonTotal);
            counter("pfcswitch.shadow.lossless.drops", "Lossless frames a shadow scheme would have dropped", scheme,
                    s -> s.shadows[shadow].losslessDrops);
            gauge("pfcswitch.shadow.buffer.used.bytes", "Bytes a shadow scheme's own ledger holds now", scheme,
                    s -> s.shadows[shadow].bufferBytes);
            gauge("pfcswitch.shadow.buffer.max.used.bytes", "Most bytes a shadow scheme's own ledger ever held", scheme,
                    s -> s.shadows[shadow].maxBufferBytes);
        }
    }

    /**
     * The watermarks since start that {@code clears} keeps ({@code pfcswitch_pg_watermark_bytes} per
     * ingress (port, priority), {@code pfcswitch_queue_watermark_bytes} per egress (port, queue)):
     * gauges that an operator's clear never lowers. Read under the same lock as the snapshot.
     */
    public void addWatermarks(CounterClears clears, List<String> portNames) {
        for (int p = 0; p < snap.ports; p++) {
            for (int q = 0; q < CoreSnapshot.PRIORITIES; q++) {
                int k = p * CoreSnapshot.PRIORITIES + q;
                String port = portNames.get(p);
                Gauge.builder("pfcswitch.pg.watermark.bytes", clears, c -> c.pgWatermarkSinceStart(k))
                        .description("Most bytes this ingress priority group held since the switch started")
                        .tags("port", port, "priority", Integer.toString(q)).register(registry);
                Gauge.builder("pfcswitch.queue.watermark.bytes", clears, c -> c.queueWatermarkSinceStart(k))
                        .description("Most bytes waiting in this egress queue since the switch started")
                        .tags("port", port, "queue", Integer.toString(q)).register(registry);
            }
        }
    }

    /**
     * Adds {@code pfcswitch_build_info} and the JVM's and process's meters ({@link ProcessMetrics}):
     * once per process, by the switch's control server (not by every reader of a snapshot).
     */
    public void addProcessMetrics() {
        if (process == null) {
            process = new ProcessMetrics(registry);
        }
    }

    private void counter(String name, String help, Tags tags, ToDoubleFunction<CoreSnapshot> f) {
        FunctionCounter.builder(name, snap, f).description(help).tags(tags).register(registry);
    }

    private void gauge(String name, String help, Tags tags, ToDoubleFunction<CoreSnapshot> f) {
        Gauge.builder(name, snap, f).description(help).tags(tags).register(registry);
    }

    /**
     * The exposition text for the snapshot as it is now (refresh it first). The scheme info metric
     * follows a scheme change: the old series goes away, the new one reads 1.
     */
    public String scrape() {
        if (!snap.scheme.equals(schemeInfoName)) {
            if (schemeInfo != null) {
                registry.remove(schemeInfo);
            }
            schemeInfoName = snap.scheme;
            schemeInfo = Gauge.builder("pfcswitch.scheme.info", () -> 1).description("The active buffer-admission scheme")
                    .tags("scheme", schemeInfoName).register(registry);
        }
        if (process != null) {
            process.scheme(snap.scheme);
        }
        return registry.scrape();
    }

    /** The control API's connections that {@code listener} dropped or refused, by reason. */
    public void countControlDrops(HttpListener listener) {
        for (HttpListener.Drop d : HttpListener.Drop.values()) {
            FunctionCounter.builder("pfcswitch.control.connections.dropped", listener, l -> l.drops(d))
                    .description("Control API connections dropped or refused: a request that did not arrive whole in"
                            + " time, idle, an answer left unread, evicted for a newer client, or over the size limits")
                    .tags("reason", d.label).register(registry);
        }
    }
}

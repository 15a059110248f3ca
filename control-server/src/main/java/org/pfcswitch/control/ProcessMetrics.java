package org.pfcswitch.control;

import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.system.FileDescriptorMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;

/**
 * What a lab with several switches needs to tell them apart and to see the process behind each:
 * {@code pfcswitch_build_info{version,scheme,java}} (always 1; its scheme label follows a live
 * scheme change) and micrometer's JVM and process meters (memory pools, GC pauses, threads, CPU,
 * uptime, file descriptors: {@code jvm_*}, {@code process_*}, {@code system_*}).
 *
 * <p>The binders are bound once and read only when a control thread scrapes; none of them runs on
 * or waits for the poll-mode worker.
 */
final class ProcessMetrics {

    /** The version this build reports: the Maven project version, or "unknown" when the resource is missing. */
    static final String VERSION = buildVersion();

    private final MeterRegistry registry;
    private Meter buildInfo;
    private String buildInfoScheme;

    ProcessMetrics(MeterRegistry registry) {
        this.registry = registry;
        new JvmMemoryMetrics().bindTo(registry);
        new JvmGcMetrics().bindTo(registry);       // for the process's life: one switch per process
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        // Two of its names break Prometheus' naming rules (promtool check metrics): the same CPU time
        // as a counter in "ns", and a constant core count ending in _count as a summary's would.
        for (String name : List.of("process.cpu.time", "system.cpu.count")) {
            registry.find(name).meters().forEach(registry::remove);
        }
        new UptimeMetrics().bindTo(registry);
        new FileDescriptorMetrics().bindTo(registry);
    }

    /** Points {@code pfcswitch_build_info} at {@code scheme}: the old series goes, the new one reads 1. */
    void scheme(String scheme) {
        if (scheme.equals(buildInfoScheme)) {
            return;
        }
        if (buildInfo != null) {
            registry.remove(buildInfo);
        }
        buildInfoScheme = scheme;
        buildInfo = Gauge.builder("pfcswitch.build.info", () -> 1)
                .description("The switch's build and what it runs: 1, with the pfcswitch version, the active scheme and the Java version")
                .tags("version", VERSION, "scheme", scheme, "java", Runtime.version().toString())
                .register(registry);
    }

    private static String buildVersion() {
        try (InputStream in = ProcessMetrics.class.getResourceAsStream("build.properties")) {
            if (in == null) {
                return "unknown";
            }
            Properties p = new Properties();
            p.load(in);
            String v = p.getProperty("version", "unknown");
            return v.startsWith("${") ? "unknown" : v;
        } catch (IOException e) {
            return "unknown";
        }
    }
}

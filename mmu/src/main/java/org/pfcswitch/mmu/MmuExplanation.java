package org.pfcswitch.mmu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the buffer goes under one scheme: pools, per-port and per-queue reservations, the headroom
 * formula with its inputs, and the thresholds with the buffer empty. Plain data for
 * {@code pfcswitch mmu explain}, rendered by {@link #toText()} or {@link #toJson()} (hand-written
 * JSON; keys include {@code totalBytes}, {@code sharedPoolBytes}, {@code headroomBytes},
 * {@code privateBytes}).
 */
public record MmuExplanation(
        String scheme,
        long totalBytes,
        int cellBytes,
        long privateBytes,
        long sharedPoolBytes,
        long headroomBytes,
        String headroomKind,
        List<Pool> pools,
        List<PortLine> ports,
        List<Threshold> thresholds,
        List<ParameterDoc> parameters) {

    /** A named pool and its size. */
    public record Pool(String name, long bytes, String note) {}

    /** A threshold with the buffer empty and the formula it comes from. */
    public record Threshold(String name, long bytes, String formula) {}

    /** One port: its link, headroom formula, DSH insurance, and its eight queues. */
    public record PortLine(int port, long speedBps, long cableDelayNs, String headroomFormula, long insuranceBytes,
            List<QueueLine> queues) {}

    /** One ingress (port, priority): its reservations and its shared threshold with the buffer empty. */
    public record QueueLine(int priority, boolean lossless, long privateBytes, long headroomBytes,
            long emptyThresholdBytes) {}

    /** Explains the configured scheme. Throws {@link IllegalArgumentException} on bad parameters. */
    public static MmuExplanation of(MmuConfig cfg) {
        return Mmu.create(cfg, FlowControlListener.NONE).explain();
    }

    /** Explains every scheme on the same configuration (for {@code mmu explain} without {@code --scheme}). */
    public static List<MmuExplanation> ofAllSchemes(MmuConfig cfg) {
        List<MmuExplanation> all = new ArrayList<>();
        for (String s : Schemes.NAMES) {
            all.add(of(cfg.withScheme(s)));
        }
        return all;
    }

    static MmuExplanation of(MmuConfig cfg, AdmissionScheme scheme) {
        BufferLayout layout = scheme.layout();
        boolean insurance = layout.headroomKind().startsWith("per-port");
        List<PortLine> ports = new ArrayList<>();
        for (int p = 0; p < cfg.portCount(); p++) {
            List<QueueLine> queues = new ArrayList<>();
            for (int q = 0; q < MmuConfig.PRIORITIES; q++) {
                boolean lossless = cfg.isLossless(q);
                long headroom = lossless && !insurance && !layout.headroomKind().equals("none")
                        ? layout.headroomPerPort()[p] : 0;
                queues.add(new QueueLine(q, lossless, lossless ? layout.privatePerQueue() : 0, headroom,
                        scheme.emptyBufferThreshold(p, q)));
            }
            PortConfig pc = cfg.port(p);
            ports.add(new PortLine(p, pc.speedBps(), pc.cableDelayNs(), cfg.headroomDescription(p),
                    insurance ? layout.headroomPerPort()[p] : 0, queues));
        }
        List<Pool> pools = new ArrayList<>();
        pools.add(new Pool("private", layout.privateTotal(), "rho = " + layout.privatePerQueue()
                + " B per lossless ingress queue"));
        pools.add(new Pool("headroom", layout.headroomTotal(), layout.headroomKind()));
        pools.add(new Pool("shared", layout.sharedPool(), "divided by the scheme's thresholds"));
        pools.addAll(layout.extraPools());
        return new MmuExplanation(scheme.name(), cfg.totalBytes(), cfg.cellBytes(), layout.privateTotal(),
                layout.sharedPool(), layout.headroomTotal(), layout.headroomKind(), List.copyOf(pools),
                List.copyOf(ports), List.copyOf(scheme.emptyBufferThresholds()), List.copyOf(scheme.parameters()));
    }

    public String toText() {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "scheme %s: total %,d B%s%n", scheme, totalBytes,
                cellBytes == 0 ? " (counted in bytes)" : " (counted in " + cellBytes + " B cells)"));
        sb.append("pools:\n");
        for (Pool p : pools) {
            sb.append(String.format(Locale.ROOT, "  %-22s %,15d B  %5.1f %%  %s%n", p.name(), p.bytes(),
                    100.0 * p.bytes() / totalBytes, p.note()));
        }
        sb.append("thresholds with the buffer empty:\n");
        for (Threshold t : thresholds) {
            sb.append(String.format(Locale.ROOT, "  %-50s %,15d B  (%s)%n", t.name(), t.bytes(), t.formula()));
        }
        sb.append("parameters (value / paper default / source):\n");
        for (ParameterDoc d : parameters) {
            sb.append(String.format(Locale.ROOT, "  %-28s %-14s %-14s %s%n", d.name(), d.value(), d.defaultValue(),
                    d.source()));
        }
        sb.append("ports:\n");
        for (PortLine port : ports) {
            sb.append(String.format(Locale.ROOT, "  port %d: %s, cable %,d ns%s%n", port.port(),
                    HeadroomFormula.gbps(port.speedBps()), port.cableDelayNs(),
                    port.insuranceBytes() > 0 ? String.format(Locale.ROOT, ", insurance %,d B", port.insuranceBytes())
                            : ""));
            sb.append("    headroom: ").append(port.headroomFormula()).append('\n');
            for (QueueLine q : port.queues()) {
                sb.append(String.format(Locale.ROOT,
                        "    prio %d %-8s private %,9d B  headroom %,9d B  empty-buffer threshold %,13d B%n",
                        q.priority(), q.lossless() ? "lossless" : "lossy", q.privateBytes(), q.headroomBytes(),
                        q.emptyThresholdBytes()));
            }
        }
        return sb.toString();
    }

    public String toJson() {
        StringBuilder sb = new StringBuilder(4096);
        sb.append('{');
        field(sb, "scheme", scheme).append(',');
        field(sb, "totalBytes", totalBytes).append(',');
        field(sb, "cellBytes", cellBytes).append(',');
        field(sb, "privateBytes", privateBytes).append(',');
        field(sb, "sharedPoolBytes", sharedPoolBytes).append(',');
        field(sb, "headroomBytes", headroomBytes).append(',');
        field(sb, "headroomKind", headroomKind).append(',');
        sb.append("\"pools\":[");
        for (int i = 0; i < pools.size(); i++) {
            Pool p = pools.get(i);
            sb.append(i == 0 ? "{" : ",{");
            field(sb, "name", p.name()).append(',');
            field(sb, "bytes", p.bytes()).append(',');
            field(sb, "note", p.note()).append('}');
        }
        sb.append("],\"thresholds\":[");
        for (int i = 0; i < thresholds.size(); i++) {
            Threshold t = thresholds.get(i);
            sb.append(i == 0 ? "{" : ",{");
            field(sb, "name", t.name()).append(',');
            field(sb, "bytes", t.bytes()).append(',');
            field(sb, "formula", t.formula()).append('}');
        }
        sb.append("],\"parameters\":[");
        for (int i = 0; i < parameters.size(); i++) {
            ParameterDoc d = parameters.get(i);
            sb.append(i == 0 ? "{" : ",{");
            field(sb, "name", d.name()).append(',');
            field(sb, "value", d.value()).append(',');
            field(sb, "default", d.defaultValue()).append(',');
            field(sb, "source", d.source()).append('}');
        }
        sb.append("],\"ports\":[");
        for (int i = 0; i < ports.size(); i++) {
            PortLine p = ports.get(i);
            sb.append(i == 0 ? "{" : ",{");
            field(sb, "port", p.port()).append(',');
            field(sb, "speedBps", p.speedBps()).append(',');
            field(sb, "cableDelayNs", p.cableDelayNs()).append(',');
            field(sb, "headroomFormula", p.headroomFormula()).append(',');
            field(sb, "insuranceBytes", p.insuranceBytes()).append(',');
            sb.append("\"queues\":[");
            for (int j = 0; j < p.queues().size(); j++) {
                QueueLine q = p.queues().get(j);
                sb.append(j == 0 ? "{" : ",{");
                field(sb, "priority", q.priority()).append(',');
                sb.append("\"lossless\":").append(q.lossless()).append(',');
                field(sb, "privateBytes", q.privateBytes()).append(',');
                field(sb, "headroomBytes", q.headroomBytes()).append(',');
                field(sb, "emptyThresholdBytes", q.emptyThresholdBytes()).append('}');
            }
            sb.append("]}");
        }
        sb.append("]}");
        return sb.toString();
    }

    private static StringBuilder field(StringBuilder sb, String key, long value) {
        return sb.append('"').append(key).append("\":").append(value);
    }

    private static StringBuilder field(StringBuilder sb, String key, String value) {
        sb.append('"').append(key).append("\":\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"');
    }
}

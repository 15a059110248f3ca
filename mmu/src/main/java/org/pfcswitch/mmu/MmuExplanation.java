package org.pfcswitch.mmu;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Where the buffer goes under one scheme: pools, per-port and per-queue reservations, the headroom
 * formula with its inputs, and the thresholds with the buffer empty. Plain data for
 * {@code pfcswitch mmu explain}: {@link #toText()} renders it as plain text; its JSON is written by
 * the CLI from these accessors (the mmu depends on nothing, a JSON library included).
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
}

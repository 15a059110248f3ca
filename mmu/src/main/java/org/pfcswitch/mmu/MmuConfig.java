package org.pfcswitch.mmu;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Immutable MMU configuration. Built with {@link #builder()}, whose setters map one to one onto the
 * keys of {@code testbed-configs/mmu/*.yaml}, so a YAML loader can fill it field by field. Every
 * validation error is an {@link IllegalArgumentException} whose one-line message names the field and
 * the rejected value.
 *
 * <p>Sizes are bytes, times nanoseconds, rates bit/s. Scheme parameters stay strings here; each
 * scheme parses its own (with the paper's defaults) when the {@link Mmu} is created, and
 * {@link Schemes#validate(MmuConfig)} runs that parse for every scheme the parameters name.
 *
 * @param totalBytes           physical buffer size
 * @param cellBytes            0 to count bytes; otherwise every packet is charged {@code ceil(len/cell)*cell}
 * @param ports                the ports, index = port number
 * @param mtuBytes             largest frame a port accepts (enters the headroom formula)
 * @param losslessPriorityMask bit p set = priority p is PFC-enabled (lossless)
 * @param privateBytes         guaranteed bytes (ρ) per lossless ingress (port, priority)
 * @param headroomFormula      how the per-queue (DSH: per-port) headroom is sized
 * @param headroomBytes        the value used when {@code headroomFormula} is {@link HeadroomFormula#FIXED}
 * @param scheme               name of the admission scheme ({@link Schemes#NAMES})
 * @param schemeParameters     per scheme name, its parameter map (missing keys take the paper's defaults)
 * @param ecnKminBytes         RED kmin per egress queue; 0 = DCQCN default scaled to the port speed
 * @param ecnKmaxBytes         RED kmax per egress queue; 0 = DCQCN default scaled to the port speed
 * @param ecnPmax              RED marking probability at kmax, in (0, 1]; the DCQCN default is 0.2
 */
public record MmuConfig(
        long totalBytes,
        int cellBytes,
        List<PortConfig> ports,
        int mtuBytes,
        int losslessPriorityMask,
        long privateBytes,
        HeadroomFormula headroomFormula,
        long headroomBytes,
        String scheme,
        Map<String, Map<String, String>> schemeParameters,
        long ecnKminBytes,
        long ecnKmaxBytes,
        double ecnPmax) {

    /** 802.1Qbb priorities; every per-(port, priority) array is indexed {@code port * 8 + priority}. */
    public static final int PRIORITIES = 8;
    /** Largest port count the MMU accepts (ledger arrays are sized ports × 8). */
    public static final int MAX_PORTS = 4096;

    public MmuConfig {
        ports = List.copyOf(ports);
        Map<String, Map<String, String>> copy = new LinkedHashMap<>();
        schemeParameters.forEach((k, v) -> copy.put(k, Collections.unmodifiableMap(new LinkedHashMap<>(v))));
        schemeParameters = Collections.unmodifiableMap(copy);
        validate(totalBytes, cellBytes, ports, mtuBytes, losslessPriorityMask, privateBytes, headroomFormula,
                headroomBytes, scheme, ecnKminBytes, ecnKmaxBytes, ecnPmax);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** How the configured scheme pauses its upstream neighbours ({@link Schemes#upstreamPausing}). */
    public UpstreamPausing upstreamPausing() {
        return Schemes.upstreamPausing(scheme);
    }

    /** A builder pre-filled with this configuration, e.g. to switch the scheme for {@code --scheme}. */
    public Builder toBuilder() {
        Builder b = new Builder().totalBytes(totalBytes).cellBytes(cellBytes).mtuBytes(mtuBytes)
                .losslessPriorityMask(losslessPriorityMask).privateBytes(privateBytes)
                .headroomFormula(headroomFormula).headroomBytes(headroomBytes).scheme(scheme)
                .ecnKminBytes(ecnKminBytes).ecnKmaxBytes(ecnKmaxBytes).ecnPmax(ecnPmax);
        for (PortConfig p : ports) {
            b.port(p.speedBps(), p.cableDelayNs());
        }
        schemeParameters.forEach((s, m) -> m.forEach((k, v) -> b.schemeParameter(s, k, v)));
        return b;
    }

    /** The same configuration with another scheme selected. */
    public MmuConfig withScheme(String name) {
        return toBuilder().scheme(name).build();
    }

    public int portCount() {
        return ports.size();
    }

    public PortConfig port(int port) {
        return ports.get(port);
    }

    public boolean isLossless(int priority) {
        return (losslessPriorityMask >>> priority & 1) != 0;
    }

    /** Number of lossless priorities per port (N_q in DSH). */
    public int losslessCount() {
        return Integer.bitCount(losslessPriorityMask);
    }

    /** Headroom Φ of one lossless queue behind {@code port} (DSH: the port's insurance). */
    public long headroomBytes(int port) {
        return headroomFormula.bytes(ports.get(port), mtuBytes, headroomBytes);
    }

    public String headroomDescription(int port) {
        return headroomFormula.describe(ports.get(port), mtuBytes, headroomBytes);
    }

    /** Bytes a frame of {@code frameBytes} occupies: itself, or whole cells. */
    public long chargedBytes(long frameBytes) {
        return cellBytes == 0 ? frameBytes : (frameBytes + cellBytes - 1) / cellBytes * cellBytes;
    }

    /** Parameters the named scheme was configured with (empty if none). */
    public Map<String, String> parametersOf(String schemeName) {
        return schemeParameters.getOrDefault(schemeName, Map.of());
    }

    private static void validate(long totalBytes, int cellBytes, List<PortConfig> ports, int mtuBytes,
            int losslessMask, long privateBytes, HeadroomFormula formula, long headroomBytes, String scheme,
            long kmin, long kmax, double pmax) {
        require(totalBytes > 0, "totalBytes", "must be > 0", totalBytes);
        require(cellBytes >= 0 && cellBytes <= 65536, "cellBytes", "must be 0 (bytes) or 1..65536", cellBytes);
        require(!ports.isEmpty() && ports.size() <= MAX_PORTS, "ports", "must list 1.." + MAX_PORTS + " ports",
                ports.size());
        require(mtuBytes >= 64 && mtuBytes <= 65535, "mtuBytes", "must be 64..65535", mtuBytes);
        require(losslessMask >= 0 && losslessMask <= 0xFF, "losslessPriorities", "must be priorities 0..7",
                Integer.toBinaryString(losslessMask));
        require(privateBytes >= 0, "privateBytes", "must be >= 0", privateBytes);
        if (formula == null) {
            throw new IllegalArgumentException("headroomFormula must be one of ieee, hpcc, sonic, fixed, got null");
        }
        if (formula == HeadroomFormula.FIXED) {
            require(headroomBytes > 0, "headroomBytes", "must be > 0 with headroomFormula: fixed", headroomBytes);
        } else {
            require(headroomBytes == 0, "headroomBytes",
                    "is only used with headroomFormula: fixed (remove it or set the formula to fixed)",
                    headroomBytes);
        }
        if (scheme == null || !Schemes.NAMES.contains(scheme)) {
            throw new IllegalArgumentException("scheme must be one of " + String.join(", ", Schemes.NAMES)
                    + ", got '" + scheme + "'");
        }
        require(kmin >= 0, "ecn.kminBytes", "must be >= 0", kmin);
        require(kmax >= 0 && (kmax == 0 || kmax >= kmin), "ecn.kmaxBytes", "must be >= kminBytes", kmax);
        require(pmax > 0 && pmax <= 1, "ecn.pmax", "must be a probability in (0, 1]", pmax);
        long reserved = privateBytes * Integer.bitCount(losslessMask) * ports.size();
        require(reserved < totalBytes, "privateBytes",
                "leaves no buffer: ports × lossless priorities × privateBytes = " + reserved
                        + " >= totalBytes " + totalBytes + ";",
                privateBytes);
    }

    private static void require(boolean ok, String field, String rule, Object value) {
        if (!ok) {
            throw new IllegalArgumentException("mmu." + field + " " + rule + ", got " + value);
        }
    }

    /** Fills an {@link MmuConfig} field by field. Ports must be added; other fields default to 16 MiB, MTU 1500, priority 3 lossless, ρ = 3 KB, IEEE headroom, dt. */
    public static final class Builder {
        private long totalBytes = 16L << 20;
        private int cellBytes;
        private final List<PortConfig> ports = new ArrayList<>();
        private int mtuBytes = 1500;
        private int losslessMask = 1 << 3;
        private long privateBytes = 3072;
        private HeadroomFormula headroomFormula = HeadroomFormula.IEEE;
        private long headroomBytes;
        private String scheme = "dt";
        private final Map<String, Map<String, String>> schemeParameters = new LinkedHashMap<>();
        private long ecnKminBytes;
        private long ecnKmaxBytes;
        private double ecnPmax = 0.2;

        private Builder() {}

        public Builder totalBytes(long v) { totalBytes = v; return this; }
        public Builder cellBytes(int v) { cellBytes = v; return this; }
        public Builder mtuBytes(int v) { mtuBytes = v; return this; }
        public Builder privateBytes(long v) { privateBytes = v; return this; }
        public Builder headroomFormula(HeadroomFormula v) { headroomFormula = v; return this; }
        public Builder headroomFormula(String name) { headroomFormula = HeadroomFormula.parse(name); return this; }
        public Builder headroomBytes(long v) { headroomBytes = v; return this; }
        public Builder scheme(String v) { scheme = v == null ? null : v.trim().toLowerCase(Locale.ROOT); return this; }
        public Builder ecnKminBytes(long v) { ecnKminBytes = v; return this; }
        public Builder ecnKmaxBytes(long v) { ecnKmaxBytes = v; return this; }
        public Builder ecnPmax(double v) { ecnPmax = v; return this; }

        /** Appends one port (the next port number). */
        public Builder port(long speedBps, long cableDelayNs) {
            ports.add(new PortConfig(speedBps, cableDelayNs));
            return this;
        }

        /** Replaces the port list by {@code count} identical ports (the YAML {@code ports: {count, ...}} block). */
        public Builder ports(int count, long speedBps, long cableDelayNs) {
            if (count <= 0 || count > MAX_PORTS) {
                throw new IllegalArgumentException("mmu.ports.count must be 1.." + MAX_PORTS + ", got " + count);
            }
            ports.clear();
            for (int i = 0; i < count; i++) {
                port(speedBps, cableDelayNs);
            }
            return this;
        }

        public Builder losslessPriorityMask(int mask) { losslessMask = mask; return this; }

        /** Sets the lossless priorities from a list such as {@code [1, 2, 3, 4, 5, 6, 7]}. */
        public Builder losslessPriorities(List<Integer> priorities) {
            int mask = 0;
            for (Integer p : priorities) {
                if (p == null || p < 0 || p >= PRIORITIES) {
                    throw new IllegalArgumentException("mmu.losslessPriorities entries must be 0..7, got " + p);
                }
                mask |= 1 << p;
            }
            losslessMask = mask;
            return this;
        }

        /** Sets one parameter of one scheme, e.g. {@code ("dt", "alpha", "0.0625")}. */
        public Builder schemeParameter(String schemeName, String key, String value) {
            schemeParameters.computeIfAbsent(schemeName.trim().toLowerCase(Locale.ROOT), k -> new LinkedHashMap<>())
                    .put(key, value);
            return this;
        }

        public MmuConfig build() {
            return new MmuConfig(totalBytes, cellBytes, ports, mtuBytes, losslessMask, privateBytes, headroomFormula,
                    headroomBytes, scheme, schemeParameters, ecnKminBytes, ecnKmaxBytes, ecnPmax);
        }
    }
}

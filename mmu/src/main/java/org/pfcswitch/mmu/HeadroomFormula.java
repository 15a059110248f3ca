package org.pfcswitch.mmu;

import java.util.Locale;

/**
 * How much headroom a lossless ingress queue (or, in DSH, a port) needs to absorb the bytes still in
 * flight after it sends XOFF. Every formula is printed together with its inputs, so an operator can
 * check the number against the cable and the MTU.
 */
public enum HeadroomFormula {
    /**
     * IEEE 802.1Qbb delay budget as DSH Eq. 1 writes it: {@code Φ = 2·(C·D_prop + MTU) + 3840 B}
     * (waiting MTU, PAUSE propagation, 3840 B of receiver processing, response MTU, last packet's
     * propagation). 100 Gb/s, 2 µs, 1500 B gives 56,840 B.
     */
    IEEE("ieee", "IEEE 802.1Qbb / DSH Eq. 1: 2*(C*D_prop + MTU) + 3840"),
    /** HPCC ns-3 reference MMU: three one-way link BDPs, no MTU term ({@code 3·C·D_prop}). */
    HPCC("hpcc", "HPCC ns-3: 3*C*D_prop"),
    /**
     * Reverie/SONiC artifact ({@code inet-tub/ns3-datacenter}): {@code 2·MTU + 3860 + 2·C·D_prop}, with
     * MTU the full frame (payload + 48 B of headers). 25 Gb/s, 2 µs, 1048 B gives 18,456 B.
     */
    SONIC("sonic", "Reverie/SONiC: 2*MTU + 3860 + 2*C*D_prop"),
    /** A fixed per-queue (per-port in DSH) value from {@code headroomBytes}, e.g. the DSH paper's Φ = 60,000 B. */
    FIXED("fixed", "fixed value");

    private final String configName;
    private final String expression;

    HeadroomFormula(String configName, String expression) {
        this.configName = configName;
        this.expression = expression;
    }

    public String configName() {
        return configName;
    }

    /** Parses a configuration name; "dsh" and "dsh-eq1" are aliases of "ieee", "reverie" of "sonic". */
    public static HeadroomFormula parse(String name) {
        if (name == null) {
            throw new IllegalArgumentException("headroomFormula must be one of ieee, hpcc, sonic, fixed, got null");
        }
        return switch (name.trim().toLowerCase(Locale.ROOT)) {
            case "ieee", "dsh", "dsh-eq1", "802.1qbb" -> IEEE;
            case "hpcc" -> HPCC;
            case "sonic", "reverie" -> SONIC;
            case "fixed" -> FIXED;
            default -> throw new IllegalArgumentException(
                    "headroomFormula must be one of ieee, hpcc, sonic, fixed, got '" + name + "'");
        };
    }

    /** Headroom in bytes for one queue behind a port of this speed and cable delay. */
    public long bytes(PortConfig port, int mtuBytes, long fixedBytes) {
        long bdp = port.bytesIn(port.cableDelayNs());
        return switch (this) {
            case IEEE -> 2 * (bdp + mtuBytes) + 3840;
            case HPCC -> 3 * bdp;
            case SONIC -> 2L * mtuBytes + 3860 + 2 * bdp;
            case FIXED -> fixedBytes;
        };
    }

    /** The formula with its inputs and result, e.g. for {@code mmu explain}. */
    public String describe(PortConfig port, int mtuBytes, long fixedBytes) {
        long bdp = port.bytesIn(port.cableDelayNs());
        String inputs = String.format(Locale.ROOT, "C = %s, D_prop = %,d ns, MTU = %,d B, C*D_prop = %,d B",
                gbps(port.speedBps()), port.cableDelayNs(), mtuBytes, bdp);
        return switch (this) {
            case IEEE -> String.format(Locale.ROOT, "%s = 2*(%,d + %,d) + 3840 = %,d B [%s]",
                    expression, bdp, mtuBytes, bytes(port, mtuBytes, fixedBytes), inputs);
            case HPCC -> String.format(Locale.ROOT, "%s = 3*%,d = %,d B [%s]",
                    expression, bdp, bytes(port, mtuBytes, fixedBytes), inputs);
            case SONIC -> String.format(Locale.ROOT, "%s = 2*%,d + 3860 + 2*%,d = %,d B [%s]",
                    expression, mtuBytes, bdp, bytes(port, mtuBytes, fixedBytes), inputs);
            case FIXED -> String.format(Locale.ROOT, "%s = %,d B (for comparison, %s would give %,d B) [%s]",
                    expression, fixedBytes, IEEE.expression, IEEE.bytes(port, mtuBytes, 0), inputs);
        };
    }

    static String gbps(long bps) {
        if (bps % 1_000_000_000L == 0) {
            return (bps / 1_000_000_000L) + " Gb/s";
        }
        return String.format(Locale.ROOT, "%.3f Gb/s", bps / 1e9);
    }
}

package org.pfcswitch.mmu;

/** Configurations the tests share, each taken from a paper or spec. */
final class Configs {
    private Configs() {}

    /**
     * The DSH paper's Tomahawk emulation (§V-A): 16 MiB, 32 × 100 Gb/s, 2 µs cables, 7 lossless queues
     * (CoS 1–7), ρ = 3 KB, Φ = 60,000 B.
     */
    static MmuConfig.Builder tomahawk(String scheme) {
        return MmuConfig.builder().totalBytes(16L << 20).ports(32, 100_000_000_000L, 2_000).mtuBytes(1500)
                .losslessPriorityMask(0xFE).privateBytes(3072).headroomFormula("fixed").headroomBytes(60_000)
                .scheme(scheme);
    }

    /** A small switch: {@code ports} × 10 Gb/s, 1 µs cables, priority 3 lossless, no private bytes. */
    static MmuConfig.Builder small(String scheme, int ports, long totalBytes) {
        return MmuConfig.builder().totalBytes(totalBytes).ports(ports, 10_000_000_000L, 1_000).mtuBytes(1500)
                .losslessPriorityMask(1 << 3).privateBytes(0).headroomFormula("ieee").scheme(scheme);
    }
}

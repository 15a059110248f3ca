package org.pfcswitch.core;

import java.util.List;

import org.pfcswitch.mmu.MmuConfig;

/** Small switch configurations for the core's tests: 100 Gb/s ports, 1 µs cables, priority 3 lossless. */
final class Configs {

    static final long GBPS_100 = 100_000_000_000L;
    /** Host MACs: host i sits behind port i. */
    static long host(int i) {
        return 0x0200_0000_0A00L + i;
    }

    private Configs() {}

    static MmuConfig.Builder mmu(int ports, String scheme) {
        return MmuConfig.builder().totalBytes(4L << 20).ports(ports, GBPS_100, 1_000).mtuBytes(1500)
                .losslessPriorities(List.of(3)).privateBytes(3072).headroomFormula("ieee").scheme(scheme);
    }

    /** Strict priority, learning, and a static entry for every host. */
    static CoreConfig.Builder core(MmuConfig mmu) {
        CoreConfig.Builder b = CoreConfig.builder(mmu);
        for (int p = 0; p < mmu.portCount(); p++) {
            b.staticMac(host(p), p);
        }
        return b;
    }

    static CoreConfig core(int ports) {
        return core(mmu(ports, "dt").build()).build();
    }
}

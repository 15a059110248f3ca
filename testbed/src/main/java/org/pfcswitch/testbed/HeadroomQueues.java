package org.pfcswitch.testbed;

import org.pfcswitch.core.YamlNamed;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Which queues of a simulated switch have PFC headroom set aside ({@code pfc.headroomQueues}). Each
 * constant is its own policy, applied once to each switch's buffer configuration.
 */
public enum HeadroomQueues implements YamlNamed {

    /** Only the lossless priorities, as the MMU's scheme lays the buffer out (the default). */
    LOSSLESS("lossless") {
        @Override
        public MmuConfig apply(MmuConfig switchMmu) {
            return switchMmu;
        }
    },

    /**
     * Also ns-3's queue 0 (the control queue): the ns-3 datacenter simulators' examples give every
     * port headroom on queue 0 as on the lossless queue and take it out of the shared pool, though
     * nothing is ever charged to it. Modelled as a buffer smaller by one queue's headroom per port
     * ({@link MmuConfig#headroomBytes(int)}), which no frame can use.
     */
    LOSSLESS_AND_QUEUE0("losslessAndQueue0") {
        @Override
        public MmuConfig apply(MmuConfig switchMmu) {
            long reserved = 0;
            for (int p = 0; p < switchMmu.portCount(); p++) {
                reserved += switchMmu.headroomBytes(p);
            }
            if (reserved >= switchMmu.totalBytes()) {
                throw new IllegalArgumentException("pfc.headroomQueues: queue 0's headroom (" + reserved
                        + " B over all ports) leaves nothing of mmu.totalBytes " + switchMmu.totalBytes());
            }
            return switchMmu.toBuilder().totalBytes(switchMmu.totalBytes() - reserved).build();
        }
    };

    private final String yamlName;

    HeadroomQueues(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The buffer configuration a switch runs under this policy. */
    public abstract MmuConfig apply(MmuConfig switchMmu);

    @Override
    public String yamlName() {
        return yamlName;
    }
}

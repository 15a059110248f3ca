package org.pfcswitch.testbed;

import java.util.Map;

import org.pfcswitch.core.YamlNamed;
import org.pfcswitch.mmu.MmuConfig;

/**
 * Whose defaults the buffer schemes' parameters take when a scenario leaves them out
 * ({@code schemeDefaults}): the papers' (each scheme's own defaults), or the ns-3 datacenter artifact's
 * code where it differs from its paper. Each constant is its own policy, applied once to each switch's
 * buffer configuration; a parameter the scenario gives under {@code mmu.schemes} always wins.
 */
public enum SchemeDefaults implements YamlNamed {

    /** Every scheme with its own defaults (the default). */
    PAPER("paper", Map.of()),

    /**
     * The artifact's code ({@code switch-mmu.cc}): Reverie's low-pass filter moves only when a frame
     * leaves the ingress queue ({@code RemoveFromIngressAdmission}), and neither Reverie nor DT (its
     * "sonic" model) sends a lossless byte to headroom because the shared pool is full
     * ({@code CheckIngressAdmission} checks headroom only). Without the first, Reverie's filter follows
     * a queue between departures too, and our leaves pause the spines far less than ns-3's do.
     */
    ARTIFACT("artifact", Map.of(
            "reverie", Map.of("filterUpdate", "departure", "poolGuard", "false"),
            "sonic", Map.of("poolGuard", "false")));

    private final String yamlName;
    private final Map<String, Map<String, String>> parameters;

    SchemeDefaults(String yamlName, Map<String, Map<String, String>> parameters) {
        this.yamlName = yamlName;
        this.parameters = parameters;
    }

    /** {@code switchMmu} with this policy's parameters added where the scenario gave none. */
    public MmuConfig apply(MmuConfig switchMmu) {
        if (parameters.isEmpty()) {
            return switchMmu;
        }
        MmuConfig.Builder b = switchMmu.toBuilder();
        parameters.forEach((scheme, params) -> params.forEach((key, value) -> {
            if (!switchMmu.parametersOf(scheme).containsKey(key)) {
                b.schemeParameter(scheme, key, value);
            }
        }));
        return b.build();
    }

    /** The parameters this policy sets for {@code scheme} unless given (empty under {@link #PAPER}). */
    public Map<String, String> parametersOf(String scheme) {
        return parameters.getOrDefault(scheme, Map.of());
    }

    @Override
    public String yamlName() {
        return yamlName;
    }
}

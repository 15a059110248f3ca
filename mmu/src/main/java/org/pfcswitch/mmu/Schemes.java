package org.pfcswitch.mmu;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.pfcswitch.mmu.scheme.Bfc;
import org.pfcswitch.mmu.scheme.Capfc;
import org.pfcswitch.mmu.scheme.Dsh;
import org.pfcswitch.mmu.scheme.DynamicThreshold;
import org.pfcswitch.mmu.scheme.Reverie;
import org.pfcswitch.mmu.scheme.Sonic;
import org.pfcswitch.mmu.scheme.Spfc;
import org.pfcswitch.mmu.scheme.StaticThreshold;

/**
 * Selects a scheme by its configuration name. Adding a scheme is one line here and one class; the
 * line also declares how the scheme pauses its upstream neighbours ({@link UpstreamPausing}).
 */
public final class Schemes {

    private record Entry(Function<SchemeContext, AdmissionScheme> factory, UpstreamPausing pausing) {}

    private static final Map<String, Entry> FACTORIES = new LinkedHashMap<>();

    static {
        FACTORIES.put("st", new Entry(StaticThreshold::new, UpstreamPausing.PFC));
        FACTORIES.put("dt", new Entry(DynamicThreshold::new, UpstreamPausing.PFC));
        FACTORIES.put("sonic", new Entry(Sonic::new, UpstreamPausing.PFC));
        FACTORIES.put("dsh", new Entry(Dsh::new, UpstreamPausing.PFC));
        FACTORIES.put("spfc", new Entry(Spfc::new, UpstreamPausing.PFC));
        FACTORIES.put("reverie", new Entry(Reverie::new, UpstreamPausing.PFC));
        FACTORIES.put("capfc", new Entry(Capfc::new, UpstreamPausing.PFC));
        FACTORIES.put("bfc", new Entry(Bfc::new, UpstreamPausing.PER_QUEUE));
    }

    /** Every scheme name, in the order the issue lists them. */
    public static final List<String> NAMES = List.copyOf(FACTORIES.keySet());

    private Schemes() {}

    static AdmissionScheme create(String name, SchemeContext ctx) {
        return entry(name).factory().apply(ctx);
    }

    /** How scheme {@code name} pauses its upstream neighbours. */
    public static UpstreamPausing upstreamPausing(String name) {
        return entry(name).pausing();
    }

    private static Entry entry(String name) {
        Entry e = FACTORIES.get(name);
        if (e == null) {
            throw new IllegalArgumentException("scheme must be one of " + String.join(", ", NAMES) + ", got '"
                    + name + "'");
        }
        return e;
    }

    /**
     * Parses the parameters of every scheme the configuration names, active or not, each by its own
     * class (which declares its parameters and their ranges): a parameter kept for a later
     * {@code set scheme} must be as valid as one in force. Throws {@link IllegalArgumentException}
     * naming the first bad one.
     */
    public static void validate(MmuConfig cfg) {
        for (String scheme : cfg.schemeParameters().keySet()) {
            if (!FACTORIES.containsKey(scheme)) {
                throw new IllegalArgumentException("mmu.schemes." + scheme + ": no such scheme (schemes: "
                        + String.join(", ", NAMES) + ")");
            }
            if (!scheme.equals(cfg.scheme())) {
                Mmu.create(cfg.withScheme(scheme), FlowControlListener.NONE);
            }
        }
        Mmu.create(cfg, FlowControlListener.NONE);
    }
}

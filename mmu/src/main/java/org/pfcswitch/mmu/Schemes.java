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

/** Selects a scheme by its configuration name. Adding a scheme is one line here and one class. */
public final class Schemes {
    private static final Map<String, Function<SchemeContext, AdmissionScheme>> FACTORIES = new LinkedHashMap<>();

    static {
        FACTORIES.put("st", StaticThreshold::new);
        FACTORIES.put("dt", DynamicThreshold::new);
        FACTORIES.put("sonic", Sonic::new);
        FACTORIES.put("dsh", Dsh::new);
        FACTORIES.put("spfc", Spfc::new);
        FACTORIES.put("reverie", Reverie::new);
        FACTORIES.put("capfc", Capfc::new);
        FACTORIES.put("bfc", Bfc::new);
    }

    /** Every scheme name, in the order the issue lists them. */
    public static final List<String> NAMES = List.copyOf(FACTORIES.keySet());

    private Schemes() {}

    static AdmissionScheme create(String name, SchemeContext ctx) {
        Function<SchemeContext, AdmissionScheme> f = FACTORIES.get(name);
        if (f == null) {
            throw new IllegalArgumentException("scheme must be one of " + String.join(", ", NAMES) + ", got '"
                    + name + "'");
        }
        return f.apply(ctx);
    }

    /** Parses the configured scheme's parameters; throws {@link IllegalArgumentException} naming a bad one. */
    public static void validate(MmuConfig cfg) {
        Mmu.create(cfg, FlowControlListener.NONE);
    }
}

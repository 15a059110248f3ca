package org.pfcswitch.control;

import java.util.Locale;
import java.util.Map;

import org.pfcswitch.mmu.HeadroomFormula;
import org.pfcswitch.mmu.MmuConfig;
import org.pfcswitch.mmu.Schemes;
import org.pfcswitch.config.Units;

/**
 * Turns what {@code pfcswitch set} asks for into the MMU configuration the switch should run next,
 * validated in full (the scheme builds with it) before the worker sees it. Keys:
 * <ul>
 * <li>a parameter of the active scheme by its name ({@code alpha=1/8}, SPFC's {@code kSpfc=2} and {@code tcNs=50000},
 *     as {@code pfcswitch mmu explain} lists them), or qualified ({@code spfc.kSpfc=2});</li>
 * <li>{@code headroom=BYTES} (fixed per-queue headroom, e.g. {@code 200KiB}) or
 *     {@code headroom=ieee|hpcc|sonic} (a formula);</li>
 * <li>{@code ecn.kmin=BYTES}, {@code ecn.kmax=BYTES}, {@code ecn.pmax=P} (0 &lt; P &lt;= 1).</li>
 * </ul>
 * A bad key or value is an {@link IllegalArgumentException} naming it and what is allowed.
 */
public final class MmuChange {

    private MmuChange() {}

    /** {@code current} under another scheme, its parameters kept. */
    public static MmuConfig scheme(MmuConfig current, String scheme) {
        String name = scheme == null ? "" : scheme.trim().toLowerCase(Locale.ROOT);
        if (!Schemes.NAMES.contains(name)) {
            throw new IllegalArgumentException("unknown scheme '" + scheme + "' (schemes: " + String.join(", ", Schemes.NAMES) + ")");
        }
        MmuConfig next = current.withScheme(name);
        Schemes.validate(next);
        return next;
    }

    /** {@code current} with {@code params} applied, in order. */
    public static MmuConfig params(MmuConfig current, Map<String, String> params) {
        if (params.isEmpty()) {
            throw new IllegalArgumentException("no parameter given: give KEY=VALUE, e.g. alpha=1/8, headroom=200KiB, ecn.kmax=400KiB");
        }
        MmuConfig.Builder b = current.toBuilder();
        for (Map.Entry<String, String> e : params.entrySet()) {
            String key = e.getKey().trim();
            String value = e.getValue() == null ? "" : e.getValue().trim();
            if (value.isEmpty()) {
                throw new IllegalArgumentException(key + ": empty value");
            }
            try {
                switch (key) {
                    case "headroom" -> {
                        if (Character.isDigit(value.charAt(0))) {
                            b.headroomFormula(HeadroomFormula.FIXED).headroomBytes(Units.bytes(value));
                        } else {
                            b.headroomFormula(value).headroomBytes(0);
                        }
                    }
                    case "ecn.kmin" -> b.ecnKminBytes(Units.bytes(value));
                    case "ecn.kmax" -> b.ecnKmaxBytes(Units.bytes(value));
                    case "ecn.pmax" -> b.ecnPmax(Double.parseDouble(value));
                    default -> {
                        int dot = key.indexOf('.');
                        String scheme = dot < 0 ? current.scheme() : key.substring(0, dot).toLowerCase(Locale.ROOT);
                        String name = dot < 0 ? key : key.substring(dot + 1);
                        if (!Schemes.NAMES.contains(scheme)) {
                            throw new IllegalArgumentException("unknown key '" + key + "': give a parameter of "
                                    + current.scheme() + " (see 'pfcswitch show scheme'), SCHEME.PARAM, headroom, ecn.kmin,"
                                    + " ecn.kmax or ecn.pmax");
                        }
                        b.schemeParameter(scheme, name, value);
                    }
                }
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException(key + ": not a number: '" + value + "'");
            } catch (IllegalArgumentException ex) {
                throw ex.getMessage().startsWith("unknown key") ? ex : new IllegalArgumentException(key + ": " + ex.getMessage());
            }
        }
        MmuConfig next = b.build();     // checks buffer-wide values (headroom, ECN)
        Schemes.validate(next);         // and the scheme's own parameters, names included
        return next;
    }
}

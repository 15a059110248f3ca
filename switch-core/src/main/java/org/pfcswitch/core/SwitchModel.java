package org.pfcswitch.core;

import java.util.Objects;

/**
 * Model choices of one simulated switch where simulators differ and a lab may want either; the
 * live switch always runs {@link #DEFAULT}. Each choice is a policy picked once when the core is
 * built.
 *
 * @param pfc   how received pauses last and whether XOFF is refreshed ({@link PfcPauseMode})
 * @param ecnAt when RED/ECN looks at the egress queue ({@link EcnPoint})
 */
public record SwitchModel(PfcPauseMode pfc, EcnPoint ecnAt) {

    /** What pfcswitch does: quanta with refresh, ECN at dequeue on the queue that still holds the frame. */
    public static final SwitchModel DEFAULT = new SwitchModel(PfcPauseMode.QUANTA, EcnPoint.DEQUEUE);

    public SwitchModel {
        Objects.requireNonNull(pfc, "pfc");
        Objects.requireNonNull(ecnAt, "ecnAt");
    }

    /** The model of switch number {@code index} of a fabric (the same choices; per-switch ones follow the index). */
    public SwitchModel forSwitch(int index) {
        return this;
    }

    public SwitchModel withPfc(PfcPauseMode mode) {
        return new SwitchModel(mode, ecnAt);
    }

    public SwitchModel withEcnAt(EcnPoint point) {
        return new SwitchModel(pfc, point);
    }
}

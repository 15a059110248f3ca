package org.pfcswitch.testbed;

import java.util.Objects;

import org.pfcswitch.core.PfcPauseMode;

/**
 * Model choices of the emulated RoCE NICs where simulators differ; each a policy chosen once.
 *
 * @param pfc                       how a received pause lasts ({@link PfcPauseMode})
 * @param cnp                       when the receiver sends a CNP ({@link CnpPolicy})
 * @param rateDecreaseIntervalNanos 0: the sender cuts its rate on each CNP (the default); > 0: a CNP
 *                                  only arms a rate-decrease check run every this many ns ({@link CheckedDcqcn})
 * @param ack                       which data packets the receiver ACKs ({@link AckPolicy})
 */
public record HostModel(PfcPauseMode pfc, CnpPolicy cnp, long rateDecreaseIntervalNanos, AckPolicy ack) {

    /** What pfcswitch's hosts do: quanta, one CNP per QP per interval, a cut per CNP, an ACK per message. */
    public static final HostModel DEFAULT = new HostModel(PfcPauseMode.QUANTA, CnpPolicy.PER_INTERVAL, 0,
            AckPolicy.MESSAGE);

    public HostModel {
        Objects.requireNonNull(pfc, "pfc");
        Objects.requireNonNull(cnp, "cnp");
        Objects.requireNonNull(ack, "ack");
        if (rateDecreaseIntervalNanos < 0) {
            throw new IllegalArgumentException("cc.rateDecreaseInterval must be >= 0 (0 = a cut per CNP), got "
                    + rateDecreaseIntervalNanos + " ns");
        }
    }

    public HostModel withPfc(PfcPauseMode m) { return new HostModel(m, cnp, rateDecreaseIntervalNanos, ack); }
    public HostModel withCnp(CnpPolicy p) { return new HostModel(pfc, p, rateDecreaseIntervalNanos, ack); }
    public HostModel withRateDecreaseInterval(long ns) { return new HostModel(pfc, cnp, ns, ack); }
    public HostModel withAck(AckPolicy a) { return new HostModel(pfc, cnp, rateDecreaseIntervalNanos, a); }
}

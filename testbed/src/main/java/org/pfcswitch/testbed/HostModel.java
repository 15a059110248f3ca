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
 * @param controlPriority           the priority of ACKs and CNPs (DSCP 8 × it): 6 by default, above data as
 *                                  NICs send CNPs; the ns-3 datacenter examples without ACK_HIGH_PRIO put them
 *                                  in the data's queue (3), paused and admitted with the data
 * @param fctEnd                    where a flow's completion time ends ({@link FctEnd}): at the receiver's last
 *                                  byte (default) or at the sender's last ACK (ns-3)
 */
public record HostModel(PfcPauseMode pfc, CnpPolicy cnp, long rateDecreaseIntervalNanos, AckPolicy ack,
                        int controlPriority, FctEnd fctEnd) {

    /** pfcswitch's ACK and CNP priority. */
    public static final int CONTROL_PRIORITY = 6;

    /** What pfcswitch's hosts do: quanta, one CNP per QP per interval, a cut per CNP, an ACK per message, priority 6. */
    public static final HostModel DEFAULT = new HostModel(PfcPauseMode.QUANTA, CnpPolicy.PER_INTERVAL, 0,
            AckPolicy.MESSAGE);

    /** With ACKs and CNPs on priority 6. */
    public HostModel(PfcPauseMode pfc, CnpPolicy cnp, long rateDecreaseIntervalNanos, AckPolicy ack) {
        this(pfc, cnp, rateDecreaseIntervalNanos, ack, CONTROL_PRIORITY);
    }

    /** With the FCT ending at the receiver's last byte. */
    public HostModel(PfcPauseMode pfc, CnpPolicy cnp, long rateDecreaseIntervalNanos, AckPolicy ack, int controlPriority) {
        this(pfc, cnp, rateDecreaseIntervalNanos, ack, controlPriority, FctEnd.LAST_BYTE);
    }

    public HostModel {
        Objects.requireNonNull(pfc, "pfc");
        Objects.requireNonNull(cnp, "cnp");
        Objects.requireNonNull(ack, "ack");
        Objects.requireNonNull(fctEnd, "fctEnd");
        if (rateDecreaseIntervalNanos < 0) {
            throw new IllegalArgumentException("cc.rateDecreaseInterval must be >= 0 (0 = a cut per CNP), got "
                    + rateDecreaseIntervalNanos + " ns");
        }
        if (controlPriority < 0 || controlPriority > 7) {
            throw new IllegalArgumentException("cc.controlPriority must be 0..7, got " + controlPriority);
        }
    }

    public HostModel withPfc(PfcPauseMode m) { return new HostModel(m, cnp, rateDecreaseIntervalNanos, ack, controlPriority, fctEnd); }
    public HostModel withCnp(CnpPolicy p) { return new HostModel(pfc, p, rateDecreaseIntervalNanos, ack, controlPriority, fctEnd); }
    public HostModel withRateDecreaseInterval(long ns) { return new HostModel(pfc, cnp, ns, ack, controlPriority, fctEnd); }
    public HostModel withAck(AckPolicy a) { return new HostModel(pfc, cnp, rateDecreaseIntervalNanos, a, controlPriority, fctEnd); }
    public HostModel withControlPriority(int p) { return new HostModel(pfc, cnp, rateDecreaseIntervalNanos, ack, p, fctEnd); }
    public HostModel withFctEnd(FctEnd e) { return new HostModel(pfc, cnp, rateDecreaseIntervalNanos, ack, controlPriority, e); }
}

package org.pfcswitch.core;

import java.util.Objects;

/**
 * Model choices of one simulated switch where simulators differ and a lab may want either; the
 * live switch always runs {@link #DEFAULT}. Each choice is a policy picked once when the core is
 * built.
 *
 * @param pfc            how received pauses last and whether XOFF is refreshed ({@link PfcPauseMode})
 * @param ecnAt          when RED/ECN looks at the egress queue ({@link EcnPoint})
 * @param ecmpHash       the hash ECMP groups pick their member by ({@link EcmpHash})
 * @param ecmpSeed       its seed (the flow hash has none)
 * @param seedPerSwitch  true: {@link #forSwitch} makes the seed the switch's node id in its fabric (the
 *                       testbed numbers nodes as ns-3 does: the hosts first, then the switches)
 * @param scheduling     how egress ports share the line among their queues ({@link Scheduling})
 * @param frameCost      what a frame costs in the buffer and on the line ({@link FrameCost}); the testbed
 *                       gives its hosts and links the same
 */
public record SwitchModel(PfcPauseMode pfc, EcnPoint ecnAt, EcmpHash ecmpHash, int ecmpSeed, boolean seedPerSwitch,
                          Scheduling scheduling, FrameCost frameCost) {

    /** What pfcswitch does: quanta with refresh, ECN at dequeue on the queue that still holds the frame, the flow hash. */
    public static final SwitchModel DEFAULT = new SwitchModel(PfcPauseMode.QUANTA, EcnPoint.DEQUEUE);

    public SwitchModel {
        Objects.requireNonNull(pfc, "pfc");
        Objects.requireNonNull(ecnAt, "ecnAt");
        Objects.requireNonNull(ecmpHash, "ecmpHash");
        Objects.requireNonNull(scheduling, "scheduling");
        Objects.requireNonNull(frameCost, "frameCost");
    }

    /** With Ethernet frame costs. */
    public SwitchModel(PfcPauseMode pfc, EcnPoint ecnAt, EcmpHash ecmpHash, int ecmpSeed, boolean seedPerSwitch,
                       Scheduling scheduling) {
        this(pfc, ecnAt, ecmpHash, ecmpSeed, seedPerSwitch, scheduling, FrameCost.ETHERNET);
    }

    /** Under the configured schedulers. */
    public SwitchModel(PfcPauseMode pfc, EcnPoint ecnAt, EcmpHash ecmpHash, int ecmpSeed, boolean seedPerSwitch) {
        this(pfc, ecnAt, ecmpHash, ecmpSeed, seedPerSwitch, Scheduling.STRICT);
    }

    /** With the flow hash for ECMP. */
    public SwitchModel(PfcPauseMode pfc, EcnPoint ecnAt) {
        this(pfc, ecnAt, EcmpHash.FLOW, 0, false);
    }

    /** The model of the switch that is node {@code nodeId} of a fabric: the same choices, the seed its node id if {@link #seedPerSwitch}. */
    public SwitchModel forSwitch(int nodeId) {
        return seedPerSwitch ? new SwitchModel(pfc, ecnAt, ecmpHash, nodeId, true, scheduling, frameCost) : this;
    }

    public SwitchModel withPfc(PfcPauseMode mode) {
        return new SwitchModel(mode, ecnAt, ecmpHash, ecmpSeed, seedPerSwitch, scheduling, frameCost);
    }

    public SwitchModel withEcnAt(EcnPoint point) {
        return new SwitchModel(pfc, point, ecmpHash, ecmpSeed, seedPerSwitch, scheduling, frameCost);
    }

    /** ECMP by {@code hash} with a fixed {@code seed}, or the switch's index as its seed ({@code perSwitch}). */
    public SwitchModel withEcmp(EcmpHash hash, int seed, boolean perSwitch) {
        return new SwitchModel(pfc, ecnAt, hash, seed, perSwitch, scheduling, frameCost);
    }

    public SwitchModel withScheduling(Scheduling s) {
        return new SwitchModel(pfc, ecnAt, ecmpHash, ecmpSeed, seedPerSwitch, s, frameCost);
    }

    public SwitchModel withFrameCost(FrameCost c) {
        return new SwitchModel(pfc, ecnAt, ecmpHash, ecmpSeed, seedPerSwitch, scheduling, c);
    }
}

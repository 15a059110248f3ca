package org.pfcswitch.testbed;

import java.util.Objects;

import org.pfcswitch.core.SwitchModel;

/**
 * A scenario's model choices where simulators differ: the switches' and the hosts' ({@code model:}
 * and the per-option keys of a scenario file).
 *
 * @param profile  the profile the choices started from: {@code pfcswitch} (ours, the default) or
 *                 {@code ns3-datacenter} (the ns-3.39 datacenter simulators' choices); options given
 *                 explicitly in the scenario override it
 * @param switches the switches' choices
 * @param hosts    the NICs' choices
 * @param headroom which queues of every switch have headroom set aside
 * @param schemeDefaults whose defaults the buffer schemes' parameters take: the papers' or the ns-3 artifact's
 * @param addresses how the hosts' IPv4 addresses are numbered (ours or ns-3's: the ECMP hash reads them)
 */
public record SimModel(String profile, SwitchModel switches, HostModel hosts, HeadroomQueues headroom,
                       SchemeDefaults schemeDefaults, HostAddresses addresses) {

    public static final String PFCSWITCH = "pfcswitch";
    public static final String NS3_DATACENTER = "ns3-datacenter";

    /** pfcswitch's own choices. */
    public static final SimModel DEFAULT = new SimModel(PFCSWITCH, SwitchModel.DEFAULT, HostModel.DEFAULT,
            HeadroomQueues.LOSSLESS, SchemeDefaults.PAPER, HostAddresses.PFCSWITCH);

    /** With the schemes' own parameter defaults. */
    public SimModel(String profile, SwitchModel switches, HostModel hosts, HeadroomQueues headroom) {
        this(profile, switches, hosts, headroom, SchemeDefaults.PAPER, HostAddresses.PFCSWITCH);
    }

    public SimModel {
        Objects.requireNonNull(profile, "profile");
        Objects.requireNonNull(switches, "switches");
        Objects.requireNonNull(hosts, "hosts");
        Objects.requireNonNull(headroom, "headroom");
        Objects.requireNonNull(schemeDefaults, "schemeDefaults");
        Objects.requireNonNull(addresses, "addresses");
    }

    /** One line naming the profile and every choice, in the scenario file's terms (for reports). */
    public String describe() {
        SwitchModel s = switches;
        return profile + " (pfc.mode " + s.pfc().yamlName() + ", ecn.at " + s.ecnAt().yamlName() + ", scheduler "
                + s.scheduling().yamlName() + ", ecmp " + s.ecmpHash().yamlName()
                + (s.ecmpHash() == org.pfcswitch.core.EcmpHash.FLOW ? "" : " seed " + (s.seedPerSwitch() ? "perSwitch"
                : String.valueOf(s.ecmpSeed()))) + ", topology.addresses " + addresses.yamlName()
                + ", pfc.headroomQueues " + headroom.yamlName() + ", cc.cnp " + hosts.cnp().yamlName()
                + ", cc.rateDecreaseInterval " + (hosts.rateDecreaseIntervalNanos() == 0 ? "0"
                : hosts.rateDecreaseIntervalNanos() + "ns") + ", cc.ackEvery " + hosts.ack().yamlName()
                + ", cc.controlPriority " + hosts.controlPriority() + ", report.fctEnd " + hosts.fctEnd().yamlName()
                + (hosts.pfc() == s.pfc() ? "" : ", hosts' pfc.mode " + hosts.pfc().yamlName())
                + ", schemeDefaults " + schemeDefaults.yamlName() + ", frameCost " + s.frameCost().yamlName() + ")";
    }
}

package org.pfcswitch.core;

import java.util.Arrays;

/**
 * How a simulated switch's egress ports share the line among their priority queues
 * ({@link SwitchModel#scheduling}). Each constant is its own policy, chosen once per core.
 */
public enum Scheduling implements YamlNamed {

    /**
     * Each port's {@link SchedulerPolicy} as configured: strict queues first, DWRR among the rest;
     * the testbed's ports are all strict priority (the default).
     */
    STRICT("strict") {
        @Override
        EgressScheduler create(SchedulerPolicy[] policies) {
            return EgressScheduler.perPriority(policies);
        }

        @Override
        public SchedulerPolicy portPolicy(int controlPriority) {
            return SchedulerPolicy.strictPriority();
        }
    },

    /**
     * The ns-3 datacenter simulators' switch queue: the control queue strict (ns-3's queue 0, here
     * the priority of ACKs and CNPs), every other queue served one frame per turn in round robin,
     * skipping empty and paused ones, whatever the frames' lengths.
     */
    ROUND_ROBIN("roundRobin") {
        @Override
        EgressScheduler create(SchedulerPolicy[] policies) {
            return EgressScheduler.roundRobin(policies);
        }

        @Override
        public SchedulerPolicy portPolicy(int controlPriority) {
            int[] ones = new int[8];
            Arrays.fill(ones, 1);
            return SchedulerPolicy.ets(1 << controlPriority, ones);
        }
    };

    private final String yamlName;

    Scheduling(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The scheduler of a core whose ports run {@code policies}. */
    abstract EgressScheduler create(SchedulerPolicy[] policies);

    /** The policy a simulated switch gives every port when control frames use {@code controlPriority}. */
    public abstract SchedulerPolicy portPolicy(int controlPriority);

    @Override
    public String yamlName() {
        return yamlName;
    }
}

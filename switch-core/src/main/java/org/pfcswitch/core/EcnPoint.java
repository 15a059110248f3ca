package org.pfcswitch.core;

/**
 * When the MMU's RED/ECN decision is taken for an ECN-capable frame, and so which egress queue
 * length it sees. Chosen once per switch ({@link SwitchModel}); {@link EcnStage} is its policy.
 */
public enum EcnPoint implements YamlNamed {
    /** When the frame is admitted, on the queue length that includes it. */
    ENQUEUE("enqueue"),
    /** When the frame starts leaving, on the queue length that still includes it (the default). */
    DEQUEUE("dequeue"),
    /**
     * When the frame starts leaving, on the queue length after its removal (the ns-3 datacenter
     * simulators' switch node: marking follows the MMU's release).
     */
    AFTER_DEQUEUE("afterDequeue");

    private final String yamlName;

    EcnPoint(String yamlName) {
        this.yamlName = yamlName;
    }

    /** The name scenario files use ({@code ecn.at}). */
    @Override
    public String yamlName() {
        return yamlName;
    }
}

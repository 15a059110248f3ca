package org.pfcswitch.core;

/**
 * A model option's constant, with the name scenario files give it ({@code pfc.mode: untilResume},
 * {@code frameCost: ns3Packet}, ...). One lookup serves every option's enum.
 */
public interface YamlNamed {

    /** The name in scenario files. */
    String yamlName();

    /** The constant of {@code type} called {@code name} in scenario files, or null for none. */
    static <E extends Enum<E> & YamlNamed> E byYamlName(Class<E> type, String name) {
        for (E e : type.getEnumConstants()) {
            if (e.yamlName().equals(name)) {
                return e;
            }
        }
        return null;
    }
}

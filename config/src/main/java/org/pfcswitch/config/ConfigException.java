package org.pfcswitch.config;

/**
 * A configuration file that cannot be used, with the file, the key path and the reason in
 * one line, e.g. {@code lab.yaml: ports[2].speed: expected a rate like 100G, got 'fast'}.
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }
}

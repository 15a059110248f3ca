package org.pfcswitch.testbed.netns;

/** A packet socket could not be opened or used; the message names the namespace, interface and cause. */
public final class PacketSocketException extends RuntimeException {

    public PacketSocketException(String message) {
        super(message);
    }
}
